// The GEMM kernels behind kernels/gemm.h. Over the ~400-line guide on purpose: each entry point's
// dispatch (Eigen, or under __wasm_simd128__ the packed 4 × 8 kernel or the small-product path)
// sits next to the paths it chooses between, so a change of one threshold reads in one place.
#include "kernels/gemm.h"

#include <algorithm>
#ifdef LAB_COUNT_FLOPS
#include <map>
#include <tuple>
#endif

#include "kernels/simd_math.h"  // hsum, dot, madd (wasm)
#include "tensor.h"

namespace lab::kernels {

namespace {

// K = 0: the product is empty, C = bias or 0 (overwrite), C += bias (accumulate).
void empty_product(float* C, long ldc, long M, long N, bool accumulate, const float* bias) {
  for (long m = 0; m < M; ++m) {
    float* c = C + m * ldc;
    for (long n = 0; n < N; ++n) c[n] = (accumulate ? c[n] : 0.0f) + (bias ? bias[n] : 0.0f);
  }
}

#ifdef LAB_COUNT_FLOPS
double flops_done = 0;
// (op, M, N, K) → times run, op 0 … 2 for kOps' names
std::map<std::tuple<int, long, long, long>, long> shapes_run;
constexpr const char* kOps[] = {"nn", "nt", "tn"};
// 2·M·N·K: a multiply and an add per term of each of the M·N dot products of length K.
void count_flops(int op, long M, long N, long K) {
  flops_done += 2.0 * static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(K);
  ++shapes_run[{op, M, N, K}];
}
#else
inline void count_flops(int, long, long, long) {}
#endif
constexpr int kNN = 0, kNT = 1, kTN = 2;

// The wasm path's choices, here for both builds so that the native build counts the FLOPs wasm
// does: a listed-rows product computes only its rows where the full product would be packed.
constexpr long kNr = 8;  // columns of a C block of the wasm micro-kernel (two f32x4 of B per k)
// Packing pays off once a block of C is reused: enough rows (and, for a gathered Bᵀ, more).
[[maybe_unused]] bool packed_pays(long M, long N, long min_rows) {
  return M >= min_rows && N >= kNr;
}
// The rows from which C = A·B, C = A·Bᵀ and C = Aᵀ·B (with K ≥ 4) pack. The listed-rows products
// must choose as the full products do, or a listed row would get other numbers than in the full
// product.
constexpr long kPackRowsNN = 8;
constexpr long kPackRowsNT = 16;
constexpr long kPackRowsTN = 8;
// Whether the listed-rows products compute only the listed rows (else the full product).
[[maybe_unused]] bool skips_rows(long M, long N, long K, bool trans_b) {
  return K > 0 && packed_pays(M, N, trans_b ? kPackRowsNT : kPackRowsNN);
}
[[maybe_unused]] bool skips_ks(long M, long N, long K) {
  return M > 0 && N > 0 && K >= 4 && packed_pays(M, N, kPackRowsTN);
}

}  // namespace

#ifdef LAB_COUNT_FLOPS
double gemm_flops() {
  return flops_done;
}

std::vector<GemmShape> take_gemm_shapes() {
  std::vector<GemmShape> out;
  for (const auto& [shape, count] : shapes_run) {
    const auto [op, M, N, K] = shape;
    out.push_back({kOps[op], M, N, K, count});
  }
  shapes_run.clear();
  return out;
}
#endif

#ifndef __wasm_simd128__

namespace {

using StridedMap = Eigen::Map<MatR, 0, Eigen::OuterStride<>>;
using CStridedMap = Eigen::Map<const MatR, 0, Eigen::OuterStride<>>;

template <typename CMat, typename Product>
void store(CMat&& c, const Product& product, bool accumulate, const float* bias, long N) {
  if (accumulate) {
    c.noalias() += product;
  } else {
    c.noalias() = product;
  }
  if (bias) c.rowwise() += CMapRowV(bias, N);
}

// Contiguous operands take Eigen's plain Map (the expressions the core used before this layer:
// a strided Map may pick another product path and round differently); others a strided Map.
// a (rows, cols) of op(A) before the optional transpose, likewise b.
template <bool kTransA, bool kTransB>
void eigen_gemm(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M,
                long N, long K, bool accumulate, const float* bias) {
  if (M == 0 || N == 0) return;
  if (K == 0) return empty_product(C, ldc, M, N, accumulate, bias);
  const long a_rows = kTransA ? K : M, a_cols = kTransA ? M : K;
  const long b_rows = kTransB ? N : K, b_cols = kTransB ? K : N;
  auto op_a = [](const auto& a) {
    if constexpr (kTransA) {
      return a.transpose();
    } else {
      return a;
    }
  };
  auto op_b = [](const auto& b) {
    if constexpr (kTransB) {
      return b.transpose();
    } else {
      return b;
    }
  };
  if (ldc == N && lda == a_cols && ldb == b_cols) {
    CMapR a(A, a_rows, a_cols), b(B, b_rows, b_cols);
    store(MapR(C, M, N), op_a(a) * op_b(b), accumulate, bias, N);
  } else {
    CStridedMap a(A, a_rows, a_cols, Eigen::OuterStride<>(lda));
    CStridedMap b(B, b_rows, b_cols, Eigen::OuterStride<>(ldb));
    store(StridedMap(C, M, N, Eigen::OuterStride<>(ldc)), op_a(a) * op_b(b), accumulate, bias, N);
  }
}

}  // namespace

void gemm_nn(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M, long N,
             long K, bool accumulate, const float* bias) {
  count_flops(kNN, M, N, K);
  eigen_gemm<false, false>(C, ldc, A, lda, B, ldb, M, N, K, accumulate, bias);
}

void gemm_nt(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M, long N,
             long K, bool accumulate, const float* bias) {
  count_flops(kNT, M, N, K);
  eigen_gemm<false, true>(C, ldc, A, lda, B, ldb, M, N, K, accumulate, bias);
}

// Every row is computed (gemm.h says why); the count is wasm's work: the listed rows where it
// skips the others.
void gemm_nn_rows(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M,
                  long N, long K, bool accumulate, const float* bias, const RowSet* rows) {
  count_flops(kNN, rows && skips_rows(M, N, K, false) ? rows->count : M, N, K);
  eigen_gemm<false, false>(C, ldc, A, lda, B, ldb, M, N, K, accumulate, bias);
}

void gemm_nt_rows(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M,
                  long N, long K, bool accumulate, const float* bias, const RowSet* rows) {
  count_flops(kNT, rows && skips_rows(M, N, K, true) ? rows->count : M, N, K);
  eigen_gemm<false, true>(C, ldc, A, lda, B, ldb, M, N, K, accumulate, bias);
}

void gemm_tn(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M, long N,
             long K, bool accumulate, const float* bias) {
  count_flops(kTN, M, N, K);
  eigen_gemm<true, false>(C, ldc, A, lda, B, ldb, M, N, K, accumulate, bias);
}

void gemm_tn_rows(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M,
                  long N, long K, bool accumulate, const RowSet* ks) {
  count_flops(kTN, M, N, ks && skips_ks(M, N, K) ? ks->count : K);
  eigen_gemm<true, false>(C, ldc, A, lda, B, ldb, M, N, K, accumulate, nullptr);
}

// Every row is summed natively: Eigen's reduction order depends on the rows it is given.
void sum_rows_acc(float* c, const float* A, long lda, long R, long N, const RowSet*) {
  if (R == 0 || N == 0) return;
  // A contiguous A takes Eigen's plain-Map reduction (a strided map may sum in another order)
  if (lda == N) {
    MapRowV(c, N) += CMapR(A, R, N).colwise().sum();
  } else {
    MapRowV(c, N) += CStridedMap(A, R, N, Eigen::OuterStride<>(lda)).colwise().sum();
  }
}

#else  // __wasm_simd128__

namespace {

constexpr long kMr = 4;    // rows of a C block (one f32x4 of A per k)
constexpr long kKc = 256;  // K block: an A panel (4 KB) and a B panel (8 KB) stay in L1
constexpr long kMc = 64;   // rows of A packed at a time (64 KB: L2)

// A(m, k) of op(A) (M, K) and B(k, n) of op(B) (K, N), for a row-major A or Aᵀ, B or Bᵀ.
template <bool kTransA>
inline float a_at(const float* A, long lda, long m, long k) {
  return kTransA ? A[k * lda + m] : A[m * lda + k];
}
template <bool kTransB>
inline float b_at(const float* B, long ldb, long k, long n) {
  return kTransB ? B[n * ldb + k] : B[k * ldb + n];
}

// p[k·stride + i] = r_i[k] for k < kc, i < 4: four rows' runs interleaved k-major, four k at a
// time by a 4 × 4 transpose in registers (packing the rows of A, or of Bᵀ, that run along K).
// Not inlined: it runs once a panel, and a copy in every product's packing cost the widget pages
// kilobytes of download.
[[gnu::noinline]] void interleave4(float* p, long stride, const float* r0, const float* r1,
                                   const float* r2, const float* r3, long kc) {
  long k = 0;
  for (; k + 4 <= kc; k += 4) {
    const v128_t a = wasm_v128_load(r0 + k), b = wasm_v128_load(r1 + k);
    const v128_t c = wasm_v128_load(r2 + k), d = wasm_v128_load(r3 + k);
    const v128_t ab_lo = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5),
                 ab_hi = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7);
    const v128_t cd_lo = wasm_i32x4_shuffle(c, d, 0, 4, 1, 5),
                 cd_hi = wasm_i32x4_shuffle(c, d, 2, 6, 3, 7);
    wasm_v128_store(p + k * stride, wasm_i32x4_shuffle(ab_lo, cd_lo, 0, 1, 4, 5));
    wasm_v128_store(p + (k + 1) * stride, wasm_i32x4_shuffle(ab_lo, cd_lo, 2, 3, 6, 7));
    wasm_v128_store(p + (k + 2) * stride, wasm_i32x4_shuffle(ab_hi, cd_hi, 0, 1, 4, 5));
    wasm_v128_store(p + (k + 3) * stride, wasm_i32x4_shuffle(ab_hi, cd_hi, 2, 3, 6, 7));
  }
  for (; k < kc; ++k) {
    p[k * stride] = r0[k], p[k * stride + 1] = r1[k];
    p[k * stride + 2] = r2[k], p[k * stride + 3] = r3[k];
  }
}

// ap[k·4 + i] = A(m0 + i, k0 + k), zero past row M; with `index` (not for Aᵀ), A(index[m0 + i], …)
// ks: null, or the block's rows of K in place of k0 … k0 + kc − 1 (Aᵀ only)
template <bool kTransA>
void pack_a(float* ap, const float* A, long lda, long m0, long M, long k0, long kc,
            const int32_t* index, const int32_t* ks = nullptr) {
  const long rows = std::min(kMr, M - m0);
  if (ks) {
    for (long k = 0; k < kc; ++k) {
      const float* a = A + ks[k] * lda + m0;
      if (rows == kMr) {
        wasm_v128_store(ap + k * kMr, wasm_v128_load(a));
      } else {
        for (long i = 0; i < kMr; ++i) ap[k * kMr + i] = i < rows ? a[i] : 0.0f;
      }
    }
    return;
  }
  if (!kTransA && rows == kMr) {
    const auto row = [&](long i) { return A + (index ? index[m0 + i] : m0 + i) * lda + k0; };
    return interleave4(ap, kMr, row(0), row(1), row(2), row(3), kc);
  }
  if (index) {
    for (long k = 0; k < kc; ++k) {
      for (long i = 0; i < kMr; ++i)
        ap[k * kMr + i] = i < rows ? A[index[m0 + i] * lda + k0 + k] : 0.0f;
    }
    return;
  }
  if (kTransA && rows == kMr) {
    for (long k = 0; k < kc; ++k)
      wasm_v128_store(ap + k * kMr, wasm_v128_load(A + (k0 + k) * lda + m0));
    return;
  }
  for (long k = 0; k < kc; ++k) {
    for (long i = 0; i < kMr; ++i)
      ap[k * kMr + i] = i < rows ? a_at<kTransA>(A, lda, m0 + i, k0 + k) : 0.0f;
  }
}

// bp[k·8 + j] = B(k0 + k, n0 + j), zero past column N; ks: null, or the rows of K in place of
// k0 … k0 + kc − 1 (B not transposed)
template <bool kTransB>
void pack_b(float* bp, const float* B, long ldb, long n0, long N, long k0, long kc,
            const int32_t* ks = nullptr) {
  const long cols = std::min(kNr, N - n0);
  if (!kTransB && cols == kNr) {
    for (long k = 0; k < kc; ++k) {
      const float* b = B + (ks ? ks[k] : k0 + k) * ldb + n0;
      wasm_v128_store(bp + k * kNr, wasm_v128_load(b));
      wasm_v128_store(bp + k * kNr + 4, wasm_v128_load(b + 4));
    }
    return;
  }
  if (ks) {
    for (long k = 0; k < kc; ++k) {
      for (long j = 0; j < kNr; ++j) bp[k * kNr + j] = j < cols ? B[ks[k] * ldb + n0 + j] : 0.0f;
    }
    return;
  }
  if (kTransB && cols == kNr) {
    const auto row = [&](long j) { return B + (n0 + j) * ldb + k0; };
    interleave4(bp, kNr, row(0), row(1), row(2), row(3), kc);
    interleave4(bp + 4, kNr, row(4), row(5), row(6), row(7), kc);
    return;
  }
  for (long k = 0; k < kc; ++k) {
    for (long j = 0; j < kNr; ++j)
      bp[k * kNr + j] = j < cols ? b_at<kTransB>(B, ldb, k0 + k, n0 + j) : 0.0f;
  }
}

// The 4 × 8 block of C at c (rows × cols valid) (+)= ap · bp over kc: 8 accumulators in registers.
// The four rows stay written out one by one on purpose: this is the GEMM's hot loop, and eight
// named accumulators leave nothing to the compiler's choice of unrolling an array of them.
// Each a(i, k) comes in as a splat load (one load-port op), not a vector load and four shuffles:
// the shuffles shared the vector ports with the multiplies and adds, and the loop ran 7% slower.
// index: null, or the block's rows of C, c + index[i]·ldc.
void kernel_4x8(long kc, const float* ap, const float* bp, float* c, long ldc, long rows, long cols,
                bool load_c, const float* bias, const int32_t* index) {
  v128_t c00 = wasm_f32x4_splat(0.0f), c01 = c00, c10 = c00, c11 = c00;
  v128_t c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  for (long k = 0; k < kc; ++k, ap += kMr, bp += kNr) {
    const v128_t b0 = wasm_v128_load(bp), b1 = wasm_v128_load(bp + 4);
    const v128_t a0 = wasm_v128_load32_splat(ap);
    c00 = madd(a0, b0, c00);
    c01 = madd(a0, b1, c01);
    const v128_t a1 = wasm_v128_load32_splat(ap + 1);
    c10 = madd(a1, b0, c10);
    c11 = madd(a1, b1, c11);
    const v128_t a2 = wasm_v128_load32_splat(ap + 2);
    c20 = madd(a2, b0, c20);
    c21 = madd(a2, b1, c21);
    const v128_t a3 = wasm_v128_load32_splat(ap + 3);
    c30 = madd(a3, b0, c30);
    c31 = madd(a3, b1, c31);
  }
  if (bias && cols == kNr) {
    const v128_t s0 = wasm_v128_load(bias), s1 = wasm_v128_load(bias + 4);
    c00 = wasm_f32x4_add(c00, s0), c01 = wasm_f32x4_add(c01, s1);
    c10 = wasm_f32x4_add(c10, s0), c11 = wasm_f32x4_add(c11, s1);
    c20 = wasm_f32x4_add(c20, s0), c21 = wasm_f32x4_add(c21, s1);
    c30 = wasm_f32x4_add(c30, s0), c31 = wasm_f32x4_add(c31, s1);
  }
  const v128_t acc[kMr][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
  if (rows == kMr && cols == kNr) {
    for (long i = 0; i < kMr; ++i) {
      float* ci = c + (index ? index[i] : i) * ldc;
      v128_t lo = acc[i][0], hi = acc[i][1];
      if (load_c) {
        lo = wasm_f32x4_add(wasm_v128_load(ci), lo);
        hi = wasm_f32x4_add(wasm_v128_load(ci + 4), hi);
      }
      wasm_v128_store(ci, lo);
      wasm_v128_store(ci + 4, hi);
    }
    return;
  }
  alignas(16) float tile[kMr][kNr];
  for (long i = 0; i < kMr; ++i) {
    wasm_v128_store(tile[i], acc[i][0]);
    wasm_v128_store(tile[i] + 4, acc[i][1]);
  }
  for (long i = 0; i < rows; ++i) {
    float* ci = c + (index ? index[i] : i) * ldc;
    for (long j = 0; j < cols; ++j) {
      float v = tile[i][j];
      if (bias && cols != kNr) v += bias[j];
      ci[j] = load_c ? ci[j] + v : v;
    }
  }
}

// Packed panels, static (wasm runs one thread): a product allocates nothing and the heap holds no
// scratch between calls. A: kMc rows × kKc (64 KB); B: up to kNc columns × kKc (1 MB, zero-filled
// memory outside the .wasm file), packed once per K block and shared by every block of A rows.
constexpr long kNc = 1024;
alignas(16) float a_pack[kMc * kKc];
alignas(16) float b_pack[kNc * kKc];

// gemm_tn_rows: the listed rows of K that fall in the K block being packed
alignas(16) int32_t k_block[kKc];

// index: null, or M rows of A and C to take in place of 0 … M − 1 (not for Aᵀ).
// ks: null, or the rows of K to sum (Aᵀ · B only, no bias): each K block of the full product
// sums its listed rows, in order (gemm_tn_rows).
template <bool kTransA, bool kTransB>
void gemm_packed(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M,
                 long N, long K, bool accumulate, const float* bias, const int32_t* index = nullptr,
                 const RowSet* ks = nullptr) {
  for (long n0 = 0; n0 < N; n0 += kNc) {
    const long n1 = std::min(N, n0 + kNc);
    long next_k = 0;      // ks: the first listed row not yet in a block
    bool summed = false;  // whether a block has written C
    for (long k0 = 0; k0 < K; k0 += kKc) {
      long kc = std::min(kKc, K - k0);
      const int32_t* kb = nullptr;
      if (ks) {
        long n = 0;
        for (; next_k < ks->count && ks->index[next_k] < k0 + kc; ++next_k)
          k_block[n++] = ks->index[next_k];
        if (n == 0) continue;  // every term of this block is 0
        kc = n;
        kb = k_block;
      }
      const bool load_c = accumulate || summed;
      const bool last = ks ? next_k == ks->count : k0 + kc == K;
      summed = true;
      for (long n = n0; n < n1; n += kNr)
        pack_b<kTransB>(b_pack + (n - n0) * kc, B, ldb, n, n1, k0, kc, kb);
      for (long m0 = 0; m0 < M; m0 += kMc) {
        const long m1 = std::min(M, m0 + kMc);
        for (long m = m0; m < m1; m += kMr)
          pack_a<kTransA>(a_pack + (m - m0) * kc, A, lda, m, m1, k0, kc, index, kb);
        for (long n = n0; n < n1; n += kNr) {
          const float* bp = b_pack + (n - n0) * kc;
          const long cols = std::min(kNr, n1 - n);
          for (long m = m0; m < m1; m += kMr) {
            kernel_4x8(kc, a_pack + (m - m0) * kc, bp, C + (index ? 0 : m * ldc) + n, ldc,
                       std::min(kMr, m1 - m), cols, load_c, last && bias ? bias + n : nullptr,
                       index ? index + m : nullptr);
          }
        }
      }
    }
  }
}

// Small NN / TN products: c[m, :] (+)= Σ_k A(m, k) B[k, :], vectorised along N, four rows of B per
// pass over the row of C (a quarter of its loads and stores).
template <bool kTransA>
void gemm_axpy(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M,
               long N, long K, bool accumulate, const float* bias) {
  for (long m = 0; m < M; ++m) {
    float* __restrict c = C + m * ldc;
    if (!accumulate) {
      for (long n = 0; n < N; ++n) c[n] = bias ? bias[n] : 0.0f;
    } else if (bias) {
      for (long n = 0; n < N; ++n) c[n] += bias[n];
    }
    long k = 0;
    for (; k + 4 <= K; k += 4) {
      const v128_t a0 = wasm_f32x4_splat(a_at<kTransA>(A, lda, m, k));
      const v128_t a1 = wasm_f32x4_splat(a_at<kTransA>(A, lda, m, k + 1));
      const v128_t a2 = wasm_f32x4_splat(a_at<kTransA>(A, lda, m, k + 2));
      const v128_t a3 = wasm_f32x4_splat(a_at<kTransA>(A, lda, m, k + 3));
      const float* b0 = B + k * ldb;
      const float* b1 = b0 + ldb;
      const float* b2 = b1 + ldb;
      const float* b3 = b2 + ldb;
      long n = 0;
      for (; n + 4 <= N; n += 4) {
        v128_t s = wasm_f32x4_add(wasm_f32x4_mul(a0, wasm_v128_load(b0 + n)),
                                  wasm_f32x4_mul(a1, wasm_v128_load(b1 + n)));
        s = wasm_f32x4_add(s, wasm_f32x4_add(wasm_f32x4_mul(a2, wasm_v128_load(b2 + n)),
                                             wasm_f32x4_mul(a3, wasm_v128_load(b3 + n))));
        wasm_v128_store(c + n, wasm_f32x4_add(wasm_v128_load(c + n), s));
      }
      const float s0 = wasm_f32x4_extract_lane(a0, 0), s1 = wasm_f32x4_extract_lane(a1, 0);
      const float s2 = wasm_f32x4_extract_lane(a2, 0), s3 = wasm_f32x4_extract_lane(a3, 0);
      for (; n < N; ++n) c[n] += (s0 * b0[n] + s1 * b1[n]) + (s2 * b2[n] + s3 * b3[n]);
    }
    for (; k < K; ++k) {
      const float s = a_at<kTransA>(A, lda, m, k);
      const v128_t a = wasm_f32x4_splat(s);
      const float* b = B + k * ldb;
      long n = 0;
      for (; n + 4 <= N; n += 4) {
        wasm_v128_store(c + n, madd(a, wasm_v128_load(b + n), wasm_v128_load(c + n)));
      }
      for (; n < N; ++n) c[n] += s * b[n];
    }
  }
}

// [Σa0, Σa1, Σa2, Σa3]
v128_t hsum4(v128_t a0, v128_t a1, v128_t a2, v128_t a3) {
  const v128_t s01 = wasm_f32x4_add(wasm_i32x4_shuffle(a0, a1, 0, 4, 2, 6),
                                    wasm_i32x4_shuffle(a0, a1, 1, 5, 3, 7));
  const v128_t s23 = wasm_f32x4_add(wasm_i32x4_shuffle(a2, a3, 0, 4, 2, 6),
                                    wasm_i32x4_shuffle(a2, a3, 1, 5, 3, 7));
  return wasm_f32x4_add(wasm_i32x4_shuffle(s01, s23, 0, 1, 4, 5),
                        wasm_i32x4_shuffle(s01, s23, 2, 3, 6, 7));
}

// Small NT products (x Wᵀ at batch 1): dot products along K, 2 rows of A × 4 rows of B per block.
void gemm_dot(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M,
              long N, long K, bool accumulate, const float* bias) {
  auto put = [&](float* c, float v, long n) {
    if (bias) v += bias[n];
    *c = accumulate ? *c + v : v;
  };
  const long K4 = K / 4 * 4;
  long m = 0;
  for (; m + 2 <= M; m += 2) {
    const float* a0p = A + m * lda;
    const float* a1p = a0p + lda;
    long n = 0;
    for (; n + 4 <= N; n += 4) {
      const float* b0p = B + n * ldb;
      const float* b1p = b0p + ldb;
      const float* b2p = b1p + ldb;
      const float* b3p = b2p + ldb;
      v128_t c00 = wasm_f32x4_splat(0.0f), c01 = c00, c02 = c00, c03 = c00;
      v128_t c10 = c00, c11 = c00, c12 = c00, c13 = c00;
      for (long k = 0; k < K4; k += 4) {
        const v128_t a0 = wasm_v128_load(a0p + k), a1 = wasm_v128_load(a1p + k);
        const v128_t b0 = wasm_v128_load(b0p + k), b1 = wasm_v128_load(b1p + k);
        const v128_t b2 = wasm_v128_load(b2p + k), b3 = wasm_v128_load(b3p + k);
        c00 = madd(a0, b0, c00);
        c01 = madd(a0, b1, c01);
        c02 = madd(a0, b2, c02);
        c03 = madd(a0, b3, c03);
        c10 = madd(a1, b0, c10);
        c11 = madd(a1, b1, c11);
        c12 = madd(a1, b2, c12);
        c13 = madd(a1, b3, c13);
      }
      alignas(16) float y[2][4];
      wasm_v128_store(y[0], hsum4(c00, c01, c02, c03));
      wasm_v128_store(y[1], hsum4(c10, c11, c12, c13));
      for (long k = K4; k < K; ++k) {
        for (long j = 0; j < 4; ++j) {
          y[0][j] += a0p[k] * B[(n + j) * ldb + k];
          y[1][j] += a1p[k] * B[(n + j) * ldb + k];
        }
      }
      for (long j = 0; j < 4; ++j) {
        put(C + m * ldc + n + j, y[0][j], n + j);
        put(C + (m + 1) * ldc + n + j, y[1][j], n + j);
      }
    }
    for (; n < N; ++n) {
      put(C + m * ldc + n, dot(a0p, B + n * ldb, K), n);
      put(C + (m + 1) * ldc + n, dot(a1p, B + n * ldb, K), n);
    }
  }
  for (; m < M; ++m) {
    const float* ap = A + m * lda;
    long n = 0;
    for (; n + 4 <= N; n += 4) {
      const float* b0p = B + n * ldb;
      v128_t c0 = wasm_f32x4_splat(0.0f), c1 = c0, c2 = c0, c3 = c0;
      for (long k = 0; k < K4; k += 4) {
        const v128_t a = wasm_v128_load(ap + k);
        c0 = madd(a, wasm_v128_load(b0p + k), c0);
        c1 = madd(a, wasm_v128_load(b0p + ldb + k), c1);
        c2 = madd(a, wasm_v128_load(b0p + 2 * ldb + k), c2);
        c3 = madd(a, wasm_v128_load(b0p + 3 * ldb + k), c3);
      }
      alignas(16) float y[4];
      wasm_v128_store(y, hsum4(c0, c1, c2, c3));
      for (long k = K4; k < K; ++k) {
        for (long j = 0; j < 4; ++j) y[j] += ap[k] * B[(n + j) * ldb + k];
      }
      for (long j = 0; j < 4; ++j) put(C + m * ldc + n + j, y[j], n + j);
    }
    for (; n < N; ++n) put(C + m * ldc + n, dot(ap, B + n * ldb, K), n);
  }
}

// The packed product over rows' rows of A and C, packed and stored through the index; C's other
// rows 0 when !accumulate. Each row of the packed product is computed alone, so a listed row gets
// its full-product numbers.
template <bool kTransB>
void gemm_packed_rows(float* C, long ldc, const float* A, long lda, const float* B, long ldb,
                      long M, long N, long K, bool accumulate, const float* bias,
                      const RowSet& rows) {
  gemm_packed<false, kTransB>(C, ldc, A, lda, B, ldb, rows.count, N, K, accumulate, bias,
                              rows.index);
  if (accumulate) return;
  unlisted_runs(&rows, M, [&](long r, long n) {
    for (long i = r; i < r + n; ++i) std::fill_n(C + i * ldc, N, 0.0f);
  });
}

}  // namespace

void gemm_nn(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M, long N,
             long K, bool accumulate, const float* bias) {
  count_flops(kNN, M, N, K);
  if (M == 0 || N == 0) return;
  if (K == 0) return empty_product(C, ldc, M, N, accumulate, bias);
  if (packed_pays(M, N, kPackRowsNN))
    return gemm_packed<false, false>(C, ldc, A, lda, B, ldb, M, N, K, accumulate, bias);
  gemm_axpy<false>(C, ldc, A, lda, B, ldb, M, N, K, accumulate, bias);
}

void gemm_nt(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M, long N,
             long K, bool accumulate, const float* bias) {
  count_flops(kNT, M, N, K);
  if (M == 0 || N == 0) return;
  if (K == 0) return empty_product(C, ldc, M, N, accumulate, bias);
  if (packed_pays(M, N, kPackRowsNT))
    return gemm_packed<false, true>(C, ldc, A, lda, B, ldb, M, N, K, accumulate, bias);
  gemm_dot(C, ldc, A, lda, B, ldb, M, N, K, accumulate, bias);
}

namespace {

// The listed rows when the full product would be packed (K > 0); otherwise the full product.
template <bool TransB>
void gemm_rows(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M,
               long N, long K, bool accumulate, const float* bias, const RowSet* rows) {
  if (!rows || !skips_rows(M, N, K, TransB))
    return (TransB ? gemm_nt : gemm_nn)(C, ldc, A, lda, B, ldb, M, N, K, accumulate, bias);
  count_flops(TransB ? kNT : kNN, rows->count, N, K);
  gemm_packed_rows<TransB>(C, ldc, A, lda, B, ldb, M, N, K, accumulate, bias, *rows);
}

}  // namespace

void gemm_nn_rows(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M,
                  long N, long K, bool accumulate, const float* bias, const RowSet* rows) {
  gemm_rows<false>(C, ldc, A, lda, B, ldb, M, N, K, accumulate, bias, rows);
}

void gemm_nt_rows(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M,
                  long N, long K, bool accumulate, const float* bias, const RowSet* rows) {
  gemm_rows<true>(C, ldc, A, lda, B, ldb, M, N, K, accumulate, bias, rows);
}

void gemm_tn(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M, long N,
             long K, bool accumulate, const float* bias) {
  count_flops(kTN, M, N, K);
  if (M == 0 || N == 0) return;
  if (K == 0) return empty_product(C, ldc, M, N, accumulate, bias);
  if (packed_pays(M, N, kPackRowsTN) && K >= 4)
    return gemm_packed<true, false>(C, ldc, A, lda, B, ldb, M, N, K, accumulate, bias);
  gemm_axpy<true>(C, ldc, A, lda, B, ldb, M, N, K, accumulate, bias);
}

void gemm_tn_rows(float* C, long ldc, const float* A, long lda, const float* B, long ldb, long M,
                  long N, long K, bool accumulate, const RowSet* ks) {
  // only where the full product packs: the small products group their terms by four along K
  if (!ks || !skips_ks(M, N, K)) return gemm_tn(C, ldc, A, lda, B, ldb, M, N, K, accumulate);
  count_flops(kTN, M, N, ks->count);
  if (ks->count == 0) return empty_product(C, ldc, M, N, accumulate, nullptr);
  gemm_packed<true, false>(C, ldc, A, lda, B, ldb, M, N, K, accumulate, nullptr, nullptr, ks);
}

void sum_rows_acc(float* c, const float* A, long lda, long R, long N, const RowSet* rows) {
  const long count = rows ? rows->count : R;
  for (long i = 0; i < count; ++i) {
    const float* a = A + (rows ? rows->index[i] : i) * lda;
    long n = 0;
    for (; n + 4 <= N; n += 4)
      wasm_v128_store(c + n, wasm_f32x4_add(wasm_v128_load(c + n), wasm_v128_load(a + n)));
    for (; n < N; ++n) c[n] += a[n];
  }
}

#endif  // __wasm_simd128__

}  // namespace lab::kernels
