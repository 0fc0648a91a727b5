// The attention core on raw buffers: one call's forward and backward, N queries over M keys (one
// batch row, or one head of one), for every score of attention/score.h, with an optional mask.
// Every attention of the project runs through here: §3.1–3.6's API (attention/attention.h, which
// validates user tensors around it), the Transformer's heads (attention/mha.h) and the RNN
// translator's attention over its encoder outputs (rnn/). Dimension letters as in tensor.h;
// views and strides as attn::Dims.
//
//   s       = a(q_n, k_m)                          (N, M)  attention/score.h
//   weights = softmax(scale · s) over visible keys  (N, M)  0 exactly where masked
//   out     = weights v                            (N, Dv)
//
// Nothing here allocates or validates. Backward ACCUMULATES (+=) into gradient buffers the
// caller owns and zeroes (llm.c style): dq, dk, dv shaped and strided like q, k, v (dk and dv may
// be the same buffer when k and v are), and the score's weights' gradients.
#pragma once

#include <cstdint>
#include <vector>

#include "attention/score.h"
#include "kernels/softmax.h"

namespace lab::attn {

// keep (N, M): 1 where query n may attend to key m: not key_pad[m] (key_pad (M) 1 = padding, or
// null), and m <= n when causal. Returns the first query with no key left, or −1.
long keep_mask(uint8_t* keep, const uint8_t* key_pad, bool causal, long N, long M);

// weights = softmax(scale · s) over the keys kept (keep (N, M) or null: all), out = weights v.
// weights may be s (in place). The caller reports the status (kernels/softmax.h).
kernels::SoftmaxStatus attend_forward(float* out, float* weights, const float* s,
                                      const uint8_t* keep, const float* v, float scale,
                                      const Dims& d);
// dweights = dout vᵀ;  dv += weightsᵀ dout  (accumulate = false: dv = weightsᵀ dout);
// ds = scale · weights ⊙ (dweights − Σ_m dweights ⊙ weights): through the softmax and the scale.
// Masked weights are 0, so masked scores get no gradient without the mask. dweights (N, M) is
// scratch; ds (N, M) is assigned.
void attend_backward(float* ds, float* dv, float* dweights, const float* dout, const float* weights,
                     const float* v, float scale, const Dims& d, bool accumulate = true);

// Scratch of attention_backward, sized by its first call of a shape and reused.
struct AttentionScratch {
  ScoreScratch score;
  MatR dweights, dscores;  // (N, M)
};

// The score's kept activations (ScoreActs) of B calls of the same (N, M), in one owned buffer
// each: resize() sizes the ones `score` keeps (std::vector keeps its capacity, so alternating
// shapes do not reallocate); at(b) gives call b's views.
struct ScoreActsBuffer {
  long N = 0, M = 0, D = 0, A = 0;
  std::vector<float> key_proj, tanh, q_hat, k_hat, q_norm, k_norm;
  void resize(Score score, long B, long N, long M, long D, long A);
  ScoreActs at(long b);
  ScoreActsC at(long b) const;
};

// score_forward, then attend_forward with the score's scale. s (N, M) keeps the raw scores, or
// is null: then they are computed into weights and the softmax runs in place.
kernels::SoftmaxStatus attention_forward(float* out, float* weights, float* s,
                                         const ScoreActs& acts, ScoreScratch& scratch,
                                         const ScoreWeights& sw, const uint8_t* keep,
                                         const float* q, const float* k, const float* v,
                                         const Dims& d);
// dq, dk, dv += and the score's weights' gradients += for dout = dL/dout (N, Dv).
void attention_backward(float* dq, float* dk, float* dv, const ScoreGrads& g,
                        AttentionScratch& scratch, const ScoreWeights& sw, const ScoreActsC& acts,
                        const float* dout, const float* weights, const float* q, const float* k,
                        const float* v, const Dims& d);

}  // namespace lab::attn
