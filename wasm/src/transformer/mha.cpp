#include "transformer/mha.h"

#include <algorithm>
#include <cmath>

#include "kernels/gemm.h"
#include "kernels/softmax.h"  // softmax_backward with the scale
#include "ops.h"
#include "tensor.h"

namespace lab {

void MhaActs::resize(long b, long n, long m, long dm, long h) {
  B = b, N = n, M = m, Dm = dm, H = h;
  for (auto* x : {&q, &dq, &ctx, &dctx, &out}) x->resize(B * N * Dm);
  for (auto* x : {&k, &v, &dk, &dv}) x->resize(B * M * Dm);
  att.resize(B * H * N * M);
  keep.resize(N * M);
  datt.resize(N * M);
  dsc.resize(N * M);
}

void mha_keep_mask(uint8_t* keep, const MhaMask& mask, long b, long N, long M) {
  for (long n = 0; n < N; ++n) {
    for (long m = 0; m < M; ++m) {
      const bool padded = mask.key_pad && mask.key_pad[b * M + m];
      keep[n * M + m] = !padded && !(mask.causal && m > n);
    }
  }
}

void heads_forward(float* ctx, float* att, const float* q, const float* k, const float* v,
                   const uint8_t* keep, long N, long M, long Dm, long H) {
  const long Dh = Dm / H;
  const float scale = 1.0f / std::sqrt(static_cast<float>(Dh));
  for (long h = 0; h < H; ++h) {
    float* A = att + h * N * M;  // (N, M)
    const long c0 = h * Dh;      // head h's columns of q, k, v and ctx (row stride Dm)
    // scores = q_h k_hᵀ (the 1/√Dh is applied inside the softmax)
    kernels::gemm_nt(A, M, q + c0, Dm, k + c0, Dm, N, M, Dh, /*accumulate=*/false);
    // att_h = softmax(scores / √Dh) over the visible keys (in place)
    softmax_forward(A, A, keep, N, M, scale);
    // ctx_h = att_h v_h
    kernels::gemm_nn(ctx + c0, Dm, A, M, v + c0, Dm, N, Dh, M, /*accumulate=*/false);
  }
}

void mha_forward(MhaActs& a, const MhaW& w, const float* xq, const float* xkv, const MhaMask& mask,
                 long B, long N, long M, long Dm, long H) {
  a.resize(B, N, M, Dm, H);
  // q = xq Wqᵀ + bq, k = xkv Wkᵀ + bk, v = xkv Wvᵀ + bv (row blocks of in_proj)
  linear_forward(a.q.data(), xq, w.in_w, w.in_b, B * N, Dm, Dm);
  linear_forward(a.k.data(), xkv, w.in_w + Dm * Dm, w.in_b + Dm, B * M, Dm, Dm);
  linear_forward(a.v.data(), xkv, w.in_w + 2 * Dm * Dm, w.in_b + 2 * Dm, B * M, Dm, Dm);
  const bool masked = mask.key_pad || mask.causal;
  for (long b = 0; b < B; ++b) {
    if (masked) mha_keep_mask(a.keep.data(), mask, b, N, M);
    heads_forward(a.ctx.data() + b * N * Dm, a.att.data() + b * H * N * M, a.q.data() + b * N * Dm,
                  a.k.data() + b * M * Dm, a.v.data() + b * M * Dm,
                  masked ? a.keep.data() : nullptr, N, M, Dm, H);
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
  linear_forward(a.out.data(), a.ctx.data(), w.out_w, w.out_b, B * N, Dm, Dm);
}

void mha_backward(float* dxq, float* dxkv, const MhaG& g, MhaActs& a, const MhaW& w,
                  const float* dout, const float* xq, const float* xkv) {
  const long B = a.B, N = a.N, M = a.M, Dm = a.Dm, H = a.H, Dh = Dm / H;
  const float scale = 1.0f / std::sqrt(static_cast<float>(Dh));
  for (auto* x : {&a.dq, &a.dk, &a.dv, &a.dctx}) std::fill(x->begin(), x->end(), 0.0f);
  // dctx = dout Wo,  dWo += doutᵀ ctx,  dbo += Σ dout
  linear_backward(a.dctx.data(), g.out_w, g.out_b, dout, a.ctx.data(), w.out_w, B * N, Dm, Dm);
  float* dA = a.datt.data();  // (N, M) ∂L/∂att_h of one batch row and head
  float* dS = a.dsc.data();   // (N, M) ∂L/∂(q_h k_hᵀ), the unscaled scores
  for (long b = 0; b < B; ++b) {
    const float* q = a.q.data() + b * N * Dm;
    const float* k = a.k.data() + b * M * Dm;
    const float* v = a.v.data() + b * M * Dm;
    const float* dc = a.dctx.data() + b * N * Dm;
    float* dq = a.dq.data() + b * N * Dm;
    float* dk = a.dk.data() + b * M * Dm;
    float* dv = a.dv.data() + b * M * Dm;
    for (long h = 0; h < H; ++h) {
      const float* A = a.att.data() + (b * H + h) * N * M;
      const long c0 = h * Dh;
      // datt = dctx_h v_hᵀ,  dv_h += attᵀ dctx_h
      kernels::gemm_nt(dA, M, dc + c0, Dm, v + c0, Dm, N, M, Dh, /*accumulate=*/false);
      kernels::gemm_tn(dv + c0, Dm, A, M, dc + c0, Dm, M, Dh, N, /*accumulate=*/true);
      // dscores = softmax backward of softmax(scores / √Dh) (0 at masked keys, where att = 0)
      kernels::softmax_backward(dS, dA, A, N, M, scale, /*accumulate=*/false);
      // dq_h += dscores k_h,  dk_h += dscoresᵀ q_h
      kernels::gemm_nn(dq + c0, Dm, dS, M, k + c0, Dm, N, Dh, M, /*accumulate=*/true);
      kernels::gemm_tn(dk + c0, Dm, dS, M, q + c0, Dm, M, Dh, N, /*accumulate=*/true);
    }
  }
  // Through the input projections: dx += dq Wq (and k, v), dW += dᵀ x, db += Σ d.
  linear_backward(dxq, g.in_w, g.in_b, a.dq.data(), xq, w.in_w, B * N, Dm, Dm);
  linear_backward(dxkv, g.in_w ? g.in_w + Dm * Dm : nullptr, g.in_b ? g.in_b + Dm : nullptr,
                  a.dk.data(), xkv, w.in_w + Dm * Dm, B * M, Dm, Dm);
  linear_backward(dxkv, g.in_w ? g.in_w + 2 * Dm * Dm : nullptr, g.in_b ? g.in_b + 2 * Dm : nullptr,
                  a.dv.data(), xkv, w.in_w + 2 * Dm * Dm, B * M, Dm, Dm);
}

}  // namespace lab
