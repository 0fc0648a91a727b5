#include "seq2seq/cells.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "ops.h"
#include "tensor.h"
#include "vectorize.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace lab {

namespace {

// One time step of a batch-first (B, S, X) buffer: B rows of X floats, S·X apart.
using StepMap = Eigen::Map<MatR, 0, Eigen::OuterStride<>>;
using CStepMap = Eigen::Map<const MatR, 0, Eigen::OuterStride<>>;
using ArrF = Eigen::ArrayXf;
using MapA = Eigen::Map<Eigen::ArrayXf>;
using CMapA = Eigen::Map<const Eigen::ArrayXf>;

StepMap step_rows(std::vector<float>& buf, long t, long B, long S, long X) {
  return StepMap(buf.data() + t * X, B, X, Eigen::OuterStride<>(S * X));
}

ArrF sigmoid(const ArrF& a) {
  return 1.0f / (1.0f + (-a).exp());
}

#ifdef __wasm_simd128__
// C (R, N) (+)= A (R, K) · B (K, N) [+ bias (N)] in f32x4 code, N a multiple of 8, B contiguous:
// a 4 × 8 block of C stays in 8 registers over the whole K loop (per k: four 1-float splat loads
// of A, two loads of B, eight multiply-adds), so no horizontal sums and no reloads of C. The
// engine of the larger products in wasm (Eigen 3.4 has no wasm SIMD kernels).
template <bool kAccumulate>
void gemm_nn_kernel(float* C, long ldc, const float* A, long lda, const float* B, const float* bias,
                    long R, long K, long N) {
  auto finish = [&](float* c, v128_t acc, long n) {
    if (bias) acc = wasm_f32x4_add(acc, wasm_v128_load(bias + n));
    if (kAccumulate) acc = wasm_f32x4_add(wasm_v128_load(c), acc);
    wasm_v128_store(c, acc);
  };
  long r = 0;
  for (; r + 4 <= R; r += 4) {
    const float* a0 = A + r * lda;
    const float* a1 = a0 + lda;
    const float* a2 = a1 + lda;
    const float* a3 = a2 + lda;
    float* c0 = C + r * ldc;
    for (long n = 0; n < N; n += 8) {
      v128_t c00 = wasm_f32x4_splat(0.0f), c01 = c00, c10 = c00, c11 = c00;
      v128_t c20 = c00, c21 = c00, c30 = c00, c31 = c00;
      const float* bp = B + n;
      for (long k = 0; k < K; ++k, bp += N) {
        const v128_t b0 = wasm_v128_load(bp), b1 = wasm_v128_load(bp + 4);
        const v128_t s0 = wasm_v128_load32_splat(a0 + k), s1 = wasm_v128_load32_splat(a1 + k);
        const v128_t s2 = wasm_v128_load32_splat(a2 + k), s3 = wasm_v128_load32_splat(a3 + k);
        c00 = wasm_f32x4_add(c00, wasm_f32x4_mul(s0, b0));
        c01 = wasm_f32x4_add(c01, wasm_f32x4_mul(s0, b1));
        c10 = wasm_f32x4_add(c10, wasm_f32x4_mul(s1, b0));
        c11 = wasm_f32x4_add(c11, wasm_f32x4_mul(s1, b1));
        c20 = wasm_f32x4_add(c20, wasm_f32x4_mul(s2, b0));
        c21 = wasm_f32x4_add(c21, wasm_f32x4_mul(s2, b1));
        c30 = wasm_f32x4_add(c30, wasm_f32x4_mul(s3, b0));
        c31 = wasm_f32x4_add(c31, wasm_f32x4_mul(s3, b1));
      }
      finish(c0 + n, c00, n);
      finish(c0 + n + 4, c01, n + 4);
      finish(c0 + ldc + n, c10, n);
      finish(c0 + ldc + n + 4, c11, n + 4);
      finish(c0 + 2 * ldc + n, c20, n);
      finish(c0 + 2 * ldc + n + 4, c21, n + 4);
      finish(c0 + 3 * ldc + n, c30, n);
      finish(c0 + 3 * ldc + n + 4, c31, n + 4);
    }
  }
  for (; r < R; ++r) {
    const float* a0 = A + r * lda;
    float* c0 = C + r * ldc;
    for (long n = 0; n < N; n += 8) {
      v128_t c00 = wasm_f32x4_splat(0.0f), c01 = c00;
      const float* bp = B + n;
      for (long k = 0; k < K; ++k, bp += N) {
        const v128_t s0 = wasm_v128_load32_splat(a0 + k);
        c00 = wasm_f32x4_add(c00, wasm_f32x4_mul(s0, wasm_v128_load(bp)));
        c01 = wasm_f32x4_add(c01, wasm_f32x4_mul(s0, wasm_v128_load(bp + 4)));
      }
      finish(c0 + n, c00, n);
      finish(c0 + n + 4, c01, n + 4);
    }
  }
}

// Bᵀ of a (N, K) row-major matrix into `out` (K, N), reusing out's capacity.
const float* transposed(const float* B, long N, long K, std::vector<float>& out) {
  out.resize(static_cast<size_t>(N * K));
  for (long n = 0; n < N; ++n) {
    for (long k = 0; k < K; ++k) out[k * N + n] = B[n * K + k];
  }
  return out.data();
}

// gemm_nt (below) as Bᵀ into a scratch buffer, then gemm_nn_kernel: out of line, so the batch-1
// path of gemm_nt keeps its code.
__attribute__((noinline)) void gemm_nt_by_transpose(float* C, long ldc, const float* A, long lda,
                                                    const float* B, const float* bias, long R,
                                                    long N, long K) {
  thread_local std::vector<float> b_t;
  gemm_nn_kernel<false>(C, ldc, A, lda, transposed(B, N, K, b_t), bias, R, K, N);
}
#endif

// C (R, N) = A (R, K) · B (N, K)ᵀ [+ bias (N)], every matrix row-major with its own row stride.
// The recurrent h W_hhᵀ (R = B, one step) and the input projection are this product. Natively
// Eigen does it well (AVX GEMV / GEMM). Eigen 3.4 has no WebAssembly SIMD packet math, so in wasm
// its kernels run scalar (the profile of the note's recipe: ~40% of a training step in Eigen's
// scalar gebp / gemv); there this hand-written f32x4 kernel takes over: 2 rows of A × 4 rows of
// B per block, K in steps of 4, a transpose-add to finish the 4 dot products of a block.
void gemm_nt(float* C, long ldc, const float* A, long lda, const float* B, const float* bias,
             long R, long N, long K) {
#ifdef __wasm_simd128__
  if (R >= 32 && N % 8 == 0) {
    // Enough rows to pay for a transpose of B (N·K floats, ≤ 1/32 of the multiply-adds): the
    // dates recipe's input projections, head and batch-128 recurrence; not the note's batch 1.
    gemm_nt_by_transpose(C, ldc, A, lda, B, bias, R, N, K);
    return;
  }
  if (K % 4 == 0 && N % 4 == 0) {
    auto sum4 = [](v128_t a0, v128_t a1, v128_t a2, v128_t a3) {
      // [Σa0, Σa1, Σa2, Σa3]
      const v128_t s01 = wasm_f32x4_add(wasm_i32x4_shuffle(a0, a1, 0, 4, 2, 6),
                                        wasm_i32x4_shuffle(a0, a1, 1, 5, 3, 7));
      const v128_t s23 = wasm_f32x4_add(wasm_i32x4_shuffle(a2, a3, 0, 4, 2, 6),
                                        wasm_i32x4_shuffle(a2, a3, 1, 5, 3, 7));
      return wasm_f32x4_add(wasm_i32x4_shuffle(s01, s23, 0, 1, 4, 5),
                            wasm_i32x4_shuffle(s01, s23, 2, 3, 6, 7));
    };
    long r = 0;
    for (; r + 2 <= R; r += 2) {
      const float* a0p = A + r * lda;
      const float* a1p = a0p + lda;
      for (long n = 0; n < N; n += 4) {
        const float* b0p = B + n * K;
        v128_t c00 = wasm_f32x4_splat(0.0f), c01 = c00, c02 = c00, c03 = c00;
        v128_t c10 = c00, c11 = c00, c12 = c00, c13 = c00;
        for (long k = 0; k < K; k += 4) {
          const v128_t a0 = wasm_v128_load(a0p + k), a1 = wasm_v128_load(a1p + k);
          const v128_t b0 = wasm_v128_load(b0p + k), b1 = wasm_v128_load(b0p + K + k);
          const v128_t b2 = wasm_v128_load(b0p + 2 * K + k), b3 = wasm_v128_load(b0p + 3 * K + k);
          c00 = wasm_f32x4_add(c00, wasm_f32x4_mul(a0, b0));
          c01 = wasm_f32x4_add(c01, wasm_f32x4_mul(a0, b1));
          c02 = wasm_f32x4_add(c02, wasm_f32x4_mul(a0, b2));
          c03 = wasm_f32x4_add(c03, wasm_f32x4_mul(a0, b3));
          c10 = wasm_f32x4_add(c10, wasm_f32x4_mul(a1, b0));
          c11 = wasm_f32x4_add(c11, wasm_f32x4_mul(a1, b1));
          c12 = wasm_f32x4_add(c12, wasm_f32x4_mul(a1, b2));
          c13 = wasm_f32x4_add(c13, wasm_f32x4_mul(a1, b3));
        }
        v128_t y0 = sum4(c00, c01, c02, c03), y1 = sum4(c10, c11, c12, c13);
        if (bias) {
          const v128_t bv = wasm_v128_load(bias + n);
          y0 = wasm_f32x4_add(y0, bv);
          y1 = wasm_f32x4_add(y1, bv);
        }
        wasm_v128_store(C + r * ldc + n, y0);
        wasm_v128_store(C + (r + 1) * ldc + n, y1);
      }
    }
    for (; r < R; ++r) {
      const float* ap = A + r * lda;
      for (long n = 0; n < N; n += 4) {
        const float* b0p = B + n * K;
        v128_t c0 = wasm_f32x4_splat(0.0f), c1 = c0, c2 = c0, c3 = c0;
        for (long k = 0; k < K; k += 4) {
          const v128_t a = wasm_v128_load(ap + k);
          c0 = wasm_f32x4_add(c0, wasm_f32x4_mul(a, wasm_v128_load(b0p + k)));
          c1 = wasm_f32x4_add(c1, wasm_f32x4_mul(a, wasm_v128_load(b0p + K + k)));
          c2 = wasm_f32x4_add(c2, wasm_f32x4_mul(a, wasm_v128_load(b0p + 2 * K + k)));
          c3 = wasm_f32x4_add(c3, wasm_f32x4_mul(a, wasm_v128_load(b0p + 3 * K + k)));
        }
        v128_t y = sum4(c0, c1, c2, c3);
        if (bias) y = wasm_f32x4_add(y, wasm_v128_load(bias + n));
        wasm_v128_store(C + r * ldc + n, y);
      }
    }
    return;
  }
#endif
  StepMap c(C, R, N, Eigen::OuterStride<>(ldc));
  c.noalias() = CStepMap(A, R, K, Eigen::OuterStride<>(lda)) * CMapR(B, N, K).transpose();
  if (bias) c.rowwise() += CMapRowV(bias, N);
}

// C (R, K) += A (R, N) · B (N, K), row-major, C and A with their own row strides: the backward
// of gemm_nt (dh += dh_proj W_hh). Eigen natively; in wasm a plain axpy loop that clang turns
// into f32x4 code (no reduction, so no reassociation needed).
void gemm_nn_acc(float* C, long ldc, const float* A, long lda, const float* B, long R, long N,
                 long K) {
#ifdef __wasm_simd128__
  if (K % 8 == 0 && R >= 16) {  // batch 1 (one row): the axpy loop below does better
    gemm_nn_kernel<true>(C, ldc, A, lda, B, nullptr, R, N, K);
    return;
  }
  for (long r = 0; r < R; ++r) {
    float* __restrict c = C + r * ldc;
    const float* a = A + r * lda;
    long n = 0;
    // four rows of B per pass over c: a quarter of the loads and stores of c
    for (; n + 4 <= N; n += 4) {
      const float a0 = a[n], a1 = a[n + 1], a2 = a[n + 2], a3 = a[n + 3];
      if (a0 == 0.0f && a1 == 0.0f && a2 == 0.0f && a3 == 0.0f) continue;  // padded rows
      const float* __restrict b0 = B + n * K;
      const float* __restrict b1 = b0 + K;
      const float* __restrict b2 = b1 + K;
      const float* __restrict b3 = b2 + K;
      LAB_VECTORIZE
      for (long k = 0; k < K; ++k) c[k] += a0 * b0[k] + a1 * b1[k] + a2 * b2[k] + a3 * b3[k];
    }
    for (; n < N; ++n) {
      const float an = a[n];
      const float* __restrict b = B + n * K;
      LAB_VECTORIZE
      for (long k = 0; k < K; ++k) c[k] += an * b[k];
    }
  }
#else
  StepMap(C, R, K, Eigen::OuterStride<>(ldc)).noalias() +=
      CStepMap(A, R, N, Eigen::OuterStride<>(lda)) * CMapR(B, N, K);
#endif
}

#ifdef __wasm_simd128__
// C (O, I) += A (R, O)ᵀ · X (R, I), all row-major and contiguous: the weight gradient
// dW += dyᵀ x over every row of a batch (B·S = 3328 rows for the dates recipe). Eigen natively;
// in wasm an f32x4 kernel: a 4 × 8 block of C stays in 8 registers while the rows stream by (one
// 4-float load of A, four lane splats, two loads of X, eight multiply-adds per row), with the rows
// taken in panels of kPanel so the panels of A and X stay in cache across the blocks of C.
void gemm_tn_acc(float* C, const float* A, const float* X, long R, long O, long I) {
  if (I % 4 == 0) {
    constexpr long kPanel = 256;
    for (long r0 = 0; r0 < R; r0 += kPanel) {
      const long r1 = std::min(R, r0 + kPanel);
      long o = 0;
      for (; o + 4 <= O; o += 4) {
        float* c0p = C + o * I;
        float* c1p = c0p + I;
        float* c2p = c1p + I;
        float* c3p = c2p + I;
        long i = 0;
        for (; i + 8 <= I; i += 8) {
          v128_t c00 = wasm_f32x4_splat(0.0f), c01 = c00, c10 = c00, c11 = c00;
          v128_t c20 = c00, c21 = c00, c30 = c00, c31 = c00;
          const float* ap = A + r0 * O + o;
          const float* xp = X + r0 * I + i;
          for (long r = r0; r < r1; ++r, ap += O, xp += I) {
            const v128_t a = wasm_v128_load(ap);
            const v128_t x0 = wasm_v128_load(xp), x1 = wasm_v128_load(xp + 4);
            const v128_t a0 = wasm_i32x4_shuffle(a, a, 0, 0, 0, 0);
            const v128_t a1 = wasm_i32x4_shuffle(a, a, 1, 1, 1, 1);
            const v128_t a2 = wasm_i32x4_shuffle(a, a, 2, 2, 2, 2);
            const v128_t a3 = wasm_i32x4_shuffle(a, a, 3, 3, 3, 3);
            c00 = wasm_f32x4_add(c00, wasm_f32x4_mul(a0, x0));
            c01 = wasm_f32x4_add(c01, wasm_f32x4_mul(a0, x1));
            c10 = wasm_f32x4_add(c10, wasm_f32x4_mul(a1, x0));
            c11 = wasm_f32x4_add(c11, wasm_f32x4_mul(a1, x1));
            c20 = wasm_f32x4_add(c20, wasm_f32x4_mul(a2, x0));
            c21 = wasm_f32x4_add(c21, wasm_f32x4_mul(a2, x1));
            c30 = wasm_f32x4_add(c30, wasm_f32x4_mul(a3, x0));
            c31 = wasm_f32x4_add(c31, wasm_f32x4_mul(a3, x1));
          }
          auto acc = [](float* c, v128_t v) {
            wasm_v128_store(c, wasm_f32x4_add(wasm_v128_load(c), v));
          };
          acc(c0p + i, c00);
          acc(c0p + i + 4, c01);
          acc(c1p + i, c10);
          acc(c1p + i + 4, c11);
          acc(c2p + i, c20);
          acc(c2p + i + 4, c21);
          acc(c3p + i, c30);
          acc(c3p + i + 4, c31);
        }
        for (; i < I; i += 4) {
          v128_t c0 = wasm_f32x4_splat(0.0f), c1 = c0, c2 = c0, c3 = c0;
          for (long r = r0; r < r1; ++r) {
            const v128_t a = wasm_v128_load(A + r * O + o);
            const v128_t x0 = wasm_v128_load(X + r * I + i);
            c0 = wasm_f32x4_add(c0, wasm_f32x4_mul(wasm_i32x4_shuffle(a, a, 0, 0, 0, 0), x0));
            c1 = wasm_f32x4_add(c1, wasm_f32x4_mul(wasm_i32x4_shuffle(a, a, 1, 1, 1, 1), x0));
            c2 = wasm_f32x4_add(c2, wasm_f32x4_mul(wasm_i32x4_shuffle(a, a, 2, 2, 2, 2), x0));
            c3 = wasm_f32x4_add(c3, wasm_f32x4_mul(wasm_i32x4_shuffle(a, a, 3, 3, 3, 3), x0));
          }
          wasm_v128_store(c0p + i, wasm_f32x4_add(wasm_v128_load(c0p + i), c0));
          wasm_v128_store(c1p + i, wasm_f32x4_add(wasm_v128_load(c1p + i), c1));
          wasm_v128_store(c2p + i, wasm_f32x4_add(wasm_v128_load(c2p + i), c2));
          wasm_v128_store(c3p + i, wasm_f32x4_add(wasm_v128_load(c3p + i), c3));
        }
      }
      for (; o < O; ++o) {  // the last O % 4 rows of C
        float* __restrict co = C + o * I;
        for (long r = r0; r < r1; ++r) {
          const float a = A[r * O + o];
          const float* __restrict xr = X + r * I;
          for (long i = 0; i < I; ++i) co[i] += a * xr[i];
        }
      }
    }
    return;
  }
  MapR(C, O, I).noalias() += CMapR(A, R, O).transpose() * CMapR(X, R, I);
}
#endif  // __wasm_simd128__

}  // namespace

void linear_backward_small(float* dx, float* dw, float* db, const float* dy, const float* x,
                           const float* w, long R, long I, long O) {
#ifdef __wasm_simd128__
  if (R <= kSmallRows) {
    // dx += dy W
    if (dx) gemm_nn_acc(dx, I, dy, O, w, R, O, I);
    // dW += dyᵀ x: row o of dW gathers dy[r, o] x[r, :] over the R rows
    if (dw) {
      for (long o = 0; o < O; ++o) {
        float* __restrict dwo = dw + o * I;
        long r = 0;
        for (; r + 4 <= R; r += 4) {  // four rows of x per pass over the row of dW
          const float a0 = dy[r * O + o], a1 = dy[(r + 1) * O + o];
          const float a2 = dy[(r + 2) * O + o], a3 = dy[(r + 3) * O + o];
          if (a0 == 0.0f && a1 == 0.0f && a2 == 0.0f && a3 == 0.0f) continue;
          const float* __restrict x0 = x + r * I;
          const float* __restrict x1 = x0 + I;
          const float* __restrict x2 = x1 + I;
          const float* __restrict x3 = x2 + I;
          LAB_VECTORIZE
          for (long i = 0; i < I; ++i) dwo[i] += a0 * x0[i] + a1 * x1[i] + a2 * x2[i] + a3 * x3[i];
        }
        for (; r < R; ++r) {
          const float a = dy[r * O + o];
          const float* __restrict xr = x + r * I;
          LAB_VECTORIZE
          for (long i = 0; i < I; ++i) dwo[i] += a * xr[i];
        }
      }
    }
    // db += Σ_r dy
    if (db) {
      for (long r = 0; r < R; ++r) {
        LAB_VECTORIZE
        for (long o = 0; o < O; ++o) db[o] += dy[r * O + o];
      }
    }
    return;
  }
  // More rows: the same f32x4 loops for dx, a register-blocked kernel for dW (Eigen's scalar
  // GEMM otherwise), a vectorised column sum for db.
  if (dx) gemm_nn_acc(dx, I, dy, O, w, R, O, I);
  if (dw) gemm_tn_acc(dw, dy, x, R, O, I);
  if (db) {
    for (long r = 0; r < R; ++r) {
      const float* __restrict dyr = dy + r * O;
      for (long o = 0; o < O; ++o) db[o] += dyr[o];
    }
  }
  return;
#endif
  linear_backward(dx, dw, db, dy, x, w, R, I, O);
}

int cell_gate_count(CellKind kind) {
  switch (kind) {
    case CellKind::kRnn:
      return 1;
    case CellKind::kGru:
      return 3;
    case CellKind::kLstm:
      return 4;
  }
  return 1;
}

const char* cell_name(CellKind kind) {
  switch (kind) {
    case CellKind::kRnn:
      return "rnn";
    case CellKind::kGru:
      return "gru";
    case CellKind::kLstm:
      return "lstm";
  }
  return "rnn";
}

CellKind parse_cell(const char* name) {
  std::string n = name ? name : "";
  if (n == "rnn") return CellKind::kRnn;
  if (n == "gru") return CellKind::kGru;
  if (n == "lstm") return CellKind::kLstm;
  throw InputError("unknown cell \"" + n + "\": expected rnn, gru or lstm");
}

void CellActivations::resize(const CellShape& s) {
  shape = s;
  const long rows = s.B * s.S, gh = s.G() * s.Hd;
  const bool lstm = s.kind == CellKind::kLstm;
  x_proj.resize(rows * gh);
  h_proj.resize(rows * gh);
  gates.resize(rows * gh);
  h_prev.resize(rows * s.Hd);
  c_prev.resize(lstm ? rows * s.Hd : 0);
  tanh_c.resize(lstm ? rows * s.Hd : 0);
  out.resize(rows * s.Hd);
  h_last.resize(s.B * s.Hd);
  c_last.resize(lstm ? s.B * s.Hd : 0);
}

void CellScratch::resize(const CellShape& s) {
  const long rows = s.B * s.S, gh = s.G() * s.Hd;
  dx_proj.resize(rows * gh);
  dh_proj.resize(rows * gh);
  dh.resize(s.B * s.Hd);
  dc.resize(s.B * s.Hd);
  dh_next.resize(s.B * s.Hd);
}

void cell_forward(CellActivations& act, const CellWeights& w, const float* x,
                  const int32_t* lengths, const float* h0, const float* c0) {
  const CellShape& s = act.shape;
  const long B = s.B, S = s.S, E = s.E, Hd = s.Hd, GH = s.G() * Hd;
  const bool lstm = s.kind == CellKind::kLstm;

  // x_proj = x W_ihᵀ + b_ih     all B·S steps in one GEMM: the inputs do not depend on the state
  gemm_nt(act.x_proj.data(), GH, x, E, w.w_ih, w.b_ih, B * S, GH, E);

  // The running state lives in h_last / c_last (B, Hd): after the loop it is the final state.
  MapR h(act.h_last.data(), B, Hd);
  if (h0) {
    h = CMapR(h0, B, Hd);
  } else {
    h.setZero();
  }
  if (lstm) {
    MapR c(act.c_last.data(), B, Hd);
    if (c0) {
      c = CMapR(c0, B, Hd);
    } else {
      c.setZero();
    }
  }
  for (long t = 0; t < S; ++t) {
    step_rows(act.h_prev, t, B, S, Hd) = h;
    // h_proj = h W_hhᵀ + b_hh   (B, G·Hd): the only sequential GEMM
    gemm_nt(act.h_proj.data() + t * GH, S * GH, act.h_last.data(), Hd, w.w_hh, w.b_hh, B, GH, Hd);

    for (long b = 0; b < B; ++b) {
      const long row = b * S + t;
      float* out = act.out.data() + row * Hd;
      if (t >= lengths[b]) {
        // Padding: the state stays, the output is zero.
        std::fill(out, out + Hd, 0.0f);
        std::fill(act.gates.data() + row * GH, act.gates.data() + (row + 1) * GH, 0.0f);
        continue;
      }
      CMapA xp(act.x_proj.data() + row * GH, GH), hp(act.h_proj.data() + row * GH, GH);
      MapA gates(act.gates.data() + row * GH, GH);
      MapA h_b(act.h_last.data() + b * Hd, Hd);
      switch (s.kind) {
        case CellKind::kRnn:
          // h' = tanh(W_ih x + b_ih + W_hh h + b_hh)
          gates = (xp + hp).tanh();
          h_b = gates;
          break;
        case CellKind::kGru: {
          // r, z = σ(x_proj + h_proj) over the first 2·Hd rows
          gates.head(2 * Hd) = sigmoid(xp.head(2 * Hd) + hp.head(2 * Hd));
          // n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))
          gates.tail(Hd) = (xp.tail(Hd) + gates.head(Hd) * hp.tail(Hd)).tanh();
          // h' = (1 − z) ⊙ n + z ⊙ h
          ArrF z = gates.segment(Hd, Hd);
          h_b = (1.0f - z) * gates.tail(Hd) + z * h_b;
          break;
        }
        case CellKind::kLstm: {
          ArrF pre = xp + hp;
          // i, f = σ(·), g = tanh(·), o = σ(·)
          gates.head(2 * Hd) = sigmoid(pre.head(2 * Hd));
          gates.segment(2 * Hd, Hd) = pre.segment(2 * Hd, Hd).tanh();
          gates.tail(Hd) = sigmoid(pre.tail(Hd));
          MapA c_b(act.c_last.data() + b * Hd, Hd);
          MapA(act.c_prev.data() + row * Hd, Hd) = c_b;
          // c' = f ⊙ c + i ⊙ g
          c_b = gates.segment(Hd, Hd) * c_b + gates.head(Hd) * gates.segment(2 * Hd, Hd);
          MapA tanh_c(act.tanh_c.data() + row * Hd, Hd);
          tanh_c = c_b.tanh();
          // h' = o ⊙ tanh(c')
          h_b = gates.tail(Hd) * tanh_c;
          break;
        }
      }
      std::memcpy(out, h_b.data(), sizeof(float) * Hd);
    }
  }
}

void cell_backward(CellGrads& g, float* dx, float* dh0, float* dc0, CellScratch& scratch,
                   const CellActivations& act, const CellWeights& w, const float* x,
                   const int32_t* lengths, const float* dout, const float* dh_last,
                   const float* dc_last) {
  const CellShape& s = act.shape;
  const long B = s.B, S = s.S, E = s.E, Hd = s.Hd, GH = s.G() * Hd;
  const bool lstm = s.kind == CellKind::kLstm;

  // dx_proj / dh_proj: every real row is assigned below, padded rows are zeroed there (no memset
  // of the whole (B, S, G·Hd) buffers: 3.4 MB each for the dates recipe's encoder).
  // dh, dc (B, Hd): gradient on the state after step t, starting from the final state's
  if (dh_last) {
    MapR(scratch.dh.data(), B, Hd) = CMapR(dh_last, B, Hd);
  } else {
    std::fill(scratch.dh.begin(), scratch.dh.end(), 0.0f);
  }
  if (lstm && dc_last) {
    MapR(scratch.dc.data(), B, Hd) = CMapR(dc_last, B, Hd);
  } else {
    std::fill(scratch.dc.begin(), scratch.dc.end(), 0.0f);
  }
  for (long t = S - 1; t >= 0; --t) {
    for (long b = 0; b < B; ++b) {
      const long row = b * S + t;
      MapA dh_b(scratch.dh.data() + b * Hd, Hd);
      MapA dh_next_b(scratch.dh_next.data() + b * Hd, Hd);
      if (t >= lengths[b]) {
        // Padding kept the state, so its gradient passes through unchanged (dc stays in place).
        dh_next_b = dh_b;
        std::fill_n(scratch.dx_proj.data() + row * GH, GH, 0.0f);
        std::fill_n(scratch.dh_proj.data() + row * GH, GH, 0.0f);
        continue;
      }
      dh_b += CMapA(dout + row * Hd, Hd);
      CMapA gates(act.gates.data() + row * GH, GH);
      MapA dxp(scratch.dx_proj.data() + row * GH, GH), dhp(scratch.dh_proj.data() + row * GH, GH);
      switch (s.kind) {
        case CellKind::kRnn:
          // da = dh ⊙ (1 − h'²), the same for both projections
          dxp = dh_b * (1.0f - gates.square());
          dhp = dxp;
          dh_next_b.setZero();
          break;
        case CellKind::kGru: {
          auto r = gates.head(Hd);
          auto z = gates.segment(Hd, Hd);
          auto n = gates.tail(Hd);
          CMapA h_prev(act.h_prev.data() + row * Hd, Hd);
          CMapA hn(act.h_proj.data() + row * GH + 2 * Hd, Hd);
          // dn_pre = dh ⊙ (1 − z) ⊙ (1 − n²)
          ArrF dn_pre = dh_b * (1.0f - z) * (1.0f - n.square());
          // dz_pre = dh ⊙ (h − n) ⊙ z (1 − z)
          dxp.segment(Hd, Hd) = dh_b * (h_prev - n) * z * (1.0f - z);
          // dr_pre = dn_pre ⊙ (W_hn h + b_hn) ⊙ r (1 − r)
          dxp.head(Hd) = dn_pre * hn * r * (1.0f - r);
          dxp.tail(Hd) = dn_pre;
          dhp.head(2 * Hd) = dxp.head(2 * Hd);
          // d(W_hn h + b_hn) = dn_pre ⊙ r: the reset gate scales the recurrent part only
          dhp.tail(Hd) = dn_pre * r;
          // dh_prev (direct path) = dh ⊙ z
          dh_next_b = dh_b * z;
          break;
        }
        case CellKind::kLstm: {
          auto i = gates.head(Hd);
          auto f = gates.segment(Hd, Hd);
          auto gg = gates.segment(2 * Hd, Hd);
          auto o = gates.tail(Hd);
          CMapA tanh_c(act.tanh_c.data() + row * Hd, Hd);
          CMapA c_prev(act.c_prev.data() + row * Hd, Hd);
          MapA dc_b(scratch.dc.data() + b * Hd, Hd);
          // dc' += dh ⊙ o ⊙ (1 − tanh²(c'))
          dc_b += dh_b * o * (1.0f - tanh_c.square());
          // di = dc' ⊙ g, df = dc' ⊙ c, dg = dc' ⊙ i, do = dh ⊙ tanh(c'), then through σ / tanh
          dxp.head(Hd) = dc_b * gg * i * (1.0f - i);
          dxp.segment(Hd, Hd) = dc_b * c_prev * f * (1.0f - f);
          dxp.segment(2 * Hd, Hd) = dc_b * i * (1.0f - gg.square());
          dxp.tail(Hd) = dh_b * tanh_c * o * (1.0f - o);
          dhp = dxp;
          // dc = dc' ⊙ f
          dc_b *= f;
          dh_next_b.setZero();
          break;
        }
      }
    }
    // dh_prev += dh_proj W_hh     (padded rows of dh_proj are zero)
    gemm_nn_acc(scratch.dh_next.data(), Hd, scratch.dh_proj.data() + t * GH, S * GH, w.w_hh, B, GH,
                Hd);
    scratch.dh.swap(scratch.dh_next);
  }
  if (dh0) MapR(dh0, B, Hd) += CMapR(scratch.dh.data(), B, Hd);
  if (lstm && dc0) MapR(dc0, B, Hd) += CMapR(scratch.dc.data(), B, Hd);

  // dW_ih += dx_projᵀ x,  db_ih += Σ dx_proj,  dx += dx_proj W_ih      (one GEMM each, all steps)
  linear_backward_small(dx, g.dw_ih, g.db_ih, scratch.dx_proj.data(), x, w.w_ih, B * S, E, GH);
  // dW_hh += dh_projᵀ h_prev,  db_hh += Σ dh_proj
  linear_backward_small(nullptr, g.dw_hh, g.db_hh, scratch.dh_proj.data(), act.h_prev.data(),
                        w.w_hh, B * S, Hd, GH);
}

}  // namespace lab
