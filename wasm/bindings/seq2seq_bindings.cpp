// embind surface of the recurrent translator's session (wasm/src/rnn/session.h): what its handle
// (session_handle.h) does its own way. Conversion only: JS objects → the core's option structs,
// the core's results → plain JS objects (copies). Every check of a value's range and every
// decision is the core's; the messages are the core's too. Errors come back as {error}
// (guarded), which wasm/js/seq2seq.mjs rethrows as a JS Error.
//
// Ownership: createSeq2Seq / loadSeq2Seq hand JS a new C++ object. The JS wrapper (class Seq2Seq
// in wasm/js/seq2seq.mjs) owns it and must call .delete() exactly once; nothing else frees it.
// Field names match wasm/js/types/seq2seq.d.ts exactly.
#include <emscripten/bind.h>

#include <string>

#include "convert.h"
#include "rnn/session.h"
#include "seq2seq_convert.h"
#include "seq2seq_handle.h"

using emscripten::val;

namespace labjs {

struct Seq2SeqSessionApi {
  static constexpr const char* kArch = "rnn";
  static constexpr const char* kModule = "seq2seq";
  static constexpr bool kAlignment = true;

  static lab::SessionConfig config_from_js(const val& js) {
    check_config_object(js, "createSeq2Seq() needs a config object {task, cell, hidden, ...}",
                        session_config_keys({"task", "cell", "hidden", "embedding", "attention",
                                             "score", "attentionalTanh"}));
    lab::SessionConfig c;
    c.task = js_string(js, "task", "", "config.task");
    seq2seq_architecture_from_js(js, c);
    c.batch_size = lab::default_batch_size(c.task);
    session_training_from_js(js, c);
    return c;
  }

  static void architecture_to_js(val& out, const lab::Seq2SeqSession& session) {
    const lab::SessionConfig& c = session.config();
    out.set("cell", val(std::string(lab::cell_name(c.cell))));
    out.set("hidden", number(c.hidden));
    out.set("embedding", number(session.model().config().embedding_size()));
    out.set("attention", val(c.attention));
    out.set("score", val(std::string(lab::score_name(c.score))));
    out.set("attentionalTanh", val(c.attentional_tanh));
  }

  static val translation_to_js(const TokenName& token, const lab::TranslateResult& r,
                               const lab::Seq2SeqSession&) {
    val out = labjs::translation_to_js(token, r.source, r.output, r.text, r.finished);
    if (r.beam_width == 0) {
      out.set("steps", greedy_steps_to_js(token, r.greedy.steps));
    } else {
      out.set("beams", beam_trace_to_js(token, r.beam, r.hypothesis_texts, r.beam_width));
    }
    return out;
  }
};

}  // namespace labjs

EMSCRIPTEN_BINDINGS(attention_lab_seq2seq) {
  labjs::Seq2SeqHandle::register_class("Seq2SeqSession", "createSeq2Seq");
}
