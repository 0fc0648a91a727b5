// Row softmax, forward and backward, fused: one function per direction does the scale, the mask,
// the max, the exponentials, the sum and the normalisation of a row while it is in cache.
//
// Saturated rows: an exponential exp(s·(x − max)) below 2^-64 (argument < kExpFlush) is set to
// exactly 0. Such a weight cannot change a float32 sum it enters (the row's largest weight is at
// least 1/C, 2^40 times larger for C ≤ 2^24), but if kept it would be a tiny or denormal float,
// and x86 multiplies denormals in slow microcode: a saturated softmax (large scores) made wasm
// attention 20–50× slower (BENCHMARKS.md), and wasm has no flush-to-zero mode to switch on.
#pragma once

#include <cstdint>

#include "kernels/simd_math.h"

namespace lab::kernels {

// x[i] = exp(x[i]) for i < n, relative error ~2 ulp; arguments below kExpFlush give exactly 0.
void exp_inplace(float* x, long n);

// The largest of x[0 … n), −∞ when n = 0 (NaN entries: unspecified).
float max_of(const float* x, long n);

// What softmax_forward found: the first row with every entry masked (its y is left unspecified)
// or −1, and whether every scale · x (masked entries included) was finite. A row whose kept
// entries are all −inf is not finite (scores that overflowed), not masked. It stops at the first
// masked or all −inf row, leaving later rows unspecified.
struct SoftmaxStatus {
  long masked_row = -1;
  bool finite = true;
};

// y = softmax(scale · x) over each row of x (R, C) (row stride C); y may be x. keep (R, C) or
// null: entries with keep == 0 get weight exactly 0. scale > 0. log_sum (R) or null: each row's
// log Σ exp(scale · x) over its kept entries (scale · max + log of the sum the row was divided
// by; the cross-entropy's −log p = log_sum − scale · x at the target). The caller reports the
// status.
// ld: the row stride of y, x and keep (0: C), for the first C columns of wider rows.
SoftmaxStatus softmax_forward(float* y, const float* x, const uint8_t* keep, long R, long C,
                              float scale, float* log_sum = nullptr, long ld = 0);

// The cross-entropy's gradient pass (ops.h, cross_entropy_forward_backward): per row of x (R, C),
// y = g · softmax(x) (g > 0; the bits of softmax_forward's y times g), log_sum = log Σ exp(x) (as
// softmax_forward's) and row_max = max x. Returns whether every x was finite; rows after the
// first that is not are left unspecified. y must not overlap x.
bool softmax_scaled(float* y, const float* x, long R, long C, float g, float* log_sum,
                    float* row_max);

// dx (+)= scale · y ⊙ (dy − Σ_c dy ⊙ y) per row: the gradient of softmax(scale · x) given dy.
// ld: the row stride of dx, dy and y (0: C).
void softmax_backward(float* dx, const float* dy, const float* y, long R, long C, float scale,
                      bool accumulate, long ld = 0);

}  // namespace lab::kernels
