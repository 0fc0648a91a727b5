// Greedy and beam search over a TransformerModel's incremental decoder, with full traces. The
// search is sequence/decode.cpp's (same ranking, ties, shrinking beam, length score), so a front
// end shows both kinds of model the same way.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "transformer/decode.h"

namespace lab {

using namespace decoding;

namespace {

void validate(const DecodeOptions& options, const TransformerConfig& config) {
  options.validate(config.tgt_vocab);
  if (options.max_length > kTransformerMaxLen) {
    throw InputError("maxLength must be at most " + std::to_string(kTransformerMaxLen) +
                     ", the positional table's size (got " + std::to_string(options.max_length) +
                     ")");
  }
}

TransformerEncoderTrace encoder_trace(const TransformerMemory& m) {
  return {m.S, m.self_att, m.rollout, m.cross_v};
}

// "layer 2 is out of range: the model has 2 layers (0 … 1, or −1 for every one)"
void check_index(long i, long n, const std::string& what, const char* name, const char* plural) {
  if (i < -1 || i >= n) {
    throw InputError(what + ": " + name + " " + std::to_string(i) +
                     " is out of range: the model has " + std::to_string(n) + " " + plural +
                     " (0 … " + std::to_string(n - 1) + "; leave it out for every one)");
  }
}

}  // namespace

void validate_transformer_interventions(const std::vector<Intervention>& interventions,
                                        const TransformerConfig& config, long S,
                                        const DecodeOptions& options) {
  if (static_cast<long>(interventions.size()) > options.max_length * 8 + 64) {
    throw InputError("interventions: " + std::to_string(interventions.size()) + " is too many");
  }
  for (size_t i = 0; i < interventions.size(); ++i) {
    const Intervention& v = interventions[i];
    const std::string what = describe_intervention(i, v);
    const bool every_step = v.kind == InterventionKind::kZeroHead && v.step == -1;
    if (!every_step && (v.step < 0 || v.step >= options.max_length)) {
      throw InputError(what + ": the step must be in [0, " + std::to_string(options.max_length) +
                       ")" +
                       (v.kind == InterventionKind::kZeroHead ? " (or left out: every step)" : ""));
    }
    if (v.kind == InterventionKind::kZeroHead && v.attention == AttentionSite::kEncoderSelf &&
        !every_step) {
      throw InputError(what +
                       ": the encoder runs once per sentence, before any step: leave out "
                       "step for attention encoder-self");
    }
    const bool row =
        v.kind != InterventionKind::kZeroHead && v.kind != InterventionKind::kForceToken;
    if (row && v.attention != AttentionSite::kCross) {
      throw InputError(what +
                       ": only the cross-attention's rows can be forced, edited or masked onto "
                       "source tokens (attention: cross)");
    }
    check_index(v.layer, config.layers, what, "layer", "layers");
    check_index(v.head, config.heads, what, "head", "heads");
    if (row) check_attention_row(what, v, S);
    // At one step and head: one row replacement (force or edit); masks may be several.
    const bool replaces =
        v.kind == InterventionKind::kForceAttention || v.kind == InterventionKind::kEditAttention;
    for (size_t j = 0; replaces && j < i; ++j) {
      const Intervention& u = interventions[j];
      const bool overlap = (u.layer < 0 || v.layer < 0 || u.layer == v.layer) &&
                           (u.head < 0 || v.head < 0 || u.head == v.head);
      if (u.step == v.step && overlap &&
          (u.kind == InterventionKind::kForceAttention ||
           u.kind == InterventionKind::kEditAttention)) {
        throw InputError(what + " conflicts with intervention " + std::to_string(j) + " (" +
                         intervention_kind_name(u.kind) + ") on the same head at the same step");
      }
    }
    if (v.kind == InterventionKind::kForceToken) {
      if (v.token < 0 || v.token >= config.tgt_vocab || v.token == kPadId ||
          v.token == options.sos_id) {
        throw InputError(what + ": token " + std::to_string(v.token) +
                         " is not a word the model can write");
      }
      for (size_t j = 0; j < i; ++j) {
        if (interventions[j].kind == InterventionKind::kForceToken &&
            interventions[j].step == v.step) {
          throw InputError(what + " conflicts with intervention " + std::to_string(j) +
                           " (force-token) at the same step");
        }
      }
    }
  }
}

TransformerGreedyResult greedy_decode(const TransformerModel& model,
                                      const std::vector<int32_t>& src, const DecodeOptions& options,
                                      const std::vector<Intervention>& interventions) {
  validate(options, model.config());
#ifdef LAB_NO_INTERVENTIONS
  // The widgets' Transformer module (CMakeLists.txt) has no interventions: their checks and the
  // conversion of their results cost it about 5 KB of gzipped wasm. Its session never passes any.
  if (!interventions.empty()) throw InputError("interventions: this build has none");
#else
  validate_transformer_interventions(interventions, model.config(), static_cast<long>(src.size()),
                                     options);
#endif
  TransformerGreedyResult out;
  auto memory = transformer_encode(model, src, interventions);
  out.encoder = encoder_trace(*memory);
  TransformerDecoderState state = transformer_decoder_start(model, memory);
  int32_t input = options.sos_id;
  for (long t = 0; t < options.max_length; ++t) {
    TransformerStepResult r = transformer_decoder_step(model, state, input, interventions);
    const std::vector<double> logp = log_softmax(r.logits);
    GreedyStep step = greedy_choice(r.logits, logp, options.top_k);
    for (const Intervention& v : interventions) {
      if (v.step == t && v.kind == InterventionKind::kForceToken) {
        step.token = v.token;  // the reader's word instead of the argmax
        step.prob = static_cast<float>(std::exp(logp[static_cast<size_t>(v.token)]));
        step.forced_token = true;
      } else if (v.kind != InterventionKind::kForceToken && (v.step == t || v.step < 0)) {
        step.edited_attention = true;
      }
    }
    step.attention = r.trace.rollout_source;
    step.logits = r.logits;
    out.traces.push_back(std::move(r.trace));
    if (!append_greedy_step(out.result, std::move(step), options.eos_id)) break;
    input = out.result.steps.back().token;
    state = std::move(r.state);
  }
  check_steps_reached(interventions, static_cast<long>(out.result.steps.size()));
  return out;
}

TransformerBeamResult beam_search(const TransformerModel& model, const std::vector<int32_t>& src,
                                  const DecodeOptions& options) {
#ifdef LAB_NO_BEAM
  // The widgets' Transformer module (CMakeLists.txt): §4 decodes greedily.
  (void)model, (void)src, (void)options;
  throw InputError(
      "beam: this build (the 'transformer' module for widgets) has no beam search; "
      "the full module has it");
#else
  validate(options, model.config());
  TransformerBeamResult out;
  auto memory = transformer_encode(model, src);
  out.encoder = encoder_trace(*memory);
  run_beam(
      out.result, transformer_decoder_start(model, memory), options,
      [&](const TransformerDecoderState& state, int32_t input) {
        return transformer_decoder_step(model, state, input);
      },
      [&](long t, BeamNode& node, const TransformerStepResult& r) {
        node.attention = r.trace.rollout_source;
        out.traces.resize(static_cast<size_t>(t) + 1);  // traces[t]: one per node of step t
        out.traces.back().push_back(r.trace);
      });
  return out;
#endif
}

}  // namespace lab
