// The survey's alignment (score) functions, internal to the attention layer.
//   dot       s = qᵀk                    scaled = s
//   scaled    s = qᵀk                    scaled = s / √D
//   general   s = qᵀ W k                 scaled = s
//   additive  s = vᵀ tanh(W1 q + W2 k + b)  scaled = s          (Bahdanau)
//   cosine    s = q̂ᵀ k̂, x̂ = x / ‖x‖     scaled = s / temperature
#pragma once

#include "attention.h"

namespace lab {

// Fills fwd.scores (B, N, M) and the score's own backward caches.
void score_forward(const AttentionInputs& in, const AttentionConfig& cfg, AttentionForward& fwd);

// d scaled / d scores: scaled = scores · score_scale (1/√D, 1/temperature or 1).
float score_scale(const AttentionInputs& in, const AttentionConfig& cfg);

// Given dL/d(scores) (B, N, M), accumulates into g.query, g.key and g.params (already sized).
void score_backward(const AttentionInputs& in, const AttentionConfig& cfg,
                    const AttentionForward& fwd, const Tensor& dscores, AttentionGrads& g);

// Checks that the score's weights are present and shaped for D = query features, Dk = key features.
void validate_score_params(const AttentionInputs& in, Score score);

}  // namespace lab
