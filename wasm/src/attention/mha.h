// Multi-head attention (nn.MultiheadAttention) on raw buffers, forward and backward, with
// key-padding and causal masks: what the Transformer trains with, and what §3.5–3.6's
// self_attention / multi_head (attention/attention.h) run after validating their tensors. Each
// head is one call of the attention core (attention/core.h) on a view of its columns. Dimension
// letters as in tensor.h; here N query positions and M key positions of one batch row,
// Dh = Dm / H.
//
//   q = xq Wqᵀ + bq, k = xkv Wkᵀ + bk, v = xkv Wvᵀ + bv   (Wq; Wk; Wv) = in_proj_weight (3Dm, Dm)
//   att_h = softmax(q_h k_hᵀ / √Dh, masked)              per head h, (N, M)
//   ctx = [att_1 v_1, …, att_H v_H]                       heads concatenated, (N, Dm)
//   out = ctx Woᵀ + bo                                    out_proj (Dm, Dm); without it, ctx
//
// Masks, as PyTorch's boolean masks (True = not allowed): key m is hidden from every query when
// key_pad[b, m] is 1, and from query n when causal and m > n. A query with every key hidden has
// no distribution: the forward reports it in its status (kernels/softmax.h), as it does scores
// that overflowed; the caller decides what to throw (check_softmax_status in ops.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/gemm.h"  // RowSet
#include "kernels/softmax.h"
#include "ops.h"  // Grad

namespace lab {

// H heads split the width Dm into H slices of Dh: throws InputError unless 1 <= H <= Dm and H
// divides Dm. `width` names Dm as the model's settings do ("the width d_model").
void check_heads(long heads, long d_model, const std::string& width);

template <class P>
struct MhaP {
  // in_proj_weight (3Dm, Dm), in_proj_bias (3Dm), out_proj (Dm, Dm), (Dm). out_w null: no
  // output projection (§3.5's self-attention), out = ctx.
  P in_w, in_b, out_w, out_b;
};
using MhaW = MhaP<const float*>;
using MhaG = MhaP<float*>;

struct MhaMask {
  const uint8_t* key_pad = nullptr;  // (B, M) 1 = padding, or null
  bool causal = false;               // query n sees keys 0 … n only
  // (H) 1: that head's context is zeroed (an intervention in decoding; forward only), or null
  const uint8_t* zero_head = nullptr;
  // The rows of xq whose outputs are read and the rows of xkv not padded (kernels::RowSet), or
  // null: all. Only these rows are projected, forward and backward; a padded key's k and v are
  // then 0 (or computed), and it gets weight 0 either way.
  const kernels::RowSet* q_rows = nullptr;
  const kernels::RowSet* kv_rows = nullptr;
};

// Activations of one call (kept for backward) and backward scratch, sized by resize().
struct MhaActs {
  long B = 0, N = 0, M = 0, Dm = 0, H = 0;
  bool keep_scores = false;   // set by the caller: whether the forward keeps `scores`
  std::vector<float> q;       // (B, N, Dm)
  std::vector<float> k;       // (B, M, Dm)
  std::vector<float> v;       // (B, M, Dm)
  std::vector<float> scores;  // (B, H, N, M) q_h k_hᵀ, when keep_scores
  std::vector<float> att;     // (B, H, N, M) attention weights, 0 where masked
  std::vector<float> ctx;     // (B, N, Dm) heads concatenated
  std::vector<float> out;     // (B, N, Dm) with an output projection
  std::vector<uint8_t> keep;  // (N, M) 1 = allowed, one batch row at a time
  std::vector<float> dq, dk, dv, dctx, datt, dsc;  // backward scratch; datt, dsc (N, M)
  const kernels::RowSet* q_rows = nullptr;         // the forward's mask's, for the backward
  bool causal = false;                             // the forward's mask's, for the backward
  const kernels::RowSet* kv_rows = nullptr;
  // With q_rows: 0 … N − 1, and per batch row (B) the queries read, first[0 … n) when q_rows
  // lists a prefix of that row's N queries (the padded layout's), else all N.
  std::vector<int32_t> first;
  std::vector<kernels::RowSet> read;

  void resize(long B, long N, long M, long Dm, long H);
};

// The per-head core for one batch row: att (H, N, M), ctx (N, Dm) from q (N, Dm), k, v (M, Dm).
// keep (N, M) or null (every key visible); scores (H, N, M) keeps q_h k_hᵀ, or null. read: null,
// or the queries whose outputs are read, the first read->count (index 0, 1, …): the others'
// weights and ctx rows are 0 (their scores 0, or computed: kernels::RowSet). causal: keep holds
// a causal mask (M = N, query i sees keys 0 … i), so that without scores only the keys a query
// may see are scored; the other weights are 0.
kernels::SoftmaxStatus heads_forward(float* ctx, float* att, const float* q, const float* k,
                                     const float* v, const uint8_t* keep, long N, long M, long Dm,
                                     long H, float* scores = nullptr,
                                     const kernels::RowSet* read = nullptr, bool causal = false);
// Its backward: dq = ∂L/∂q, dk = ∂L/∂k, dv = ∂L/∂v for dctx (N, Dm), assigned (each head writes
// its own columns once), so they need no zeroing first; datt, dsc (N, M) scratch. read, causal:
// the forward's; dctx must be 0 on the other queries' rows.
void heads_backward(float* dq, float* dk, float* dv, float* datt, float* dsc, const float* dctx,
                    const float* att, const float* q, const float* k, const float* v, long N,
                    long M, long Dm, long H, const kernels::RowSet* read = nullptr,
                    bool causal = false);

// xq (B, N, Dm), xkv (B, M, Dm) (the same pointer for self-attention). Output in a.out (a.ctx
// without an output projection).
kernels::SoftmaxStatus mha_forward(MhaActs& a, const MhaW& w, const float* xq, const float* xkv,
                                   const MhaMask& mask, long B, long N, long M, long Dm, long H);
// dxq += ∂L/∂xq, dxkv += ∂L/∂xkv (may alias dxq for self-attention), weights' gradients += .
// into = Grad::kSet writes dxq (dxq = ∂L/∂xq) before dxkv's terms are added, so an aliased buffer
// ends as ∂L/∂x without being zeroed first.
void mha_backward(float* dxq, float* dxkv, const MhaG& g, MhaActs& a, const MhaW& w,
                  const float* dout, const float* xq, const float* xkv, Grad into = Grad::kAdd);

}  // namespace lab
