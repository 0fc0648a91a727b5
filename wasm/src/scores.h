// The survey's alignment (score) functions, internal to the attention layer.
//   dot       s = qᵀk                    scaled = s
//   scaled    s = qᵀk                    scaled = s / √D
//   general   s = qᵀ W k                 scaled = s
//   additive  s = vᵀ tanh(W1 q + W2 k + b)  scaled = s          (Bahdanau)
//   cosine    s = q̂ᵀ k̂, x̂ = x / ‖x‖     scaled = s / temperature
#pragma once

#include "attention.h"

namespace lab {

// t keeps its buffer when it already has this shape (the contents are then overwritten).
inline void ensure_shape(Tensor& t, const std::vector<long>& shape) {
  if (t.shape != shape) t = Tensor(shape);
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
