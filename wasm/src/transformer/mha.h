// nn.MultiheadAttention on raw buffers, forward and backward, with key-padding and causal masks
// (the general attention API in attention.h validates user tensors; this one is internal to the
// Transformer and allocates nothing per call). Dimension letters as in transformer/model.h; here
// N query positions and M key positions of one batch row, Dh = Dm / H.
//
//   q = xq Wqᵀ + bq, k = xkv Wkᵀ + bk, v = xkv Wvᵀ + bv   (Wq; Wk; Wv) = in_proj_weight (3Dm, Dm)
//   att_h = softmax(q_h k_hᵀ / √Dh, masked)              per head h, (N, M)
//   ctx = [att_1 v_1, …, att_H v_H]                       heads concatenated, (N, Dm)
//   out = ctx Woᵀ + bo                                    out_proj (Dm, Dm)
//
// Masks, as PyTorch's boolean masks (True = not allowed): key m is hidden from every query when
// key_pad[b, m] is 1, and from query n when causal and m > n. A query with every key hidden has
// no distribution; callers guarantee each row keeps at least one key (softmax_forward throws).
#pragma once

#include <cstdint>
#include <vector>

namespace lab {

template <class P>
struct MhaP {
  P in_w, in_b, out_w, out_b;  // in_proj_weight (3Dm, Dm), in_proj_bias (3Dm), out_proj
};
using MhaW = MhaP<const float*>;
using MhaG = MhaP<float*>;

struct MhaMask {
  const uint8_t* key_pad = nullptr;  // (B, M) 1 = padding, or null
  bool causal = false;               // query n sees keys 0 … n only
  // (H) 1: that head's context is zeroed (an intervention in decoding; forward only), or null
  const uint8_t* zero_head = nullptr;
};

// Activations of one call (kept for backward) and backward scratch, sized by resize().
struct MhaActs {
  long B = 0, N = 0, M = 0, Dm = 0, H = 0;
  std::vector<float> q;                            // (B, N, Dm)
  std::vector<float> k;                            // (B, M, Dm)
  std::vector<float> v;                            // (B, M, Dm)
  std::vector<float> att;                          // (B, H, N, M) attention weights, 0 where masked
  std::vector<float> ctx;                          // (B, N, Dm) heads concatenated
  std::vector<float> out;                          // (B, N, Dm)
  std::vector<uint8_t> keep;                       // (N, M) 1 = allowed, one batch row at a time
  std::vector<float> dq, dk, dv, dctx, datt, dsc;  // backward scratch; datt, dsc (N, M)

  void resize(long B, long N, long M, long Dm, long H);
};

// keep (N, M) for batch row b: 1 where key m is visible to query n.
void mha_keep_mask(uint8_t* keep, const MhaMask& mask, long b, long N, long M);

// The per-head core for one batch row: att (H, N, M), ctx (N, Dm) from q (N, Dm), k, v (M, Dm).
// keep (N, M) or null (every key visible).
void heads_forward(float* ctx, float* att, const float* q, const float* k, const float* v,
                   const uint8_t* keep, long N, long M, long Dm, long H);

// xq (B, N, Dm), xkv (B, M, Dm) (the same pointer for self-attention). Output in a.out.
void mha_forward(MhaActs& a, const MhaW& w, const float* xq, const float* xkv, const MhaMask& mask,
                 long B, long N, long M, long Dm, long H);
// dxq += ∂L/∂xq, dxkv += ∂L/∂xkv (may alias dxq for self-attention), weights' gradients += .
void mha_backward(float* dxq, float* dxkv, const MhaG& g, MhaActs& a, const MhaW& w,
                  const float* dout, const float* xq, const float* xkv);

}  // namespace lab
