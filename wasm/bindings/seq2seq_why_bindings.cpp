// embind surface of asking a Seq2Seq session why (wasm/src/seq2seq/session.h): translate with
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
#include "why_convert.h"

using emscripten::val;
using labjs::guarded;
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

val attribution_js(Seq2SeqHandle& handle, val text_js, val options) {
  return guarded([&] {
    const std::string text = labjs::js_text(text_js, "text");
    return labjs::session_attribution_to_js(
        handle.session().attribution(text, labjs::attribution_request_from_js(options, true)));
  });
}

val record_timeline_js(Seq2SeqHandle& handle, val text_js, val options) {
  return guarded([&] {
    long every = 0, capacity = 0;
    labjs::timeline_options_from_js(options, every, capacity);
    handle.session().record_timeline(labjs::js_text(text_js, "probe"), every, capacity);
    return val::undefined();
  });
}

val stop_timeline_js(Seq2SeqHandle& handle) {
  return guarded([&] {
    handle.session().stop_timeline();
    return val::undefined();
  });
}

val timeline_js(Seq2SeqHandle& handle) {
  return guarded([&] {
    const lab::Seq2SeqSession& s = handle.session();
    return labjs::timeline_to_js(labjs::token_names(s.task().target_vocab()), s.timeline(),
                                 s.timeline_probe());
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_seq2seq_why) {
  (void)kRegistered;
  emscripten::function("seq2seqAttribution", &attribution_js);
  emscripten::function("seq2seqRecordTimeline", &record_timeline_js);
  emscripten::function("seq2seqStopTimeline", &stop_timeline_js);
  emscripten::function("seq2seqTimeline", &timeline_js);
}
