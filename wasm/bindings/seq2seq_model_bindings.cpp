// embind surface of the bare lab::Seq2SeqModel (wasm/src/rnn/model.h): the encoder-decoder
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
#include "model_handle.h"
#include "rnn/model.h"
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
  labjs::seq2seq_architecture_from_js(js, c);
  c.src_vocab = labjs::js_whole(js, "srcVocab", "config.srcVocab").value_or(c.src_vocab);
  c.tgt_vocab = labjs::js_whole(js, "tgtVocab", "config.tgtVocab").value_or(c.tgt_vocab);
  c.seed = labjs::js_seed(js, "seed", "config.seed").value_or(c.seed);
  return c;  // validated by the Seq2SeqModel constructor
}

// What the bare Seq2Seq model's handle does its own way (model_handle.h).
struct Seq2SeqModelApi {
  static const std::vector<lab::ParamView>& table(const lab::Seq2SeqModel& model) {
    return model.param_views();
  }
  // evaluate() leaves the gradients, and so a following adamStep, untouched.
  static void outputs_to_js(val& out, lab::Seq2SeqModel& model, const lab::Batch& batch) {
    const lab::Seq2SeqOutputs outputs = model.evaluate(batch);
    out.set("logits", labjs::tensor_to_js(outputs.logits));
    if (!outputs.attention.data.empty()) {
      out.set("attention", labjs::tensor_to_js(outputs.attention));
    }
  }
  static void adam_step(lab::Seq2SeqModel& model, const val& options) {
    model.adam_step(labjs::adam_options_from_js(
        options, {}, "adamStep() needs options {lr, beta1?, beta2?, eps?, weightDecay?}"));
  }
};

using Seq2SeqModelHandle = labjs::ModelHandle<lab::Seq2SeqModel, Seq2SeqModelApi>;

// The new handle or {error}. val(T&&) moves the handle into a heap object whose JS handle owns
// it: handle.delete() runs ~Seq2SeqModelHandle and frees it.
val create_seq2seq_model_js(val config) {
  return guarded([&] { return val(Seq2SeqModelHandle(model_config_from_js(config))); });
}

// attribution({src, target, method?, steps?}) (why_convert.h)
val seq2seq_model_attribution_js(Seq2SeqModelHandle& handle, val request) {
  return guarded([&] {
    const labjs::ModelAttributionRequest r = labjs::model_attribution_request_from_js(request);
    return labjs::attribution_result_to_js(
        lab::attribute(handle.model(), r.src, r.target, r.options));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_seq2seq_model) {
  Seq2SeqModelHandle::register_class("Seq2SeqModelHandle")
      .function("attribution", &seq2seq_model_attribution_js);
  emscripten::function("createSeq2SeqModel", &create_seq2seq_model_js);
}
