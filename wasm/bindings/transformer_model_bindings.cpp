// embind surface of the bare lab::TransformerModel (wasm/src/transformer/model.h): the
// encoder-decoder Transformer without a task or vocabulary, driven with the same id batches as the
// bare recurrent model (seq2seq_model_bindings.cpp) and addressed parameter by parameter under
// PyTorch's state-dict names. JS reaches it through lab.createSeq2SeqModel({arch: 'transformer'}).
//
// Conversion only: JS objects → lab::TransformerConfig / lab::Batch / lab::AdamOptions, results
// → plain JS objects (copies). Every range and consistency check is the core's
// (TransformerConfig::validate, validate_batch, check_shape, AdamOptions::validate), and so are
// the messages. Errors come back as {error} (guarded); wasm/js/transformer-model.mjs rethrows
// them as JS Errors. The JS wrapper owns the handle and calls .delete() exactly once.
// Field names match wasm/js/types/seq2seq-model.d.ts.
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "convert.h"
#include "model_handle.h"
#include "seq2seq_convert.h"
#include "transformer/attribution.h"  // attribute, for the handle's attribution
#include "transformer/model.h"

using emscripten::val;

namespace {

val tensors_to_js(const std::vector<lab::Tensor>& ts) {
  val a = val::array();
  for (const lab::Tensor& t : ts) a.call<void>("push", labjs::tensor_to_js(t));
  return a;
}

// What the bare Transformer's handle does its own way (model_handle.h).
struct TransformerModelApi {
  static lab::TransformerConfig architecture_from_js(const val& js) {
    labjs::check_config_object(
        js,
        "createSeq2SeqModel({arch: 'transformer'}) needs a config object {layers, heads, dModel, "
        "dFF, normFirst, srcVocab, tgtVocab, seed}",
        {"arch", "layers", "heads", "dModel", "dFF", "normFirst", "srcVocab", "tgtVocab", "seed"});
    if (labjs::js_string(js, "arch", "transformer", "config.arch") != "transformer") {
      throw lab::InputError("config.arch must be 'transformer' for this model");
    }
    lab::TransformerConfig c;
    labjs::transformer_sizes_from_js(js, c);
    return c;
  }
  // Logits and every layer's attention maps; evaluate() leaves the gradients (and so a following
  // adamStep) untouched.
  static void outputs_to_js(val& out, lab::TransformerModel& model, const lab::Batch& batch) {
    const lab::TransformerOutputs outputs = model.evaluate(batch);
    val attention = val::object();
    attention.set("encoderSelf", tensors_to_js(outputs.attention.encoder_self));
    attention.set("decoderSelf", tensors_to_js(outputs.attention.decoder_self));
    attention.set("cross", tensors_to_js(outputs.attention.cross));
    out.set("logits", labjs::tensor_to_js(outputs.logits));
    out.set("attention", attention);
  }
  static void adam_step(lab::TransformerModel& model, const val& options) {
    const lab::AdamOptions o = labjs::adam_options_from_js(
        options, {"warmup"},
        "adamStep() needs options {lr, beta1?, beta2?, eps?, weightDecay?, warmup?}");
    model.adam_step(o, labjs::js_whole(options, "warmup", "warmup").value_or(0));
  }
};

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_transformer_model) {
  labjs::ModelHandle<lab::TransformerModel, TransformerModelApi>::register_class(
      "TransformerModelHandle", "createTransformerModel");
}
