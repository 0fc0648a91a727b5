#include "seq2seq/decode.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

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

void DecodeOptions::validate(const Seq2SeqConfig& config) const {
  const long V = config.tgt_vocab;
  if (sos_id < 0 || sos_id >= V || eos_id < 0 || eos_id >= V) {
    throw InputError("decode: <sos> id " + std::to_string(sos_id) + " and <eos> id " +
                     std::to_string(eos_id) + " must be inside the target vocabulary of " +
                     std::to_string(V));
  }
  if (max_length < 1 || max_length > 1024) {
    throw InputError("decode: max_length must be in [1, 1024] (got " + std::to_string(max_length) +
                     ")");
  }
  if (top_k < 1 || top_k > V) {
    throw InputError("decode: top_k must be in [1, " + std::to_string(V) + "] (got " +
                     std::to_string(top_k) + ")");
  }
  if (beam_width < 1 || beam_width > 64) {
    throw InputError("decode: beam_width must be in [1, 64] (got " + std::to_string(beam_width) +
                     ")");
  }
  if (!std::isfinite(length_alpha) || length_alpha < 0.0 || length_alpha > 4.0) {
    throw InputError("decode: length_alpha must be in [0, 4]");
  }
}

GreedyResult greedy_decode(Seq2SeqModel& model, const std::vector<int32_t>& src,
                           const DecodeOptions& options) {
  options.validate(model.config());
  GreedyResult result;
  DecoderState state = model.encode(src);
  int32_t input = options.sos_id;
  for (long t = 0; t < options.max_length; ++t) {
    DecoderStepResult r = model.decoder_step(state, input);
    const std::vector<double> logp = log_softmax(r.logits);
    GreedyStep step;
    step.top = top_candidates(r.logits, logp, options.top_k);
    step.token = step.top.front().id;  // argmax
    step.prob = step.top.front().prob;
    step.attention = std::move(r.attention);
    step.logits = std::move(r.logits);
    step.context = std::move(r.context);
    result.steps.push_back(std::move(step));
    input = result.steps.back().token;
    if (input == options.eos_id) {
      result.finished = true;
      break;
    }
    result.tokens.push_back(input);
    state = std::move(r.state);
  }
  return result;
}

BeamResult beam_search(Seq2SeqModel& model, const std::vector<int32_t>& src,
                       const DecodeOptions& options) {
  options.validate(model.config());
  struct Live {
    DecoderState state;
    int32_t input;
    double log_prob;
    long node;  // index in the last step's nodes, −1 for the root
  };
  BeamResult result;
  std::vector<Live> live{{model.encode(src), options.sos_id, 0.0, -1}};
  long finished = 0;

  for (long t = 0; t < options.max_length && !live.empty(); ++t) {
    // Expand every live prefix by its beam_width best tokens: enough to fill any beam.
    std::vector<DecoderStepResult> expanded;
    std::vector<std::vector<double>> logps;
    std::vector<BeamCandidate> candidates;
    for (size_t i = 0; i < live.size(); ++i) {
      expanded.push_back(model.decoder_step(live[i].state, live[i].input));
      logps.push_back(log_softmax(expanded.back().logits));
      for (int32_t id : ranked(expanded.back().logits, options.beam_width)) {
        candidates.push_back({static_cast<long>(i), id, live[i].log_prob + logps.back()[id]});
      }
    }
    keep_best(candidates, options.beam_width - finished);

    std::vector<BeamNode> nodes;
    std::vector<Live> next;
    for (const BeamCandidate& c : candidates) {
      const Live& parent = live[static_cast<size_t>(c.beam)];
      BeamNode node;
      node.token = c.token;
      node.parent = parent.node;
      node.prob = static_cast<float>(std::exp(logps[c.beam][c.token]));
      node.log_prob = c.log_prob;
      node.score = length_score(c.log_prob, t + 1, options.length_alpha);
      node.finished = c.token == options.eos_id;
      node.top = top_candidates(expanded[c.beam].logits, logps[c.beam], options.top_k);
      node.attention = expanded[c.beam].attention;
      if (node.finished) {
        ++finished;
      } else {
        next.push_back(
            {expanded[c.beam].state, c.token, c.log_prob, static_cast<long>(nodes.size())});
      }
      nodes.push_back(std::move(node));
    }
    result.steps.push_back(std::move(nodes));
    live = std::move(next);
  }

  // Hypotheses: every finished node, plus the live prefixes if the search hit max_length.
  collect_hypotheses(result, !live.empty(), options.eos_id);
  return result;
}

}  // namespace lab
