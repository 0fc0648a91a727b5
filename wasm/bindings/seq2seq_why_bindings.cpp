// embind surface of asking the recurrent translator's session why (why_bindings.h): its
// translation with interventions, the attribution of a translation's words and the training
// timeline, under seq2seq* names. Kept apart from seq2seq_bindings.cpp so that the seq2seq module
// for widgets, which links neither this file nor why_convert.cpp, carries none of it.
#include <emscripten/bind.h>

#include "convert.h"
#include "seq2seq_convert.h"
#include "seq2seq_handle.h"
#include "why_bindings.h"
#include "why_convert.h"

using emscripten::val;

namespace {

// A translation with interventions: each step's flags and context, and the plain translation.
val intervened_to_js(const labjs::TokenName& token, const lab::TranslateResult& r,
                     const lab::Seq2SeqSession&) {
  val out = labjs::translation_to_js(token, r.source, r.output, r.text, r.finished);
  labjs::set_greedy_translation_to_js(out, token, r);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_seq2seq_why) {
  labjs::register_why<labjs::Seq2SeqHandle, &intervened_to_js>("seq2seq");
}
