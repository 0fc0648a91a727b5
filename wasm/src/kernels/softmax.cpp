#include "kernels/softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/simd_math.h"
#include "tensor.h"

namespace lab::kernels {

namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// kept_row_max(xr, kr, C, r, status) (one per build below): the largest kept score of row r
// (keep row kr; null: every key kept), or −inf when the row has no finite kept score. Subtracting
// it keeps exp() in range: scores near 2000 that differ by ~1 still give the right weights instead
// of inf/inf. For −inf, row_max records in `status` why: no key kept (a masked row), or kept keys
// that all score −inf (scores that overflowed).
float row_max(float mx, bool kept, long r, SoftmaxStatus& status) {
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

float max_of(const float* x, long n) {
  v128_t m4 = wasm_f32x4_splat(kNegInf);
  long i = 0;
  for (; i + 4 <= n; i += 4) m4 = wasm_f32x4_max(m4, wasm_v128_load(x + i));
  float m = std::max(std::max(wasm_f32x4_extract_lane(m4, 0), wasm_f32x4_extract_lane(m4, 1)),
                     std::max(wasm_f32x4_extract_lane(m4, 2), wasm_f32x4_extract_lane(m4, 3)));
  for (; i < n; ++i) m = std::max(m, x[i]);
  return m;
}

namespace {

// keep[0, 4) as lane masks: all ones where the key is kept.
v128_t keep_mask(const uint8_t* k) {
  const v128_t bytes = wasm_v128_load32_zero(k);
  const v128_t lanes = wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(bytes));
  return wasm_i32x4_ne(lanes, wasm_i32x4_splat(0));
}

// The largest of the four lanes.
float lane_max(v128_t m4) {
  return std::max(std::max(wasm_f32x4_extract_lane(m4, 0), wasm_f32x4_extract_lane(m4, 1)),
                  std::max(wasm_f32x4_extract_lane(m4, 2), wasm_f32x4_extract_lane(m4, 3)));
}

// kept_row_max (above), four keys at a time.
float kept_row_max(const float* xr, const uint8_t* kr, long C, long r, SoftmaxStatus& status) {
  const v128_t neg_inf = wasm_f32x4_splat(kNegInf);
  v128_t m4 = neg_inf, any4 = wasm_i32x4_splat(0);
  long c = 0;
  for (; c + 4 <= C; c += 4) {
    const v128_t k = keep_mask(kr + c);
    m4 = wasm_f32x4_max(m4, wasm_v128_bitselect(wasm_v128_load(xr + c), neg_inf, k));
    any4 = wasm_v128_or(any4, k);
  }
  float mx = lane_max(m4);
  bool kept = wasm_v128_any_true(any4);
  for (; c < C; ++c) {
    if (kr[c]) {
      kept = true;
      mx = std::max(mx, xr[c]);
    }
  }
  return row_max(mx, kept, r, status);
}

}  // namespace

SoftmaxStatus softmax_forward(float* y, const float* x, const uint8_t* keep, long R, long C,
                              float scale, float* log_sum, long ld) {
  if (ld == 0) ld = C;
  SoftmaxStatus status;
  const v128_t s = wasm_f32x4_splat(scale);
  // Σ (x·s − x·s) stays 0 while every x·s is finite and becomes NaN otherwise: the check of the
  // scores' finiteness, fused into the pass that reads them anyway
  v128_t nonfinite4 = wasm_f32x4_splat(0.0f);
  float nonfinite = 0.0f;
  for (long r = 0; r < R; ++r) {
    const float* xr = x + r * ld;
    float* yr = y + r * ld;
    const uint8_t* kr = keep ? keep + r * ld : nullptr;
    float mx = kNegInf;
    long c = 0;
    if (kr) {
      mx = kept_row_max(xr, kr, C, r, status);
      if (mx == kNegInf) return status;
    } else {
      v128_t m4 = wasm_f32x4_splat(kNegInf);
      for (; c + 4 <= C; c += 4) m4 = wasm_f32x4_max(m4, wasm_v128_load(xr + c));
      mx = lane_max(m4);
      for (; c < C; ++c) mx = std::max(mx, xr[c]);
    }
    // y = exp(scale · (x − max)), exactly 0 where masked;  sum = Σ y
    const v128_t m = wasm_f32x4_splat(mx);
    v128_t sum4 = wasm_f32x4_splat(0.0f);
    for (c = 0; c + 4 <= C; c += 4) {
      const v128_t xv = wasm_v128_load(xr + c), xs = wasm_f32x4_mul(xv, s);
      nonfinite4 = wasm_f32x4_add(nonfinite4, wasm_f32x4_sub(xs, xs));
      v128_t e = exp_f32x4(wasm_f32x4_mul(wasm_f32x4_sub(xv, m), s));
      if (kr) e = wasm_v128_and(e, keep_mask(kr + c));
      wasm_v128_store(yr + c, e);
      sum4 = wasm_f32x4_add(sum4, e);
    }
    float sum = hsum(sum4);
    if (c < C) {
      // the tail (under 4 keys): one f32x4 exp for all of it, added to the sum in order
      float e[4];
      wasm_v128_store(e,
                      exp_f32x4(wasm_f32x4_mul(wasm_f32x4_sub(load_upto4(xr + c, C - c), m), s)));
      for (long j = 0; c < C; ++c, ++j) {
        const float xs = xr[c] * scale;
        nonfinite += xs - xs;
        yr[c] = kr && !kr[c] ? 0.0f : e[j];
        sum += yr[c];
      }
    }
    if (log_sum) log_sum[r] = mx * scale + std::log(sum);
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

bool softmax_scaled(float* y, const float* x, long R, long C, float g, float* log_sum,
                    float* row_max) {
  const v128_t g4 = wasm_f32x4_splat(g);
  for (long r = 0; r < R; ++r) {
    const float* xr = x + r * C;
    float* yr = y + r * C;
    // max and min in one pass: f32x4.max and .min give NaN for a NaN lane, so every lane of both
    // is finite exactly when every x is (the check softmax_forward fuses into its exp pass, here
    // without an operation per element)
    v128_t mx4 = wasm_f32x4_splat(kNegInf), mn4 = wasm_f32x4_splat(-kNegInf);
    long c = 0;
    for (; c + 4 <= C; c += 4) {
      const v128_t xv = wasm_v128_load(xr + c);
      mx4 = wasm_f32x4_max(mx4, xv);
      mn4 = wasm_f32x4_min(mn4, xv);
    }
    const v128_t inf4 = wasm_f32x4_splat(-kNegInf);
    bool finite = C < 4 || (wasm_i32x4_all_true(wasm_f32x4_lt(wasm_f32x4_abs(mx4), inf4)) &&
                            wasm_i32x4_all_true(wasm_f32x4_lt(wasm_f32x4_abs(mn4), inf4)));
    float mx = lane_max(mx4);
    for (; c < C; ++c) {
      finite = finite && std::isfinite(xr[c]);
      mx = std::max(mx, xr[c]);
    }
    if (!finite) return false;
    row_max[r] = mx;
    // y = exp(x − max);  sum = Σ y
    const v128_t m = wasm_f32x4_splat(mx);
    v128_t sum4 = wasm_f32x4_splat(0.0f);
    for (c = 0; c + 4 <= C; c += 4) {
      const v128_t e = exp_f32x4(wasm_f32x4_sub(wasm_v128_load(xr + c), m));
      wasm_v128_store(yr + c, e);
      sum4 = wasm_f32x4_add(sum4, e);
    }
    float sum = hsum(sum4);
    if (c < C) {
      float e[4];
      wasm_v128_store(e, exp_f32x4(wasm_f32x4_sub(load_upto4(xr + c, C - c), m)));
      for (long j = 0; c < C; ++c, ++j) {
        yr[c] = e[j];
        sum += e[j];
      }
    }
    log_sum[r] = mx + std::log(sum);
    // y = (y / sum) · g: softmax_forward's quotient, then the factor
    const float inv = 1.0f / sum;
    const v128_t inv4 = wasm_f32x4_splat(inv);
    for (c = 0; c + 4 <= C; c += 4) {
      wasm_v128_store(yr + c, wasm_f32x4_mul(wasm_f32x4_mul(wasm_v128_load(yr + c), inv4), g4));
    }
    for (; c < C; ++c) yr[c] = (yr[c] * inv) * g;
  }
  return true;
}

void softmax_backward(float* dx, const float* dy, const float* y, long R, long C, float scale,
                      bool accumulate, long ld) {
  if (ld == 0) ld = C;
  for (long r = 0; r < R; ++r) {
    const float* dyr = dy + r * ld;
    const float* yr = y + r * ld;
    float* dxr = dx + r * ld;
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

namespace {
float kept_row_max(const float* xr, const uint8_t* kr, long C, long r, SoftmaxStatus& status) {
  float mx = kNegInf;
  bool kept = false;
  for (long c = 0; c < C; ++c) {
    if (!kr || kr[c]) {
      kept = true;
      mx = std::max(mx, xr[c]);
    }
  }
  return row_max(mx, kept, r, status);
}
}  // namespace

float max_of(const float* x, long n) {
  float m = kNegInf;
  for (long i = 0; i < n; ++i) m = std::max(m, x[i]);
  return m;
}

void exp_inplace(float* x, long n) {
  // exp first, on its own, so Eigen uses its vectorised exp (inside a select it may not); then
  // the flush: exp(x) < 2^-64 exactly when x < kExpFlush (up to the rounding at the boundary).
  auto a = MapV(x, n).array();
  a = a.exp();
  a = (a < 0x1p-64f).select(0.0f, a);
}

SoftmaxStatus softmax_forward(float* y, const float* x, const uint8_t* keep, long R, long C,
                              float scale, float* log_sum, long ld) {
  if (ld == 0) ld = C;
  SoftmaxStatus status;
  for (long r = 0; r < R; ++r) {
    const float* xr = x + r * ld;
    float* yr = y + r * ld;
    const uint8_t* kr = keep ? keep + r * ld : nullptr;
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
    if (log_sum) log_sum[r] = mx * scale + std::log(sum);
    const float inv = 1.0f / sum;  // sum >= 1: the max entry contributes exp(0)
    for (long c = 0; c < C; ++c) yr[c] *= inv;
  }
  return status;
}

bool softmax_scaled(float* y, const float* x, long R, long C, float g, float* log_sum,
                    float* row_max) {
  for (long r = 0; r < R; ++r) {
    const float* xr = x + r * C;
    float* yr = y + r * C;
    if (!softmax_forward(yr, xr, nullptr, 1, C, 1.0f, log_sum + r).finite) return false;
    row_max[r] = max_of(xr, C);
    for (long c = 0; c < C; ++c) yr[c] *= g;
  }
  return true;
}

void softmax_backward(float* dx, const float* dy, const float* y, long R, long C, float scale,
                      bool accumulate, long ld) {
  if (ld != 0 && ld != C) {
    for (long r = 0; r < R; ++r) {
      softmax_backward(dx + r * ld, dy + r * ld, y + r * ld, 1, C, scale, accumulate);
    }
    return;
  }
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
