// embind surface of the Seq2Seq core (wasm/src/seq2seq/). Seq2SeqSession is a thin handle: it
// holds one Task, one Seq2SeqModel and the Rng that picks training batches, and only calls the
// core (sample_batch, forward_backward, clip_grad_norm, adam_step, greedy_decode, beam_search,
// write_model_file / read_model_file). Every method returns a plain JS object (copies) or {error};
// wasm/js/seq2seq.mjs rethrows {error} as a JS Error.
//
// Ownership: createSeq2Seq / loadSeq2Seq hand JS a new C++ object. The JS wrapper (class Seq2Seq
// in wasm/js/seq2seq.mjs) owns it and must call .delete() exactly once; nothing else frees it.
// Field names match shared/types/seq2seq.d.ts exactly.
#include <emscripten/bind.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "convert.h"
#include "seq2seq/decode.h"
#include "seq2seq/model.h"
#include "seq2seq/model_file.h"
#include "seq2seq/rng.h"
#include "seq2seq/tasks.h"
#include "seq2seq/vocab.h"

using emscripten::val;
using labjs::guarded;
using nlohmann::json;

namespace {

constexpr const char* kFileKind = "attention-lab/seq2seq";
constexpr long kMaxTrainSteps = 100000;  // per train() call: keeps one call interruptible-ish
constexpr long kEvalChunk = 256;         // held-out examples per teacher-forced batch

bool absent(const val& v) { return v.isUndefined() || v.isNull(); }

// A whole number in [lo, hi] at obj[key] (fallback when absent), with a message naming `name`.
long whole(const val& obj, const char* key, long fallback, long lo, long hi, const std::string& name) {
  if (absent(obj) || absent(obj[key])) return fallback;
  val v = obj[key];
  if (!v.isNumber()) throw lab::InputError(name + " must be a number");
  const double x = v.as<double>();
  if (!(std::isfinite(x) && x == std::floor(x) && x >= lo && x <= hi)) {
    throw lab::InputError(name + " must be a whole number in [" + std::to_string(lo) + ", " +
                          std::to_string(hi) + "] (got " + val::global("String")(v).as<std::string>() +
                          ")");
  }
  return static_cast<long>(x);
}

void check_keys(const val& obj, const std::vector<std::string>& allowed, const std::string& what) {
  if (absent(obj)) return;
  if (obj.typeOf().as<std::string>() != "object") throw lab::InputError(what + " must be an object");
  val keys = val::global("Object").call<val>("keys", obj);
  const unsigned n = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    const std::string k = keys[i].as<std::string>();
    if (std::find(allowed.begin(), allowed.end(), k) == allowed.end()) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw lab::InputError(what + " has an unknown key '" + k + "' (expected " + list + ")");
    }
  }
}

val float_array(const std::vector<float>& v) {
  return val(emscripten::typed_memory_view(v.size(), v.data())).call<val>("slice");
}

// Training settings that live in the session, not in the model.
struct TrainSettings {
  long batch_size = 1;
  lab::AdamOptions adam;
  double clip_norm = 0.0;  // 0: no clipping

  void validate() const {
    adam.validate();
    if (!(std::isfinite(clip_norm) && clip_norm >= 0.0)) {
      throw lab::InputError("clipNorm must be a positive finite number (0 or absent: no clipping)");
    }
  }
};

class Seq2SeqSession {
 public:
  Seq2SeqSession(std::unique_ptr<lab::Task> task, lab::TaskOptions task_options,
                 const lab::Seq2SeqConfig& config, TrainSettings settings, long step)
      : task_(std::move(task)),
        task_options_(task_options),
        model_(config),
        settings_(settings),
        rng_(config.seed ^ 0x5EED5EED5EED5EEDULL ^ static_cast<uint64_t>(step)),
        step_(step) {}
  // Moved once, into the heap object that the JS handle owns (see the factories below).
  Seq2SeqSession(Seq2SeqSession&&) = default;
  Seq2SeqSession(const Seq2SeqSession&) = delete;
  Seq2SeqSession& operator=(const Seq2SeqSession&) = delete;

  // The JS config → a session. Throws InputError for anything wrong.
  static Seq2SeqSession from_js(const val& cfg) {
    if (absent(cfg)) throw lab::InputError("createSeq2Seq() needs a config object {task, cell, hidden, ...}");
    check_keys(cfg, {"task", "cell", "hidden", "embedding", "attention", "score", "attentionalTanh",
                     "seed", "batchSize", "learningRate", "clipNorm"},
               "config");
    const std::string task_name = labjs::js_string(cfg, "task", "", "config.task");
    if (task_name.empty()) throw lab::InputError("config.task is missing (expected note, dates, reverse, copy)");
    lab::Seq2SeqConfig c;
    c.cell = lab::parse_cell(labjs::js_string(cfg, "cell", "rnn", "config.cell").c_str());
    c.hidden = whole(cfg, "hidden", 128, 0, lab::kMaxDim, "config.hidden");  // the core names the range
    c.embedding = whole(cfg, "embedding", 0, 0, lab::kMaxDim, "config.embedding");
    c.attention = labjs::js_bool(cfg, "attention", true);
    c.score = lab::parse_score(labjs::js_string(cfg, "score", "dot", "config.score"));
    c.attentional_tanh = labjs::js_bool(cfg, "attentionalTanh", false);
    c.seed = static_cast<uint64_t>(whole(cfg, "seed", 1, 0, 2147483647L, "config.seed"));
    TrainSettings s;
    s.batch_size = whole(cfg, "batchSize", task_name == "note" ? 1 : 32, 1, lab::kMaxBatchSize,
                         "config.batchSize");
    s.adam.lr = static_cast<float>(labjs::js_number(cfg, "learningRate", 1e-3, "config.learningRate"));
    if (!(std::isfinite(s.adam.lr) && s.adam.lr > 0)) {
      throw lab::InputError("config.learningRate must be a positive finite number");
    }
    s.clip_norm = labjs::js_number(cfg, "clipNorm", 0.0, "config.clipNorm");
    s.validate();
    lab::TaskOptions opts;
    opts.seed = c.seed;
    std::unique_ptr<lab::Task> task = lab::make_task(task_name, opts);
    c.src_vocab = task->source_vocab().size();
    c.tgt_vocab = task->target_vocab().size();
    c.validate();  // before the model allocates anything
    return Seq2SeqSession(std::move(task), opts, c, s, 0);
  }

  static Seq2SeqSession from_file(const val& bytes) {
    if (absent(bytes) || !bytes.instanceof(val::global("Uint8Array"))) {
      throw lab::InputError("loadSeq2Seq() needs the bytes of a .atlb file as a Uint8Array");
    }
    const std::vector<uint8_t> data = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
    const lab::ModelFileContents file = lab::read_model_file(data.data(), data.size());
    const json& h = file.header;
    try {
      if (!h.contains("kind") || h.at("kind") != kFileKind) {
        throw lab::InputError(std::string("model file is not a Seq2Seq model (header kind must be '") +
                              kFileKind + "')");
      }
      const json& jc = h.at("config");
      lab::TaskOptions opts = lab::task_options_from_json(h.at("taskOptions"));
      std::unique_ptr<lab::Task> task = lab::make_task(h.at("task").get<std::string>(), opts);
      if (lab::Vocab::from_json(h.at("sourceVocab")).tokens() != task->source_vocab().tokens() ||
          lab::Vocab::from_json(h.at("targetVocab")).tokens() != task->target_vocab().tokens()) {
        throw lab::InputError("model file's vocabularies do not match task '" + task->name() + "'");
      }
      lab::Seq2SeqConfig c;
      c.cell = lab::parse_cell(jc.at("cell").get<std::string>().c_str());
      c.hidden = jc.at("hidden").get<long>();
      c.embedding = jc.at("embedding").get<long>();
      c.attention = jc.at("attention").get<bool>();
      c.score = lab::parse_score(jc.at("score").get<std::string>());
      c.attentional_tanh = jc.at("attentionalTanh").get<bool>();
      c.seed = jc.at("seed").get<uint64_t>();
      c.src_vocab = task->source_vocab().size();
      c.tgt_vocab = task->target_vocab().size();
      c.validate();
      const json& jt = h.at("training");
      TrainSettings s;
      s.batch_size = jt.at("batchSize").get<long>();
      if (s.batch_size < 1 || s.batch_size > lab::kMaxBatchSize) throw lab::InputError("model file: bad batchSize");
      s.adam.lr = jt.at("learningRate").get<float>();
      s.clip_norm = jt.at("clipNorm").get<double>();
      s.validate();
      const long step = jt.at("step").get<long>();
      if (step < 0) throw lab::InputError("model file: negative step");
      Seq2SeqSession session(std::move(task), opts, c, s, step);
      lab::Seq2SeqModel& m = session.model_;
      if (file.arrays.size() != m.param_table().size()) {
        throw lab::InputError("model file has " + std::to_string(file.arrays.size()) +
                              " arrays but this configuration has " +
                              std::to_string(m.param_table().size()) + " parameters");
      }
      for (const lab::ParamView& p : m.param_table()) {
        const lab::Tensor& t = file.array(p.name);
        if (t.shape != p.shape) {
          throw lab::InputError("model file array '" + p.name + "' has shape " + lab::shape_str(t.shape) +
                                " but the model needs " + lab::shape_str(p.shape));
        }
        m.set_param(p.name, t.data);
      }
      return session;
    } catch (const json::exception& e) {
      throw lab::InputError(std::string("model file header is missing or has a wrong field: ") + e.what());
    }
  }

  val train(double steps_js) {
    return guarded([&] {
      if (!(std::isfinite(steps_js) && steps_js == std::floor(steps_js) && steps_js >= 1 &&
            steps_js <= kMaxTrainSteps)) {
        throw lab::InputError("train(steps): steps must be a whole number in [1, " +
                              std::to_string(kMaxTrainSteps) + "]");
      }
      const long steps = static_cast<long>(steps_js);
      std::vector<float> losses;
      losses.reserve(static_cast<size_t>(steps));
      for (long i = 0; i < steps; ++i) {
        const lab::Batch batch = task_->sample_batch(rng_, settings_.batch_size);
        try {
          const float loss = model_.forward_backward(batch);
          if (settings_.clip_norm > 0) model_.clip_grad_norm(static_cast<float>(settings_.clip_norm));
          model_.adam_step(settings_.adam);  // all-or-nothing: a bad step leaves the weights
          losses.push_back(loss);
          ++step_;
        } catch (const lab::InputError& e) {
          // The batch came from the task, so any error here is the run diverging: a NaN/Inf loss
          // or weight (NonFiniteError) or NaN activations caught by the attention's input checks.
          throw lab::NonFiniteError("training diverged at step " + std::to_string(step_ + 1) + " (" +
                                    e.what() + "); the weights after step " + std::to_string(step_) +
                                    " are kept: try a smaller learningRate or set clipNorm");
        }
      }
      val out = val::object();
      out.set("losses", float_array(losses));
      out.set("step", val(static_cast<double>(step_)));
      return out;
    });
  }

  val evaluate() {
    return guarded([&] {
      const std::vector<lab::Example>& held = task_->held_out();
      if (held.empty()) throw lab::InputError("task '" + task_->name() + "' has no held-out set");
      double loss_sum = 0;
      long tokens = 0, correct = 0, exact = 0;
      const long Vt = model_.config().tgt_vocab;
      for (size_t start = 0; start < held.size(); start += kEvalChunk) {
        const std::vector<lab::Example> chunk(held.begin() + static_cast<long>(start),
                                              held.begin() + static_cast<long>(std::min(held.size(), start + kEvalChunk)));
        const lab::Batch b = lab::make_batch(chunk);
        const lab::Seq2SeqOutputs out = model_.evaluate(b);
        long n = 0;
        for (long i = 0; i < b.B * b.T; ++i) {
          const int32_t target = b.tgt_out[static_cast<size_t>(i)];
          if (target == lab::kSeq2SeqPadId) continue;
          const float* row = out.logits.ptr() + i * Vt;
          correct += (std::max_element(row, row + Vt) - row) == target;
          ++n;
        }
        loss_sum += static_cast<double>(out.loss) * n;  // the core's loss is a mean over non-pad targets
        tokens += n;
      }
      lab::DecodeOptions opt = decode_defaults();
      opt.top_k = 1;
      for (const lab::Example& ex : held) {
        exact += lab::greedy_decode(model_, ex.source_ids, opt).tokens == ex.target_ids;
      }
      val out = val::object();
      out.set("loss", val(loss_sum / static_cast<double>(tokens)));
      out.set("tokenAccuracy", val(static_cast<double>(correct) / static_cast<double>(tokens)));
      out.set("exactMatch", val(static_cast<double>(exact) / static_cast<double>(held.size())));
      out.set("examples", val(static_cast<double>(held.size())));
      out.set("heldOutIsTrainingData", val(task_->held_out_is_training_data()));
      return out;
    });
  }

  val translate(std::string text, val options) {
    return guarded([&] {
      check_keys(options, {"beam", "maxLength", "topK"}, "translate options");
      const lab::Vocab& sv = task_->source_vocab();
      const lab::Vocab& tv = task_->target_vocab();
      const lab::Encoded enc = sv.encode(text);
      lab::DecodeOptions opt = decode_defaults();
      opt.max_length = whole(options, "maxLength", opt.max_length, 1, 1024, "maxLength");
      opt.top_k = whole(options, "topK", std::min<long>(opt.top_k, tv.size()), 1, tv.size(), "topK");
      const bool beam = !absent(options) && !absent(options["beam"]);
      if (beam) opt.beam_width = whole(options, "beam", 3, 1, 64, "beam");
      opt.validate(model_.config());

      const std::vector<std::string_view> words = lab::tokenize(text, sv.tokenizer());
      val source = val::array();
      for (size_t i = 0; i < enc.ids.size(); ++i) {
        val t = val::object();
        t.set("token", val(enc.unknown[i] ? sv.token(lab::kUnkId) : sv.token(enc.ids[i])));
        t.set("text", val(std::string(words[i])));
        t.set("id", val(enc.ids[i]));
        t.set("unknown", val(enc.unknown[i] != 0));
        source.call<void>("push", t);
      }
      val out = val::object();
      out.set("source", source);
      if (!beam) {
        const lab::GreedyResult g = lab::greedy_decode(model_, enc.ids, opt);
        out.set("output", tokens_js(g.tokens));
        out.set("text", val(tv.decode_text(g.tokens)));
        out.set("finished", val(g.finished));
        val steps = val::array();
        for (const lab::GreedyStep& s : g.steps) {
          val st = val::object();
          st.set("token", val(tv.token(s.token)));
          st.set("prob", val(s.prob));
          st.set("top", top_js(s.top));
          st.set("attention", float_array(s.attention));
          steps.call<void>("push", st);
        }
        out.set("steps", steps);
      } else {
        const lab::BeamResult r = lab::beam_search(model_, enc.ids, opt);
        out.set("output", tokens_js(r.tokens));
        out.set("text", val(tv.decode_text(r.tokens)));
        out.set("finished", val(!r.hypotheses.empty() && r.hypotheses.front().finished));
        val hyps = val::array();
        for (const lab::BeamHypothesis& hy : r.hypotheses) {
          val o = val::object();
          o.set("output", tokens_js(hy.tokens));
          o.set("text", val(tv.decode_text(hy.tokens)));
          o.set("logProb", val(hy.log_prob));
          o.set("score", val(hy.score));
          o.set("finished", val(hy.finished));
          o.set("step", val(static_cast<double>(hy.step)));
          o.set("node", val(static_cast<double>(hy.node)));
          hyps.call<void>("push", o);
        }
        val tree = val::array();
        for (const std::vector<lab::BeamNode>& nodes : r.steps) {
          val row = val::array();
          for (const lab::BeamNode& n : nodes) {
            val o = val::object();
            o.set("token", val(tv.token(n.token)));
            o.set("parent", val(static_cast<double>(n.parent)));
            o.set("prob", val(n.prob));
            o.set("logProb", val(n.log_prob));
            o.set("score", val(n.score));
            o.set("finished", val(n.finished));
            o.set("top", top_js(n.top));
            o.set("attention", float_array(n.attention));
            row.call<void>("push", o);
          }
          tree.call<void>("push", row);
        }
        val beams = val::object();
        beams.set("width", val(static_cast<double>(opt.beam_width)));
        beams.set("hypotheses", hyps);
        beams.set("steps", tree);
        out.set("beams", beams);
      }
      return out;
    });
  }

  val save() {
    return guarded([&] {
      const lab::Seq2SeqConfig& c = model_.config();
      json h = json::object();
      h["kind"] = kFileKind;
      h["task"] = task_->name();
      h["taskOptions"] = lab::task_options_to_json(task_options_);
      h["config"] = {{"cell", lab::cell_name(c.cell)},  {"hidden", c.hidden},
                     {"embedding", c.embedding},          {"attention", c.attention},
                     {"score", lab::score_name(c.score)}, {"attentionalTanh", c.attentional_tanh},
                     {"seed", c.seed}};
      h["training"] = {{"batchSize", settings_.batch_size},
                       {"learningRate", settings_.adam.lr},
                       {"clipNorm", settings_.clip_norm},
                       {"step", step_}};
      h["sourceVocab"] = task_->source_vocab().to_json();
      h["targetVocab"] = task_->target_vocab().to_json();
      std::vector<lab::NamedArray> arrays;
      const std::vector<float>& params = model_.params();
      for (const lab::ParamView& p : model_.param_table()) {
        arrays.push_back({p.name, lab::Tensor(p.shape, std::vector<float>(params.begin() + p.offset,
                                                                         params.begin() + p.offset + p.size))});
      }
      const std::vector<uint8_t> bytes = lab::write_model_file(h, arrays);
      return val(emscripten::typed_memory_view(bytes.size(), bytes.data())).call<val>("slice");
    });
  }

  val info() {
    return guarded([&] {
      const lab::Seq2SeqConfig& c = model_.config();
      val out = val::object();
      out.set("task", val(task_->name()));
      out.set("cell", val(std::string(lab::cell_name(c.cell))));
      out.set("hidden", val(static_cast<double>(c.hidden)));
      out.set("embedding", val(static_cast<double>(c.embedding_size())));
      out.set("attention", val(c.attention));
      out.set("score", val(std::string(lab::score_name(c.score))));
      out.set("attentionalTanh", val(c.attentional_tanh));
      out.set("seed", val(static_cast<double>(c.seed)));
      out.set("batchSize", val(static_cast<double>(settings_.batch_size)));
      out.set("learningRate", val(settings_.adam.lr));
      out.set("clipNorm", val(settings_.clip_norm));
      out.set("sourceVocabSize", val(static_cast<double>(c.src_vocab)));
      out.set("targetVocabSize", val(static_cast<double>(c.tgt_vocab)));
      out.set("sourceTokenizer", val(std::string(lab::tokenizer_name(task_->source_vocab().tokenizer()))));
      out.set("targetTokenizer", val(std::string(lab::tokenizer_name(task_->target_vocab().tokenizer()))));
      out.set("parameterCount", val(static_cast<double>(model_.num_params())));
      out.set("step", val(static_cast<double>(step_)));
      return out;
    });
  }

 private:
  lab::DecodeOptions decode_defaults() const {
    lab::DecodeOptions opt;
    opt.sos_id = lab::kSosId;
    opt.eos_id = lab::kEosId;
    opt.max_length = std::max<long>(opt.max_length, task_->max_target_tokens() + 1);
    opt.top_k = std::min<long>(opt.top_k, model_.config().tgt_vocab);
    return opt;
  }

  val tokens_js(const std::vector<int32_t>& ids) const {
    val a = val::array();
    for (int32_t id : ids) a.call<void>("push", val(task_->target_vocab().token(id)));
    return a;
  }

  val top_js(const std::vector<lab::TokenProb>& top) const {
    val a = val::array();
    for (const lab::TokenProb& t : top) {
      val o = val::object();
      o.set("token", val(task_->target_vocab().token(t.id)));
      o.set("prob", val(t.prob));
      a.call<void>("push", o);
    }
    return a;
  }

  std::unique_ptr<lab::Task> task_;
  lab::TaskOptions task_options_;
  lab::Seq2SeqModel model_;
  TrainSettings settings_;
  lab::Rng rng_;
  long step_ = 0;
};

// Factories: the new session or {error}. val(T&&) moves the session into a heap object whose
// JS handle owns it: handle.delete() runs ~Seq2SeqSession and frees it.
val create_seq2seq_js(val config) {
  return guarded([&] { return val(Seq2SeqSession::from_js(config)); });
}

val load_seq2seq_js(val bytes) {
  return guarded([&] { return val(Seq2SeqSession::from_file(bytes)); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_seq2seq) {
  emscripten::class_<Seq2SeqSession>("Seq2SeqSession")
      .function("train", &Seq2SeqSession::train)
      .function("evaluate", &Seq2SeqSession::evaluate)
      .function("translate", &Seq2SeqSession::translate)
      .function("save", &Seq2SeqSession::save)
      .function("info", &Seq2SeqSession::info);
  emscripten::function("createSeq2Seq", &create_seq2seq_js);
  emscripten::function("loadSeq2Seq", &load_seq2seq_js);
}
