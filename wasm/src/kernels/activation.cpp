#include "kernels/activation.h"

#include "kernels/simd_math.h"
#include "tensor.h"

namespace lab::kernels {

#ifdef __wasm_simd128__

namespace {

// σ(x) = 1 / (1 + exp(−x)): exp(−x) is 0 for x > 44.4 (σ = 1 in float32) and at most ~1.7e38
// (its clamp), so the quotient never sees inf/inf.
v128_t sigmoid_f32x4(v128_t x) {
  const v128_t one = wasm_f32x4_splat(1.0f);
  return wasm_f32x4_div(one, wasm_f32x4_add(one, exp_f32x4(wasm_f32x4_neg(x))));
}

// tanh as Cephes' tanhf: for |x| < 0.625, x + x³ · p(x²) (a degree-4 minimax polynomial: near 0
// the exp form below would lose all relative precision to cancellation); otherwise
// 1 − 2 / (exp(2|x|) + 1) with the sign of x. Both are computed and the lane picks one. NaN goes
// down the polynomial branch and stays NaN.
v128_t tanh_f32x4(v128_t x) {
  const v128_t ax = wasm_f32x4_abs(x);
  // large |x|: 1 − 2 / (exp(2|x|) + 1), sign of x put back
  const v128_t one = wasm_f32x4_splat(1.0f);
  v128_t big =
      wasm_f32x4_sub(one, wasm_f32x4_div(wasm_f32x4_splat(2.0f),
                                         wasm_f32x4_add(exp_f32x4(wasm_f32x4_add(ax, ax)), one)));
  const v128_t sign = wasm_v128_and(x, wasm_i32x4_splat(static_cast<int>(0x80000000u)));
  big = wasm_v128_or(big, sign);
  // small |x|: x + x · z · p(z), z = x²
  const v128_t z = wasm_f32x4_mul(x, x);
  v128_t p = wasm_f32x4_splat(-5.70498872745e-3f);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), wasm_f32x4_splat(2.06390887954e-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), wasm_f32x4_splat(-5.37397155531e-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), wasm_f32x4_splat(1.33314422036e-1f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, z), wasm_f32x4_splat(-3.33332819422e-1f));
  const v128_t small = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(p, z), x), x);
  return wasm_v128_bitselect(big, small, wasm_f32x4_ge(ax, wasm_f32x4_splat(0.625f)));
}

// f over x[0, n): f32x4 over the whole groups of 4, then the tail (under 4 floats) through the
// same f32x4 function on a padded copy, so every element gets exactly the same arithmetic.
template <v128_t (*f)(v128_t)>
void map_inplace(float* x, long n) {
  long i = 0;
  for (; i + 4 <= n; i += 4) wasm_v128_store(x + i, f(wasm_v128_load(x + i)));
  if (i < n) {
    float tail[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (long j = i; j < n; ++j) tail[j - i] = x[j];
    wasm_v128_store(tail, f(wasm_v128_load(tail)));
    for (long j = i; j < n; ++j) x[j] = tail[j - i];
  }
}

}  // namespace

void sigmoid_inplace(float* x, long n) {
  map_inplace<sigmoid_f32x4>(x, n);
}

void tanh_inplace(float* x, long n) {
  map_inplace<tanh_f32x4>(x, n);
}

#else  // native: Eigen's vectorised exp and tanh

void sigmoid_inplace(float* x, long n) {
  auto a = MapV(x, n).array();
  a = 1.0f / (1.0f + (-a).exp());
}

void tanh_inplace(float* x, long n) {
  auto a = MapV(x, n).array();
  a = a.tanh();
}

#endif

}  // namespace lab::kernels
