#include "kernels/activation.h"

#include <algorithm>

#include "kernels/simd_math.h"
#include "tensor.h"

namespace lab::kernels {

namespace {
constexpr float kGeluC = 0.7978845608028654f;  // √(2/π)
constexpr float kGeluA = 0.044715f;
}  // namespace

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

// f over x[0, n), four floats at a time, the tail (under 4) padded with 0: every element gets
// exactly the same arithmetic.
template <v128_t (*f)(v128_t)>
void map_inplace(float* x, long n) {
  for (long i = 0; i < n; i += 4) store_upto4(x + i, f(load_upto4(x + i, n - i)), n - i);
}

// t = tanh(√(2/π) (x + 0.044715 x³)), the GELU's inner tanh
v128_t gelu_tanh(v128_t x) {
  const v128_t x3 =
      wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_splat(kGeluA), x), x), x);
  return tanh_f32x4(wasm_f32x4_mul(wasm_f32x4_splat(kGeluC), wasm_f32x4_add(x, x3)));
}

}  // namespace

void sigmoid_inplace(float* x, long n) {
  map_inplace<sigmoid_f32x4>(x, n);
}

void tanh_inplace(float* x, long n) {
  map_inplace<tanh_f32x4>(x, n);
}

void gelu_forward(float* y, const float* x, long n, float* t) {
  const v128_t half = wasm_f32x4_splat(0.5f), one = wasm_f32x4_splat(1.0f);
  for (long i = 0; i < n; i += 4) {
    const v128_t v = load_upto4(x + i, n - i), tv = gelu_tanh(v);
    if (t) store_upto4(t + i, tv, n - i);
    // y = ½ x (1 + t)
    const v128_t yv = wasm_f32x4_mul(wasm_f32x4_mul(half, v), wasm_f32x4_add(one, tv));
    store_upto4(y + i, yv, n - i);
  }
}

void gelu_backward(float* dx, const float* dy, const float* x, long n, const float* tk,
                   bool accumulate) {
  const v128_t half = wasm_f32x4_splat(0.5f), one = wasm_f32x4_splat(1.0f);
  const v128_t c = wasm_f32x4_splat(kGeluC), a3 = wasm_f32x4_splat(3.0f * kGeluA);
  for (long i = 0; i < n; i += 4) {
    const long m = n - i;
    const v128_t v = load_upto4(x + i, m), t = tk ? load_upto4(tk + i, m) : gelu_tanh(v);
    // dy/dx = ½ (1 + t) + ½ x (1 − t²) √(2/π) (1 + 3 · 0.044715 x²)
    const v128_t inner = wasm_f32x4_add(one, wasm_f32x4_mul(wasm_f32x4_mul(a3, v), v));
    const v128_t slope = wasm_f32x4_mul(
        wasm_f32x4_mul(
            wasm_f32x4_mul(wasm_f32x4_mul(half, v), wasm_f32x4_sub(one, wasm_f32x4_mul(t, t))), c),
        inner);
    const v128_t dydx = wasm_f32x4_add(wasm_f32x4_mul(half, wasm_f32x4_add(one, t)), slope);
    // dx (+)= dy · dy/dx
    v128_t g = wasm_f32x4_mul(load_upto4(dy + i, m), dydx);
    if (accumulate) g = wasm_f32x4_add(load_upto4(dx + i, m), g);
    store_upto4(dx + i, g, m);
  }
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

void gelu_forward(float* y, const float* x, long n, float* t) {
  const auto v = CMapV(x, n).array();
  if (t) {
    MapV(t, n).array() = (kGeluC * (v + kGeluA * v.cube())).tanh();
    MapV(y, n).array() = 0.5f * v * (1.0f + CMapV(t, n).array());
    return;
  }
  // y = ½ x (1 + tanh(√(2/π) (x + 0.044715 x³)))
  MapV(y, n).array() = 0.5f * v * (1.0f + (kGeluC * (v + kGeluA * v.cube())).tanh());
}

void gelu_backward(float* dx, const float* dy, const float* x, long n, const float* tk,
                   bool accumulate) {
  // in blocks, so that t is computed once and stays in cache
  constexpr long kBlock = 256;
  float t[kBlock];
  for (long i = 0; i < n; i += kBlock) {
    const long m = std::min(kBlock, n - i);
    const auto v = CMapV(x + i, m).array();
    auto tv = MapV(t, m).array();
    if (tk) {
      tv = CMapV(tk + i, m).array();
    } else {
      tv = (kGeluC * (v + kGeluA * v.cube())).tanh();
    }
    // dx (+)= dy · (½ (1 + t) + ½ x (1 − t²) √(2/π) (1 + 3 · 0.044715 x²))
    auto d = MapV(dx + i, m).array();
    const auto g =
        CMapV(dy + i, m).array() * (0.5f * (1.0f + tv) + 0.5f * v * (1.0f - tv.square()) * kGeluC *
                                                             (1.0f + 3.0f * kGeluA * v.square()));
    if (accumulate) {
      d += g;
    } else {
      d = g;
    }
  }
}

#endif

}  // namespace lab::kernels
