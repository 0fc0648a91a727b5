#include "transformer/layers.h"

#include <algorithm>

#include "ops.h"

namespace lab {

namespace {

void ln_backward(float* dx, const LayerNormP<float*>& g, const LayerNormActs& a, const float* dy,
                 const float* x, const LayerNormP<const float*>& w, long R, long C,
                 Grad into = Grad::kAdd, const kernels::RowSet* rows = nullptr) {
  layernorm_backward(dx, g.w, g.b, dy, x, a.mean.data(), a.rstd.data(), w.w, R, C, into, rows);
}

// dx (+)= d   (n)
void add_into(float* dx, const float* d, long n, Grad into) {
  if (into == Grad::kSet) {
    std::copy(d, d + n, dx);
  } else {
    for (long i = 0; i < n; ++i) dx[i] += d[i];
  }
}

}  // namespace

void LayerNormActs::resize(long R, long C) {
  y.resize(R * C);
  mean.resize(R);
  rstd.resize(R);
}

void layernorm_forward(LayerNormActs& a, const float* x, const LayerNormP<const float*>& w, long R,
                       long C, const kernels::RowSet* rows) {
  a.resize(R, C);
  layernorm_forward(a.y.data(), a.mean.data(), a.rstd.data(), x, w.w, w.b, R, C, rows);
}

void FfnActs::resize(long R, long Dm, long F) {
  h.resize(R * F);
  y.resize(R * Dm);
}

void LayerScratch::resize(long R, long Dm, long F) {
  d1.resize(R * Dm);
  d2.resize(R * Dm);
  d3.resize(R * Dm);
  dh.resize(R * F);
}

void encoder_layer_forward(EncoderLayerActs& a, const EncoderLayerW& w, const float* x,
                           const uint8_t* src_pad, long B, long S, const LayerDims& d,
                           const uint8_t* zero_head, const kernels::RowSet* rows) {
  const long R = B * S, Dm = d.Dm;
  const MhaMask mask{src_pad, false, zero_head, rows, rows};
  a.rows = rows;
  a.r1.resize(R * Dm);
  a.r2.resize(R * Dm);
  a.ff.resize(R, Dm, d.F);
  if (d.norm_first) {
    // x1 = x + SA(LN1(x))
    layernorm_forward(a.ln1, x, w.n1, R, Dm, rows);
    check_softmax_status(
        mha_forward(a.sa, w.sa, a.ln1.y.data(), a.ln1.y.data(), mask, B, S, S, Dm, d.H));
    residual_forward(a.r1.data(), x, a.sa.out.data(), R * Dm);
    // out = x1 + FF(LN2(x1))
    layernorm_forward(a.ln2, a.r1.data(), w.n2, R, Dm, rows);
    ffn_forward(a.ff.h.data(), a.ff.y.data(), a.ln2.y.data(), w.ff, R, Dm, d.F, rows);
    residual_forward(a.r2.data(), a.r1.data(), a.ff.y.data(), R * Dm);
  } else {
    // x1 = LN1(x + SA(x))
    check_softmax_status(mha_forward(a.sa, w.sa, x, x, mask, B, S, S, Dm, d.H));
    residual_forward(a.r1.data(), x, a.sa.out.data(), R * Dm);
    layernorm_forward(a.ln1, a.r1.data(), w.n1, R, Dm, rows);
    // out = LN2(x1 + FF(x1))
    ffn_forward(a.ff.h.data(), a.ff.y.data(), a.ln1.y.data(), w.ff, R, Dm, d.F, rows);
    residual_forward(a.r2.data(), a.ln1.y.data(), a.ff.y.data(), R * Dm);
    layernorm_forward(a.ln2, a.r2.data(), w.n2, R, Dm, rows);
  }
}

void encoder_layer_backward(float* dx, const EncoderLayerG& g, EncoderLayerActs& a, LayerScratch& s,
                            const EncoderLayerW& w, const float* dout, const float* x, long R,
                            const LayerDims& d, Grad into) {
  const long Dm = d.Dm, n = R * Dm;
  // Each scratch gradient is first written (kSet, or a copy), then added to: no zeroing.
  float* d1 = s.d1.data();  // ∂L/∂x1
  float* d2 = s.d2.data();  // ∂L/∂(residual sum) or ∂L/∂(normed input)
  if (d.norm_first) {
    // out = x1 + FF(n2): dx1 = dout, dn2 = FF backward, dx1 += LN2 backward
    std::copy(dout, dout + n, d1);
    ffn_backward(d2, g.ff, s.dh.data(), dout, a.ln2.y.data(), a.ff.h.data(), w.ff, R, Dm, d.F,
                 Grad::kSet, a.rows);
    ln_backward(d1, g.n2, a.ln2, d2, a.r1.data(), w.n2, R, Dm, Grad::kAdd, a.rows);
    // x1 = x + SA(n1): dx (+)= dx1, dn1 = SA backward, dx += LN1 backward
    add_into(dx, d1, n, into);
    mha_backward(d2, d2, g.sa, a.sa, w.sa, d1, a.ln1.y.data(), a.ln1.y.data(), Grad::kSet);
    ln_backward(dx, g.n1, a.ln1, d2, x, w.n1, R, Dm, Grad::kAdd, a.rows);
  } else {
    // out = LN2(r2), r2 = x1 + FF(x1)
    ln_backward(d2, g.n2, a.ln2, dout, a.r2.data(), w.n2, R, Dm, Grad::kSet, a.rows);
    std::copy(d2, d2 + n, d1);
    ffn_backward(d1, g.ff, s.dh.data(), d2, a.ln1.y.data(), a.ff.h.data(), w.ff, R, Dm, d.F,
                 Grad::kAdd, a.rows);
    // x1 = LN1(r1), r1 = x + SA(x)
    ln_backward(d2, g.n1, a.ln1, d1, a.r1.data(), w.n1, R, Dm, Grad::kSet, a.rows);
    add_into(dx, d2, n, into);
    mha_backward(dx, dx, g.sa, a.sa, w.sa, d2, x, x);
  }
}

void decoder_layer_forward(DecoderLayerActs& a, const DecoderLayerW& w, const float* y,
                           const float* mem, const uint8_t* tgt_pad, const uint8_t* src_pad, long B,
                           long T, long S, const LayerDims& d, const kernels::RowSet* mem_rows) {
  const long R = B * T, Dm = d.Dm;
  const MhaMask self_mask{tgt_pad, true}, cross_mask{src_pad, false, nullptr, nullptr, mem_rows};
  for (auto* r : {&a.r1, &a.r2, &a.r3}) r->resize(R * Dm);
  a.ff.resize(R, Dm, d.F);
  if (d.norm_first) {
    // y1 = y + SA(LN1(y))
    layernorm_forward(a.ln1, y, w.n1, R, Dm);
    check_softmax_status(
        mha_forward(a.sa, w.sa, a.ln1.y.data(), a.ln1.y.data(), self_mask, B, T, T, Dm, d.H));
    residual_forward(a.r1.data(), y, a.sa.out.data(), R * Dm);
    // y2 = y1 + CA(LN2(y1), mem)
    layernorm_forward(a.ln2, a.r1.data(), w.n2, R, Dm);
    check_softmax_status(
        mha_forward(a.ca, w.ca, a.ln2.y.data(), mem, cross_mask, B, T, S, Dm, d.H));
    residual_forward(a.r2.data(), a.r1.data(), a.ca.out.data(), R * Dm);
    // out = y2 + FF(LN3(y2))
    layernorm_forward(a.ln3, a.r2.data(), w.n3, R, Dm);
    ffn_forward(a.ff.h.data(), a.ff.y.data(), a.ln3.y.data(), w.ff, R, Dm, d.F);
    residual_forward(a.r3.data(), a.r2.data(), a.ff.y.data(), R * Dm);
  } else {
    // y1 = LN1(y + SA(y))
    check_softmax_status(mha_forward(a.sa, w.sa, y, y, self_mask, B, T, T, Dm, d.H));
    residual_forward(a.r1.data(), y, a.sa.out.data(), R * Dm);
    layernorm_forward(a.ln1, a.r1.data(), w.n1, R, Dm);
    // y2 = LN2(y1 + CA(y1, mem))
    check_softmax_status(
        mha_forward(a.ca, w.ca, a.ln1.y.data(), mem, cross_mask, B, T, S, Dm, d.H));
    residual_forward(a.r2.data(), a.ln1.y.data(), a.ca.out.data(), R * Dm);
    layernorm_forward(a.ln2, a.r2.data(), w.n2, R, Dm);
    // out = LN3(y2 + FF(y2))
    ffn_forward(a.ff.h.data(), a.ff.y.data(), a.ln2.y.data(), w.ff, R, Dm, d.F);
    residual_forward(a.r3.data(), a.ln2.y.data(), a.ff.y.data(), R * Dm);
    layernorm_forward(a.ln3, a.r3.data(), w.n3, R, Dm);
  }
}

void decoder_layer_backward(float* dy, float* dmem, const DecoderLayerG& g, DecoderLayerActs& a,
                            LayerScratch& s, const DecoderLayerW& w, const float* dout,
                            const float* y, const float* mem, long R, const LayerDims& d,
                            Grad into) {
  const long Dm = d.Dm, n = R * Dm;
  // Each scratch gradient is first written (kSet, or a copy), then added to: no zeroing.
  float* d1 = s.d1.data();
  float* d2 = s.d2.data();
  float* d3 = s.d3.data();
  if (d.norm_first) {
    // out = y2 + FF(n3)
    std::copy(dout, dout + n, d2);  // ∂L/∂y2
    ffn_backward(d3, g.ff, s.dh.data(), dout, a.ln3.y.data(), a.ff.h.data(), w.ff, R, Dm, d.F,
                 Grad::kSet);
    ln_backward(d2, g.n3, a.ln3, d3, a.r2.data(), w.n3, R, Dm);
    // y2 = y1 + CA(n2, mem)
    std::copy(d2, d2 + n, d1);  // ∂L/∂y1
    mha_backward(d3, dmem, g.ca, a.ca, w.ca, d2, a.ln2.y.data(), mem, Grad::kSet);
    ln_backward(d1, g.n2, a.ln2, d3, a.r1.data(), w.n2, R, Dm);
    // y1 = y + SA(n1)
    add_into(dy, d1, n, into);
    mha_backward(d3, d3, g.sa, a.sa, w.sa, d1, a.ln1.y.data(), a.ln1.y.data(), Grad::kSet);
    ln_backward(dy, g.n1, a.ln1, d3, y, w.n1, R, Dm);
  } else {
    // out = LN3(r3), r3 = y2 + FF(y2)
    ln_backward(d3, g.n3, a.ln3, dout, a.r3.data(), w.n3, R, Dm, Grad::kSet);
    std::copy(d3, d3 + n, d2);  // ∂L/∂y2
    ffn_backward(d2, g.ff, s.dh.data(), d3, a.ln2.y.data(), a.ff.h.data(), w.ff, R, Dm, d.F);
    // y2 = LN2(r2), r2 = y1 + CA(y1, mem)
    ln_backward(d3, g.n2, a.ln2, d2, a.r2.data(), w.n2, R, Dm, Grad::kSet);
    std::copy(d3, d3 + n, d1);  // ∂L/∂y1
    mha_backward(d1, dmem, g.ca, a.ca, w.ca, d3, a.ln1.y.data(), mem);
    // y1 = LN1(r1), r1 = y + SA(y)
    ln_backward(d2, g.n1, a.ln1, d1, a.r1.data(), w.n1, R, Dm, Grad::kSet);
    add_into(dy, d2, n, into);
    mha_backward(dy, dy, g.sa, a.sa, w.sa, d2, y, y);
  }
}

}  // namespace lab
