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
// Field names match shared/types/seq2seq-model.d.ts.
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "convert.h"
#include "transformer/model.h"

using emscripten::val;
using labjs::guarded;

namespace {

bool absent(const val& v) {
  return v.isUndefined() || v.isNull();
}

lab::TransformerConfig config_from_js(const val& js) {
  if (absent(js)) {
    throw lab::InputError(
        "createSeq2SeqModel({arch: 'transformer'}) needs a config object {layers, heads, dModel, "
        "dFF, normFirst, srcVocab, tgtVocab, seed}");
  }
  labjs::check_keys(
      js, {"arch", "layers", "heads", "dModel", "dFF", "normFirst", "srcVocab", "tgtVocab", "seed"},
      "config");
  if (labjs::js_string(js, "arch", "transformer", "config.arch") != "transformer") {
    throw lab::InputError("config.arch must be 'transformer' for this model");
  }
  lab::TransformerConfig c;
  c.layers = labjs::js_whole(js, "layers", "config.layers").value_or(c.layers);
  c.heads = labjs::js_whole(js, "heads", "config.heads").value_or(c.heads);
  c.d_model = labjs::js_whole(js, "dModel", "config.dModel").value_or(c.d_model);
  c.d_ff = labjs::js_whole(js, "dFF", "config.dFF").value_or(c.d_ff);
  c.norm_first = labjs::js_bool(js, "normFirst", c.norm_first, "config.normFirst");
  c.src_vocab = labjs::js_whole(js, "srcVocab", "config.srcVocab").value_or(c.src_vocab);
  c.tgt_vocab = labjs::js_whole(js, "tgtVocab", "config.tgtVocab").value_or(c.tgt_vocab);
  c.seed = labjs::js_seed(js, "seed", "config.seed").value_or(c.seed);
  return c;  // validated by the TransformerModel constructor
}

struct IdMatrix {
  long rows = 0, cols = 0;
  std::vector<int32_t> ids;
};

IdMatrix id_matrix_from_js(const val& v, const std::string& name) {
  const lab::Tensor t = labjs::tensor_from_js(v, name);
  lab::check_rank(t, 2, name, "(B, length)");
  return IdMatrix{t.shape[0], t.shape[1], labjs::ids_from_js(v, name)};
}

// The same batch object as the recurrent bare model's {src, srcLengths, tgtIn, tgtOut}.
lab::Batch batch_from_js(const val& js, const lab::TransformerConfig& config) {
  if (absent(js)) throw lab::InputError("batch must be an object {src, srcLengths, tgtIn, tgtOut}");
  labjs::check_keys(js, {"src", "srcLengths", "tgtIn", "tgtOut"}, "batch");
  const IdMatrix src = id_matrix_from_js(js["src"], "batch.src");
  const IdMatrix tgt_in = id_matrix_from_js(js["tgtIn"], "batch.tgtIn");
  const IdMatrix tgt_out = id_matrix_from_js(js["tgtOut"], "batch.tgtOut");
  if (tgt_in.rows != src.rows || tgt_out.rows != src.rows || tgt_out.cols != tgt_in.cols) {
    throw lab::InputError("batch.tgtIn and batch.tgtOut must both have shape [B, T] with B = " +
                          std::to_string(src.rows) + " (the rows of batch.src); got " +
                          lab::shape_str({tgt_in.rows, tgt_in.cols}) + " and " +
                          lab::shape_str({tgt_out.rows, tgt_out.cols}));
  }
  const val lengths = js["srcLengths"];
  if (absent(lengths) || !val::global("Array").call<bool>("isArray", lengths)) {
    throw lab::InputError("batch.srcLengths must be an array of B whole numbers");
  }
  lab::Batch b;
  b.B = src.rows;
  b.S = src.cols;
  b.T = tgt_in.cols;
  b.src = src.ids;
  b.tgt_in = tgt_in.ids;
  b.tgt_out = tgt_out.ids;
  const long n = lengths["length"].as<long>();
  for (long i = 0; i < n; ++i) {
    const std::string name = "batch.srcLengths[" + std::to_string(i) + "]";
    const long len = labjs::js_whole(lengths[i], name);
    if (len < INT32_MIN || len > INT32_MAX) throw lab::InputError(name + " is out of range");
    b.src_len.push_back(static_cast<int32_t>(len));
  }
  lab::validate_batch(b, config);
  return b;
}

val shape_to_js(const std::vector<long>& shape) {
  val a = val::array();
  for (long d : shape) a.call<void>("push", val(static_cast<double>(d)));
  return a;
}

val tensors_to_js(const std::vector<lab::Tensor>& ts) {
  val a = val::array();
  for (const lab::Tensor& t : ts) a.call<void>("push", labjs::tensor_to_js(t));
  return a;
}

class TransformerModelHandle {
 public:
  explicit TransformerModelHandle(const lab::TransformerConfig& config) : model_(config) {}

  val paramNames() {
    return guarded([&] {
      val out = val::array();
      for (const lab::ParamView& v : model_.param_views()) {
        val o = val::object();
        o.set("name", val(v.name));
        o.set("shape", shape_to_js(v.shape));
        out.call<void>("push", o);
      }
      return out;
    });
  }

  val getParam(val name) {
    return guarded([&] {
      const lab::ParamView& v = model_.param(name_from_js(name, "getParam(name)"));
      const auto begin = model_.params().begin() + v.offset;
      return labjs::tensor_to_js(lab::Tensor(v.shape, std::vector<float>(begin, begin + v.size)));
    });
  }

  val setParam(val name_js, val value) {
    return guarded([&] {
      const std::string name = name_from_js(name_js, "setParam(name, value)");
      const lab::ParamView& v = model_.param(name);
      const lab::Tensor t = labjs::tensor_from_js(value, "setParam value for " + name);
      lab::check_shape(t, v.shape, "setParam value for " + name);
      model_.set_param(name, t.data);
      return val::undefined();
    });
  }

  val forwardBackward(val batch_js) {
    return guarded([&] {
      const lab::Batch batch = batch_from_js(batch_js, model_.config());
      const float loss = model_.forward_backward(batch);
      val grads = val::object();
      for (const lab::ParamView& v : model_.param_views()) {
        const auto begin = model_.grads().begin() + v.offset;
        grads.set(v.name, labjs::tensor_to_js(
                              lab::Tensor(v.shape, std::vector<float>(begin, begin + v.size))));
      }
      // Logits and attention maps of the same deterministic pass; evaluate() leaves the
      // gradients (and so a following adamStep) untouched.
      const lab::TransformerOutputs outputs = model_.evaluate(batch);
      val attention = val::object();
      attention.set("encoderSelf", tensors_to_js(outputs.attention.encoder_self));
      attention.set("decoderSelf", tensors_to_js(outputs.attention.decoder_self));
      attention.set("cross", tensors_to_js(outputs.attention.cross));
      val out = val::object();
      out.set("loss", val(loss));
      out.set("logits", labjs::tensor_to_js(outputs.logits));
      out.set("attention", attention);
      out.set("grads", grads);
      return out;
    });
  }

  val loss(val batch_js) {
    return guarded([&] { return val(model_.loss_only(batch_from_js(batch_js, model_.config()))); });
  }

  val adamStep(val options) {
    return guarded([&] {
      if (absent(options) || absent(options["lr"])) {
        throw lab::InputError(
            "adamStep() needs options {lr, beta1?, beta2?, eps?, weightDecay?, warmup?}");
      }
      labjs::check_keys(options, {"lr", "beta1", "beta2", "eps", "weightDecay", "warmup"},
                        "adamStep options");
      lab::AdamOptions o;
      o.lr = static_cast<float>(labjs::js_number(options, "lr", o.lr, "lr"));
      o.beta1 = static_cast<float>(labjs::js_number(options, "beta1", o.beta1, "beta1"));
      o.beta2 = static_cast<float>(labjs::js_number(options, "beta2", o.beta2, "beta2"));
      o.eps = static_cast<float>(labjs::js_number(options, "eps", o.eps, "eps"));
      o.weight_decay = static_cast<float>(
          labjs::js_number(options, "weightDecay", o.weight_decay, "weightDecay"));
      const long warmup = labjs::js_whole(options, "warmup", "warmup").value_or(0);
      model_.adam_step(o, warmup);  // validates the options and the warm-up
      return val::undefined();
    });
  }

  val clipGradNorm(val max_norm) {
    return guarded([&] {
      if (!max_norm.isNumber())
        throw lab::InputError("clipGradNorm(maxNorm): maxNorm must be a number");
      return val(model_.clip_grad_norm(static_cast<float>(max_norm.as<double>())));
    });
  }

 private:
  static std::string name_from_js(const val& name, const char* what) {
    if (!name.isString()) throw lab::InputError(std::string(what) + ": name must be a string");
    return name.as<std::string>();
  }

  lab::TransformerModel model_;
};

val create_transformer_model_js(val config) {
  return guarded([&] { return val(TransformerModelHandle(config_from_js(config))); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_transformer_model) {
  emscripten::class_<TransformerModelHandle>("TransformerModelHandle")
      .function("paramNames", &TransformerModelHandle::paramNames)
      .function("getParam", &TransformerModelHandle::getParam)
      .function("setParam", &TransformerModelHandle::setParam)
      .function("forwardBackward", &TransformerModelHandle::forwardBackward)
      .function("loss", &TransformerModelHandle::loss)
      .function("adamStep", &TransformerModelHandle::adamStep)
      .function("clipGradNorm", &TransformerModelHandle::clipGradNorm);
  emscripten::function("createTransformerModel", &create_transformer_model_js);
}
