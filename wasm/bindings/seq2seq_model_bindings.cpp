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
// Field names match wasm/js/types/seq2seq-model.d.ts exactly.
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "convert.h"
#include "model_handle.h"
#include "rnn/attribution.h"  // attribute, for the handle's attribution
#include "rnn/model.h"
#include "seq2seq_convert.h"

using emscripten::val;

namespace {

// What the bare Seq2Seq model's handle does its own way (model_handle.h).
struct Seq2SeqModelApi {
  static lab::Seq2SeqConfig architecture_from_js(const val& js) {
    labjs::check_config_object(
        js,
        "createSeq2SeqModel() needs a config object {cell, hidden, embedding, srcVocab, tgtVocab, "
        "attention, score, attentionalTanh, seed}",
        {"cell", "hidden", "embedding", "srcVocab", "tgtVocab", "attention", "score",
         "attentionalTanh", "seed"});
    lab::Seq2SeqConfig c;
    labjs::seq2seq_architecture_from_js(js, c);
    return c;
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

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_seq2seq_model) {
  labjs::ModelHandle<lab::Seq2SeqModel, Seq2SeqModelApi>::register_class("Seq2SeqModelHandle",
                                                                         "createSeq2SeqModel");
}
