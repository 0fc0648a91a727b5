// embind surface of lab::Seq2SeqSession (wasm/src/rnn/session.h). Conversion only: JS
// objects → the core's option structs, the core's results → plain JS objects (copies). Every
// check of a value's range and every decision is the core's; the messages are the core's too.
// Errors come back as {error} (guarded), which wasm/js/seq2seq.mjs rethrows as a JS Error.
//
// Model files (save, loadSeq2Seq) are bound in seq2seq_file_bindings.cpp, which the lighter
// seq2seq module leaves out with the JSON and file code behind them.
//
// Ownership: createSeq2Seq / loadSeq2Seq hand JS a new C++ object. The JS wrapper (class Seq2Seq
// in wasm/js/seq2seq.mjs) owns it and must call .delete() exactly once; nothing else frees it.
// Field names match shared/types/seq2seq.d.ts exactly.
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "convert.h"
#include "rnn/session.h"
#include "seq2seq_convert.h"
#include "seq2seq_handle.h"
#include "sequence/vocab.h"

using emscripten::val;
using labjs::guarded;
using labjs::Seq2SeqHandle;

namespace {

lab::SessionConfig session_config_from_js(const val& js) {
  if (labjs::is_absent(js)) {
    throw lab::InputError("createSeq2Seq() needs a config object {task, cell, hidden, ...}");
  }
  labjs::check_keys(
      js,
      {"task", "cell", "hidden", "embedding", "attention", "score", "attentionalTanh", "seed",
       "batchSize", "learningRate", "clipNorm", "taskOptions", "pairs", "tokenize", "heldOut"},
      "config");
  lab::SessionConfig c;
  c.task = labjs::js_string(js, "task", "", "config.task");
  labjs::seq2seq_architecture_from_js(js, c);
  c.batch_size = lab::default_batch_size(c.task);
  labjs::session_training_from_js(js, c);
  return c;
}

}  // namespace

namespace labjs {

val Seq2SeqHandle::evaluate(val options) {
  return guarded([&] {
    const lab::EvalResult r = session_.evaluate(labjs::eval_options_from_js(options));
    val out = labjs::eval_result_to_js(r);
    out.set("alignmentAccuracy", r.alignment_accuracy ? val(*r.alignment_accuracy) : val::null());
    out.set("alignedTokens", number(r.aligned_tokens));
    return out;
  });
}

val (*Seq2SeqHandle::intervened_translate)(lab::Seq2SeqSession&, const std::string&,
                                           const val&) = nullptr;

val Seq2SeqHandle::translate(val text_js, val options) {
  return guarded([&] {
    const std::string text = labjs::js_text(text_js, "text");
    if (intervened_translate && labjs::asks_interventions(options)) {
      return intervened_translate(session_, text, options);
    }
    const lab::TranslateResult r =
        session_.translate(text, labjs::plain_translate_options_from_js(options, "seq2seq"));
    const labjs::TokenName token = labjs::token_names(session_.task().target_vocab());
    val out = labjs::translation_to_js(token, r.source, r.output, r.text, r.finished);
    if (r.beam_width == 0) {
      out.set("steps", labjs::greedy_steps_to_js(token, r.greedy.steps));
    } else {
      out.set("beams", labjs::beam_trace_to_js(token, r.beam, r.hypothesis_texts, r.beam_width));
    }
    return out;
  });
}

val Seq2SeqHandle::info() {
  return guarded([&] {
    const lab::SessionConfig& c = session_.config();
    const lab::Task& task = session_.task();
    val out = val::object();
    out.set("arch", val(std::string("rnn")));
    out.set("task", val(c.task));
    out.set("taskOptions", labjs::task_options_to_js(c.task_options, task));
    out.set("cell", val(std::string(lab::cell_name(c.cell))));
    out.set("hidden", number(c.hidden));
    out.set("embedding", number(session_.embedding_size()));
    out.set("attention", val(c.attention));
    out.set("score", val(std::string(lab::score_name(c.score))));
    out.set("attentionalTanh", val(c.attentional_tanh));
    labjs::set_pairs_info(out, c.task_options, task);
    labjs::set_training_info(out, c.seed, c.batch_size, c.learning_rate, c.clip_norm, task,
                             session_.model().num_params(), session_.step());
    return out;
  });
}

}  // namespace labjs

namespace {

// The factory: the new handle or {error}. val(T&&) moves the handle into a heap object whose JS
// handle owns it: handle.delete() runs ~Seq2SeqHandle and frees it.
val create_seq2seq_js(val config) {
  return guarded(
      [&] { return val(Seq2SeqHandle(lab::Seq2SeqSession(session_config_from_js(config)))); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_seq2seq) {
  labjs::register_session_handle<Seq2SeqHandle>("Seq2SeqSession");
  emscripten::function("createSeq2Seq", &create_seq2seq_js);
}
