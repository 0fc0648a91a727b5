#include "kernels/adam.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "vectorize.h"

namespace lab::kernels {

namespace {

// |x| as its bit pattern: for non-negative floats the integer order is the float order, and
// every NaN or ±Inf is >= the bits of +Inf. Integer max reductions vectorise (f32 max without
// -ffast-math does not).
inline uint32_t abs_bits(float x) {
  uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b & 0x7fffffffu;
}

inline float from_bits(uint32_t b) {
  float x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// kZeroGrad: g ← 0 once read (only with kInPlace: the checked path must leave g as it was).
template <bool kWeightDecay, bool kInPlace, bool kZeroGrad = false>
bool adam_pass(long n, float* __restrict p_io, float* __restrict grad, float* __restrict m_io,
               float* __restrict v_io, float* __restrict p_out, float* __restrict m_out,
               float* __restrict v_out, const AdamConstants& k, float* max_abs_m, float* max_v) {
  const float beta1 = k.beta1, beta2 = k.beta2, eps = k.eps, wd = k.weight_decay;
  const float ps = k.param_scale;
  const float omb1 = k.one_minus_beta1, omb2 = k.one_minus_beta2;
  // lr / (1 − β1ᵗ) · m / (√v / √(1 − β2ᵗ) + ε) = [lr √(1 − β2ᵗ) / (1 − β1ᵗ)] · m / (√v + ε √(1 −
  // β2ᵗ)): one division per weight instead of two (the divisions and the square root are most of
  // this loop's time); the results differ from PyTorch's order by rounding only.
  const float scaled_step = k.step_size * k.bias_correction2_sqrt;
  const float scaled_eps = eps * k.bias_correction2_sqrt;
  uint32_t m_bits = 0, v_bits = 0, p_bits = 0;
  LAB_VECTORIZE
  for (long i = 0; i < n; ++i) {
    // g ← g + λ p
    const float g = kWeightDecay ? grad[i] + wd * p_io[i] : grad[i];
    if constexpr (kZeroGrad) grad[i] = 0.0f;
    // m ← β1 m + (1 − β1) g
    const float m = m_io[i] * beta1 + omb1 * g;
    // v ← β2 v + (1 − β2) g²
    const float v = v_io[i] * beta2 + omb2 * (g * g);
    // p ← p · (1 − lr λ) − lr / (1 − β1ᵗ) · m / (√v / √(1 − β2ᵗ) + ε), rearranged as above (the
    // factor is AdamW's decoupled decay, 1 for Adam: then the product is exact)
    const float p = p_io[i] * ps - scaled_step * (m / (std::sqrt(v) + scaled_eps));
    if constexpr (kInPlace) {
      p_io[i] = p;
      m_io[i] = m;
      v_io[i] = v;
    } else {
      p_out[i] = p;
      m_out[i] = m;
      v_out[i] = v;
    }
    const uint32_t mb = abs_bits(m), vb = abs_bits(v), pb = abs_bits(p);
    m_bits = mb > m_bits ? mb : m_bits;
    v_bits = vb > v_bits ? vb : v_bits;
    p_bits = pb > p_bits ? pb : p_bits;
  }
  *max_abs_m = from_bits(m_bits);
  *max_v = from_bits(v_bits);
  // every result finite iff no bit pattern reached +Inf's
  return m_bits < 0x7f800000u && v_bits < 0x7f800000u && p_bits < 0x7f800000u;
}

}  // namespace

float adam_max_abs_grad(const float* g, const float* p, long n, float weight_decay) {
  uint32_t bits = 0;
  if (weight_decay != 0.0f) {
    LAB_VECTORIZE
    for (long i = 0; i < n; ++i) {
      const uint32_t b = abs_bits(g[i] + weight_decay * p[i]);
      bits = b > bits ? b : bits;
    }
  } else {
    LAB_VECTORIZE
    for (long i = 0; i < n; ++i) {
      const uint32_t b = abs_bits(g[i]);
      bits = b > bits ? b : bits;
    }
  }
  return from_bits(bits);  // NaN's bits are above +Inf's: the result is then NaN
}

namespace {

// The in-place pass for the weight decay at hand (a compile-time flag: the loop stays branch-free).
template <bool kZeroGrad>
void inplace_pass(float* p, float* m, float* v, float* g, long n, const AdamConstants& k,
                  float* max_abs_m, float* max_v) {
  if (k.weight_decay != 0.0f) {
    adam_pass<true, true, kZeroGrad>(n, p, g, m, v, nullptr, nullptr, nullptr, k, max_abs_m, max_v);
  } else {
    adam_pass<false, true, kZeroGrad>(n, p, g, m, v, nullptr, nullptr, nullptr, k, max_abs_m,
                                      max_v);
  }
}

}  // namespace

void adam_inplace(float* p, float* m, float* v, const float* g, long n, const AdamConstants& k,
                  float* max_abs_m, float* max_v) {
  // only read: kZeroGrad is false
  inplace_pass<false>(p, m, v, const_cast<float*>(g), n, k, max_abs_m, max_v);
}

void adam_inplace_zeroing_grads(float* p, float* m, float* v, float* g, long n,
                                const AdamConstants& k, float* max_abs_m, float* max_v) {
  inplace_pass<true>(p, m, v, g, n, k, max_abs_m, max_v);
}

bool adam_candidate(const float* p, const float* m, const float* v, const float* g, long n,
                    const AdamConstants& k, float* p_new, float* m_new, float* v_new,
                    float* max_abs_m, float* max_v) {
  // The pass only reads p, m, v, g when it writes to the *_new buffers.
  float* pp = const_cast<float*>(p);
  float* mp = const_cast<float*>(m);
  float* vp = const_cast<float*>(v);
  float* gp = const_cast<float*>(g);
  return k.weight_decay != 0.0f
             ? adam_pass<true, false>(n, pp, gp, mp, vp, p_new, m_new, v_new, k, max_abs_m, max_v)
             : adam_pass<false, false>(n, pp, gp, mp, vp, p_new, m_new, v_new, k, max_abs_m, max_v);
}

}  // namespace lab::kernels
