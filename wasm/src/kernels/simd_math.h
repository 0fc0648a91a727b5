// f32x4 exp for the kernels that need it (softmax, activation): Eigen 3.4 has no WebAssembly SIMD
// packet math, so its exp in wasm is a scalar call per element. Also the horizontal sum and the
// dot product that gemm.cpp and softmax.cpp share. The functions are wasm-only.
#pragma once

namespace lab::kernels {

constexpr float kExpFlush = -44.3614195558365f;  // ln(2^-64): below it, exp gives exactly 0

}  // namespace lab::kernels

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

namespace lab::kernels {

// a · b + c. Where the module is built with relaxed SIMD (the FMA modules, docs/build.md), one
// f32x4.relaxed_madd: a fused multiply-add on engines whose CPU has one (one rounding, half the
// vector instructions of the GEMM's inner loops); elsewhere a multiply and an add.
inline v128_t madd(v128_t a, v128_t b, v128_t c) {
#ifdef __wasm_relaxed_simd__
  // clang 16's wasm_simd128.h has no wrapper for it yet
  return (v128_t)__builtin_wasm_relaxed_madd_f32x4((__f32x4)a, (__f32x4)b, (__f32x4)c);
#else
  return wasm_f32x4_add(c, wasm_f32x4_mul(a, b));
#endif
}

// exp(x) = 2^n · exp(r), n = round(x / ln 2), r = x − n ln 2 ∈ [−ln2/2, ln2/2], with exp(r) from
// Cephes' degree-5 minimax polynomial (as in Eigen's pexp_float and sse_mathfun's exp_ps), ~2 ulp;
// 0 for x < kExpFlush (−inf included); +inf from 88.3763 up (float32 itself overflows at 88.7228:
// the last half step would need n = 128, one more than the exponent bits below can hold), so a
// huge argument gives +inf, never NaN; NaN stays NaN.
inline v128_t exp_f32x4(v128_t x) {
  const v128_t flushed = wasm_f32x4_lt(x, wasm_f32x4_splat(kExpFlush));
  x = wasm_f32x4_pmin(wasm_f32x4_pmax(x, wasm_f32x4_splat(kExpFlush)),
                      wasm_f32x4_splat(88.3762626647950f));
  // Each a · b + c below is a madd: one fused instruction in the FMA modules, the same bits as
  // a multiply and an add in the others.
  // n = floor(x log2(e) + 1/2)
  v128_t n =
      wasm_f32x4_floor(madd(x, wasm_f32x4_splat(1.44269504088896341f), wasm_f32x4_splat(0.5f)));
  // r = x − n ln 2, with ln 2 split in two so the product is exact
  x = madd(n, wasm_f32x4_splat(-0.693359375f), x);
  x = madd(n, wasm_f32x4_splat(2.12194440e-4f), x);
  // exp(r) ≈ 1 + r + r² · p(r)
  v128_t p = wasm_f32x4_splat(1.9875691500e-4f);
  p = madd(p, x, wasm_f32x4_splat(1.3981999507e-3f));
  p = madd(p, x, wasm_f32x4_splat(8.3334519073e-3f));
  p = madd(p, x, wasm_f32x4_splat(4.1665795894e-2f));
  p = madd(p, x, wasm_f32x4_splat(1.6666665459e-1f));
  p = madd(p, x, wasm_f32x4_splat(5.0000001201e-1f));
  v128_t y = wasm_f32x4_add(madd(p, wasm_f32x4_mul(x, x), x), wasm_f32x4_splat(1.0f));
  // 2^n: n + 127 in the exponent bits. n is a whole number in [−64, 128], so n + (2^23 + 127) is
  // exact and holds n + 127 in its low mantissa bits, which the shift moves into the exponent: the
  // same bits as converting n to an integer, without i32x4.trunc_sat_f32x4_s (several x86
  // instructions in V8, for the NaN and overflow cases that cannot occur here)
  v128_t e = wasm_i32x4_shl(wasm_f32x4_add(n, wasm_f32x4_splat(8388608.0f + 127.0f)), 23);
  return wasm_v128_andnot(wasm_f32x4_mul(y, e), flushed);
}

// The sum of the four lanes, in the order (v0 + v1) + (v2 + v3) every kernel uses.
inline float hsum(v128_t v) {
  return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) +
         (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
}

// Σ_k a[k] b[k]: four partial sums over the f32x4 part, summed by hsum, then the tail in order.
inline float dot(const float* a, const float* b, long K) {
  v128_t s = wasm_f32x4_splat(0.0f);
  long k = 0;
  for (; k + 4 <= K; k += 4) s = madd(wasm_v128_load(a + k), wasm_v128_load(b + k), s);
  float r = hsum(s);
  for (; k < K; ++k) r += a[k] * b[k];
  return r;
}

// x[0, m) as an f32x4, lanes from m on 0 (m < 4: the tail of a row; m ≥ 4: a plain load), so the
// tail goes through the same f32x4 arithmetic as the rest. store_upto4 writes lanes [0, m) back.
inline v128_t load_upto4(const float* x, long m) {
  if (m >= 4) return wasm_v128_load(x);
  float t[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (long j = 0; j < m; ++j) t[j] = x[j];
  return wasm_v128_load(t);
}
inline void store_upto4(float* x, v128_t v, long m) {
  if (m >= 4) return wasm_v128_store(x, v);
  float t[4];
  wasm_v128_store(t, v);
  for (long j = 0; j < m; ++j) x[j] = t[j];
}

// One float through the f32x4 path (the tail of a row), so every element gets the same function.
inline float exp_scalar(float x) {
  return wasm_f32x4_extract_lane(exp_f32x4(wasm_f32x4_splat(x)), 0);
}

}  // namespace lab::kernels

#endif
