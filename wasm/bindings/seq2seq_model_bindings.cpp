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

// An id matrix: its (rows, cols) shape and whole-number values.
struct IdMatrix {
  long rows = 0, cols = 0;
  std::vector<int32_t> ids;
};

IdMatrix id_matrix_from_js(const val& v, const std::string& name) {
  // tensor_from_js checks the shape and the data length; ids_from_js the whole numbers.
  const lab::Tensor t = labjs::tensor_from_js(v, name);
  lab::check_rank(t, 2, name, "(B, length)");
  return IdMatrix{t.shape[0], t.shape[1], labjs::ids_from_js(v, name)};
}

lab::Batch batch_from_js(const val& js, const lab::Seq2SeqConfig& config) {
  if (labjs::is_absent(js))
    throw lab::InputError("batch must be an object {src, srcLengths, tgtIn, tgtOut}");
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
  if (labjs::is_absent(lengths) || !val::global("Array").call<bool>("isArray", lengths)) {
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
  lab::validate_batch(b, config);  // sizes, lengths in [1, S], ids inside the vocabularies
  return b;
}

val shape_to_js(const std::vector<long>& shape) {
  val a = val::array();
  for (long d : shape) a.call<void>("push", val(static_cast<double>(d)));
  return a;
}

// The JS handle: a lab::Seq2SeqModel and nothing else.
class Seq2SeqModelHandle {
 public:
  explicit Seq2SeqModelHandle(const lab::Seq2SeqConfig& config) : model_(config) {}

  val paramNames() {
    return guarded([&] {
      val out = val::array();
      for (const lab::ParamView& v : model_.param_table()) {
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
      for (const lab::ParamView& v : model_.param_table()) {
        const auto begin = model_.grads().begin() + v.offset;
        grads.set(v.name, labjs::tensor_to_js(
                              lab::Tensor(v.shape, std::vector<float>(begin, begin + v.size))));
      }
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

  val loss(val batch_js) {
    return guarded([&] { return val(model_.loss_only(batch_from_js(batch_js, model_.config()))); });
  }

  val adamStep(val options) {
    return guarded([&] {
      if (!labjs::has_value(options, "lr")) {
        throw lab::InputError("adamStep() needs options {lr, beta1?, beta2?, eps?, weightDecay?}");
      }
      labjs::check_keys(options, {"lr", "beta1", "beta2", "eps", "weightDecay"},
                        "adamStep options");
      lab::AdamOptions o;
      o.lr = static_cast<float>(labjs::js_number(options, "lr", o.lr, "lr"));
      o.beta1 = static_cast<float>(labjs::js_number(options, "beta1", o.beta1, "beta1"));
      o.beta2 = static_cast<float>(labjs::js_number(options, "beta2", o.beta2, "beta2"));
      o.eps = static_cast<float>(labjs::js_number(options, "eps", o.eps, "eps"));
      o.weight_decay = static_cast<float>(
          labjs::js_number(options, "weightDecay", o.weight_decay, "weightDecay"));
      model_.adam_step(o);  // validates the options
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
      .function("adamStep", &Seq2SeqModelHandle::adamStep)
      .function("clipGradNorm", &Seq2SeqModelHandle::clipGradNorm);
  emscripten::function("createSeq2SeqModel", &create_seq2seq_model_js);
}
