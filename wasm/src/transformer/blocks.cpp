#include "transformer/blocks.h"

#include <cmath>

#include "ops.h"
#include "tensor.h"

namespace lab {

void positional_encoding(float* pe, long N, long Dm) {
  for (long pos = 0; pos < N; ++pos) {
    for (long i = 0; i < Dm; i += 2) {
      // angle = pos / 10000^(2i/Dm), with 2i the even column index i here
      const double angle =
          static_cast<double>(pos) / std::pow(10000.0, static_cast<double>(i) / Dm);
      pe[pos * Dm + i] = static_cast<float>(std::sin(angle));
      if (i + 1 < Dm) pe[pos * Dm + i + 1] = static_cast<float>(std::cos(angle));
    }
  }
}

void embed_forward(float* y, const int32_t* ids, const float* table, const float* pe, long B,
                   long N, long V, long Dm) {
  const float scale = std::sqrt(static_cast<float>(Dm));
  embedding_forward(y, ids, table, B * N, V, Dm);
  for (long b = 0; b < B; ++b) {
    MapR Y(y + b * N * Dm, N, Dm);
    // y = table[id] · √Dm + pe[n]
    Y = Y * scale + CMapR(pe, N, Dm);
  }
}

void embed_backward(float* dtable, const float* dy, const int32_t* ids, long R, long Dm) {
  const float scale = std::sqrt(static_cast<float>(Dm));
  for (long r = 0; r < R; ++r) {
    // dtable[id] += dy · √Dm
    MapRowV(dtable + static_cast<long>(ids[r]) * Dm, Dm) += scale * CMapRowV(dy + r * Dm, Dm);
  }
}

void ffn_forward(float* h, float* y, const float* x, const FfnW& w, long R, long Dm, long F,
                 const kernels::RowSet* rows) {
  // h = relu(x W1ᵀ + b1)
  linear_forward(h, x, w.w1, w.b1, R, Dm, F, rows);
  MapV H(h, R * F);
  H = H.cwiseMax(0.0f);
  // y = h W2ᵀ + b2
  linear_forward(y, h, w.w2, w.b2, R, F, Dm, rows);
}

void ffn_backward(float* dx, const FfnG& g, float* dh, const float* dy, const float* x,
                  const float* h, const FfnW& w, long R, long Dm, long F, Grad into,
                  const kernels::RowSet* rows) {
  // dh = dy W2 (written: no zeroing first),  dW2 += dyᵀ h,  db2 += Σ dy
  linear_backward(dh, g.w2, g.b2, dy, h, w.w2, R, F, Dm, Grad::kSet, rows);
  // through the ReLU: d(pre) = dh ⊙ [h > 0]  (h = relu(pre) > 0 exactly where pre > 0); a
  // select, not a branch, so that the loop vectorises
  for (long i = 0; i < R * F; ++i) dh[i] = h[i] > 0.0f ? dh[i] : 0.0f;
  // dx (+)= d(pre) W1,  dW1 += d(pre)ᵀ x,  db1 += Σ d(pre)
  linear_backward(dx, g.w1, g.b1, dh, x, w.w1, R, Dm, F, into, rows);
}

}  // namespace lab
