#include "kernels/softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/simd_math.h"
#include "tensor.h"

namespace lab::kernels {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// The largest kept score of row r (keep row kr; null: every key kept), or −inf when the row has no
// finite kept score. Subtracting it keeps exp() in range: scores near 2000 that differ by ~1 still
// give the right weights instead of inf/inf. For −inf it records in `status` why: no key kept (a
// masked row), or kept keys that all score −inf (scores that overflowed).
float kept_row_max(const float* xr, const uint8_t* kr, long C, long r, SoftmaxStatus& status) {
  float mx = kNegInf;
  bool kept = false;
  for (long c = 0; c < C; ++c) {
    if (!kr || kr[c]) {
      kept = true;
      mx = std::max(mx, xr[c]);
    }
  }
  if (mx == kNegInf) {
    if (kept) {
      status.finite = false;
    } else {
      status.masked_row = r;
    }
  }
  return mx;
}
}  // namespace

#ifdef __wasm_simd128__
void exp_inplace(float* x, long n) {
  long i = 0;
  for (; i + 4 <= n; i += 4) wasm_v128_store(x + i, exp_f32x4(wasm_v128_load(x + i)));
  for (; i < n; ++i) x[i] = exp_scalar(x[i]);
}

SoftmaxStatus softmax_forward(float* y, const float* x, const uint8_t* keep, long R, long C,
                              float scale) {
  SoftmaxStatus status;
  const v128_t s = wasm_f32x4_splat(scale);
  // Σ (x·s − x·s) stays 0 while every x·s is finite and becomes NaN otherwise: the check of the
  // scores' finiteness, fused into the pass that reads them anyway
  v128_t nonfinite4 = wasm_f32x4_splat(0.0f);
  float nonfinite = 0.0f;
  for (long r = 0; r < R; ++r) {
    const float* xr = x + r * C;
    float* yr = y + r * C;
    const uint8_t* kr = keep ? keep + r * C : nullptr;
    float mx = kNegInf;
    long c = 0;
    if (kr) {
      mx = kept_row_max(xr, kr, C, r, status);
      if (mx == kNegInf) return status;
    } else {
      v128_t m4 = wasm_f32x4_splat(kNegInf);
      for (; c + 4 <= C; c += 4) m4 = wasm_f32x4_max(m4, wasm_v128_load(xr + c));
      mx = std::max(std::max(wasm_f32x4_extract_lane(m4, 0), wasm_f32x4_extract_lane(m4, 1)),
                    std::max(wasm_f32x4_extract_lane(m4, 2), wasm_f32x4_extract_lane(m4, 3)));
      for (; c < C; ++c) mx = std::max(mx, xr[c]);
    }
    // y = exp(scale · (x − max)), exactly 0 where masked;  sum = Σ y
    const v128_t m = wasm_f32x4_splat(mx);
    v128_t sum4 = wasm_f32x4_splat(0.0f);
    for (c = 0; c + 4 <= C; c += 4) {
      const v128_t xv = wasm_v128_load(xr + c), xs = wasm_f32x4_mul(xv, s);
      nonfinite4 = wasm_f32x4_add(nonfinite4, wasm_f32x4_sub(xs, xs));
      v128_t e = exp_f32x4(wasm_f32x4_mul(wasm_f32x4_sub(xv, m), s));
      if (kr) {
        e = wasm_v128_and(e, wasm_i32x4_make(-(kr[c] != 0), -(kr[c + 1] != 0), -(kr[c + 2] != 0),
                                             -(kr[c + 3] != 0)));
      }
      wasm_v128_store(yr + c, e);
      sum4 = wasm_f32x4_add(sum4, e);
    }
    float sum = hsum(sum4);
    for (; c < C; ++c) {
      const float xs = xr[c] * scale;
      nonfinite += xs - xs;
      yr[c] = kr && !kr[c] ? 0.0f : exp_scalar((xr[c] - mx) * scale);
      sum += yr[c];
    }
    // y /= sum   (sum >= 1: the max entry contributes exp(0))
    const float inv = 1.0f / sum;
    const v128_t inv4 = wasm_f32x4_splat(inv);
    for (c = 0; c + 4 <= C; c += 4)
      wasm_v128_store(yr + c, wasm_f32x4_mul(wasm_v128_load(yr + c), inv4));
    for (; c < C; ++c) yr[c] *= inv;
  }
  nonfinite += hsum(nonfinite4);
  status.finite = nonfinite == 0.0f;
  return status;
}

void softmax_backward(float* dx, const float* dy, const float* y, long R, long C, float scale,
                      bool accumulate) {
  for (long r = 0; r < R; ++r) {
    const float* dyr = dy + r * C;
    const float* yr = y + r * C;
    float* dxr = dx + r * C;
    // dyy = Σ_c dy ⊙ y
    const float dyy = dot(dyr, yr, C);
    // dx (+)= scale · y ⊙ (dy − dyy)
    const v128_t d = wasm_f32x4_splat(dyy), s = wasm_f32x4_splat(scale);
    long c = 0;
    for (; c + 4 <= C; c += 4) {
      v128_t g = wasm_f32x4_mul(
          wasm_f32x4_mul(wasm_v128_load(yr + c), wasm_f32x4_sub(wasm_v128_load(dyr + c), d)), s);
      if (accumulate) g = wasm_f32x4_add(wasm_v128_load(dxr + c), g);
      wasm_v128_store(dxr + c, g);
    }
    for (; c < C; ++c) {
      const float g = yr[c] * (dyr[c] - dyy) * scale;
      dxr[c] = accumulate ? dxr[c] + g : g;
    }
  }
}

#else  // native: Eigen's vectorised exp

void exp_inplace(float* x, long n) {
  // exp first, on its own, so Eigen uses its vectorised exp (inside a select it may not); then
  // the flush: exp(x) < 2^-64 exactly when x < kExpFlush (up to the rounding at the boundary).
  auto a = MapV(x, n).array();
  a = a.exp();
  a = (a < 0x1p-64f).select(0.0f, a);
}

SoftmaxStatus softmax_forward(float* y, const float* x, const uint8_t* keep, long R, long C,
                              float scale) {
  SoftmaxStatus status;
  for (long r = 0; r < R; ++r) {
    const float* xr = x + r * C;
    float* yr = y + r * C;
    const uint8_t* kr = keep ? keep + r * C : nullptr;
    const float mx = kept_row_max(xr, kr, C, r, status);
    if (mx == kNegInf) return status;
    // every scale · x finite (masked entries included)
    for (long c = 0; c < C; ++c) status.finite = status.finite && std::isfinite(xr[c] * scale);
    // y = exp(scale · (x − max)), exactly 0 where masked
    for (long c = 0; c < C; ++c) yr[c] = (xr[c] - mx) * scale;
    exp_inplace(yr, C);
    float sum = 0.0f;
    for (long c = 0; c < C; ++c) {
      if (kr && !kr[c]) yr[c] = 0.0f;
      sum += yr[c];
    }
    const float inv = 1.0f / sum;  // sum >= 1: the max entry contributes exp(0)
    for (long c = 0; c < C; ++c) yr[c] *= inv;
  }
  return status;
}

void softmax_backward(float* dx, const float* dy, const float* y, long R, long C, float scale,
                      bool accumulate) {
  MapR dX(dx, R, C);
  CMapR dY(dy, R, C), Y(y, R, C);
  // dx (+)= scale · y ⊙ (dy − Σ_c dy ⊙ y)
  VecF dot = (dY.array() * Y.array()).rowwise().sum();
  if (accumulate) {
    dX.array() += scale * Y.array() * (dY.colwise() - dot).array();
  } else {
    dX.array() = scale * Y.array() * (dY.colwise() - dot).array();
  }
}

#endif

}  // namespace lab::kernels
