// JS ⇄ core conversion shared by the translator and bare-model bindings (seq2seq_convert.h).
#include "seq2seq_convert.h"

#include <climits>

#include "convert.h"
#include "why_convert.h"

namespace labjs {

namespace {

val top_to_js(const TokenName& token, const std::vector<lab::TokenProb>& top) {
  val a = val::array();
  for (const lab::TokenProb& t : top) {
    val o = val::object();
    o.set("token", val(token(t.id)));
    o.set("prob", val(t.prob));
    a.call<void>("push", o);
  }
  return a;
}

// An id matrix: its (rows, cols) shape and whole-number values.
struct IdMatrix {
  long rows = 0, cols = 0;
  std::vector<int32_t> ids;
};

IdMatrix id_matrix_from_js(const val& v, const std::string& name) {
  // tensor_from_js checks the shape and the data length; ids_from_js the whole numbers.
  const lab::Tensor t = tensor_from_js(v, name);
  lab::check_rank(t, 2, name, "(B, length)");
  return IdMatrix{t.shape[0], t.shape[1], ids_from_js(v, name)};
}

val shape_to_js(const std::vector<long>& shape) {
  val a = val::array();
  for (long d : shape) a.call<void>("push", val(static_cast<double>(d)));
  return a;
}

}  // namespace

lab::TaskOptions task_options_from_js(const val& obj, uint64_t default_seed) {
  check_keys(obj, {"seed", "heldOut", "train", "minLen", "maxLen", "symbols"},
             "config.taskOptions");
  lab::TaskOptions o;
  o.seed = js_seed(obj, "seed", "config.taskOptions.seed").value_or(default_seed);
  o.held_out = js_whole(obj, "heldOut", "config.taskOptions.heldOut").value_or(o.held_out);
  o.train = js_whole(obj, "train", "config.taskOptions.train").value_or(o.train);
  o.min_len = js_whole(obj, "minLen", "config.taskOptions.minLen").value_or(o.min_len);
  o.max_len = js_whole(obj, "maxLen", "config.taskOptions.maxLen").value_or(o.max_len);
  o.symbols = js_whole(obj, "symbols", "config.taskOptions.symbols").value_or(o.symbols);
  return o;
}

val task_options_to_js(const lab::TaskOptions& o, const lab::Task& task) {
  const std::string& name = task.name();
  const bool counted = name == "reverse" || name == "copy" || name == "zh-en";
  const long held_out = name == "pairs" ? 0 : static_cast<long>(task.held_out().size());
  val out = val::object();
  out.set("seed", number(static_cast<double>(o.seed)));
  out.set("heldOut", number(o.held_out != 0 ? o.held_out : held_out));
  out.set("train", number(o.train != 0 ? o.train : counted ? task.train_size() : 0));
  out.set("minLen", number(o.min_len));
  out.set("maxLen", number(o.max_len));
  out.set("symbols", number(o.symbols));
  return out;
}

void pairs_options_from_js(const val& config, const std::string& task, lab::TaskOptions& o) {
  const bool any =
      has_value(config, "pairs") || has_value(config, "tokenize") || has_value(config, "heldOut");
  if (task != "pairs") {
    if (any) {
      throw lab::InputError(
          "config.pairs, config.tokenize and config.heldOut are for task 'pairs' only (the task is "
          "'" +
          task + "')");
    }
    return;
  }
#ifdef LAB_NO_PAIRS_TASK
  // the widgets' modules (CMakeLists.txt): make_task says this build has no task 'pairs'
  (void)o;
#else
  if (!has_value(config, "pairs")) {
    throw lab::InputError(
        "task 'pairs' needs config.pairs: the sentence pairs, one source<TAB>target per line");
  }
  o.pairs = js_text(config["pairs"], "config.pairs");
  o.tokenize = lab::parse_tokenizer(js_string(config, "tokenize", "words", "config.tokenize"));
  o.held_out_fraction = js_number(config, "heldOut", o.held_out_fraction, "config.heldOut");
#endif
}

void set_pairs_info(val& info, const lab::TaskOptions& o, const lab::Task& task) {
#ifdef LAB_NO_PAIRS_TASK
  (void)info, (void)o, (void)task;  // no task 'pairs' in this build
  return;
#endif
  if (task.name() != "pairs") return;
  val out = val::object();
  out.set("tokenize", val(std::string(lab::tokenizer_name(o.tokenize))));
  out.set("heldOut", val(o.held_out_fraction));
  out.set("trainPairs", number(task.train_size()));
  out.set(
      "heldOutPairs",
      number(task.held_out_is_training_data() ? 0 : static_cast<double>(task.held_out().size())));
  info.set("pairs", out);
}

std::vector<std::string> session_config_keys(std::vector<std::string> own) {
  for (const char* key : {"seed", "batchSize", "learningRate", "clipNorm", "taskOptions", "pairs",
                          "tokenize", "heldOut"}) {
    own.push_back(key);
  }
  return own;
}

lab::EvalOptions eval_options_from_js(const val& options) {
  check_keys(options, {"maxExamples", "length", "count", "seed"}, "evaluate options");
  lab::EvalOptions o;
  o.max_examples = js_whole(options, "maxExamples", "evaluate: maxExamples");
  o.length = js_whole(options, "length", "evaluate: length");
  o.count = js_whole(options, "count", "evaluate: count");
  o.seed = js_seed(options, "seed", "evaluate: seed");
  return o;
}

val eval_result_to_js(const lab::EvalResult& r) {
  val out = val::object();
  out.set("loss", val(r.loss));
  out.set("tokenAccuracy", val(r.token_accuracy));
  val by_position = val::array();
  for (const double a : r.token_accuracy_by_position) by_position.call<void>("push", val(a));
  out.set("tokenAccuracyByPosition", by_position);
  out.set("exactMatch", val(r.exact_match));
  out.set("examples", number(r.examples));
  out.set("heldOutIsTrainingData", val(r.held_out_is_training_data));
  val buckets = val::array();
  for (const lab::LengthBucketResult& b : r.exact_match_by_length) {
    val o = val::object();
    o.set("minLength", number(b.min_words));
    o.set("maxLength", number(b.max_words));
    o.set("examples", number(b.examples));
    o.set("exactMatch", val(b.exact_match));
    buckets.call<void>("push", o);
  }
  out.set("exactMatchByLength", buckets);
  return out;
}

void set_training_info(val& out, uint64_t seed, long batch_size, double learning_rate,
                       double clip_norm, const lab::Task& task, long max_source_tokens,
                       long parameter_count, long step) {
  out.set("seed", number(static_cast<double>(seed)));
  out.set("batchSize", number(batch_size));
  out.set("learningRate", val(learning_rate));
  out.set("clipNorm", val(clip_norm));
  out.set("sourceVocabSize", number(task.source_vocab().size()));
  out.set("targetVocabSize", number(task.target_vocab().size()));
  out.set("sourceTokenizer",
          val(std::string(lab::tokenizer_name(task.source_vocab().tokenizer()))));
  out.set("maxSourceTokens", number(max_source_tokens));
  out.set("targetTokenizer",
          val(std::string(lab::tokenizer_name(task.target_vocab().tokenizer()))));
  out.set("parameterCount", number(parameter_count));
  out.set("step", number(step));
}

lab::TranslateOptions translate_options_from_js(const val& options, bool interventions) {
  check_keys(options, {"beam", "maxLength", "topK", "lengthAlpha", "interventions"},
             "translate options");
  if (!interventions && has_value(options, "interventions")) {
    throw lab::InputError("interventions: this translator's build does not take them");
  }
  lab::TranslateOptions o;
  o.beam = js_whole(options, "beam", "beam");
  o.max_length = js_whole(options, "maxLength", "maxLength");
  o.top_k = js_whole(options, "topK", "topK");
  o.length_alpha = js_number(options, "lengthAlpha", "lengthAlpha");
  return o;
}

bool asks_interventions(const val& options) {
  return has_value(options, "interventions") &&
         !(val::global("Array").call<bool>("isArray", options["interventions"]) &&
           options["interventions"]["length"].as<long>() == 0);
}

lab::TranslateOptions plain_translate_options_from_js(const val& options, const char* module) {
  if (asks_interventions(options)) {
    throw lab::InputError(std::string("interventions: this build (the '") + module +
                          "' module for widgets) has none; the full module has them");
  }
  return translate_options_from_js(options, has_value(options, "interventions"));
}

val strings_to_js(const std::vector<std::string>& strings) {
  val a = val::array();
  for (const std::string& s : strings) a.call<void>("push", val(s));
  return a;
}

val ids_to_js(const std::vector<int32_t>& ids) {
  val a = val::array();
  for (int32_t id : ids) a.call<void>("push", val(id));
  return a;
}

val tokens_to_js(const TokenName& token, const std::vector<int32_t>& ids) {
  val a = val::array();
  for (int32_t id : ids) a.call<void>("push", val(token(id)));
  return a;
}

val translation_to_js(const TokenName& token, const std::vector<lab::SourceToken>& source,
                      const std::vector<int32_t>& output, const std::string& text, bool finished) {
  val tokens = val::array();
  for (const lab::SourceToken& t : source) {
    val s = val::object();
    s.set("token", val(t.token));
    s.set("text", val(t.text));
    s.set("id", val(t.id));
    s.set("unknown", val(t.unknown));
    tokens.call<void>("push", s);
  }
  val out = val::object();
  out.set("source", tokens);
  out.set("output", tokens_to_js(token, output));
  out.set("text", val(text));
  out.set("finished", val(finished));
  return out;
}

val greedy_steps_to_js(const TokenName& token, const std::vector<lab::GreedyStep>& steps,
                       const StepExtra& extra) {
  val out = val::array();
  for (size_t i = 0; i < steps.size(); ++i) {
    const lab::GreedyStep& s = steps[i];
    val o = val::object();
    o.set("token", val(token(s.token)));
    o.set("prob", val(s.prob));
    o.set("top", top_to_js(token, s.top));
    o.set("attention", float_array_to_js(s.attention));
    if (extra) extra(o, i, 0);
    out.call<void>("push", o);
  }
  return out;
}

val beam_trace_to_js(const TokenName& token, const lab::BeamResult& beam,
                     const std::vector<std::string>& hypothesis_texts, long width,
                     const StepExtra& extra) {
  val hypotheses = val::array();
  for (size_t i = 0; i < beam.hypotheses.size(); ++i) {
    const lab::BeamHypothesis& h = beam.hypotheses[i];
    val o = val::object();
    o.set("output", tokens_to_js(token, h.tokens));
    o.set("text", val(hypothesis_texts[i]));
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
      o.set("token", val(token(node.token)));
      o.set("parent", number(node.parent));
      o.set("prob", val(node.prob));
      o.set("logProb", val(node.log_prob));
      o.set("score", val(node.score));
      o.set("finished", val(node.finished));
      o.set("top", top_to_js(token, node.top));
      o.set("attention", float_array_to_js(node.attention));
      if (extra) extra(o, t, n);
      row.call<void>("push", o);
    }
    tree.call<void>("push", row);
  }
  val beams = val::object();
  beams.set("width", number(width));
  beams.set("hypotheses", hypotheses);
  beams.set("steps", tree);
  return beams;
}

lab::Batch batch_from_js(const val& js) {
  if (is_absent(js))
    throw lab::InputError("batch must be an object {src, srcLengths, tgtIn, tgtOut}");
  check_keys(js, {"src", "srcLengths", "tgtIn", "tgtOut"}, "batch");
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
  if (is_absent(lengths) || !val::global("Array").call<bool>("isArray", lengths)) {
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
    const long len = js_whole(lengths[i], name);
    if (len < INT32_MIN || len > INT32_MAX) throw lab::InputError(name + " is out of range");
    b.src_len.push_back(static_cast<int32_t>(len));
  }
  return b;
}

val param_names_to_js(const std::vector<lab::ParamView>& views) {
  val out = val::array();
  for (const lab::ParamView& v : views) {
    val o = val::object();
    o.set("name", val(v.name));
    o.set("shape", shape_to_js(v.shape));
    out.call<void>("push", o);
  }
  return out;
}

val param_to_js(const lab::ParamView& v, const std::vector<float>& buffer) {
  const auto begin = buffer.begin() + v.offset;
  return tensor_to_js(lab::Tensor(v.shape, std::vector<float>(begin, begin + v.size)));
}

val params_by_name_to_js(const std::vector<lab::ParamView>& views,
                         const std::vector<float>& buffer) {
  val out = val::object();
  for (const lab::ParamView& v : views) out.set(v.name, param_to_js(v, buffer));
  return out;
}

std::string param_name_from_js(const val& name, const char* what) {
  if (!name.isString()) throw lab::InputError(std::string(what) + ": name must be a string");
  return name.as<std::string>();
}

lab::AdamOptions adam_options_from_js(const val& options,
                                      const std::vector<std::string>& extra_keys,
                                      const char* usage) {
  if (!has_value(options, "lr")) throw lab::InputError(usage);
  std::vector<std::string> keys = {"lr", "beta1", "beta2", "eps", "weightDecay"};
  keys.insert(keys.end(), extra_keys.begin(), extra_keys.end());
  check_keys(options, keys, "adamStep options");
  lab::AdamOptions o;
  o.lr = static_cast<float>(js_number(options, "lr", o.lr, "lr"));
  o.beta1 = static_cast<float>(js_number(options, "beta1", o.beta1, "beta1"));
  o.beta2 = static_cast<float>(js_number(options, "beta2", o.beta2, "beta2"));
  o.eps = static_cast<float>(js_number(options, "eps", o.eps, "eps"));
  o.weight_decay =
      static_cast<float>(js_number(options, "weightDecay", o.weight_decay, "weightDecay"));
  return o;
}

float max_norm_from_js(const val& max_norm) {
  if (!max_norm.isNumber())
    throw lab::InputError("clipGradNorm(maxNorm): maxNorm must be a number");
  return static_cast<float>(max_norm.as<double>());
}

}  // namespace labjs
