#include "attention/mha.h"

#include <algorithm>
#include <cmath>

#include "attention/core.h"
#include "ops.h"

namespace lab {

void check_heads(long heads, long d_model, const std::string& width) {
  check_range(heads, 1, d_model, "number of heads");
  if (d_model % heads != 0) {
    throw InputError("the number of heads (" + std::to_string(heads) + ") must divide " + width +
                     " (" + std::to_string(d_model) + ")");
  }
}

namespace {

// The status of several softmax calls: the first masked row, finite if every one was.
void merge(kernels::SoftmaxStatus& into, const kernels::SoftmaxStatus& s) {
  if (into.masked_row < 0) into.masked_row = s.masked_row;
  into.finite = into.finite && s.finite;
}

// Head h's view: columns h·Dh … (h+1)·Dh of q, k, v and ctx, rows Dm apart.
attn::Dims head_dims(long N, long M, long Dm, long H) {
  const long Dh = Dm / H;
  return {N, M, Dh, Dh, Dh, Dm, Dm, Dm, Dm};
}

// a.first and a.read from a.q_rows (MhaActs); none without it.
void read_prefixes(MhaActs& a) {
  a.read.clear();
  if (!a.q_rows) return;
  const long N = a.N;
  a.first.resize(N);
  for (long n = 0; n < N; ++n) a.first[n] = static_cast<int32_t>(n);
  const int32_t* index = a.q_rows->index;
  long i = 0;
  for (long b = 0; b < a.B; ++b) {
    const long start = i;
    while (i < a.q_rows->count && index[i] < (b + 1) * N) ++i;
    const long n = i - start;
    // ascending and distinct, so n rows from b·N on are exactly b·N … b·N + n − 1
    const bool prefix = n == 0 || (index[start] == b * N && index[i - 1] == b * N + n - 1);
    a.read.push_back({a.first.data(), prefix ? n : N});
  }
}

// The keys a causal mask lets the first n queries see, of M: n, rounded up to whole blocks of four
// (the softmax's and the products' vectors: the extra keys are hidden and weigh exactly 0, so the
// row's numbers are those of all M keys) and to the 8 columns from which the products pack (as
// they do over all M).
long causal_keys(long n, long M) {
  return std::min(M, std::max<long>(8, (n + 3) / 4 * 4));
}

// Under a causal mask the heads take the queries a block at a time, each block only the keys its
// last query may see, so the products and the softmax skip most of the masked triangle (at 80
// positions, 40% of their work). A block is 16 queries, the rows from which the score product
// packs, the last one taking the remainder, so that each packs where the full product does.
constexpr long kCausalBlock = 16;

// The blocks of the first n queries: block b is [16b, 16b + 16), the last one taking the
// remainder up to n. Without a causal mask, one block of all N queries.
struct QueryBlocks {
  long n, N;
  bool causal;
  long count() const { return causal ? std::max<long>(1, n / kCausalBlock) : 1; }
  long begin(long b) const { return b * kCausalBlock; }
  long end(long b) const { return !causal ? N : b + 1 == count() ? n : (b + 1) * kCausalBlock; }
  // the keys block b's queries may see (of M)
  long keys(long b, long M) const { return causal ? causal_keys(end(b), M) : M; }
};

}  // namespace

void MhaActs::resize(long b, long n, long m, long dm, long h) {
  B = b, N = n, M = m, Dm = dm, H = h;
  for (auto* x : {&q, &dq, &ctx, &dctx, &out}) x->resize(B * N * Dm);
  for (auto* x : {&k, &v, &dk, &dv}) x->resize(B * M * Dm);
  att.resize(B * H * N * M);
  if (keep_scores) scores.resize(B * H * N * M);
  keep.resize(N * M);
  datt.resize(N * M);
  dsc.resize(N * M);
}

kernels::SoftmaxStatus heads_forward(float* ctx, float* att, const float* q, const float* k,
                                     const float* v, const uint8_t* keep, long N, long M, long Dm,
                                     long H, float* scores, const kernels::RowSet* read,
                                     bool causal) {
  const attn::Dims d = head_dims(N, M, Dm, H);
  const float scale = 1.0f / std::sqrt(static_cast<float>(d.D));
  const long n = read ? read->count : N;  // the queries read: 0 … n − 1
  // Causal heads without kept scores (those keep the masked entries too) go a block of queries at
  // a time; other heads whose queries are all read, in one block of every query and key.
  const QueryBlocks blocks{n, N, causal && !scores};
  kernels::SoftmaxStatus status;
  for (long h = 0; h < H; ++h) {
    float* A = att + h * N * M;                  // (N, M)
    float* S = scores ? scores + h * N * M : A;  // the scores, or the weights' buffer (in place)
    const long c0 = h * d.D;                     // head h's columns
    if (blocks.causal || n == N) {
      for (long b = 0; b < blocks.count(); ++b) {
        const long i0 = blocks.begin(b), rows = blocks.end(b) - i0, keys = blocks.keys(b, M);
        float* Sb = S + i0 * M;
        float* Ab = A + i0 * M;
        // S = q_h k_hᵀ for the block's queries and the keys they may see (the 1/√Dh is applied
        // inside the softmax)
        kernels::gemm_nt(Sb, M, q + i0 * Dm + c0, Dm, k + c0, Dm, rows, keys, d.D, false);
        // att_h = softmax(S / √Dh) over the visible keys, 0 on the others
        merge(status, kernels::softmax_forward(Ab, Sb, keep ? keep + i0 * M : nullptr, rows, keys,
                                               scale, nullptr, M));
        for (long i = 0; i < rows && keys < M; ++i)
          std::fill(Ab + i * M + keys, Ab + (i + 1) * M, 0.0f);
        // ctx_h = att_h v_h
        kernels::gemm_nn(ctx + i0 * Dm + c0, Dm, Ab, M, v + c0, Dm, rows, d.D, keys, false);
      }
      std::fill(A + n * M, A + N * M, 0.0f);
      for (long i = n; i < N; ++i) std::fill_n(ctx + i * Dm + c0, d.D, 0.0f);
      continue;
    }
    // Some of the queries read (the products on the full N's path: the same numbers)
    kernels::gemm_nt_rows(S, M, q + c0, Dm, k + c0, Dm, N, M, d.D, false, nullptr, read);
    merge(status, kernels::softmax_forward(A, S, keep, n, M, scale, nullptr, M));
    std::fill(A + n * M, A + N * M, 0.0f);
    kernels::gemm_nn_rows(ctx + c0, Dm, A, M, v + c0, Dm, N, d.D, M, false, nullptr, read);
  }
  return status;
}

void heads_backward(float* dq, float* dk, float* dv, float* datt, float* dsc, const float* dctx,
                    const float* att, const float* q, const float* k, const float* v, long N,
                    long M, long Dm, long H, const kernels::RowSet* read, bool causal) {
  const attn::Dims d = head_dims(N, M, Dm, H);
  const float scale = 1.0f / std::sqrt(static_cast<float>(d.D));
  const long n = read ? read->count : N;  // the queries read: 0 … n − 1
  // heads_forward's blocks (the weights are 0 at hidden keys whichever way it went)
  const QueryBlocks blocks{n, N, causal};
  for (long h = 0; h < H; ++h) {
    const float* A = att + h * N * M;
    const long c0 = h * d.D;
    if (causal || n == N) {
      // Last block first: once block b's dsc is in, every query that sees b's keys has its dsc
      // (b's own and the later blocks'), and their dv and dk follow. The queries not read have
      // att and dctx rows of 0 and add nothing; the keys after the last query read get no
      // gradient.
      for (long b = blocks.count() - 1; b >= 0; --b) {
        const long i0 = blocks.begin(b), rows = blocks.end(b) - i0, keys = blocks.keys(b, M);
        // datt = dctx_h v_hᵀ;  dsc = ∂L/∂(q_h k_hᵀ) through the softmax (0 at hidden keys)
        kernels::gemm_nt(datt + i0 * M, M, dctx + i0 * Dm + c0, Dm, v + c0, Dm, rows, keys, d.D,
                         false);
        kernels::softmax_backward(dsc + i0 * M, datt + i0 * M, A + i0 * M, rows, keys, scale, false,
                                  M);
        // dq_h = dsc k_h
        kernels::gemm_nn(dq + i0 * Dm + c0, Dm, dsc + i0 * M, M, k + c0, Dm, rows, d.D, keys,
                         false);
        // dv_h = att_hᵀ dctx_h,  dk_h = dscᵀ q_h over the keys that queries i0 … n − 1 are the
        // first to see: the block's own (causal), or all
        const long j0 = causal ? i0 : 0, seen = causal ? rows : M;
        kernels::gemm_tn(dv + j0 * Dm + c0, Dm, A + i0 * M + j0, M, dctx + i0 * Dm + c0, Dm, seen,
                         d.D, n - i0, false);
        kernels::gemm_tn(dk + j0 * Dm + c0, Dm, dsc + i0 * M + j0, M, q + i0 * Dm + c0, Dm, seen,
                         d.D, n - i0, false);
      }
      for (long i = n; i < N; ++i) std::fill_n(dq + i * Dm + c0, d.D, 0.0f);
      for (long j = causal ? n : M; j < M; ++j) {
        std::fill_n(dv + j * Dm + c0, d.D, 0.0f);
        std::fill_n(dk + j * Dm + c0, d.D, 0.0f);
      }
      continue;
    }
    // Some of the queries read; the others' att rows and dctx rows are 0, so they add nothing to
    // dv and dk, and their dsc rows are 0.
    kernels::gemm_nt_rows(datt, M, dctx + c0, Dm, v + c0, Dm, N, M, d.D, false, nullptr, read);
    kernels::gemm_tn(dv + c0, Dm, A, M, dctx + c0, Dm, M, d.D, N, false);
    kernels::softmax_backward(dsc, datt, A, n, M, scale, false, M);
    std::fill(dsc + n * M, dsc + N * M, 0.0f);
    kernels::gemm_nn_rows(dq + c0, Dm, dsc, M, k + c0, Dm, N, d.D, M, false, nullptr, read);
    kernels::gemm_tn(dk + c0, Dm, dsc, M, q + c0, Dm, M, d.D, N, false);
  }
}

kernels::SoftmaxStatus mha_forward(MhaActs& a, const MhaW& w, const float* xq, const float* xkv,
                                   const MhaMask& mask, long B, long N, long M, long Dm, long H) {
  a.resize(B, N, M, Dm, H);
  a.q_rows = mask.q_rows;
  a.kv_rows = mask.kv_rows;
  a.causal = mask.causal;
  read_prefixes(a);
  // q = xq Wqᵀ + bq, k = xkv Wkᵀ + bk, v = xkv Wvᵀ + bv (row blocks of in_proj)
  linear_forward(a.q.data(), xq, w.in_w, w.in_b, B * N, Dm, Dm, a.q_rows);
  linear_forward(a.k.data(), xkv, w.in_w + Dm * Dm, w.in_b + Dm, B * M, Dm, Dm, a.kv_rows);
  linear_forward(a.v.data(), xkv, w.in_w + 2 * Dm * Dm, w.in_b + 2 * Dm, B * M, Dm, Dm, a.kv_rows);
  const bool masked = mask.key_pad || mask.causal;
  kernels::SoftmaxStatus status;
  for (long b = 0; b < B; ++b) {
    if (masked) {
      attn::keep_mask(a.keep.data(), mask.key_pad ? mask.key_pad + b * M : nullptr, mask.causal, N,
                      M);
    }
    merge(status, heads_forward(a.ctx.data() + b * N * Dm, a.att.data() + b * H * N * M,
                                a.q.data() + b * N * Dm, a.k.data() + b * M * Dm,
                                a.v.data() + b * M * Dm, masked ? a.keep.data() : nullptr, N, M, Dm,
                                H, a.keep_scores ? a.scores.data() + b * H * N * M : nullptr,
                                a.read.empty() ? nullptr : &a.read[b], a.causal));
  }
  if (mask.zero_head) {
    const long Dh = Dm / H;
    for (long r = 0; r < B * N; ++r) {
      for (long h = 0; h < H; ++h) {
        if (mask.zero_head[h]) std::fill_n(a.ctx.data() + r * Dm + h * Dh, Dh, 0.0f);
      }
    }
  }
  // out = ctx Woᵀ + bo
  if (w.out_w) {
    linear_forward(a.out.data(), a.ctx.data(), w.out_w, w.out_b, B * N, Dm, Dm, a.q_rows);
  }
  return status;
}

void mha_backward(float* dxq, float* dxkv, const MhaG& g, MhaActs& a, const MhaW& w,
                  const float* dout, const float* xq, const float* xkv, Grad into) {
  const long B = a.B, N = a.N, M = a.M, Dm = a.Dm, H = a.H;
  // dq, dk, dv and dctx are written, not added to: no zeroing
  const float* dctx = dout;  // without an output projection, out = ctx
  if (w.out_w) {
    // dctx = dout Wo,  dWo += doutᵀ ctx,  dbo += Σ dout
    linear_backward(a.dctx.data(), g.out_w, g.out_b, dout, a.ctx.data(), w.out_w, B * N, Dm, Dm,
                    Grad::kSet, a.q_rows);
    dctx = a.dctx.data();
  }
  for (long b = 0; b < B; ++b) {
    heads_backward(a.dq.data() + b * N * Dm, a.dk.data() + b * M * Dm, a.dv.data() + b * M * Dm,
                   a.datt.data(), a.dsc.data(), dctx + b * N * Dm, a.att.data() + b * H * N * M,
                   a.q.data() + b * N * Dm, a.k.data() + b * M * Dm, a.v.data() + b * M * Dm, N, M,
                   Dm, H, a.read.empty() ? nullptr : &a.read[b], a.causal);
  }
  // Through the input projections: dx (+)= dq Wq (and += k, v), dW += dᵀ x, db += Σ d.
  linear_backward(dxq, g.in_w, g.in_b, a.dq.data(), xq, w.in_w, B * N, Dm, Dm, into, a.q_rows);
  linear_backward(dxkv, g.in_w ? g.in_w + Dm * Dm : nullptr, g.in_b ? g.in_b + Dm : nullptr,
                  a.dk.data(), xkv, w.in_w + Dm * Dm, B * M, Dm, Dm, Grad::kAdd, a.kv_rows);
  linear_backward(dxkv, g.in_w ? g.in_w + 2 * Dm * Dm : nullptr, g.in_b ? g.in_b + 2 * Dm : nullptr,
                  a.dv.data(), xkv, w.in_w + 2 * Dm * Dm, B * M, Dm, Dm, Grad::kAdd, a.kv_rows);
}

}  // namespace lab
