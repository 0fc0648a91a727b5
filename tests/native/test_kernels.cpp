// The kernels layer (wasm/src/kernels) against naive loops in double: every GEMM variant at odd
// sizes 1…67 with row strides wider than the rows, overwrite and accumulate, with and without a
// bias; σ, tanh, GELU and exp against std:: in double; the fused softmax (scale, mask, saturated
// rows, its log-sum-exp, and the cross-entropy built on it) and Adam (in place vs the checked
// path, all-or-nothing). tests/wasm/kernels.test.mjs runs the same GEMM and activation checks
// against the wasm SIMD kernels.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/activation.h"
#include "kernels/adam.h"
#include "kernels/gemm.h"
#include "kernels/softmax.h"
#include "ops.h"
#include "optim.h"
#include "sequence/session_checks.h"

namespace {

enum class Op { kNN, kNT, kTN };

std::vector<float> random_vector(long n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = u(rng);
  return v;
}

// One product against the naive triple loop; strides are the row length + 3 (not a multiple of 4).
void check_gemm(Op op, long M, long N, long K, bool accumulate, bool with_bias, std::mt19937& rng) {
  const long a_rows = op == Op::kTN ? K : M, a_cols = op == Op::kTN ? M : K;
  const long b_rows = op == Op::kNT ? N : K, b_cols = op == Op::kNT ? K : N;
  const long lda = a_cols + 3, ldb = b_cols + 3, ldc = N + 3;
  const std::vector<float> A = random_vector(a_rows * lda, rng),
                           B = random_vector(b_rows * ldb, rng);
  const std::vector<float> bias = random_vector(N, rng), C0 = random_vector(M * ldc, rng);
  std::vector<float> C = C0;
  const float* b = with_bias ? bias.data() : nullptr;
  switch (op) {
    case Op::kNN:
      lab::kernels::gemm_nn(C.data(), ldc, A.data(), lda, B.data(), ldb, M, N, K, accumulate, b);
      break;
    case Op::kNT:
      lab::kernels::gemm_nt(C.data(), ldc, A.data(), lda, B.data(), ldb, M, N, K, accumulate, b);
      break;
    case Op::kTN:
      lab::kernels::gemm_tn(C.data(), ldc, A.data(), lda, B.data(), ldb, M, N, K, accumulate, b);
      break;
  }
  for (long m = 0; m < M; ++m) {
    for (long n = 0; n < N; ++n) {
      double want = accumulate ? C0[m * ldc + n] : 0.0;
      if (with_bias) want += bias[n];
      for (long k = 0; k < K; ++k) {
        const double a = op == Op::kTN ? A[k * lda + m] : A[m * lda + k];
        const double bb = op == Op::kNT ? B[n * ldb + k] : B[k * ldb + n];
        want += a * bb;
      }
      ASSERT_NEAR(C[m * ldc + n], want, 1e-5 * (K + 2))
          << "op " << static_cast<int>(op) << " M " << M << " N " << N << " K " << K << " at (" << m
          << ", " << n << ") accumulate " << accumulate << " bias " << with_bias;
    }
    // the padding between rows of C is never written
    for (long n = N; n < ldc && m + 1 < M; ++n) ASSERT_EQ(C[m * ldc + n], C0[m * ldc + n]);
  }
}

TEST(Kernels, GemmMatchesNaiveLoopsAtOddSizes) {
  std::mt19937 rng(7);
  const long sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 67};
  for (Op op : {Op::kNN, Op::kNT, Op::kTN}) {
    for (long M : sizes) {
      for (long N : sizes) {
        for (long K : sizes) {
          check_gemm(op, M, N, K, (M + N + K) % 2 == 0, (M * N) % 3 == 0, rng);
        }
      }
    }
  }
}

TEST(Kernels, GemmEverySizeFrom1To67) {
  std::mt19937 rng(11);
  for (Op op : {Op::kNN, Op::kNT, Op::kTN}) {
    for (long s = 1; s <= 67; ++s) {
      check_gemm(op, s, 19, 13, true, true, rng);     // rows
      check_gemm(op, 21, s, 13, false, true, rng);    // columns
      check_gemm(op, 21, 19, s, true, false, rng);    // depth
      check_gemm(op, 1, s, 2 * s, false, true, rng);  // batch 1: a matrix-vector product
    }
  }
}

TEST(Kernels, GemmLargerThanOneBlock) {
  std::mt19937 rng(3);
  // K > 256 and M > 64: several K blocks (accumulating into C between them) and M blocks
  for (Op op : {Op::kNN, Op::kNT, Op::kTN}) {
    check_gemm(op, 130, 70, 300, false, true, rng);
    check_gemm(op, 70, 130, 513, true, false, rng);
  }
}

TEST(Kernels, GemmWithZeroDepthIsBiasOrZero) {
  std::vector<float> C = {5, 5, 5, 5};
  const float bias[] = {1, 2};
  lab::kernels::gemm_nt(C.data(), 2, nullptr, 0, nullptr, 0, 2, 2, 0, false, bias);
  EXPECT_EQ(C, (std::vector<float>{1, 2, 1, 2}));
  lab::kernels::gemm_nn(C.data(), 2, nullptr, 0, nullptr, 0, 2, 2, 0, true, nullptr);
  EXPECT_EQ(C, (std::vector<float>{1, 2, 1, 2}));
}

TEST(Kernels, SumRows) {
  std::mt19937 rng(5);
  for (long N : {1L, 3L, 4L, 9L, 67L}) {
    const long R = 5, lda = N + 2;
    const std::vector<float> A = random_vector(R * lda, rng);
    std::vector<float> c(static_cast<size_t>(N), 1.0f);
    lab::kernels::sum_rows_acc(c.data(), A.data(), lda, R, N);
    for (long n = 0; n < N; ++n) {
      double want = 1.0;
      for (long r = 0; r < R; ++r) want += A[r * lda + n];
      EXPECT_NEAR(c[n], want, 1e-5);
    }
  }
}

TEST(Kernels, SoftmaxMatchesNaiveWithScaleAndMask) {
  std::mt19937 rng(9);
  for (long C : {1L, 3L, 4L, 5L, 17L, 67L}) {
    const long R = 3;
    std::vector<float> x = random_vector(R * C, rng);
    for (float& v : x) v *= 10.0f;
    std::vector<uint8_t> keep(static_cast<size_t>(R * C), 1);
    for (long i = 0; i < R * C; i += 3) keep[i] = 0;
    for (long r = 0; r < R; ++r) keep[r * C + C - 1] = 1;  // no row fully masked
    for (bool masked : {false, true}) {
      const float scale = 0.37f;
      std::vector<float> y(x.size());
      const lab::kernels::SoftmaxStatus st = lab::kernels::softmax_forward(
          y.data(), x.data(), masked ? keep.data() : nullptr, R, C, scale);
      ASSERT_EQ(st.masked_row, -1);
      ASSERT_TRUE(st.finite);
      for (long r = 0; r < R; ++r) {
        double mx = -1e300, sum = 0.0;
        for (long c = 0; c < C; ++c)
          if (!masked || keep[r * C + c]) mx = std::max(mx, double(x[r * C + c]));
        std::vector<double> e(static_cast<size_t>(C), 0.0);
        for (long c = 0; c < C; ++c) {
          if (!masked || keep[r * C + c]) e[c] = std::exp(scale * (x[r * C + c] - mx));
          sum += e[c];
        }
        for (long c = 0; c < C; ++c) EXPECT_NEAR(y[r * C + c], e[c] / sum, 1e-6) << C;
      }
      // backward: dx = scale · y ⊙ (dy − Σ dy ⊙ y), accumulated on top of 1
      const std::vector<float> dy = random_vector(R * C, rng);
      std::vector<float> dx(x.size(), 1.0f);
      lab::kernels::softmax_backward(dx.data(), dy.data(), y.data(), R, C, scale, true);
      for (long r = 0; r < R; ++r) {
        double dot = 0.0;
        for (long c = 0; c < C; ++c) dot += double(dy[r * C + c]) * y[r * C + c];
        for (long c = 0; c < C; ++c) {
          EXPECT_NEAR(dx[r * C + c], 1.0 + scale * y[r * C + c] * (dy[r * C + c] - dot), 1e-6);
        }
      }
    }
  }
}

TEST(Kernels, SoftmaxReportsAFullyMaskedRow) {
  const float x[] = {1, 2, 3, 4};
  const uint8_t keep[] = {1, 0, 0, 0};
  float y[4];
  EXPECT_EQ(lab::kernels::softmax_forward(y, x, keep, 2, 2, 1.0f).masked_row, 1);
}

TEST(Kernels, SoftmaxReportsNonFiniteScaledScores) {
  // a finite score that overflows once scaled, and an infinite one that is masked: both reported
  float y[5];
  const float x[] = {1, 2, 3e38f, 4, 5};
  EXPECT_FALSE(lab::kernels::softmax_forward(y, x, nullptr, 1, 5, 10.0f).finite);
  EXPECT_TRUE(lab::kernels::softmax_forward(y, x, nullptr, 1, 5, 1.0f).finite);
  const float inf = std::numeric_limits<float>::infinity();
  const float xi[] = {1, 2, 3, 4, inf};
  const uint8_t keep[] = {1, 1, 1, 1, 0};
  EXPECT_FALSE(lab::kernels::softmax_forward(y, xi, keep, 1, 5, 1.0f).finite);
}

TEST(Kernels, SoftmaxRowOfMinusInfinityIsNotFiniteNotMasked) {
  // scores that overflowed to −inf on every kept key (found by the attention fuzzer): reported as
  // not finite, where they had been taken for a masked row and left as weights 0
  const float ninf = -std::numeric_limits<float>::infinity();
  const float x[] = {1, 2, ninf, ninf};
  float y[4];
  const uint8_t keep[] = {1, 1, 1, 0};
  for (const uint8_t* k : {static_cast<const uint8_t*>(nullptr), keep}) {
    const lab::kernels::SoftmaxStatus s = lab::kernels::softmax_forward(y, x, k, 2, 2, 1.0f);
    EXPECT_FALSE(s.finite);
    EXPECT_EQ(s.masked_row, -1);
  }
}

TEST(Kernels, SaturatedSoftmaxFlushesTinyWeightsToExactZero) {
  // scores 0, −50, −100, −1000 (and the same scaled ×1000): e^−50 ≈ 2e−22 < 2^−64 is flushed,
  // so no weight is a denormal (x86 multiplies those in slow microcode)
  const float x[] = {0, -50, -100, -1000, 0.01f, 0.02f, 0.03f, -0.04f};
  float y[8];
  ASSERT_EQ(lab::kernels::softmax_forward(y, x, nullptr, 2, 4, 1.0f).masked_row, -1);
  EXPECT_FLOAT_EQ(y[0], 1.0f);
  for (int i = 1; i < 4; ++i) EXPECT_EQ(y[i], 0.0f);
  ASSERT_EQ(lab::kernels::softmax_forward(y + 4, x + 4, nullptr, 1, 4, 5000.0f).masked_row, -1);
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(y[i] == 0.0f || std::fabs(y[i]) >= 1e-30f) << y[i];
  // an argument just above the flush threshold keeps its exponential
  float e[2] = {lab::kernels::kExpFlush + 0.5f, lab::kernels::kExpFlush - 0.5f};
  lab::kernels::exp_inplace(e, 2);
  EXPECT_NEAR(e[0], std::exp(double(lab::kernels::kExpFlush) + 0.5), 1e-25);
  EXPECT_EQ(e[1], 0.0f);
}

// The arguments of the activation checks: a fine grid over [−lo, lo] (spacing 1/1024, not a
// multiple of 4 long, so the f32x4 tail runs) and ±10^e for e in [−30, 1] (tanh near 0 must keep
// its relative precision).
std::vector<float> activation_arguments(float lo) {
  std::vector<float> x;
  for (long i = -static_cast<long>(lo * 1024); i <= static_cast<long>(lo * 1024); ++i)
    x.push_back(static_cast<float>(i) / 1024.0f);
  for (int e = -30; e <= 1; ++e) {
    x.push_back(std::pow(10.0f, static_cast<float>(e)));
    x.push_back(-std::pow(10.0f, static_cast<float>(e)));
  }
  x.push_back(0.3f);  // odd count
  return x;
}

// max over x of |f(x) − want(x)| / |want(x)|, want in double
template <typename Kernel, typename Want>
double max_relative_error(Kernel kernel, Want want, const std::vector<float>& x) {
  std::vector<float> y = x;
  kernel(y.data(), static_cast<long>(y.size()));
  double worst = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double w = want(static_cast<double>(x[i]));
    worst = std::max(worst, std::fabs(y[i] - w) / std::fabs(w));
  }
  return worst;
}

TEST(Kernels, SigmoidAndTanhWithin1e6RelativeOfStd) {
  // σ over [−80, 80]: below that σ(x) < 1.8e−35 approaches the denormals (exp's clamp)
  EXPECT_LE(max_relative_error(
                lab::kernels::sigmoid_inplace, [](double v) { return 1.0 / (1.0 + std::exp(-v)); },
                activation_arguments(80.0f)),
            1e-6);
  EXPECT_LE(max_relative_error(
                lab::kernels::tanh_inplace, [](double v) { return std::tanh(v); },
                activation_arguments(20.0f)),
            1e-6);
  // saturation and non-finite arguments
  const float inf = std::numeric_limits<float>::infinity();
  float t[] = {30.0f, -30.0f, inf, -inf, std::nanf("")};
  lab::kernels::tanh_inplace(t, 5);
  EXPECT_EQ(t[0], 1.0f);
  EXPECT_EQ(t[1], -1.0f);
  EXPECT_EQ(t[2], 1.0f);
  EXPECT_EQ(t[3], -1.0f);
  EXPECT_TRUE(std::isnan(t[4]));
  float s[] = {50.0f, inf, -inf, std::nanf("")};
  lab::kernels::sigmoid_inplace(s, 4);
  EXPECT_EQ(s[0], 1.0f);
  EXPECT_EQ(s[1], 1.0f);
  EXPECT_LE(s[2], 1e-37f);
  EXPECT_GE(s[2], 0.0f);
  EXPECT_TRUE(std::isnan(s[3]));
}

// GELU (tanh form) in double, and its derivative: the formulas of kernels/activation.h.
double gelu_double(double x) {
  return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}
double gelu_slope_double(double x) {
  const double c = std::sqrt(2.0 / M_PI), t = std::tanh(c * (x + 0.044715 * x * x * x));
  return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * c * (1.0 + 3.0 * 0.044715 * x * x);
}

// The size of the slope's terms, ½ (1 + t) ≤ 1 and ½ |x| (1 − t²) √(2/π) (1 + 3 · 0.044715 x²),
// the second with 1 − t² at its largest (1): the scale of the error the rounding of t in float32
// leaves in 1 − t² (near |x| = 4, 1 − t² ≈ 7e-5 is the difference of numbers near 1).
double gelu_slope_scale(double x) {
  return 1.0 + 0.5 * std::fabs(x) * std::sqrt(2.0 / M_PI) * (1.0 + 3.0 * 0.044715 * x * x);
}

TEST(Kernels, GeluAndItsSlopeMatchDouble) {
  // GELU(x) = x · ½ (1 + t): the error is measured against |x|, i.e. in the factor ½ (1 + t) ∈
  // [0, 1], which for x ≪ 0 is 1 + t with t near −1 and cannot be relative (float32's t rounds
  // at 6e-8 there); the slope's against the size of its terms. Over [−12, 12] and ±10^e.
  const std::vector<float> x = activation_arguments(12.0f);
  const long n = static_cast<long>(x.size());
  std::vector<float> y(x.size()), dx(x.size(), 0.5f), dy(x.size(), 2.0f);
  lab::kernels::gelu_forward(y.data(), x.data(), n);
  lab::kernels::gelu_backward(dx.data(), dy.data(), x.data(), n);
  double worst_y = 0.0, worst_slope = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double v = x[i];
    if (v != 0.0) worst_y = std::max(worst_y, std::fabs(y[i] - gelu_double(v)) / std::fabs(v));
    // dx = 0.5 + 2 · GELU′(x): accumulated, scaled by dy
    worst_slope = std::max(
        worst_slope, std::fabs((dx[i] - 0.5) / 2.0 - gelu_slope_double(v)) / gelu_slope_scale(v));
  }
  EXPECT_LE(worst_y, 3e-7);
  EXPECT_LE(worst_slope, 1e-6);
  // y may be x; saturation, and no NaN from huge arguments
  float g[] = {0.0f, 1e30f, -1e30f, 30.0f, -30.0f};
  lab::kernels::gelu_forward(g, g, 5);
  EXPECT_EQ(g[0], 0.0f);
  EXPECT_EQ(g[1], 1e30f);
  EXPECT_EQ(g[2], -0.0f);
  EXPECT_EQ(g[3], 30.0f);
  EXPECT_EQ(g[4], -0.0f);
  float s[] = {30.0f, -30.0f, 1e10f, -1e10f}, ones[] = {1, 1, 1, 1}, ds[] = {0, 0, 0, 0};
  lab::kernels::gelu_backward(ds, ones, s, 4);
  EXPECT_EQ(ds[0], 1.0f);
  EXPECT_EQ(ds[1], 0.0f);
  EXPECT_EQ(ds[2], 1.0f);
  EXPECT_EQ(ds[3], 0.0f);
}

TEST(Kernels, GeluWithItsTanhKeptGivesTheSameBits) {
  // The training step keeps the forward's t for the backward: y and dx bit for bit those
  // computed without it (n = 4k + 3: the tail too).
  std::mt19937 rng(11);
  const long n = 4 * 50 + 3;
  std::vector<float> x = random_vector(n, rng), dy = random_vector(n, rng);
  for (float& v : x) v *= 6.0f;
  std::vector<float> y(n), y_kept(n), t(n), dx(n, 0.25f), dx_kept(n, 0.25f);
  lab::kernels::gelu_forward(y.data(), x.data(), n);
  lab::kernels::gelu_forward(y_kept.data(), x.data(), n, t.data());
  lab::kernels::gelu_backward(dx.data(), dy.data(), x.data(), n);
  lab::kernels::gelu_backward(dx_kept.data(), dy.data(), x.data(), n, t.data());
  EXPECT_EQ(0, std::memcmp(y.data(), y_kept.data(), n * sizeof(float)));
  EXPECT_EQ(0, std::memcmp(dx.data(), dx_kept.data(), n * sizeof(float)));
  for (long i = 0; i < n; ++i)
    ASSERT_FLOAT_EQ(t[i], std::tanh(0.7978845608f * (x[i] + 0.044715f * x[i] * x[i] * x[i]))) << i;
}

TEST(Kernels, GeluBackwardWrittenIsAddedOntoZeros) {
  // accumulate = false writes dx whatever it held: the bits of += onto zeros (n = 4k + 3)
  std::mt19937 rng(12);
  const long n = 4 * 20 + 3;
  std::vector<float> x = random_vector(n, rng), dy = random_vector(n, rng);
  std::vector<float> added(n, 0.0f), written(n, std::numeric_limits<float>::quiet_NaN());
  lab::kernels::gelu_backward(added.data(), dy.data(), x.data(), n);
  lab::kernels::gelu_backward(written.data(), dy.data(), x.data(), n, nullptr, false);
  EXPECT_EQ(0, std::memcmp(added.data(), written.data(), n * sizeof(float)));
}

TEST(Kernels, ExpOverItsRangeAndAtItsEdges) {
  // a dense sweep over [−44, 88]: within 1e-6 relative of std::exp in double (~2 ulp)
  std::vector<float> x;
  for (long i = -44 * 4096; i <= 88 * 4096; ++i) x.push_back(static_cast<float>(i) / 4096.0f);
  EXPECT_LE(max_relative_error(
                lab::kernels::exp_inplace, [](double v) { return std::exp(v); }, x),
            1e-6);
  // masked scores (−inf), large negative arguments: exactly 0; large positive: the largest floats
  // or +inf (kernels/simd_math.h), never NaN
  const float inf = std::numeric_limits<float>::infinity();
  float e[] = {-inf, -1e30f, -1000.0f, -45.0f, 89.0f, 1000.0f, 1e30f, inf, std::nanf("")};
  lab::kernels::exp_inplace(e, 9);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(e[i], 0.0f) << i;
  for (int i = 4; i < 8; ++i) EXPECT_GE(e[i], 1e38f) << i;
  EXPECT_TRUE(std::isnan(e[8]));
}

TEST(Kernels, SoftmaxLogSumIsTheRowsLogSumExp) {
  // rows of 2,578 (the GPT's vocabulary) and 13 with a mask, scale 1 and 0.35, scores spread over
  // ±30 so that some weights flush to 0
  std::mt19937 rng(7);
  for (const long C : {2578L, 13L}) {
    const long R = 3;
    std::vector<float> x = random_vector(R * C, rng), y(x.size()), lse(R);
    for (float& v : x) v *= 30.0f;
    std::vector<uint8_t> keep(x.size());
    for (size_t i = 0; i < keep.size(); ++i) keep[i] = i % 3 != 1;
    for (const bool masked : {false, true}) {
      for (const float scale : {1.0f, 0.35f}) {
        ASSERT_EQ(lab::kernels::softmax_forward(y.data(), x.data(), masked ? keep.data() : nullptr,
                                                R, C, scale, lse.data())
                      .masked_row,
                  -1);
        for (long r = 0; r < R; ++r) {
          double mx = -1e300, s = 0.0;
          for (long c = 0; c < C; ++c)
            if (!masked || keep[r * C + c]) mx = std::max(mx, double(scale) * x[r * C + c]);
          for (long c = 0; c < C; ++c)
            if (!masked || keep[r * C + c]) s += std::exp(double(scale) * x[r * C + c] - mx);
          EXPECT_NEAR(lse[r], mx + std::log(s), 2e-6 * std::fabs(mx) + 1e-6)
              << "C " << C << " masked " << masked << " scale " << scale << " row " << r;
        }
      }
    }
  }
}

TEST(Kernels, CrossEntropyFromTheSoftmaxSumsMatchesDouble) {
  // 2,578 logits a row; row 1's target sits 200 below the row's largest logit: its probability
  // underflows to 0, its −log p ≈ 200 must not be inf
  std::mt19937 rng(3);
  const long R = 4, V = 2578;
  std::vector<float> logits = random_vector(R * V, rng), probs(logits.size());
  for (float& v : logits) v *= 8.0f;
  logits[1 * V + 5] = -200.0f;
  const int32_t targets[] = {17, 5, -1, 2577};
  const float in_float = lab::cross_entropy_forward(probs.data(), logits.data(), targets, -1, R, V,
                                                    lab::LogSumExp::kFloat);
  const float in_double = lab::cross_entropy_forward(probs.data(), logits.data(), targets, -1, R, V,
                                                     lab::LogSumExp::kDouble);
  EXPECT_GT(in_double, 200.0f / 3.0f);
  EXPECT_NEAR(in_float, in_double, 1e-6 * in_double);
}

TEST(Kernels, WrittenGradientsAreTheBitsOfAddingOntoZeros) {
  // Grad::kSet (a buffer the backward writes, not zeroed first) against Grad::kAdd onto zeros:
  // the same bits, and an ignored row 0 whatever the buffer held.
  std::mt19937 rng(5);
  const long R = 5, I = 37, O = 70, V = 2578;
  const std::vector<float> dy = random_vector(R * O, rng), x = random_vector(R * I, rng),
                           w = random_vector(O * I, rng);
  std::vector<float> added(R * I, 0.0f), written = random_vector(R * I, rng);
  lab::linear_backward(added.data(), nullptr, nullptr, dy.data(), x.data(), w.data(), R, I, O);
  lab::linear_backward(written.data(), nullptr, nullptr, dy.data(), x.data(), w.data(), R, I, O,
                       lab::Grad::kSet);
  EXPECT_EQ(0, std::memcmp(added.data(), written.data(), added.size() * sizeof(float)));
  std::vector<float> probs = random_vector(R * V, rng);
  const int32_t targets[] = {3, -1, 2577, 0, 100};
  std::vector<float> dadded(R * V, 0.0f), dwritten = random_vector(R * V, rng);
  lab::cross_entropy_backward(dadded.data(), probs.data(), targets, -1, R, V, 1.0f);
  lab::cross_entropy_backward(dwritten.data(), probs.data(), targets, -1, R, V, 1.0f,
                              lab::Grad::kSet);
  EXPECT_EQ(0, std::memcmp(dadded.data(), dwritten.data(), dadded.size() * sizeof(float)));
  for (long v = 0; v < V; ++v) ASSERT_EQ(dwritten[1 * V + v], 0.0f);
}

TEST(Kernels, OnePassLossAndGradientAreTheTwoPasses) {
  // cross_entropy_forward_backward against cross_entropy_forward (kFloat) then _backward (kSet):
  // the same loss and dlogits, bit for bit, over a tail that is not a multiple of 4 and ignored
  // rows between runs; its hits against count_argmax_hits, with ties before and after a target.
  std::mt19937 rng(7);
  for (const long V : {3L, 4L, 7L, 2578L}) {
    const long R = 6;
    std::vector<float> logits = random_vector(R * V, rng);
    for (float& v : logits) v *= 8.0f;
    const int32_t targets[] = {0, -1, static_cast<int32_t>(V - 1), 1, -1, 2};
    logits[0 * V + 0] = 9.0f;  // row 0: its target is the maximum (a hit)
    logits[2 * V + V - 1] = 9.0f;
    logits[2 * V + 0] = 9.0f;  // row 2: a tie before its target (a miss)
    logits[3 * V + 1] = 9.0f;
    logits[3 * V + V - 1] = 9.0f;  // row 3: a tie after (a hit)
    logits[5 * V + 0] = 20.0f;     // row 5: a miss
    std::vector<float> probs(R * V), want = random_vector(R * V, rng),
                                     got = random_vector(R * V, rng);
    const float loss = lab::cross_entropy_forward(probs.data(), logits.data(), targets, -1, R, V,
                                                  lab::LogSumExp::kFloat);
    lab::cross_entropy_backward(want.data(), probs.data(), targets, -1, R, V, 1.0f,
                                lab::Grad::kSet);
    long hits = -1;
    const float one_pass = lab::cross_entropy_forward_backward(got.data(), logits.data(), targets,
                                                               -1, R, V, 1.0f, &hits);
    EXPECT_EQ(0, std::memcmp(&loss, &one_pass, sizeof loss)) << "V " << V;
    EXPECT_EQ(0, std::memcmp(want.data(), got.data(), want.size() * sizeof(float))) << "V " << V;
    EXPECT_EQ(hits,
              lab::session_common::count_argmax_hits(logits.data(), targets, R, V, -1).correct)
        << "V " << V;
    EXPECT_EQ(hits, 2) << "V " << V;
    // a logit that is not finite, in the f32x4 part or the tail: the loss is NaN
    for (const float bad :
         {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
          -std::numeric_limits<float>::infinity()}) {
      for (const long at : {0L, V - 1}) {
        std::vector<float> x = logits;
        x[3 * V + at] = bad;
        EXPECT_TRUE(std::isnan(lab::cross_entropy_forward_backward(got.data(), x.data(), targets,
                                                                   -1, R, V, 1.0f, &hits)))
            << "V " << V << " at " << at << " " << bad;
      }
    }
  }
}

lab::AdamOptions adam_options(float lr) {
  lab::AdamOptions o;
  o.lr = lr;
  return o;
}

TEST(Kernels, AdamInPlaceEqualsTheCheckedPathBitForBit) {
  std::mt19937 rng(13);
  const long P = 1001;
  const std::vector<float> p0 = random_vector(P, rng);
  std::vector<float> pa = p0, pb = p0;
  lab::AdamState sa, sb;
  sa.reset(P);
  lab::AdamScratch scratch_a, scratch_b;
  for (int step = 0; step < 5; ++step) {
    const std::vector<float> g = random_vector(P, rng);
    lab::adam_update(pa, sa, g, adam_options(1e-2f), scratch_a);  // bounds known: in place
    // unknown moment bounds force the checked path
    sb.max_abs_exp_avg = -1.0f;
    lab::adam_update(pb, sb, g, adam_options(1e-2f), scratch_b);
    ASSERT_EQ(pa, pb);
    ASSERT_EQ(sa.exp_avg, sb.exp_avg);
    ASSERT_EQ(sa.exp_avg_sq, sb.exp_avg_sq);
  }
  EXPECT_TRUE(scratch_a.params.empty());  // the in-place path never needed the scratch
  EXPECT_GT(sa.max_abs_exp_avg, 0.0f);
}

TEST(Kernels, AdamZeroingTheGradientsGivesTheSameStep) {
  std::mt19937 rng(19);
  const long P = 1003;  // not a multiple of 4: the loop's tail too
  const std::vector<float> p0 = random_vector(P, rng);
  std::vector<float> pa = p0, pb = p0;
  lab::AdamState sa, sb;
  sa.reset(P);
  sb.reset(P);
  lab::AdamScratch scratch_a, scratch_b;
  for (float weight_decay : {0.0f, 0.01f}) {
    lab::AdamOptions o = adam_options(1e-2f);
    o.weight_decay = weight_decay;
    const std::vector<float> g = random_vector(P, rng);
    std::vector<float> spent = g;
    lab::adam_update(pa, sa, g, o, scratch_a);
    EXPECT_TRUE(lab::adam_update_zeroing_grads(pb, sb, spent, o, scratch_b));
    ASSERT_EQ(pa, pb);
    ASSERT_EQ(sa.exp_avg, sb.exp_avg);
    ASSERT_EQ(sa.exp_avg_sq, sb.exp_avg_sq);
    EXPECT_EQ(sa.max_abs_exp_avg, sb.max_abs_exp_avg);
    EXPECT_EQ(spent, std::vector<float>(P, 0.0f));
  }
  // The checked path (unknown bounds) applies the same step and leaves the gradients as they were.
  const std::vector<float> g = random_vector(P, rng);
  std::vector<float> kept = g;
  sb.max_abs_exp_avg = -1.0f;
  lab::adam_update(pa, sa, g, adam_options(1e-2f), scratch_a);
  EXPECT_FALSE(lab::adam_update_zeroing_grads(pb, sb, kept, adam_options(1e-2f), scratch_b));
  EXPECT_EQ(pa, pb);
  EXPECT_EQ(kept, g);
  // A refused step leaves them too.
  std::vector<float> bad = random_vector(P, rng);
  bad[5] = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> bad_copy = bad;
  EXPECT_THROW(lab::adam_update_zeroing_grads(pb, sb, bad, adam_options(1e-2f), scratch_b),
               lab::NonFiniteError);
  EXPECT_EQ(pa, pb);
  EXPECT_EQ(std::memcmp(bad.data(), bad_copy.data(), sizeof(float) * P), 0);
}

TEST(Kernels, AdamIsAllOrNothing) {
  std::mt19937 rng(17);
  const long P = 37;
  std::vector<float> p = random_vector(P, rng);
  lab::AdamState s;
  s.reset(P);
  lab::AdamScratch scratch;
  lab::adam_update(p, s, random_vector(P, rng), adam_options(1e-3f), scratch);
  const std::vector<float> p1 = p, m1 = s.exp_avg, v1 = s.exp_avg_sq;
  for (float bad :
       {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), 3e38f}) {
    std::vector<float> g = random_vector(P, rng);
    g[P - 1] = bad;  // the last element: an in-place pass would have written all the others
    EXPECT_THROW(lab::adam_update(p, s, g, adam_options(1e-3f), scratch), lab::NonFiniteError);
    EXPECT_EQ(p, p1);
    EXPECT_EQ(s.exp_avg, m1);
    EXPECT_EQ(s.exp_avg_sq, v1);
    EXPECT_EQ(s.step, 1);
  }
  // finite gradients but a learning rate that overflows the weights
  EXPECT_THROW(lab::adam_update(p, s, random_vector(P, rng), adam_options(3e38f), scratch),
               lab::NonFiniteError);
  EXPECT_EQ(p, p1);
  EXPECT_EQ(s.exp_avg, m1);
}

// AdamW (decoupled decay): p ← p (1 − lr λ), then Adam's step without λ in the gradient, in
// double here; the in-place and checked paths agree; a factor |1 − lr λ| > 1 (which could
// overflow the weights) takes the checked path, and a refused step leaves everything unchanged.
TEST(Kernels, AdamWDecaysTheWeightsNotTheGradient) {
  std::mt19937 rng(23);
  const long P = 101;
  const std::vector<float> p0 = random_vector(P, rng), g = random_vector(P, rng);
  lab::AdamOptions o = adam_options(1e-2f);
  o.weight_decay = 0.5f;
  o.decoupled = true;
  std::vector<float> pa = p0, pb = p0;
  lab::AdamState sa, sb;
  sa.reset(P);
  sb.reset(P);
  sb.max_abs_exp_avg = -1.0f;  // unknown bounds: the checked path
  lab::AdamScratch scratch_a, scratch_b;
  lab::adam_update(pa, sa, g, o, scratch_a);
  lab::adam_update(pb, sb, g, o, scratch_b);
  EXPECT_EQ(pa, pb);
  for (long i = 0; i < P; ++i) {
    // step 1: m = (1 − β1) g, v = (1 − β2) g², m̂ / (√v̂ + ε) = g / (|g| + ε)
    const double gi = g[i],
                 expected = p0[i] * (1.0 - 1e-2 * 0.5) - 1e-2 * gi / (std::abs(gi) + 1e-8);
    EXPECT_NEAR(pa[i], expected, 1e-6) << i;
    EXPECT_NEAR(sa.exp_avg[i], 0.1 * gi, 1e-7) << "the moment sees g, not g + λp";
  }
  // lr λ = 3: the factor −2 doubles |p| (finite here), through the checked path
  o.lr = 1.0f;
  o.weight_decay = 3.0f;
  std::vector<float> pc = p0;
  lab::AdamState sc;
  sc.reset(P);
  lab::AdamScratch scratch_c;
  lab::adam_update(pc, sc, g, o, scratch_c);
  EXPECT_FALSE(scratch_c.params.empty());
  EXPECT_NEAR(pc[0], -2.0 * p0[0] - g[0] / (std::abs(g[0]) + 1e-8), 1e-5);
  // … and refuses a step that would overflow, leaving the weights as they were
  std::vector<float> big(P, 3e38f);
  const std::vector<float> big0 = big;
  EXPECT_THROW(lab::adam_update(big, sc, g, o, scratch_c), lab::NonFiniteError);
  EXPECT_EQ(big, big0);
}

}  // namespace
