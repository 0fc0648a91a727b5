// embind surface of lab::GptModel (wasm/src/gpt/): the decoder-only language model, driven with
// id batches and addressed parameter by parameter under nanoGPT's state-dict names. Only the full
// module links it (no widget uses it yet); tests/wasm/gpt.test.mjs calls it as
// core.createGptModel(config).
//
//   createGptModel({vocab, blockSize, layers, heads, dModel, seed?})      → GptModelHandle
//   createGptModelFromSafetensors(bytes, heads or undefined: from the file) → GptModelHandle
//   handle.paramNames() / getParam(name) / setParam(name, {shape, data})
//   handle.forward({idx, zeroHeads?})      → {logits (B, T, V), attention: L × (B, H, T, T)}
//   handle.forwardBackward({idx, targets}) → {loss, grads: {name: tensor}}
//   handle.loss({idx, targets})            → number
//   handle.adamStep({lr, beta1?, beta2?, eps?, weightDecay?, decoupled?})
//   handle.generate({prompt (ids), maxNewTokens?, greedy?, temperature?, topK?, topP?, seed?,
//                    topCandidates?}) → {ids, steps: [{token, position, prob, keys,
//                    top: [{id, prob, sampleProb}], attention (L, H, keys)}]}
//   handle.headScores({text, lineEnd, random, zeroHeads?}) (ids) → gpt/heads.h's scores
//   handle.saveSafetensors()               → Uint8Array
// idx and targets are {shape: [B, T], data} tensors of whole numbers (targets −1: no loss there).
// Conversion only: every check and message is the core's. Errors come back as {error} (guarded).
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "convert.h"
#include "gpt/generate.h"
#include "gpt/interchange.h"
#include "gpt/model.h"
#include "gpt_convert.h"
#include "io/safetensors.h"
#include "seq2seq_convert.h"

using emscripten::val;
using labjs::guarded;

namespace {

lab::GptConfig config_from_js(const val& js) {
  if (labjs::is_absent(js)) {
    throw lab::InputError(
        "createGptModel needs a config object {vocab, blockSize, layers, heads, dModel, seed}");
  }
  labjs::check_keys(js, {"vocab", "blockSize", "layers", "heads", "dModel", "seed"}, "config");
  lab::GptConfig c;
  c.vocab = labjs::js_whole(js, "vocab", "config.vocab").value_or(c.vocab);
  c.block_size = labjs::js_whole(js, "blockSize", "config.blockSize").value_or(c.block_size);
  c.layers = labjs::js_whole(js, "layers", "config.layers").value_or(c.layers);
  c.heads = labjs::js_whole(js, "heads", "config.heads").value_or(c.heads);
  c.d_model = labjs::js_whole(js, "dModel", "config.dModel").value_or(c.d_model);
  c.seed = labjs::js_seed(js, "seed", "config.seed").value_or(c.seed);
  return c;  // validated by the GptModel constructor
}

// A (B, T) tensor of ids.
std::vector<int32_t> id_matrix(const val& v, const std::string& name, long& B, long& T) {
  const lab::Tensor t = labjs::tensor_from_js(v, name);
  lab::check_rank(t, 2, name, "(B, T)");
  B = t.shape[0];
  T = t.shape[1];
  return labjs::ids_from_js(v, name);
}

// An array (or typed array) of ids, read as the 1-D tensor {shape: [n], data}.
std::vector<int32_t> id_list(const val& list, const std::string& name) {
  if (labjs::is_absent(list) || list["length"].isUndefined()) {
    throw lab::InputError(name + " must be an array of token ids");
  }
  val as_tensor = val::object();
  val shape = val::array();
  shape.call<void>("push", list["length"]);
  as_tensor.set("shape", shape);
  as_tensor.set("data", list);
  return labjs::ids_from_js(as_tensor, name);
}

lab::GptBatch batch_from_js(const val& js, bool with_targets) {
  const char* usage = with_targets ? "the batch must be an object {idx, targets}"
                                   : "the batch must be an object {idx}";
  if (labjs::is_absent(js)) throw lab::InputError(usage);
  // zeroHeads only where the forward alone runs (the backward knows no zeroed heads).
  labjs::check_keys(js,
                    with_targets ? std::vector<std::string>{"idx", "targets"}
                                 : std::vector<std::string>{"idx", "targets", "zeroHeads"},
                    "batch");
  lab::GptBatch b;
  b.idx = id_matrix(js["idx"], "batch.idx", b.B, b.T);
  if (with_targets || labjs::has_value(js, "targets")) {
    long B = 0, T = 0;
    b.targets = id_matrix(js["targets"], "batch.targets", B, T);
    if (B != b.B || T != b.T) {
      throw lab::InputError("batch.targets has shape " + lab::shape_str({B, T}) + ", batch.idx " +
                            lab::shape_str({b.B, b.T}));
    }
  }
  return b;
}

class GptModelHandle {
 public:
  explicit GptModelHandle(const lab::GptConfig& config) : model_(config) {}
  explicit GptModelHandle(lab::GptModel&& model) : model_(std::move(model)) {}

  val paramNames() {
    return guarded([&] { return labjs::param_names_to_js(model_.param_views()); });
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

  val forward(val batch_js) {
    return guarded([&] {
      const lab::GptBatch batch = batch_from_js(batch_js, false);
      const std::vector<float>& logits = model_.forward(
          batch, lab::gpt_head_mask(model_.config(), labjs::zero_heads_from_js(batch_js)));
      const lab::GptConfig& c = model_.config();
      val out = val::object();
      out.set("logits", labjs::tensor_to_js(lab::Tensor({batch.B, batch.T, c.vocab}, logits)));
      val attention = val::array();
      for (long l = 0; l < c.layers; ++l) {
        attention.call<void>(
            "push", labjs::tensor_to_js(
                        lab::Tensor({batch.B, c.heads, batch.T, batch.T}, model_.attention(l))));
      }
      out.set("attention", attention);
      return out;
    });
  }

  val forwardBackward(val batch_js) {
    return guarded([&] {
      const float loss = model_.forward_backward(batch_from_js(batch_js, true));
      val out = val::object();
      out.set("loss", val(loss));
      out.set("grads", labjs::params_by_name_to_js(model_.param_views(), model_.grads()));
      return out;
    });
  }

  val loss(val batch_js) {
    return guarded([&] { return val(model_.loss_only(batch_from_js(batch_js, true))); });
  }

  val adamStep(val options) {
    return guarded([&] {
      lab::AdamOptions o = labjs::adam_options_from_js(
          options, {"decoupled"},
          "adamStep() needs options {lr, beta1?, beta2?, eps?, weightDecay?, decoupled?}");
      o.decoupled = labjs::js_bool(options, "decoupled", false, "decoupled");
      model_.adam_step(o);
      return val::undefined();
    });
  }

  val generate(val request) {
    return guarded([&] {
      if (labjs::is_absent(request)) {
        throw lab::InputError("generate() needs an object {prompt, maxNewTokens?, …}");
      }
      const lab::GenerateOptions o =
          labjs::generate_options_from_js(request, {"prompt"}, "generate options");
      // prompt: an array (or typed array) of ids, read as the 1-D tensor {shape: [n], data}
      const std::vector<int32_t> prompt = id_list(request["prompt"], "prompt");
      const lab::Generation g = lab::generate(model_, prompt, o);
      val ids = val::array();
      for (int32_t id : g.ids) ids.call<void>("push", val(id));
      const val steps = labjs::generation_steps_to_js(g, model_.config());
      val out = val::object();
      out.set("ids", ids);
      out.set("steps", steps);
      return out;
    });
  }

  val headScores(val probe_js) {
    return guarded([&] {
      if (labjs::is_absent(probe_js)) {
        throw lab::InputError("headScores() needs a probe {text, lineEnd, random, zeroHeads?}");
      }
      labjs::check_keys(probe_js, {"text", "lineEnd", "random", "zeroHeads"}, "headScores probe");
      lab::GptHeadProbe probe;
      probe.text = id_list(probe_js["text"], "text");
      probe.line_end = id_list(probe_js["lineEnd"], "lineEnd");
      probe.random = id_list(probe_js["random"], "random");
      return labjs::head_scores_to_js(
          lab::gpt_head_scores(model_, probe, labjs::zero_heads_from_js(probe_js)));
    });
  }

  val saveSafetensors() {
    return guarded([&] { return labjs::bytes_to_js(lab::write_gpt_safetensors(model_)); });
  }

 private:
  lab::GptModel model_;
};

val create_gpt_model_js(val config) {
  return guarded([&] { return val(GptModelHandle(config_from_js(config))); });
}

val create_gpt_model_from_safetensors_js(val bytes_js, val heads_js) {
  return guarded([&] {
    const std::vector<uint8_t> bytes = labjs::bytes_from_js(bytes_js, "the .safetensors bytes");
    const lab::SafetensorsFile file = lab::read_safetensors(bytes.data(), bytes.size());
    const long heads = labjs::is_absent(heads_js) ? 0 : labjs::js_whole(heads_js, "heads");
    lab::GptModel model(lab::gpt_config_of(file, heads));
    lab::load_gpt_weights(model, file);
    return val(GptModelHandle(std::move(model)));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_gpt) {
  emscripten::class_<GptModelHandle>("GptModelHandle")
      .function("paramNames", &GptModelHandle::paramNames)
      .function("getParam", &GptModelHandle::getParam)
      .function("setParam", &GptModelHandle::setParam)
      .function("forward", &GptModelHandle::forward)
      .function("forwardBackward", &GptModelHandle::forwardBackward)
      .function("loss", &GptModelHandle::loss)
      .function("adamStep", &GptModelHandle::adamStep)
      .function("generate", &GptModelHandle::generate)
      .function("headScores", &GptModelHandle::headScores)
      .function("saveSafetensors", &GptModelHandle::saveSafetensors);
  emscripten::function("createGptModel", &create_gpt_model_js);
  emscripten::function("createGptModelFromSafetensors", &create_gpt_model_from_safetensors_js);
}
