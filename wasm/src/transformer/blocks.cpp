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

void layernorm_forward(float* y, float* mean, float* rstd, const float* x, const float* w,
                       const float* b, long R, long C) {
  for (long r = 0; r < R; ++r) {
    const float* xr = x + r * C;
    // Row statistics in double: the reference is float64 and C is small.
    double m = 0.0;
    for (long c = 0; c < C; ++c) m += xr[c];
    m /= C;
    double var = 0.0;
    for (long c = 0; c < C; ++c) var += (xr[c] - m) * (xr[c] - m);
    var /= C;
    // rstd = 1 / √(var + ε)
    const double rs = 1.0 / std::sqrt(var + kLayerNormEps);
    const float mf = static_cast<float>(m), rsf = static_cast<float>(rs);
    mean[r] = mf;
    rstd[r] = rsf;
    float* yr = y + r * C;
    // y = (x − mean)·rstd ⊙ w + b  (in float, so that the loop vectorises)
    for (long c = 0; c < C; ++c) yr[c] = (xr[c] - mf) * rsf * w[c] + b[c];
  }
}

void layernorm_backward(float* dx, float* dw, float* db, const float* dy, const float* x,
                        const float* mean, const float* rstd, const float* w, long R, long C) {
  for (long r = 0; r < R; ++r) {
    const float* xr = x + r * C;
    const float* dyr = dy + r * C;
    const float m = mean[r], rs = rstd[r];
    // mean_c(g) and mean_c(g ⊙ x̂), g = dy ⊙ w
    double g_mean = 0.0, gx_mean = 0.0;
    for (long c = 0; c < C; ++c) {
      const float xhat = (xr[c] - m) * rs;
      const float g = dyr[c] * w[c];
      g_mean += g;
      gx_mean += g * xhat;
    }
    const float gm = static_cast<float>(g_mean / C), gxm = static_cast<float>(gx_mean / C);
    // One loop per output, in float, so that each vectorises.
    // dw += dy ⊙ x̂,  db += dy
    if (dw) {
      for (long c = 0; c < C; ++c) dw[c] += dyr[c] * ((xr[c] - m) * rs);
    }
    if (db) {
      for (long c = 0; c < C; ++c) db[c] += dyr[c];
    }
    // dx += rstd · (g − mean(g) − x̂ · mean(g ⊙ x̂))
    if (dx) {
      float* dxr = dx + r * C;
      for (long c = 0; c < C; ++c) {
        const float xhat = (xr[c] - m) * rs;
        dxr[c] += rs * (dyr[c] * w[c] - gm - xhat * gxm);
      }
    }
  }
}

void residual_forward(float* y, const float* a, const float* b, long n) {
  // y = a + b
  MapV(y, n) = CMapV(a, n) + CMapV(b, n);
}

void ffn_forward(float* h, float* y, const float* x, const FfnW& w, long R, long Dm, long F) {
  // h = relu(x W1ᵀ + b1)
  linear_forward(h, x, w.w1, w.b1, R, Dm, F);
  MapV H(h, R * F);
  H = H.cwiseMax(0.0f);
  // y = h W2ᵀ + b2
  linear_forward(y, h, w.w2, w.b2, R, F, Dm);
}

void ffn_backward(float* dx, const FfnG& g, float* dh, const float* dy, const float* x,
                  const float* h, const FfnW& w, long R, long Dm, long F) {
  MapV(dh, R * F).setZero();
  // dh = dy W2,  dW2 += dyᵀ h,  db2 += Σ dy
  linear_backward(dh, g.w2, g.b2, dy, h, w.w2, R, F, Dm);
  // through the ReLU: d(pre) = dh ⊙ [h > 0]  (h = relu(pre) > 0 exactly where pre > 0); a
  // select, not a branch, so that the loop vectorises
  for (long i = 0; i < R * F; ++i) dh[i] = h[i] > 0.0f ? dh[i] : 0.0f;
  // dx += d(pre) W1,  dW1 += d(pre)ᵀ x,  db1 += Σ d(pre)
  linear_backward(dx, g.w1, g.b1, dh, x, w.w1, R, Dm, F);
}

}  // namespace lab
