#include "transformer/mha.h"

#include <algorithm>
#include <cmath>

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
  CMapR Q(q, N, Dm), K(k, M, Dm), V(v, M, Dm);
  MapR C(ctx, N, Dm);
  for (long h = 0; h < H; ++h) {
    MapR A(att + h * N * M, N, M);
    // scores = q_h k_hᵀ / √Dh
    A.noalias() = (Q.middleCols(h * Dh, Dh) * scale) * K.middleCols(h * Dh, Dh).transpose();
    // att_h = softmax(scores) over the visible keys (in place: softmax reads x before writing y)
    softmax_forward(A.data(), A.data(), keep, N, M);
    // ctx_h = att_h v_h
    C.middleCols(h * Dh, Dh).noalias() = A * V.middleCols(h * Dh, Dh);
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
  for (long b = 0; b < B; ++b) {
    CMapR Q(a.q.data() + b * N * Dm, N, Dm), K(a.k.data() + b * M * Dm, M, Dm),
        V(a.v.data() + b * M * Dm, M, Dm), dC(a.dctx.data() + b * N * Dm, N, Dm);
    MapR dQ(a.dq.data() + b * N * Dm, N, Dm), dK(a.dk.data() + b * M * Dm, M, Dm),
        dV(a.dv.data() + b * M * Dm, M, Dm);
    MapR dA(a.datt.data(), N, M), dS(a.dsc.data(), N, M);
    for (long h = 0; h < H; ++h) {
      CMapR A(a.att.data() + (b * H + h) * N * M, N, M);
      const long c0 = h * Dh;
      // datt = dctx_h v_hᵀ,  dv_h += attᵀ dctx_h
      dA.noalias() = dC.middleCols(c0, Dh) * V.middleCols(c0, Dh).transpose();
      dV.middleCols(c0, Dh).noalias() += A.transpose() * dC.middleCols(c0, Dh);
      // dscores = softmax backward (0 at masked keys, where att = 0)
      dS.setZero();
      softmax_backward(dS.data(), dA.data(), A.data(), N, M);
      // dq_h += dscores k_h / √Dh,  dk_h += dscoresᵀ q_h / √Dh
      dQ.middleCols(c0, Dh).noalias() += (dS * K.middleCols(c0, Dh)) * scale;
      dK.middleCols(c0, Dh).noalias() += (dS.transpose() * Q.middleCols(c0, Dh)) * scale;
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
