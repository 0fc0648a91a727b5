// embind surface of the bare lab::Seq2SeqModel (wasm/src/seq2seq/model.h): the encoder-decoder
// without a task or vocabulary, driven with explicit id batches and addressed parameter by
// parameter under PyTorch's state-dict names. What an engineer uses to load a PyTorch state dict
// into the wasm build and compare logits, losses, gradients and Adam steps number for number.
//
// Conversion only: JS objects → lab::Seq2SeqConfig / lab::Batch / lab::AdamOptions, results →
// plain JS objects (copies). Every range and consistency check is the core's (Seq2SeqConfig::
// validate, validate_batch, check_shape, AdamOptions::validate), and so are the messages. Errors
// come back as {error} (guarded), which wasm/js/seq2seq-model.mjs rethrows as a JS Error.
//
// Ownership: createSeq2SeqModel hands JS a new C++ object; the JS wrapper (class Seq2SeqModel in
// wasm/js/seq2seq-model.mjs) owns it and calls .delete() exactly once.
// Field names match shared/types/seq2seq-model.d.ts exactly.
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "convert.h"
#include "seq2seq/model.h"
#include "seq2seq_convert.h"
#include "why_convert.h"

using emscripten::val;
using labjs::guarded;

namespace {

lab::Seq2SeqConfig model_config_from_js(const val& js) {
  if (labjs::is_absent(js)) {
    throw lab::InputError(
        "createSeq2SeqModel() needs a config object {cell, hidden, embedding, srcVocab, tgtVocab, "
        "attention, score, attentionalTanh, seed}");
  }
  labjs::check_keys(js,
                    {"cell", "hidden", "embedding", "srcVocab", "tgtVocab", "attention", "score",
                     "attentionalTanh", "seed"},
                    "config");
  lab::Seq2SeqConfig c;
  c.cell = lab::parse_cell(labjs::js_string(js, "cell", "rnn", "config.cell").c_str());
  c.hidden = labjs::js_whole(js, "hidden", "config.hidden").value_or(c.hidden);
  c.embedding = labjs::js_whole(js, "embedding", "config.embedding").value_or(c.embedding);
  c.src_vocab = labjs::js_whole(js, "srcVocab", "config.srcVocab").value_or(c.src_vocab);
  c.tgt_vocab = labjs::js_whole(js, "tgtVocab", "config.tgtVocab").value_or(c.tgt_vocab);
  c.attention = labjs::js_bool(js, "attention", c.attention, "config.attention");
  c.score = lab::parse_score(labjs::js_string(js, "score", "dot", "config.score"));
  c.attentional_tanh =
      labjs::js_bool(js, "attentionalTanh", c.attentional_tanh, "config.attentionalTanh");
  c.seed = labjs::js_seed(js, "seed", "config.seed").value_or(c.seed);
  return c;  // validated by the Seq2SeqModel constructor
}

// The JS handle: a lab::Seq2SeqModel and nothing else.
class Seq2SeqModelHandle {
 public:
  explicit Seq2SeqModelHandle(const lab::Seq2SeqConfig& config) : model_(config) {}

  val paramNames() {
    return guarded([&] { return labjs::param_names_to_js(model_.param_table()); });
  }

  val getParam(val name) {
    return guarded([&] { return labjs::get_param_to_js(model_, name); });
  }

  val setParam(val name, val value) {
    return guarded([&] {
      labjs::set_param_from_js(model_, name, value);
      return val::undefined();
    });
  }

  val forwardBackward(val batch_js) {
    return guarded([&] {
      const lab::Batch batch = checked_batch(batch_js);
      const float loss = model_.forward_backward(batch);
      const val grads = labjs::params_by_name_to_js(model_.param_table(), model_.grads());
      // Logits and attention weights of the same (deterministic) teacher-forced pass; evaluate()
      // leaves the gradients, and so a following adamStep, untouched.
      const lab::Seq2SeqOutputs outputs = model_.evaluate(batch);
      val out = val::object();
      out.set("loss", val(loss));
      out.set("logits", labjs::tensor_to_js(outputs.logits));
      if (!outputs.attention.data.empty()) {
        out.set("attention", labjs::tensor_to_js(outputs.attention));
      }
      out.set("grads", grads);
      return out;
    });
  }

  // attribution({src, target, method?, steps?}): src and target id arrays (target: the output
  // words after <sos>, <eos> included if attributed), no padding.
  val attribution(val request) {
    return guarded([&] {
      if (labjs::is_absent(request)) {
        throw lab::InputError("attribution() needs {src, target, method?, steps?}");
      }
      labjs::check_keys(request, {"src", "target", "method", "steps"}, "attribution request");
      const std::vector<int32_t> src = labjs::ids_from_js(request["src"], "attribution: src");
      const std::vector<int32_t> target =
          labjs::ids_from_js(request["target"], "attribution: target");
      val options = val::object();
      if (labjs::has_value(request, "method")) options.set("method", request["method"]);
      if (labjs::has_value(request, "steps")) options.set("steps", request["steps"]);
      const lab::AttributionRequest r = labjs::attribution_request_from_js(options, false);
      return labjs::attribution_result_to_js(lab::attribute(model_, src, target, r.options));
    });
  }

  val loss(val batch_js) {
    return guarded([&] { return val(model_.loss_only(checked_batch(batch_js))); });
  }

  val adamStep(val options) {
    return guarded([&] {
      const lab::AdamOptions o = labjs::adam_options_from_js(
          options, {}, "adamStep() needs options {lr, beta1?, beta2?, eps?, weightDecay?}");
      model_.adam_step(o);  // validates the options
      return val::undefined();
    });
  }

  val clipGradNorm(val max_norm) {
    return guarded([&] { return val(model_.clip_grad_norm(labjs::max_norm_from_js(max_norm))); });
  }

 private:
  // The batch, checked against this model's sizes and vocabularies (lab::validate_batch).
  lab::Batch checked_batch(const val& js) const {
    lab::Batch b = labjs::batch_from_js(js);
    lab::validate_batch(b, model_.config());
    return b;
  }

  lab::Seq2SeqModel model_;
};

// The new handle or {error}. val(T&&) moves the handle into a heap object whose JS handle owns
// it: handle.delete() runs ~Seq2SeqModelHandle and frees it.
val create_seq2seq_model_js(val config) {
  return guarded([&] { return val(Seq2SeqModelHandle(model_config_from_js(config))); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_seq2seq_model) {
  emscripten::class_<Seq2SeqModelHandle>("Seq2SeqModelHandle")
      .function("paramNames", &Seq2SeqModelHandle::paramNames)
      .function("getParam", &Seq2SeqModelHandle::getParam)
      .function("setParam", &Seq2SeqModelHandle::setParam)
      .function("forwardBackward", &Seq2SeqModelHandle::forwardBackward)
      .function("loss", &Seq2SeqModelHandle::loss)
      .function("attribution", &Seq2SeqModelHandle::attribution)
      .function("adamStep", &Seq2SeqModelHandle::adamStep)
      .function("clipGradNorm", &Seq2SeqModelHandle::clipGradNorm);
  emscripten::function("createSeq2SeqModel", &create_seq2seq_model_js);
}
