#include "vec_exp.h"

#include <cmath>

#include "tensor.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace lab {

#ifdef __wasm_simd128__
namespace {

// exp(x) = 2^n · exp(r), n = round(x / ln 2), r = x − n ln 2 ∈ [−ln2/2, ln2/2], with exp(r) from
// Cephes' degree-5 minimax polynomial (as in Eigen's pexp_float and sse_mathfun's exp_ps).
v128_t exp_f32x4(v128_t x) {
  const v128_t hi = wasm_f32x4_splat(88.3762626647950f);
  const v128_t lo = wasm_f32x4_splat(-87.3365447504f);  // keeps 2^n a normal float
  x = wasm_f32x4_pmin(wasm_f32x4_pmax(x, lo), hi);
  // n = floor(x log2(e) + 1/2)
  v128_t n = wasm_f32x4_floor(wasm_f32x4_add(
      wasm_f32x4_mul(x, wasm_f32x4_splat(1.44269504088896341f)), wasm_f32x4_splat(0.5f)));
  // r = x − n ln 2, with ln 2 split in two so the product is exact
  x = wasm_f32x4_sub(x, wasm_f32x4_mul(n, wasm_f32x4_splat(0.693359375f)));
  x = wasm_f32x4_sub(x, wasm_f32x4_mul(n, wasm_f32x4_splat(-2.12194440e-4f)));
  // exp(r) ≈ 1 + r + r² · p(r)
  v128_t p = wasm_f32x4_splat(1.9875691500e-4f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, x), wasm_f32x4_splat(1.3981999507e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, x), wasm_f32x4_splat(8.3334519073e-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, x), wasm_f32x4_splat(4.1665795894e-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, x), wasm_f32x4_splat(1.6666665459e-1f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, x), wasm_f32x4_splat(5.0000001201e-1f));
  v128_t y = wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(p, wasm_f32x4_mul(x, x)), x),
                            wasm_f32x4_splat(1.0f));
  // 2^n: n + 127 in the exponent bits
  v128_t e =
      wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n), wasm_i32x4_splat(127)), 23);
  return wasm_f32x4_mul(y, e);
}

}  // namespace

void exp_inplace(float* x, long n) {
  long i = 0;
  for (; i + 4 <= n; i += 4) wasm_v128_store(x + i, exp_f32x4(wasm_v128_load(x + i)));
  for (; i < n; ++i) x[i] = std::exp(x[i]);
}

#else

void exp_inplace(float* x, long n) {
  MapV(x, n) = MapV(x, n).array().exp().matrix();
}

#endif

}  // namespace lab
