// Matrix products, the bottom layer (kernels → ops → attention → seq2seq / transformer): every
// GEMM and matrix–vector product of the core goes through these three functions.
//
//   gemm_nn:  C (M, N) [+]= A (M, K) · B (K, N)      [+ bias (N) on every row]
//   gemm_nt:  C (M, N) [+]= A (M, K) · B (N, K)ᵀ     [+ bias]   (x Wᵀ with W in nn.Linear layout)
//   gemm_tn:  C (M, N) [+]= A (K, M)ᵀ · B (K, N)     [+ bias]   (dW = dyᵀ x)
//
// Every matrix is row-major with its own row stride (lda, ldb, ldc ≥ the row length), so a
// time step of a (B, S, X) buffer or one head of a batch is a matrix without a copy. accumulate
// = true adds the product to C (llm.c's +=), false overwrites C (C need not be initialised).
// C must not overlap A, B or bias. Any of M, N, K may be 0 (K = 0 gives C = 0 [+ bias]).
//
// Natively these are Eigen (AVX/AVX-512 kernels). In wasm, where Eigen 3.4 has no SIMD packet
// math, they are hand-written f32x4 kernels (SIMD128 has no FMA: mul + add):
// - packed: panels of A (4 rows) and B (8 columns) packed into K-major order, then a 4 × 8 block
//   of C held in 8 registers over a K block (per k: one 4-float load of A split into 4 lanes,
//   two loads of B, 8 multiplies + 8 adds), blocked over K so the panels stay in cache;
// - small products (few rows, e.g. batch-1 matrix–vector products), where packing would cost as
//   much as the product: direct f32x4 loops, dot products along K for NT, axpy along N for NN/TN.
#pragma once

#include "kernels/row_set.h"

#ifdef LAB_COUNT_FLOPS
#include <vector>
#endif

namespace lab::kernels {

// A product over a RowSet (kernels/row_set.h), some of the M rows of A and C: the product's other
// rows of C are left finite: written 0 or the full product (accumulate = false), left as they are
// or added to (true). In wasm only the listed rows are computed, packed and stored through the
// index on the path the full M picks, so that each gets the numbers it gets in the full product
// (the packed kernel computes a row alone). Natively Eigen computes every row: it rounds a row by
// where it falls in the product (its last rows take another path), so a product over fewer rows
// would change the numbers.

void gemm_nn(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M, long N,
             long K, bool accumulate, const float* bias = nullptr);
void gemm_nt(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M, long N,
             long K, bool accumulate, const float* bias = nullptr);
// gemm_nn and gemm_nt over `rows` of A and C (above); rows null: every row.
void gemm_nn_rows(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M,
                  long N, long K, bool accumulate, const float* bias, const RowSet* rows);
void gemm_nt_rows(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M,
                  long N, long K, bool accumulate, const float* bias, const RowSet* rows);
void gemm_tn(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M, long N,
             long K, bool accumulate, const float* bias = nullptr);
// gemm_tn summed over `ks`, some of the K rows of A and B (ascending), where the other rows of A
// are 0 (a weight gradient over a batch's real rows, the padded rows' dy being 0): in wasm the
// others are skipped inside the full product's K blocks, which adds the same terms in the same
// order but the exact zeros, so the bits are the full product's. No bias. ks null: every row.
void gemm_tn_rows(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M,
                  long N, long K, bool accumulate, const RowSet* ks);

// Σ_r A[r, :] into c (N) with += (the bias gradient db += Σ_r dy): A (R, N), row stride lda.
// rows: null, or the rows that may be nonzero (the others are 0 and, in wasm, skipped: the same
// sums in the same order).
void sum_rows_acc(float* c, const float* A, long lda, long R, long N, const RowSet* rows = nullptr);

#ifdef LAB_COUNT_FLOPS
// The work the three products above have done since the program started: 2·M·N·K each. Only the
// native benchmark's build counts (CMake's LAB_COUNT_FLOPS), so that it can set a training step's
// GEMM work beside the kernels' peak; wasm runs the same calls, so the count is the wasm step's
// too.
double gemm_flops();
// Each product shape run since the last call, and how many times: op "nn", "nt" or "tn", M the
// rows computed (the listed ones where wasm computes only those), N, K the terms summed. The
// benchmark replays a step's shapes alone in wasm (bench/wasm_kernels.cpp) to time its products
// without the rest of the step.
struct GemmShape {
  const char* op;
  long M, N, K, count;
};
std::vector<GemmShape> take_gemm_shapes();
#endif

}  // namespace lab::kernels
