// Autoregressive decoding, the part every model shares: the options, the traced results of greedy
// and beam search (so a front end can show the top candidates, the attention over the source at
// every step, and the beam tree), the interventions, and the beam search loop over a model's
// step function. Each model's decoders are its own (rnn/decode.h, transformer/decode.h). Token
// ids only (vocab.h turns them into text).
//
// Dimension letters as in tensor.h: S source length, Vt target vocabulary.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tensor.h"  // InputError

namespace lab {

struct DecodeOptions {
  int32_t sos_id = 1;         // vocab.h kSosId: the first decoder input
  int32_t eos_id = 2;         // vocab.h kEosId: ends a hypothesis
  long max_length = 32;       // output tokens per hypothesis, <eos> included
  long top_k = 5;             // candidates kept in the trace of each step
  long beam_width = 3;        // beam search only
  double length_alpha = 1.0;  // beam score = log p / length^α (α = 0: raw log-probability)

  // Throws InputError unless the ids, top_k and the rest fit a target vocabulary of Vt ids.
  void validate(long Vt) const;
};

// An intervention on one step's attention (below): given the model's own weights (S), leaves
// the weights the context is computed from (S), a distribution over the source.
using AttentionEdit = std::function<void(std::vector<float>& weights)>;

struct TokenProb {
  int32_t id = 0;
  float prob = 0.0f;
};

struct GreedyStep {
  int32_t token = 0;              // argmax of this step's distribution (or the forced token)
  float prob = 0.0f;              // its probability
  std::vector<TokenProb> top;     // top_k candidates, most probable first
  std::vector<float> attention;   // (S) weights over the source; empty without attention
  std::vector<float> logits;      // (Vt) this step's logits
  std::vector<float> context;     // (Hd) the attention's output; empty without attention
  bool forced_token = false;      // token was chosen by a force-token intervention
  bool edited_attention = false;  // attention was changed by an intervention
};

// What a reader can do to one decoding step (greedy decoding only):
// - kForceAttention: all the attention on source token `source` (a one-hot row);
// - kEditAttention: the row replaced by `weights` (S non-negative numbers), renormalised;
// - kMaskSource: source token `source` removed from the row, the rest renormalised;
// - kForceToken: `token` is the step's output (and the next step's input) instead of the argmax.
// At one step: at most one force or edit, then any masks, and at most one forced token.
// The Transformer (transformer/decode.h) takes force-attention (its cross-attention, per layer
// and head), force-token and
// - kZeroHead: head `head` of layer `layer` of one kind of attention outputs zeros, at one step
//   or (step −1) at every step; the encoder's self-attention runs once, so only with step −1.
enum class InterventionKind {
  kForceAttention,
  kEditAttention,
  kMaskSource,
  kForceToken,
  kZeroHead
};

// Which attention of a Transformer an intervention acts on.
enum class AttentionSite { kCross, kEncoderSelf, kDecoderSelf };

struct Intervention {
  long step = 0;  // 0-based decoding step; −1: every step (zero-head only)
  InterventionKind kind = InterventionKind::kForceAttention;
  long source = -1;            // force-attention, mask-source: 0-based source position
  std::vector<float> weights;  // edit-attention: (S)
  int32_t token = -1;          // force-token: target id
  // Transformer only: the attention, layer and head (−1: every layer / every head).
  AttentionSite attention = AttentionSite::kCross;
  long layer = -1, head = -1;
};

const char* intervention_kind_name(InterventionKind kind);
InterventionKind parse_intervention_kind(const std::string& name);  // throws InputError
const char* attention_site_name(AttentionSite site);
AttentionSite parse_attention_site(const std::string& name);  // throws InputError
// "intervention 2 (mask-source at step 3)": how every message names an intervention.
std::string describe_intervention(size_t index, const Intervention& v);
// Throws "… the step is beyond the translation, which ended after N steps" for an intervention
// at a step the decoding did not reach (`taken` steps).
void check_steps_reached(const std::vector<Intervention>& interventions, long taken);

// The source token of force-attention / mask-source inside the sentence of S tokens, and
// edit-attention's row: S finite weights ≥ 0 summing to a positive number. Throws InputError
// starting with `what` (describe_intervention).
void check_attention_row(const std::string& what, const Intervention& v, long S);

// Whether an intervention changes attention (force-attention, edit-attention, mask-source).
bool is_attention_kind(InterventionKind kind);

// The edit that step t's attention interventions make to its row (nullptr: none at step t).
AttentionEdit attention_edit(const std::vector<Intervention>& interventions, long t);

struct GreedyResult {
  std::vector<int32_t> tokens;    // the output without <eos>
  bool finished = false;          // true if <eos> was produced within max_length
  std::vector<GreedyStep> steps;  // one per produced token, <eos> included
};

// One expanded node of the beam tree.
struct BeamNode {
  int32_t token = 0;
  long parent = -1;              // index into the previous step's nodes; −1: the <sos> root
  float prob = 0.0f;             // p(token | parent's prefix)
  double log_prob = 0.0;         // log p of the whole prefix ending in this token
  double score = 0.0;            // log_prob / length^α, what hypotheses are ranked by
  bool finished = false;         // token is <eos>: this hypothesis is complete
  std::vector<TokenProb> top;    // top_k candidates of the distribution this token came from
  std::vector<float> attention;  // (S) attention of the step that produced this token
};

struct BeamHypothesis {
  std::vector<int32_t> tokens;  // without <eos>
  double log_prob = 0.0;
  double score = 0.0;
  bool finished = false;
  long step = 0, node = 0;  // its last node: steps[step].nodes[node]
};

struct BeamResult {
  std::vector<int32_t> tokens;  // best hypothesis without <eos>
  double score = 0.0;
  std::vector<BeamHypothesis> hypotheses;    // finished (then unfinished) ones, best first
  std::vector<std::vector<BeamNode>> steps;  // steps[t]: the beams kept after step t
};

// The plain result inside a model's decoding result: a model whose decoders trace more (the
// Transformer's) overloads these for its own results, so that the shared loops read any of them.
inline const GreedyResult& decoded(const GreedyResult& greedy) {
  return greedy;
}
inline const BeamResult& decoded(const BeamResult& beam) {
  return beam;
}

// The texts of a beam search's hypotheses, best first, appended to `texts` by the target
// vocabulary's decode_text (a session's Vocab, an interchange file's FileVocab); returns whether
// the best one finished.
template <class TargetVocab>
bool beam_texts(const BeamResult& beam, const TargetVocab& target_vocab,
                std::vector<std::string>& texts) {
  for (const BeamHypothesis& h : beam.hypotheses)
    texts.push_back(target_vocab.decode_text(h.tokens));
  return !beam.hypotheses.empty() && beam.hypotheses.front().finished;
}

// The search's pieces, shared with the Transformer's (transformer/search.cpp) so that both kinds
// of model rank, break ties, shrink the beam and score lengths the same way.
namespace decoding {

// Token ids ordered by logit (descending), ties by id: one order for greedy and beam search, so
// beam width 1 picks exactly greedy's token. The first min(k, Vt) of them.
std::vector<int32_t> ranked(const std::vector<float>& logits, long k);

// log softmax(logits) (Vt), in double: cumulative beam scores add many of them.
std::vector<double> log_softmax(const std::vector<float>& logits);

// The k most probable tokens (ranked) with their probabilities exp(logp).
std::vector<TokenProb> top_candidates(const std::vector<float>& logits,
                                      const std::vector<double>& logp, long k);

// score = log p / length^α
double length_score(double log_prob, long length, double alpha);

// A live prefix `beam` extended by `token`, with the extended prefix's log-probability.
struct BeamCandidate {
  long beam;
  int32_t token;
  double log_prob;
};

// Keeps the `slots` best candidates: best cumulative log-probability first; ties keep beam order,
// then token order (the order they were added in).
void keep_best(std::vector<BeamCandidate>& candidates, long slots);

// Fills result.hypotheses (every finished node, plus the last step's nodes if the search stopped
// at max_length with live prefixes, `hit_max_length`), best first, and result.tokens and .score
// from the best one. result.steps is the whole beam tree.
void collect_hypotheses(BeamResult& result, bool hit_max_length, int32_t eos_id);

// A greedy step's choice: the top_k candidates of `logits` (log-probabilities `logp`) and the
// argmax with its probability.
GreedyStep greedy_choice(const std::vector<float>& logits, const std::vector<double>& logp,
                         long top_k);

// Appends a greedy step to `result`: false when its token is <eos> (the decoding is finished),
// else true with the token added to the output.
bool append_greedy_step(GreedyResult& result, GreedyStep&& step, int32_t eos_id);

// The beam search of both kinds of model. `start` is the decoder state after the encoder;
// `step(state, input)` runs the decoder once and returns a step result with `.logits` (Vt) and
// `.state`; `record(t, node, expanded)` fills what a node keeps of the step result it came from
// (its attention, a trace). Every live prefix is expanded by its beam_width best tokens (enough
// to fill any beam), the best `beam_width − finished` candidates are kept, and a hypothesis
// ends at <eos>; result gets the whole beam tree and its hypotheses (collect_hypotheses).
template <class State, class StepFn, class RecordFn>
void run_beam(BeamResult& result, State start, const DecodeOptions& options, StepFn step,
              RecordFn record) {
  struct Live {
    State state;
    int32_t input;
    double log_prob;
    long node;  // index in the last step's nodes, −1 for the root
  };
  std::vector<Live> live;
  live.push_back({std::move(start), options.sos_id, 0.0, -1});
  long finished = 0;
  for (long t = 0; t < options.max_length && !live.empty(); ++t) {
    std::vector<decltype(step(live[0].state, live[0].input))> expanded;
    std::vector<std::vector<double>> logps;
    std::vector<BeamCandidate> candidates;
    for (size_t i = 0; i < live.size(); ++i) {
      expanded.push_back(step(live[i].state, live[i].input));
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
      record(t, node, expanded[c.beam]);
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
}

}  // namespace decoding

}  // namespace lab
