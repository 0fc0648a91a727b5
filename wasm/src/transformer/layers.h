// nn.TransformerEncoderLayer and nn.TransformerDecoderLayer (ReLU, no dropout), post-norm (the
// default) and pre-norm (norm_first), forward and backward. Dimension letters as in
// transformer/model.h; R = B·S (encoder) or B·T (decoder) rows.
//
//   encoder, post-norm:  x1 = LN1(x + SA(x)),            out = LN2(x1 + FF(x1))
//   encoder, pre-norm:   x1 = x + SA(LN1(x)),            out = x1 + FF(LN2(x1))
//   decoder, post-norm:  y1 = LN1(y + SA(y)),  y2 = LN2(y1 + CA(y1, mem)),  out = LN3(y2 + FF(y2))
//   decoder, pre-norm:   y1 = y + SA(LN1(y)),  y2 = y1 + CA(LN2(y1), mem),  out = y2 + FF(LN3(y2))
// SA: self-attention (the decoder's causal), CA: cross-attention over the encoder memory.
#pragma once

#include <cstdint>
#include <vector>

#include "attention/mha.h"
#include "transformer/blocks.h"

namespace lab {

template <class P>
struct EncoderLayerP {
  MhaP<P> sa;
  FfnP<P> ff;
  LayerNormP<P> n1, n2;
};
template <class P>
struct DecoderLayerP {
  MhaP<P> sa, ca;
  FfnP<P> ff;
  LayerNormP<P> n1, n2, n3;
};
using EncoderLayerW = EncoderLayerP<const float*>;
using EncoderLayerG = EncoderLayerP<float*>;
using DecoderLayerW = DecoderLayerP<const float*>;
using DecoderLayerG = DecoderLayerP<float*>;

struct LayerDims {
  long Dm = 0, H = 0, F = 0;
  bool norm_first = false;
};

// LayerNorm activations of R rows: y (R, Dm), mean and rstd (R).
struct LayerNormActs {
  std::vector<float> y, mean, rstd;
  void resize(long R, long C);
};
void layernorm_forward(LayerNormActs& a, const float* x, const LayerNormP<const float*>& w, long R,
                       long C, const kernels::RowSet* rows = nullptr);

struct FfnActs {
  std::vector<float> h;  // (R, F) after the ReLU
  std::vector<float> y;  // (R, Dm)
  void resize(long R, long Dm, long F);
};

// Backward scratch shared by every layer of one side: three (R, Dm) gradients and (R, F).
struct LayerScratch {
  std::vector<float> d1, d2, d3, dh;
  void resize(long R, long Dm, long F);
};

struct EncoderLayerActs {
  LayerNormActs ln1, ln2;
  MhaActs sa;
  FfnActs ff;
  std::vector<float> r1, r2;              // (R, Dm) residual sums (post-norm: inputs of LN1 / LN2)
  const kernels::RowSet* rows = nullptr;  // the forward's, for the backward
  const float* out(bool norm_first) const { return norm_first ? r2.data() : ln2.y.data(); }
};

struct DecoderLayerActs {
  LayerNormActs ln1, ln2, ln3;
  MhaActs sa, ca;
  FfnActs ff;
  std::vector<float> r1, r2, r3;  // (R, Dm)
  const float* out(bool norm_first) const { return norm_first ? r3.data() : ln3.y.data(); }
};

// x (B, S, Dm); src_pad (B, S) 1 = padding; zero_head (H) or null: self-attention heads whose
// output is zeroed (decoding's interventions). rows: null, or the rows not padded
// (kernels::RowSet): the projections and the feed-forward network skip the padded rows, whose
// outputs no real position reads (padded keys are masked); they are left finite.
void encoder_layer_forward(EncoderLayerActs& a, const EncoderLayerW& w, const float* x,
                           const uint8_t* src_pad, long B, long S, const LayerDims& d,
                           const uint8_t* zero_head = nullptr,
                           const kernels::RowSet* rows = nullptr);
// dx += ∂L/∂x (kSet: dx = ∂L/∂x) given dout = ∂L/∂out (R, Dm), 0 on rows the forward skipped.
void encoder_layer_backward(float* dx, const EncoderLayerG& g, EncoderLayerActs& a, LayerScratch& s,
                            const EncoderLayerW& w, const float* dout, const float* x, long R,
                            const LayerDims& d, Grad into = Grad::kAdd);

// y (B, T, Dm), mem (B, S, Dm); tgt_pad (B, T), src_pad (B, S); mem_rows: null, or the rows of
// mem not padded (the cross-attention's keys and values are projected there only).
void decoder_layer_forward(DecoderLayerActs& a, const DecoderLayerW& w, const float* y,
                           const float* mem, const uint8_t* tgt_pad, const uint8_t* src_pad, long B,
                           long T, long S, const LayerDims& d,
                           const kernels::RowSet* mem_rows = nullptr);
// dy += ∂L/∂y (kSet: dy = ∂L/∂y), dmem += ∂L/∂mem.
void decoder_layer_backward(float* dy, float* dmem, const DecoderLayerG& g, DecoderLayerActs& a,
                            LayerScratch& s, const DecoderLayerW& w, const float* dout,
                            const float* y, const float* mem, long R, const LayerDims& d,
                            Grad into = Grad::kAdd);

}  // namespace lab
