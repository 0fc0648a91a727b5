// The Transformer's non-attention building blocks, each a _forward/_backward pair on raw
// row-major buffers, as in ops.h: backward functions ACCUMULATE (+=) into gradient buffers the
// caller owns and zeroes; a null gradient pointer means "not wanted".
//
// Dimension letters: tensor.h's, plus transformer/model.h's (Dm model size, F feed-forward size,
// S / T source / target length); N here is the positions of one sequence (S or T).
#pragma once

#include <cstdint>

#include "ops.h"  // layer norm

namespace lab {

// pe (N, Dm): pe[pos, 2i] = sin(pos / 10000^(2i/Dm)), pe[pos, 2i + 1] = cos(pos / 10000^(2i/Dm)).
// Computed in double and rounded, so native and wasm builds get the same table.
void positional_encoding(float* pe, long N, long Dm);

// y[b, n] = table[ids[b, n]] · √Dm + pe[n]
// ids (B, N), table (V, Dm), pe (≥ N, Dm), y (B, N, Dm). Throws InputError for an id outside
// [0, V).
void embed_forward(float* y, const int32_t* ids, const float* table, const float* pe, long B,
                   long N, long V, long Dm);
// dtable[ids[r]] += dy[r] · √Dm                 dy (R, Dm) with R = B·N
void embed_backward(float* dtable, const float* dy, const int32_t* ids, long R, long Dm);

// The position-wise feed-forward network with ReLU:
//   h = relu(x W1ᵀ + b1)   (R, F),   y = h W2ᵀ + b2   (R, Dm)
// W1 (F, Dm), b1 (F), W2 (Dm, F), b2 (Dm), as nn.TransformerEncoderLayer's linear1 / linear2.
template <class P>
struct FfnP {
  P w1, b1, w2, b2;
};
using FfnW = FfnP<const float*>;
using FfnG = FfnP<float*>;

// rows: null, or the rows of x whose outputs are read (kernels::RowSet; the others left finite).
void ffn_forward(float* h, float* y, const float* x, const FfnW& w, long R, long Dm, long F,
                 const kernels::RowSet* rows = nullptr);
// dh (R, F) is scratch (overwritten). dx += dy W2 ⊙ [h > 0] W1 (kSet: dx = that), weights'
// gradients accumulate. rows: the forward's; dy must be 0 on the other rows.
void ffn_backward(float* dx, const FfnG& g, float* dh, const float* dy, const float* x,
                  const float* h, const FfnW& w, long R, long Dm, long F, Grad into = Grad::kAdd,
                  const kernels::RowSet* rows = nullptr);

}  // namespace lab
