// The survey's alignment (score) functions on raw buffers: forward and backward of one attention
// call, N queries against M keys (one batch row, or one head of one). Dimension letters as in
// tensor.h. Nothing here allocates per call or validates: attention/attention.h checks user
// tensors; the models pass their own buffers.
//
//   dot       s = qᵀk                      scaled = s
//   scaled    s = qᵀk                      scaled = s / √D
//   general   s = qᵀ W k                   scaled = s
//   additive  s = vᵀ tanh(W1 q + W2 k + b)   scaled = s          (Bahdanau)
//   cosine    s = q̂ᵀ k̂, x̂ = x / ‖x‖       scaled = s / temperature
//
// "scaled" is what enters the softmax; the softmax applies the scale itself (attention/core.h),
// so the scores buffer holds s.
#pragma once

#include <string>

#include "tensor.h"

namespace lab {

// The survey's alignment functions a(q, k). Scaled is the default, as in the Transformer.
enum class Score { kDot, kScaled, kGeneral, kAdditive, kCosine };

// Throws InputError naming the valid choices for an unknown name.
Score parse_score(const std::string& name);
const char* score_name(Score score);

namespace attn {

// The sizes of one call and the row strides of its views: q (N, D) rows ldq apart, k (M, Dk)
// ldk, v (M, Dv) ldv, out (N, Dv) ldo. A gradient buffer has its input's stride. Strides let one
// head's columns of a (N, H·Dh) buffer be a view (attention/mha.h).
struct Dims {
  long N = 0, M = 0, D = 0, Dk = 0, Dv = 0;
  long ldq = 0, ldk = 0, ldv = 0, ldo = 0;
};
// Dims of contiguous (unstrided) q, k, v and out.
inline Dims contiguous(long N, long M, long D, long Dk, long Dv) {
  return {N, M, D, Dk, Dv, D, Dk, Dv, Dv};
}

// The score function and views of its weights (nn.Linear layout), null where it has none:
// general w (D, Dk); additive w1 (A, D), w2 (A, Dk), b (A), v (A).
struct ScoreWeights {
  Score score = Score::kScaled;
  float temperature = 1.0f;  // cosine only
  long A = 0;                // additive only
  const float* w = nullptr;
  const float *w1 = nullptr, *w2 = nullptr, *b = nullptr, *v = nullptr;
};
// Where score_backward accumulates (+=) the weights' gradients, shaped like ScoreWeights.
struct ScoreGrads {
  float* w = nullptr;
  float *w1 = nullptr, *w2 = nullptr, *b = nullptr, *v = nullptr;
};

// What a score's forward keeps for its backward, one call's worth, in buffers the caller owns;
// only the score's own are used (the others may be null).
template <class P>
struct ScoreActsP {
  P key_proj = nullptr;                  // general: K Wᵀ (M, D)
  P tanh = nullptr;                      // additive: tanh(W1 q_n + W2 k_m + b) (N, M, A)
  P q_hat = nullptr, k_hat = nullptr;    // cosine: normalised rows (N, D), (M, D)
  P q_norm = nullptr, k_norm = nullptr;  // cosine: row norms (N), (M)
};
using ScoreActs = ScoreActsP<float*>;         // written by the forward
using ScoreActsC = ScoreActsP<const float*>;  // read by the backward

// Scratch of the score functions. Each is sized by the first call of a shape and reused after
// (MatR::resize keeps its buffer when the size is unchanged).
struct ScoreScratch {
  MatR dkp;                     // general: dL/d(K Wᵀ) (M, D)
  MatR dqh, dkh;                // cosine: dL/dq̂ (N, D), dL/dk̂ (M, D)
  MatR pq, pk, dpq, dpk, dpre;  // additive: W1 q (N, A), W2 k + b (M, A), their gradients, (M, A)
};

// d scaled / d s: 1/√D, 1/temperature or 1.
float score_scale(const ScoreWeights& sw, long D);

// s (N, M) = qᵀk for every pair (dot and scaled; what every head of attention/mha.h computes).
void dot_score_forward(float* s, const float* q, const float* k, const Dims& d);
// dq += ds k,  dk += dsᵀ q   (accumulate = false: dq = ds k, dk = dsᵀ q)
void dot_score_backward(float* dq, float* dk, const float* ds, const float* q, const float* k,
                        const Dims& d, bool accumulate = true);

// s (N, M) = a(q_n, k_m) for the score sw.score; fills the score's own acts.
void score_forward(float* s, const ScoreActs& acts, ScoreScratch& scratch, const ScoreWeights& sw,
                   const float* q, const float* k, const Dims& d);
// Given ds = dL/ds (N, M): dq += …, dk += … and the score's weights' gradients g += ….
void score_backward(float* dq, float* dk, const ScoreGrads& g, ScoreScratch& scratch,
                    const ScoreWeights& sw, const ScoreActsC& acts, const float* ds, const float* q,
                    const float* k, const Dims& d);

}  // namespace attn
}  // namespace lab
