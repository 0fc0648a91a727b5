// embind surface of lab::TransformerSession (wasm/src/transformer/session.h): the Transformer
// trained on a task, with the same methods and result fields as the Seq2Seq session
// (seq2seq_bindings.cpp), so that wasm/js/seq2seq.mjs wraps both in one class; JS reaches it
// through lab.createSeq2Seq({arch: 'transformer', ...}) and lab.loadSeq2Seq(bytes).
//
// Conversion only: JS objects → the core's option structs, results → plain JS objects (copies).
// Every range check and message is the core's. Errors come back as {error} (guarded).
// A translation's steps carry, besides the Seq2Seq fields (token, prob, top, attention = the
// rollout onto the source), every layer's and head's attention: `cross` (L, H, S), `self`
// (L, H, t + 1), `rolloutTarget` (t + 1); the result's `encoder` has `self` (L, H, S, S) and
// `rollout` (S, S). Field names match shared/types/seq2seq.d.ts.
//
// Only the full module has this file (CMakeLists.txt): the widget modules leave the Transformer
// out. The handle is owned by the JS wrapper, which calls .delete() exactly once.
#include <emscripten/bind.h>

#include <string>
#include <utility>
#include <vector>

#include "convert.h"
#include "seq2seq/vocab.h"
#include "transformer/session.h"

using emscripten::val;
using labjs::guarded;

namespace {

val number(double x) {
  return val(x);
}

lab::TaskOptions task_options_from_js(const val& obj, uint64_t default_seed) {
  labjs::check_keys(obj, {"seed", "heldOut", "train", "minLen", "maxLen", "symbols"},
                    "config.taskOptions");
  lab::TaskOptions o;
  o.seed = labjs::js_seed(obj, "seed", "config.taskOptions.seed").value_or(default_seed);
  o.held_out = labjs::js_whole(obj, "heldOut", "config.taskOptions.heldOut").value_or(o.held_out);
  o.train = labjs::js_whole(obj, "train", "config.taskOptions.train").value_or(o.train);
  o.min_len = labjs::js_whole(obj, "minLen", "config.taskOptions.minLen").value_or(o.min_len);
  o.max_len = labjs::js_whole(obj, "maxLen", "config.taskOptions.maxLen").value_or(o.max_len);
  o.symbols = labjs::js_whole(obj, "symbols", "config.taskOptions.symbols").value_or(o.symbols);
  return o;
}

val task_options_to_js(const lab::TaskOptions& o) {
  val out = val::object();
  out.set("seed", number(static_cast<double>(o.seed)));
  out.set("heldOut", number(o.held_out));
  out.set("train", number(o.train));
  out.set("minLen", number(o.min_len));
  out.set("maxLen", number(o.max_len));
  out.set("symbols", number(o.symbols));
  return out;
}

lab::TransformerSessionConfig config_from_js(const val& js) {
  if (js.isUndefined() || js.isNull()) {
    throw lab::InputError(
        "createSeq2Seq({arch: 'transformer'}) needs a config object {task, layers, heads, "
        "dModel, ...}");
  }
  labjs::check_keys(js,
                    {"arch", "task", "layers", "heads", "dModel", "dFF", "normFirst", "warmup",
                     "seed", "batchSize", "learningRate", "clipNorm", "taskOptions"},
                    "config");
  lab::TransformerSessionConfig c;
  c.task = labjs::js_string(js, "task", "", "config.task");
  c.layers = labjs::js_whole(js, "layers", "config.layers").value_or(c.layers);
  c.heads = labjs::js_whole(js, "heads", "config.heads").value_or(c.heads);
  c.d_model = labjs::js_whole(js, "dModel", "config.dModel").value_or(c.d_model);
  c.d_ff = labjs::js_whole(js, "dFF", "config.dFF").value_or(c.d_ff);
  c.norm_first = labjs::js_bool(js, "normFirst", c.norm_first, "config.normFirst");
  c.warmup = labjs::js_whole(js, "warmup", "config.warmup").value_or(c.warmup);
  c.seed = labjs::js_seed(js, "seed", "config.seed").value_or(c.seed);
  c.task_options = task_options_from_js(js["taskOptions"], c.seed);
  c.batch_size = labjs::js_whole(js, "batchSize", "config.batchSize").value_or(c.batch_size);
  c.learning_rate = labjs::js_number(js, "learningRate", c.learning_rate, "config.learningRate");
  c.clip_norm = labjs::js_number(js, "clipNorm", c.clip_norm, "config.clipNorm");
  return c;
}

val train_result_to_js(const lab::TrainResult& r) {
  val out = val::object();
  out.set("losses", labjs::float_array_to_js(r.losses));
  out.set("tokenAccuracy", labjs::float_array_to_js(r.token_accuracy));
  out.set("step", number(r.step));
  return out;
}

val strings_to_js(const std::vector<std::string>& strings) {
  val a = val::array();
  for (const std::string& s : strings) a.call<void>("push", val(s));
  return a;
}

val tokens_to_js(const lab::Vocab& vocab, const std::vector<int32_t>& ids) {
  val a = val::array();
  for (int32_t id : ids) a.call<void>("push", val(vocab.token(id)));
  return a;
}

val top_to_js(const lab::Vocab& vocab, const std::vector<lab::TokenProb>& top) {
  val a = val::array();
  for (const lab::TokenProb& t : top) {
    val o = val::object();
    o.set("token", val(vocab.token(t.id)));
    o.set("prob", val(t.prob));
    a.call<void>("push", o);
  }
  return a;
}

val tensor_js(std::vector<long> shape, const std::vector<float>& data) {
  return labjs::tensor_to_js(lab::Tensor(std::move(shape), data));
}

// L × (H, …) per-layer maps → one (L, H, …) tensor.
val stack_layers(const std::vector<std::vector<float>>& layers, std::vector<long> inner) {
  std::vector<float> data;
  for (const std::vector<float>& l : layers) data.insert(data.end(), l.begin(), l.end());
  inner.insert(inner.begin(), static_cast<long>(layers.size()));
  return tensor_js(std::move(inner), data);
}

// The Transformer's side of a step: every layer's and head's attention, and the rollout.
void set_trace(val& step, const lab::TransformerStepTrace& t, long L, long H, long S) {
  const long prefix = static_cast<long>(t.rollout_target.size());  // t + 1
  step.set("cross", tensor_js({L, H, S}, t.cross));
  step.set("self", tensor_js({L, H, prefix}, t.self));
  step.set("rolloutTarget", labjs::float_array_to_js(t.rollout_target));
}

val encoder_to_js(const lab::TransformerEncoderTrace& e, long H) {
  val out = val::object();
  out.set("self", stack_layers(e.self_att, {H, e.S, e.S}));
  out.set("rollout", tensor_js({e.S, e.S}, e.rollout));
  return out;
}

val greedy_steps_to_js(const lab::Vocab& vocab, const lab::TransformerGreedyResult& g, long L,
                       long H) {
  val steps = val::array();
  for (size_t i = 0; i < g.result.steps.size(); ++i) {
    const lab::GreedyStep& s = g.result.steps[i];
    val o = val::object();
    o.set("token", val(vocab.token(s.token)));
    o.set("prob", val(s.prob));
    o.set("top", top_to_js(vocab, s.top));
    o.set("attention", labjs::float_array_to_js(s.attention));
    set_trace(o, g.traces[i], L, H, g.encoder.S);
    steps.call<void>("push", o);
  }
  return steps;
}

val beam_trace_to_js(const lab::Vocab& vocab, const lab::TransformerTranslateResult& r, long L,
                     long H) {
  const lab::BeamResult& beam = r.beam.result;
  val hypotheses = val::array();
  for (size_t i = 0; i < beam.hypotheses.size(); ++i) {
    const lab::BeamHypothesis& h = beam.hypotheses[i];
    val o = val::object();
    o.set("output", tokens_to_js(vocab, h.tokens));
    o.set("text", val(r.hypothesis_texts[i]));
    o.set("logProb", val(h.log_prob));
    o.set("score", val(h.score));
    o.set("finished", val(h.finished));
    o.set("step", number(h.step));
    o.set("node", number(h.node));
    hypotheses.call<void>("push", o);
  }
  val tree = val::array();
  for (size_t t = 0; t < beam.steps.size(); ++t) {
    val row = val::array();
    for (size_t n = 0; n < beam.steps[t].size(); ++n) {
      const lab::BeamNode& node = beam.steps[t][n];
      val o = val::object();
      o.set("token", val(vocab.token(node.token)));
      o.set("parent", number(node.parent));
      o.set("prob", val(node.prob));
      o.set("logProb", val(node.log_prob));
      o.set("score", val(node.score));
      o.set("finished", val(node.finished));
      o.set("top", top_to_js(vocab, node.top));
      o.set("attention", labjs::float_array_to_js(node.attention));
      set_trace(o, r.beam.traces[t][n], L, H, r.beam.encoder.S);
      row.call<void>("push", o);
    }
    tree.call<void>("push", row);
  }
  val beams = val::object();
  beams.set("width", number(r.beam_width));
  beams.set("hypotheses", hypotheses);
  beams.set("steps", tree);
  return beams;
}

}  // namespace

namespace labjs {

// The JS handle of one Transformer session; the same method names as Seq2SeqHandle.
class TransformerHandle {
 public:
  explicit TransformerHandle(lab::TransformerSession session) : session_(std::move(session)) {}

  val train(val steps) {
    return guarded([&] {
      const long n = labjs::js_whole(steps, "train(steps): steps");
      try {
        return train_result_to_js(session_.train(n));
      } catch (const lab::TrainingDiverged& e) {
        val out = val::object();
        out.set("error", val(std::string(e.what())));
        out.set("completed", train_result_to_js(e.completed));
        return out;
      }
    });
  }

  val evaluate(val options) {
    return guarded([&] {
      labjs::check_keys(options, {"maxExamples", "length", "count", "seed"}, "evaluate options");
      lab::EvalOptions o;
      o.max_examples = labjs::js_whole(options, "maxExamples", "evaluate: maxExamples");
      o.length = labjs::js_whole(options, "length", "evaluate: length");
      o.count = labjs::js_whole(options, "count", "evaluate: count");
      o.seed = labjs::js_seed(options, "seed", "evaluate: seed");
      const lab::EvalResult r = session_.evaluate(o);
      val out = val::object();
      out.set("loss", val(r.loss));
      out.set("tokenAccuracy", val(r.token_accuracy));
      out.set("exactMatch", val(r.exact_match));
      out.set("examples", number(r.examples));
      out.set("heldOutIsTrainingData", val(r.held_out_is_training_data));
      return out;
    });
  }

  val translate(val text_js, val options) {
    return guarded([&] {
      const std::string text = labjs::js_text(text_js, "text");
      labjs::check_keys(options, {"beam", "maxLength", "topK"}, "translate options");
      lab::TranslateOptions o;
      o.beam = labjs::js_whole(options, "beam", "beam");
      o.max_length = labjs::js_whole(options, "maxLength", "maxLength");
      o.top_k = labjs::js_whole(options, "topK", "topK");
      const lab::TransformerTranslateResult r = session_.translate(text, o);
      const lab::Vocab& vocab = session_.task().target_vocab();
      const long L = session_.config().layers, H = session_.config().heads;
      val source = val::array();
      for (const lab::SourceToken& t : r.source) {
        val s = val::object();
        s.set("token", val(t.token));
        s.set("text", val(t.text));
        s.set("id", val(t.id));
        s.set("unknown", val(t.unknown));
        source.call<void>("push", s);
      }
      val out = val::object();
      out.set("source", source);
      out.set("output", tokens_to_js(vocab, r.output));
      out.set("text", val(r.text));
      out.set("finished", val(r.finished));
      if (r.beam_width == 0) {
        out.set("steps", greedy_steps_to_js(vocab, r.greedy, L, H));
        out.set("encoder", encoder_to_js(r.greedy.encoder, H));
      } else {
        out.set("beams", beam_trace_to_js(vocab, r, L, H));
        out.set("encoder", encoder_to_js(r.beam.encoder, H));
      }
      return out;
    });
  }

  val info() {
    return guarded([&] {
      const lab::TransformerSessionConfig& c = session_.config();
      const lab::Task& task = session_.task();
      val out = val::object();
      out.set("arch", val(std::string("transformer")));
      out.set("task", val(c.task));
      out.set("taskOptions", task_options_to_js(c.task_options));
      out.set("layers", number(c.layers));
      out.set("heads", number(c.heads));
      out.set("dModel", number(c.d_model));
      out.set("dFF", number(c.d_ff));
      out.set("normFirst", val(c.norm_first));
      out.set("warmup", number(c.warmup));
      out.set("seed", number(static_cast<double>(c.seed)));
      out.set("batchSize", number(c.batch_size));
      out.set("learningRate", val(c.learning_rate));
      out.set("clipNorm", val(c.clip_norm));
      out.set("sourceVocabSize", number(task.source_vocab().size()));
      out.set("targetVocabSize", number(task.target_vocab().size()));
      out.set("sourceTokenizer",
              val(std::string(lab::tokenizer_name(task.source_vocab().tokenizer()))));
      out.set("targetTokenizer",
              val(std::string(lab::tokenizer_name(task.target_vocab().tokenizer()))));
      out.set("parameterCount", number(session_.model().num_params()));
      out.set("step", number(session_.step()));
      return out;
    });
  }

  val sourceVocabulary() {
    return guarded([&] { return strings_to_js(session_.source_vocabulary()); });
  }
  val targetVocabulary() {
    return guarded([&] { return strings_to_js(session_.target_vocabulary()); });
  }

  const lab::TransformerSession& session() const { return session_; }

 private:
  lab::TransformerSession session_;
};

}  // namespace labjs

namespace {

using labjs::TransformerHandle;

val create_transformer_session_js(val config) {
  return guarded(
      [&] { return val(TransformerHandle(lab::TransformerSession(config_from_js(config)))); });
}

val save_transformer_js(TransformerHandle& handle) {
  return guarded([&] { return labjs::bytes_to_js(handle.session().save()); });
}

val load_transformer_js(val bytes) {
  return guarded([&] {
    return val(TransformerHandle(
        lab::TransformerSession::load(labjs::bytes_from_js(bytes, "loadSeq2Seq()"))));
  });
}

// true / false, or {error} for bytes that are no model file (the Seq2Seq loader then names it).
val is_transformer_file_js(val bytes) {
  return guarded([&] {
    const std::vector<uint8_t> data = labjs::bytes_from_js(bytes, "loadSeq2Seq()");
    return val(lab::TransformerSession::is_transformer_file(data.data(), data.size()));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_transformer_session) {
  emscripten::class_<TransformerHandle>("TransformerSession")
      .function("train", &TransformerHandle::train)
      .function("evaluate", &TransformerHandle::evaluate)
      .function("translate", &TransformerHandle::translate)
      .function("info", &TransformerHandle::info)
      .function("sourceVocabulary", &TransformerHandle::sourceVocabulary)
      .function("targetVocabulary", &TransformerHandle::targetVocabulary);
  emscripten::function("createTransformerSession", &create_transformer_session_js);
  emscripten::function("saveTransformer", &save_transformer_js);
  emscripten::function("loadTransformer", &load_transformer_js);
  emscripten::function("isTransformerFile", &is_transformer_file_js);
}
