// embind surface of asking a Seq2Seq session why (wasm/src/rnn/session.h): translate with
// interventions (through Seq2SeqHandle::intervened_translate, which translate() calls), the
// attribution of a translation's words, and the training timeline. Kept apart from
// seq2seq_bindings.cpp so that the seq2seq module for widgets, which links neither this file nor
// why_convert.cpp, carries none of it (nor the core code only these calls reach). Conversion
// only; errors come back as {error} (guarded), which wasm/js/seq2seq.mjs rethrows as JS Errors.
#include <emscripten/bind.h>

#include <string>

#include "convert.h"
#include "seq2seq_convert.h"
#include "seq2seq_handle.h"
#include "why_bindings.h"
#include "why_convert.h"

using emscripten::val;
using labjs::Seq2SeqHandle;

namespace {

// Not guarded: Seq2SeqHandle::translate, which calls it, is.
val translate_intervened_js(lab::Seq2SeqSession& session, const std::string& text,
                            const val& options) {
  const lab::TranslateResult r = session.translate_intervened(
      text, labjs::translate_options_with_interventions_from_js(options));
  const labjs::TokenName token = labjs::token_names(session.task().target_vocab());
  val out = labjs::translation_to_js(token, r.source, r.output, r.text, r.finished);
  labjs::set_greedy_translation_to_js(out, token, r);
  return out;
}

// Before any call can reach translate(): static initialisation of the module.
const bool kRegistered = (Seq2SeqHandle::intervened_translate = &translate_intervened_js, true);

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_seq2seq_why) {
  (void)kRegistered;
  emscripten::function("seq2seqAttribution", &labjs::attribution_js<Seq2SeqHandle>);
  emscripten::function("seq2seqRecordTimeline", &labjs::record_timeline_js<Seq2SeqHandle>);
  emscripten::function("seq2seqStopTimeline", &labjs::stop_timeline_js<Seq2SeqHandle>);
  emscripten::function("seq2seqTimeline", &labjs::timeline_js<Seq2SeqHandle>);
}
