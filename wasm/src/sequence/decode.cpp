#include "sequence/decode.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "format.h"

namespace lab {

namespace decoding {

// Token ids ordered by logit (descending), ties by id: one order for greedy and beam search, so
// beam width 1 picks exactly greedy's token.
std::vector<int32_t> ranked(const std::vector<float>& logits, long k) {
  std::vector<int32_t> ids(logits.size());
  std::iota(ids.begin(), ids.end(), 0);
  k = std::min<long>(k, static_cast<long>(ids.size()));
  std::partial_sort(ids.begin(), ids.begin() + k, ids.end(), [&](int32_t a, int32_t b) {
    return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
  });
  ids.resize(static_cast<size_t>(k));
  return ids;
}

// log softmax(logits) (Vt), in double: cumulative beam scores add many of them.
std::vector<double> log_softmax(const std::vector<float>& logits) {
  const double mx = *std::max_element(logits.begin(), logits.end());
  double sum = 0.0;
  for (float x : logits) sum += std::exp(x - mx);
  const double lse = mx + std::log(sum);
  std::vector<double> out(logits.size());
  for (size_t i = 0; i < logits.size(); ++i) out[i] = logits[i] - lse;
  return out;
}

std::vector<TokenProb> top_candidates(const std::vector<float>& logits,
                                      const std::vector<double>& logp, long k) {
  std::vector<TokenProb> top;
  for (int32_t id : ranked(logits, k)) top.push_back({id, static_cast<float>(std::exp(logp[id]))});
  return top;
}

double length_score(double log_prob, long length, double alpha) {
  return log_prob / std::pow(static_cast<double>(length), alpha);
}

void keep_best(std::vector<BeamCandidate>& candidates, long slots) {
  std::stable_sort(
      candidates.begin(), candidates.end(),
      [](const BeamCandidate& a, const BeamCandidate& b) { return a.log_prob > b.log_prob; });
  candidates.resize(std::min<size_t>(candidates.size(), static_cast<size_t>(slots)));
}

GreedyStep greedy_choice(const std::vector<float>& logits, const std::vector<double>& logp,
                         long top_k) {
  GreedyStep step;
  step.top = top_candidates(logits, logp, top_k);
  step.token = step.top.front().id;  // argmax
  step.prob = step.top.front().prob;
  return step;
}

bool append_greedy_step(GreedyResult& result, GreedyStep&& step, int32_t eos_id) {
  result.steps.push_back(std::move(step));
  const int32_t token = result.steps.back().token;
  if (token == eos_id) {
    result.finished = true;
    return false;
  }
  result.tokens.push_back(token);
  return true;
}

void collect_hypotheses(BeamResult& result, bool hit_max_length, int32_t eos_id) {
  const long last = static_cast<long>(result.steps.size()) - 1;
  for (long t = 0; t <= last; ++t) {
    for (long n = 0; n < static_cast<long>(result.steps[t].size()); ++n) {
      const BeamNode& node = result.steps[t][n];
      if (!node.finished && !(t == last && hit_max_length)) continue;
      BeamHypothesis h;
      h.log_prob = node.log_prob;
      h.score = node.score;
      h.finished = node.finished;
      h.step = t;
      h.node = n;
      // Walk the parents back to the root; <eos> is not part of the output.
      long s = t, i = n;
      while (i >= 0) {
        const BeamNode& at = result.steps[s][i];
        if (at.token != eos_id) h.tokens.push_back(at.token);
        i = at.parent;
        --s;
      }
      std::reverse(h.tokens.begin(), h.tokens.end());
      result.hypotheses.push_back(std::move(h));
    }
  }
  std::stable_sort(result.hypotheses.begin(), result.hypotheses.end(),
                   [](const BeamHypothesis& a, const BeamHypothesis& b) {
                     if (a.finished != b.finished) return a.finished;
                     return a.score > b.score;
                   });
  if (!result.hypotheses.empty()) {
    result.tokens = result.hypotheses.front().tokens;
    result.score = result.hypotheses.front().score;
  }
}

}  // namespace decoding

using namespace decoding;

void DecodeOptions::validate(long V) const {
  if (sos_id < 0 || sos_id >= V || eos_id < 0 || eos_id >= V) {
    throw InputError("decode: <sos> id " + std::to_string(sos_id) + " and <eos> id " +
                     std::to_string(eos_id) + " must be inside the target vocabulary of " +
                     std::to_string(V));
  }
  if (max_length < 1 || max_length > 1024) {
    throw InputError("maxLength must be in [1, 1024] (got " + std::to_string(max_length) + ")");
  }
  if (top_k < 1 || top_k > V) {
    throw InputError("topK must be in [1, " + std::to_string(V) + "] (got " +
                     std::to_string(top_k) + ")");
  }
  if (beam_width < 1 || beam_width > 64) {
    throw InputError("beam must be in [1, 64] (got " + std::to_string(beam_width) + ")");
  }
  if (!std::isfinite(length_alpha) || length_alpha < 0.0 || length_alpha > 4.0) {
    throw InputError("lengthAlpha must be in [0, 4] (got " + format_number(length_alpha) + ")");
  }
}

}  // namespace lab
