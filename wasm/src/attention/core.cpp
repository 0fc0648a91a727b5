#include "attention/core.h"

#include "kernels/gemm.h"

namespace lab::attn {

long keep_mask(uint8_t* keep, const uint8_t* key_pad, bool causal, long N, long M) {
  long empty_row = -1;
  for (long n = 0; n < N; ++n) {
    uint8_t* row = keep + n * M;
    long kept = 0;
    for (long m = 0; m < M; ++m) {
      const bool padded = key_pad && key_pad[m];
      row[m] = !padded && !(causal && m > n);
      kept += row[m];
    }
    if (!kept && empty_row < 0) empty_row = n;
  }
  return empty_row;
}

kernels::SoftmaxStatus attend_forward(float* out, float* weights, const float* s,
                                      const uint8_t* keep, const float* v, float scale,
                                      const Dims& d) {
  // weights = softmax(scale · s) over the kept keys
  const kernels::SoftmaxStatus status = kernels::softmax_forward(weights, s, keep, d.N, d.M, scale);
  // out = weights v
  kernels::gemm_nn(out, d.ldo, weights, d.M, v, d.ldv, d.N, d.Dv, d.M, /*accumulate=*/false);
  return status;
}

void attend_backward(float* ds, float* dv, float* dweights, const float* dout, const float* weights,
                     const float* v, float scale, const Dims& d, bool accumulate) {
  // dweights = dout vᵀ;  dv (+)= weightsᵀ dout
  kernels::gemm_nt(dweights, d.M, dout, d.ldo, v, d.ldv, d.N, d.M, d.Dv, /*accumulate=*/false);
  kernels::gemm_tn(dv, d.ldv, weights, d.M, dout, d.ldo, d.M, d.Dv, d.N, accumulate);
  // ds = scale · weights ⊙ (dweights − Σ dweights ⊙ weights)
  kernels::softmax_backward(ds, dweights, weights, d.N, d.M, scale, /*accumulate=*/false);
}

void ScoreActsBuffer::resize(Score score, long B, long n, long m, long d, long a) {
  N = n, M = m, D = d, A = a;
  if (score == Score::kGeneral) key_proj.resize(B * M * D);
  if (score == Score::kAdditive) tanh.resize(B * N * M * A);
  if (score == Score::kCosine) {
    q_hat.resize(B * N * D);
    k_hat.resize(B * M * D);
    q_norm.resize(B * N);
    k_norm.resize(B * M);
  }
}

namespace {

template <class P, class Buffer>
ScoreActsP<P> acts_at(Buffer& x, long b) {
  auto at = [](auto& v, long offset) -> P { return v.empty() ? nullptr : v.data() + offset; };
  ScoreActsP<P> acts;
  acts.key_proj = at(x.key_proj, b * x.M * x.D);
  acts.tanh = at(x.tanh, b * x.N * x.M * x.A);
  acts.q_hat = at(x.q_hat, b * x.N * x.D);
  acts.k_hat = at(x.k_hat, b * x.M * x.D);
  acts.q_norm = at(x.q_norm, b * x.N);
  acts.k_norm = at(x.k_norm, b * x.M);
  return acts;
}

}  // namespace

ScoreActs ScoreActsBuffer::at(long b) {
  return acts_at<float*>(*this, b);
}

ScoreActsC ScoreActsBuffer::at(long b) const {
  return acts_at<const float*>(*this, b);
}

kernels::SoftmaxStatus attention_forward(float* out, float* weights, float* s,
                                         const ScoreActs& acts, ScoreScratch& scratch,
                                         const ScoreWeights& sw, const uint8_t* keep,
                                         const float* q, const float* k, const float* v,
                                         const Dims& d) {
  float* scores = s ? s : weights;
  score_forward(scores, acts, scratch, sw, q, k, d);
  return attend_forward(out, weights, scores, keep, v, score_scale(sw, d.D), d);
}

void attention_backward(float* dq, float* dk, float* dv, const ScoreGrads& g,
                        AttentionScratch& scratch, const ScoreWeights& sw, const ScoreActsC& acts,
                        const float* dout, const float* weights, const float* q, const float* k,
                        const float* v, const Dims& d) {
  scratch.dweights.resize(d.N, d.M);
  scratch.dscores.resize(d.N, d.M);
  float* ds = scratch.dscores.data();
  attend_backward(ds, dv, scratch.dweights.data(), dout, weights, v, score_scale(sw, d.D), d);
  score_backward(dq, dk, g, scratch.score, sw, acts, ds, q, k, d);
}

}  // namespace lab::attn
