// Internal to TransformerModel (model*.cpp): the scratch of one (B, S, T) batch. resize() only
// grows std::vectors (they keep their capacity), so alternating batch shapes allocate nothing
// after the largest one. Dimension letters as in transformer/model.h.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/gemm.h"  // RowSet
#include "transformer/layers.h"
#include "transformer/model.h"

namespace lab {

struct TransformerWorkspace {
  long B = 0, S = 0, T = 0;
  float loss = 0.0f;
  std::vector<uint8_t> src_pad;               // (B, S) 1 at s ≥ src_len[b]
  std::vector<uint8_t> tgt_pad;               // (B, T) 1 where tgt_in == 0
  std::vector<int32_t> src_rows;              // the rows b·S + s of (B, S) with s < src_len[b]
  kernels::RowSet src_real;                   // src_rows as a kernels::RowSet
  const kernels::RowSet* enc_rows = nullptr;  // the encoder rows the forward computed (null: all)
  std::vector<float> src_x, tgt_x;            // (B, S, Dm), (B, T, Dm) embedding · √Dm + pe
  std::vector<EncoderLayerActs> enc;          // L
  LayerNormActs enc_norm;                     // y = memory (B, S, Dm)
  std::vector<DecoderLayerActs> dec;          // L
  LayerNormActs dec_norm;                     // y (B, T, Dm), into the output Linear
  std::vector<float> logits, probs;           // (B, T, Vt)
  // backward
  std::vector<float> dlogits;         // (B, T, Vt)
  std::vector<float> dtgt_a, dtgt_b;  // (B, T, Dm) ∂L/∂(a decoder layer's output / input)
  std::vector<float> dsrc_a, dsrc_b;  // (B, S, Dm)
  std::vector<float> dmem;            // (B, S, Dm) ∂L/∂memory, summed over decoder layers
  LayerScratch enc_scratch, dec_scratch;

  void resize(const TransformerConfig& c, long B, long S, long T);
};

}  // namespace lab
