#include "gpt_convert.h"

#include "convert.h"

using emscripten::val;

namespace labjs {

std::vector<lab::GptHeadRef> zero_heads_from_js(const val& obj) {
  std::vector<lab::GptHeadRef> out;
  if (is_absent(obj) || !has_value(obj, "zeroHeads")) return out;
  const val list = obj["zeroHeads"];
  if (!val::global("Array").call<bool>("isArray", list)) {
    throw lab::InputError("zeroHeads must be an array of [layer, head] pairs");
  }
  const long n = list["length"].as<long>();
  for (long i = 0; i < n; ++i) {
    const std::string key = "zeroHeads[" + std::to_string(i) + "]";
    const val pair = list[i];
    if (!val::global("Array").call<bool>("isArray", pair) || pair["length"].as<long>() != 2) {
      throw lab::InputError(key + " must be a pair [layer, head]");
    }
    out.push_back({js_whole(pair[0], key + "[0] (layer)"), js_whole(pair[1], key + "[1] (head)")});
  }
  return out;
}

val head_scores_to_js(const lab::GptHeadScores& s) {
  val out = val::object();
  out.set("layers", val(static_cast<double>(s.layers)));
  out.set("heads", val(static_cast<double>(s.heads)));
  val queries = val::object(), even = val::object();
  const long LH = s.layers * s.heads;
  for (long d = 0; d < lab::kGptDetectors; ++d) {
    queries.set(lab::kGptDetectorNames[d], val(static_cast<double>(s.queries[d])));
    even.set(lab::kGptDetectorNames[d], val(static_cast<double>(s.even[d])));
    const std::vector<float> part(s.scores.begin() + d * LH, s.scores.begin() + (d + 1) * LH);
    out.set(lab::kGptDetectorNames[d], tensor_to_js(lab::Tensor({s.layers, s.heads}, part)));
  }
  out.set("queries", queries);
  out.set("even", even);
  return out;
}

lab::GenerateOptions generate_options_from_js(const val& options,
                                              const std::vector<std::string>& extra_keys,
                                              const std::string& what) {
  std::vector<std::string> keys = {"maxNewTokens", "greedy", "temperature",   "topK",
                                   "topP",         "seed",   "topCandidates", "zeroHeads"};
  keys.insert(keys.end(), extra_keys.begin(), extra_keys.end());
  check_keys(options, keys, what);
  lab::GenerateOptions o;
  if (is_absent(options)) return o;
  o.max_new_tokens = js_whole(options, "maxNewTokens", "maxNewTokens").value_or(32);
  o.sampling.greedy = js_bool(options, "greedy", false, "greedy");
  o.sampling.temperature =
      static_cast<float>(js_number(options, "temperature", 1.0, "temperature"));
  o.sampling.top_k = js_whole(options, "topK", "topK").value_or(0);
  o.sampling.top_p = static_cast<float>(js_number(options, "topP", 1.0, "topP"));
  o.seed = js_seed(options, "seed", "seed").value_or(0);
  o.top_candidates = js_whole(options, "topCandidates", "topCandidates").value_or(5);
  o.zero_heads = zero_heads_from_js(options);
  return o;  // checked by lab::generate
}

val generation_steps_to_js(const lab::Generation& g, const lab::GptConfig& c,
                           const std::vector<std::string>* chars) {
  val steps = val::array();
  for (const lab::GenerationStep& s : g.steps) {
    val step = val::object();
    step.set("token", val(s.token));
    if (chars) step.set("char", val((*chars)[static_cast<size_t>(s.token)]));
    step.set("position", val(static_cast<double>(s.position)));
    step.set("prob", val(s.prob));
    step.set("keys", val(static_cast<double>(s.keys)));
    val top = val::array();
    for (const lab::TokenCandidate& t : s.top) {
      val cand = val::object();
      cand.set("id", val(t.id));
      if (chars) cand.set("char", val((*chars)[static_cast<size_t>(t.id)]));
      cand.set("prob", val(t.prob));
      cand.set("sampleProb", val(t.sample_prob));
      top.call<void>("push", cand);
    }
    step.set("top", top);
    step.set("attention", tensor_to_js(lab::Tensor({c.layers, c.heads, s.keys}, s.attention)));
    steps.call<void>("push", step);
  }
  return steps;
}

}  // namespace labjs
