// Incremental (KV-cached) decoding of a TransformerModel, greedy and beam search, with the
// attention of every layer and head traced at every step, and attention rollout.
//
// Dimension letters as in transformer/model.h; t the 0-based index of the current decoder step.
//
// Attention rollout (Abnar & Zuidema 2020): each attention layer is replaced by
// Â = 0.5·Ā + 0.5·I, Ā its weights averaged over heads (the residual connection carries half),
// and the layers are multiplied. Feed-forward layers and LayerNorms do not mix positions and are
// skipped.
//   encoder:  R_enc (S, S) = Â_L ⋯ Â_1, row i = how much of encoder position i's final state
//             comes from each source token.
//   decoder:  every decoder position carries a distribution over the T target tokens and the S
//             source tokens, starting as one-hot on its own target token. A self-attention layer
//             maps row t to 0.5·Σ_j Ā[t, j]·row_j + 0.5·row_t; a cross-attention layer keeps half
//             of the row and sends half through the cross-attention onto the source, rolled out
//             through the encoder: 0.5·row_t + 0.5·[0; C̄[t] R_enc]. The two parts of the final row
//             together sum to 1: rollout_target (t + 1) and rollout_source (S).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sequence/decode.h"  // DecodeOptions, TokenProb, GreedyResult, BeamResult
#include "transformer/model.h"

namespace lab {

// The encoder's work on one source sentence, shared by every decoder state (and beam).
struct TransformerMemory {
  long S = 0;
  std::vector<float> memory;                 // (S, Dm) encoder.norm(encoder output)
  std::vector<std::vector<float>> self_att;  // L × (H, S, S) encoder self-attention
  std::vector<float> rollout;                // (S, S) R_enc
  std::vector<std::vector<float>> cross_k;   // L × (S, Dm) the cross-attention's keys of memory
  std::vector<std::vector<float>> cross_v;   // L × (S, Dm) and values: computed once per sentence
};

// Everything a decoder step needs from the previous steps.
struct TransformerDecoderState {
  std::shared_ptr<const TransformerMemory> memory;
  long t = 0;                              // steps taken = positions cached
  std::vector<std::vector<float>> self_k;  // L × (t, Dm) self-attention keys of the prefix
  std::vector<std::vector<float>> self_v;  // L × (t, Dm) and values
  // rollout_rows[l][j]: the rollout row entering layer l at position j, (j + 1) target weights
  // then S source weights.
  std::vector<std::vector<std::vector<float>>> rollout_rows;
};

struct TransformerStepTrace {
  std::vector<float> self;            // (L, H, t + 1) decoder self-attention over the prefix
  std::vector<float> cross;           // (L, H, S) cross-attention over the source
  std::vector<float> rollout_target;  // (t + 1) rollout onto the decoder's input tokens
  std::vector<float> rollout_source;  // (S) rollout onto the source tokens
  // (L, Dm) each layer's cross-attention context, heads concatenated, before out_proj: head h's
  // columns [h·Dh, (h + 1)·Dh) are Σ_s cross[l, h, s] · v_l[s] (v_l = the memory's cross values)
  std::vector<float> cross_context;
};

struct TransformerStepResult {
  TransformerDecoderState state;
  std::vector<float> logits;  // (Vt)
  TransformerStepTrace trace;
};

// Interventions (sequence/decode.h) as the Transformer applies them: force-attention,
// edit-attention and mask-source change the cross-attention row of head h of layer l (every head
// or layer for −1) as they change a recurrent translator's row (attention_edit: forced one-hot,
// or replaced, then masked, then renormalised), and that head's context is then the edited row's
// mix of the memory's value rows (forced onto j: exactly value row j); zero-head zeroes a head's
// context (its weights stay in the trace as computed); force-token as for the RNN. Throws
// InputError naming the intervention for a layer or head out of range, a row intervention on
// another attention than the cross-attention, a step of the encoder, a source outside the
// sentence, an edited row that is not S weights ≥ 0 with a positive sum, two row replacements of
// one head at one step.
void validate_transformer_interventions(const std::vector<Intervention>& interventions,
                                        const TransformerConfig& config, long S,
                                        const DecodeOptions& options);

// Runs the encoder on src (all real tokens, 1 … kTransformerMaxLen of them), with the
// encoder-self zero-head interventions of `interventions` (already validated).
std::shared_ptr<const TransformerMemory> transformer_encode(
    const TransformerModel& model, const std::vector<int32_t>& src,
    const std::vector<Intervention>& interventions = {});
TransformerDecoderState transformer_decoder_start(const TransformerModel& model,
                                                  std::shared_ptr<const TransformerMemory> memory);
// One autoregressive step: feeds `token` at position state.t, attending over the cached prefix,
// with the decoder's interventions at step state.t (already validated).
TransformerStepResult transformer_decoder_step(const TransformerModel& model,
                                               const TransformerDecoderState& state, int32_t token,
                                               const std::vector<Intervention>& interventions = {});

// The encoder's side of a trace.
struct TransformerEncoderTrace {
  long S = 0;
  std::vector<std::vector<float>> self_att;  // L × (H, S, S)
  std::vector<float> rollout;                // (S, S)
  std::vector<std::vector<float>> cross_v;   // L × (S, Dm) the values the cross-attention mixes
};

// GreedyResult's steps[i].attention is the step's rollout onto the source (S); traces[i] holds
// every layer's and head's attention and both rollout parts of step i.
struct TransformerGreedyResult {
  GreedyResult result;
  std::vector<TransformerStepTrace> traces;
  TransformerEncoderTrace encoder;
};

// BeamResult's nodes' attention is their step's rollout onto the source; traces[t][n] belongs to
// result.steps[t][n].
struct TransformerBeamResult {
  BeamResult result;
  std::vector<std::vector<TransformerStepTrace>> traces;
  TransformerEncoderTrace encoder;
};

// The plain results inside (sequence/decode.h), which the shared loops read.
inline const GreedyResult& decoded(const TransformerGreedyResult& greedy) {
  return greedy.result;
}
inline const BeamResult& decoded(const TransformerBeamResult& beam) {
  return beam.result;
}

// With interventions (validated first; an empty list is plain decoding, bit for bit).
TransformerGreedyResult greedy_decode(const TransformerModel& model,
                                      const std::vector<int32_t>& src, const DecodeOptions& options,
                                      const std::vector<Intervention>& interventions = {});
// Same search as rnn/decode.h's beam_search: beam width 1 is exactly greedy decoding. The widgets'
// module (built with LAB_NO_BEAM) has none: an InputError says so.
TransformerBeamResult beam_search(const TransformerModel& model, const std::vector<int32_t>& src,
                                  const DecodeOptions& options);

// What a forced cross-attention mixes, for InterventionComparison::encoder_outputs
// (sequence/translate.h): nothing beside the trace, which has every layer's values (cross_v).
inline std::vector<float> attention_values(const TransformerModel&, const std::vector<int32_t>&) {
  return {};
}

// R (S, S) = Â_L ⋯ Â_1 from L × (H, S, S) weights (Â = 0.5·mean_h A + 0.5·I).
std::vector<float> encoder_rollout(const std::vector<std::vector<float>>& self_att, long H, long S);

}  // namespace lab
