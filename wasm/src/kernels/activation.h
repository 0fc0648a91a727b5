// Element-wise non-linearities of the recurrent cells' gates and of ops::tanh: y = σ(x), tanh(x),
// in place over n floats; and the GPT's GELU (tanh form), forward and backward.
//
// Natively these are Eigen's vectorised expressions (the same arithmetic as before this layer). In
// wasm, where Eigen 3.4 has no SIMD packet math and so calls scalar exp / tanh per element (the
// LSTM's gates were most of a dates training step), they are f32x4 code built on exp_f32x4
// (kernels/simd_math.h), within ~1e-6 relative of std:: (tests/native/test_kernels.cpp and
// tests/wasm/kernels.test.mjs check both builds against std:: in double).
#pragma once

namespace lab::kernels {

// x[i] = σ(x[i]) = 1 / (1 + exp(−x[i])) for i < n.
void sigmoid_inplace(float* x, long n);

// x[i] = tanh(x[i]) for i < n.
void tanh_inplace(float* x, long n);

// y[i] = GELU(x[i]) = ½ x (1 + t), t = tanh(√(2/π) (x + 0.044715 x³)) for i < n (y may be x);
// t (n) or null: where to keep the t's, for gelu_backward (a training step's backward then reads
// them instead of computing them again: the same bits).
void gelu_forward(float* y, const float* x, long n, float* t = nullptr);

// dx[i] += dy[i] · GELU′(x[i]) for i < n (accumulate = false: dx[i] =, so dx need not be zeroed
// first); t: gelu_forward's t of the same x, or null.
void gelu_backward(float* dx, const float* dy, const float* x, long n, const float* t = nullptr,
                   bool accumulate = true);

}  // namespace lab::kernels
