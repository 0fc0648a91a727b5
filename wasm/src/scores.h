// The survey's alignment (score) functions, internal to the attention layer.
//   dot       s = qᵀk                    scaled = s
//   scaled    s = qᵀk                    scaled = s / √D
//   general   s = qᵀ W k                 scaled = s
//   additive  s = vᵀ tanh(W1 q + W2 k + b)  scaled = s          (Bahdanau)
//   cosine    s = q̂ᵀ k̂, x̂ = x / ‖x‖     scaled = s / temperature
#pragma once

#include "attention.h"

namespace lab {

// t takes this shape in the buffer it has: a batch of another length (the Seq2Seq recipes pad
// each batch to its own longest sentence) zero-fills only the part that grew, not a new tensor.
// Every caller overwrites all of t, so the values it keeps from the last shape are never read.
inline void ensure_shape(Tensor& t, const std::vector<long>& shape) {
  if (t.shape == shape) return;
  t.data.resize(static_cast<size_t>(shape_numel(shape, "attention buffer")));
  t.shape = shape;
}

// Writes the scores (B, N, M) to `scores` and fills the score's own backward caches in fwd.
void score_forward(const AttentionInputs& in, const AttentionConfig& cfg, AttentionForward& fwd,
                   AttentionWorkspace& ws, float* scores);

// d scaled / d scores: scaled = scores · score_scale (1/√D, 1/temperature or 1).
float score_scale(const AttentionInputs& in, const AttentionConfig& cfg);

// Given dL/d(scores) (B, N, M), accumulates into g.query, g.key and the score's weights.
void score_backward(const AttentionGrads& g, AttentionWorkspace& ws, const AttentionInputs& in,
                    const AttentionConfig& cfg, const AttentionForward& fwd, const Tensor& dscores);

// Checks that the score's weights are present and shaped for D = query features, Dk = key features.
void validate_score_params(const AttentionInputs& in, Score score);

}  // namespace lab
