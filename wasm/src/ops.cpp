#include "ops.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels/activation.h"
#include "kernels/gemm.h"
#include "kernels/softmax.h"
#include "tensor.h"

namespace lab {

void linear_forward(float* y, const float* x, const float* w, const float* b, long R, long I,
                    long O, const kernels::RowSet* rows) {
  // y = x Wᵀ + b
  kernels::gemm_nt_rows(y, O, x, I, w, I, R, O, I, /*accumulate=*/false, b, rows);
}

void linear_backward(float* dx, float* dw, float* db, const float* dy, const float* x,
                     const float* w, long R, long I, long O, Grad into,
                     const kernels::RowSet* rows) {
  // dx += dy W  (kSet: dx = dy W)
  if (dx) {
    kernels::gemm_nn_rows(dx, I, dy, O, w, I, R, I, O, /*accumulate=*/into == Grad::kAdd, nullptr,
                          rows);
  }
  // dW += dyᵀ x
  if (dw) kernels::gemm_tn_rows(dw, I, dy, O, x, I, O, I, R, /*accumulate=*/true, rows);
  // db += Σ_r dy
  if (db) kernels::sum_rows_acc(db, dy, O, R, O, rows);
}

void embedding_forward(float* y, const int32_t* ids, const float* table, long T, long V, long C) {
  for (long t = 0; t < T; ++t) {
    if (ids[t] < 0 || ids[t] >= V) {
      throw InputError("token id " + std::to_string(ids[t]) + " at position " + std::to_string(t) +
                       " is outside the vocabulary of " + std::to_string(V));
    }
    MapRowV(y + t * C, C) = CMapRowV(table + static_cast<long>(ids[t]) * C, C);
  }
}

void embedding_backward(float* dtable, const float* dy, const int32_t* ids, long T, long C) {
  for (long t = 0; t < T; ++t) {
    MapRowV(dtable + static_cast<long>(ids[t]) * C, C) += CMapRowV(dy + t * C, C);
  }
}

void residual_forward(float* y, const float* a, const float* b, long n) {
  // y = a + b
  MapV(y, n) = CMapV(a, n) + CMapV(b, n);
}

void tanh_forward(float* y, const float* x, long n) {
  if (y != x) std::copy(x, x + n, y);
  kernels::tanh_inplace(y, n);
}

void tanh_backward(float* dx, const float* dy, const float* y, long n) {
  CMapV Y(y, n);
  // dx += dy ⊙ (1 − y²)
  MapV(dx, n).array() += CMapV(dy, n).array() * (1.0f - Y.array().square());
}

void gelu_forward(float* y, const float* x, long n, float* t) {
  kernels::gelu_forward(y, x, n, t);
}

void gelu_backward(float* dx, const float* dy, const float* x, long n, const float* t, Grad into) {
  kernels::gelu_backward(dx, dy, x, n, t, into == Grad::kAdd);
}

namespace {

// f(r) for each row r of rows (every row of R when null); skipped(r) for the others.
template <class F, class G>
void for_rows(long R, const kernels::RowSet* rows, F f, G skipped) {
  if (!rows) {
    for (long r = 0; r < R; ++r) f(r);
    return;
  }
  long next = 0;  // the first row not yet visited
  for (long i = 0; i <= rows->count; ++i) {
    const long m = i < rows->count ? rows->index[i] : R;
    for (; next < m; ++next) skipped(next);
    if (m < R) f(m);
    next = m + 1;
  }
}

}  // namespace

void layernorm_forward(float* y, float* mean, float* rstd, const float* x, const float* w,
                       const float* b, long R, long C, const kernels::RowSet* rows) {
  auto row = [&](long r) {
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
  };
  for_rows(R, rows, row, [&](long r) {
    mean[r] = rstd[r] = 0.0f;
    std::fill_n(y + r * C, C, 0.0f);
  });
}

void layernorm_backward(float* dx, float* dw, float* db, const float* dy, const float* x,
                        const float* mean, const float* rstd, const float* w, long R, long C,
                        Grad into, const kernels::RowSet* rows) {
  auto row = [&](long r) {
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
    // dx (+)= rstd · (g − mean(g) − x̂ · mean(g ⊙ x̂))
    if (dx) {
      float* dxr = dx + r * C;
      if (into == Grad::kAdd) {
        for (long c = 0; c < C; ++c) {
          const float xhat = (xr[c] - m) * rs;
          dxr[c] += rs * (dyr[c] * w[c] - gm - xhat * gxm);
        }
      } else {
        for (long c = 0; c < C; ++c) {
          const float xhat = (xr[c] - m) * rs;
          dxr[c] = rs * (dyr[c] * w[c] - gm - xhat * gxm);
        }
      }
    }
  };
  for_rows(R, rows, row, [&](long r) {
    if (dx && into == Grad::kSet) std::fill_n(dx + r * C, C, 0.0f);
  });
}

void softmax_forward(float* y, const float* x, const uint8_t* keep, long R, long C, float scale) {
  check_softmax_status(kernels::softmax_forward(y, x, keep, R, C, scale));
}

void check_softmax_status(const kernels::SoftmaxStatus& status) {
  if (status.masked_row >= 0) {
    throw InputError("softmax row " + std::to_string(status.masked_row) +
                     " has every entry masked");
  }
  // an infinite or NaN input (e.g. logits that overflowed) would be a silent NaN or an
  // unspecified row
  if (!status.finite)
    throw OverflowError("the softmax input is not finite (it overflowed float32)");
}

void softmax_backward(float* dx, const float* dy, const float* y, long R, long C) {
  // dx += y ⊙ (dy − Σ_c dy ⊙ y)
  kernels::softmax_backward(dx, dy, y, R, C, 1.0f, /*accumulate=*/true);
}

namespace {
// log Σ_c exp(x[c]) over x[0, V), in double
double log_sum_exp_double(const float* x, long V) {
  float mx = x[0];
  for (long c = 1; c < V; ++c) mx = std::max(mx, x[c]);
  double s = 0.0;
  for (long c = 0; c < V; ++c) s += std::exp(static_cast<double>(x[c] - mx));
  return std::log(s) + mx;
}

// Target t of row r (not the ignore index) in [0, V), or InputError.
void check_target(int32_t t, long r, long V) {
  if (t < 0 || t >= V) {
    throw InputError("target " + std::to_string(t) + " at row " + std::to_string(r) +
                     " is outside the vocabulary of " + std::to_string(V));
  }
}
}  // namespace

float cross_entropy_forward(float* probs, const float* logits, const int32_t* targets,
                            int32_t ignore_index, long R, long V, LogSumExp log_sum_exp,
                            ProbsFor probs_for) {
  const bool in_float = log_sum_exp == LogSumExp::kFloat;
  std::vector<float> log_sum(in_float ? static_cast<size_t>(R) : 0);
  // The softmax of each run of rows it is wanted for. Non-finite logits (a diverging run): the
  // loss is NaN, which the models report as divergence.
  const bool every_row = probs_for == ProbsFor::kEveryRow;
  for (long r = 0; r < R;) {
    if (!every_row && targets[r] == ignore_index) {
      ++r;
      continue;
    }
    long end = r + 1;
    while (end < R && (every_row || targets[end] != ignore_index)) ++end;
    if (!kernels::softmax_forward(probs + r * V, logits + r * V, nullptr, end - r, V, 1.0f,
                                  in_float ? log_sum.data() + r : nullptr)
             .finite) {
      return std::numeric_limits<float>::quiet_NaN();
    }
    r = end;
  }
  double loss = 0.0;
  long count = 0;
  for (long r = 0; r < R; ++r) {
    int32_t t = targets[r];
    if (t == ignore_index) continue;
    check_target(t, r, V);
    const float* lr = logits + r * V;
    const double lse = in_float ? log_sum[static_cast<size_t>(r)] : log_sum_exp_double(lr, V);
    loss += lse - lr[t];
    ++count;
  }
  return count ? static_cast<float>(loss / count) : 0.0f;
}

float cross_entropy_forward_backward(float* dlogits, const float* logits, const int32_t* targets,
                                     int32_t ignore_index, long R, long V, float dloss,
                                     long* hits) {
  long count = 0;
  for (long r = 0; r < R; ++r) {
    const int32_t t = targets[r];
    if (t == ignore_index) continue;
    check_target(t, r, V);
    ++count;
  }
  const float scale = count ? dloss / static_cast<float>(count) : 0.0f;
  std::vector<float> log_sum(static_cast<size_t>(R)), row_max(static_cast<size_t>(R));
  // dlogits = scale · softmax(logits) over each run of rows with a target; ignored rows 0
  for (long r = 0; r < R;) {
    if (targets[r] == ignore_index) {
      std::fill(dlogits + r * V, dlogits + (r + 1) * V, 0.0f);
      ++r;
      continue;
    }
    long end = r + 1;
    while (end < R && targets[end] != ignore_index) ++end;
    if (!kernels::softmax_scaled(dlogits + r * V, logits + r * V, end - r, V, scale,
                                 log_sum.data() + r, row_max.data() + r)) {
      return std::numeric_limits<float>::quiet_NaN();
    }
    r = end;
  }
  // loss = mean (log Σ exp − logit at the target);  dlogits −= scale at the target
  double loss = 0.0;
  long hit = 0;
  for (long r = 0; r < R; ++r) {
    const int32_t t = targets[r];
    if (t == ignore_index) continue;
    const float* lr = logits + r * V;
    loss += static_cast<double>(log_sum[static_cast<size_t>(r)]) - lr[t];
    dlogits[r * V + t] -= scale;
    // the first maximum is at t: none after it larger (it is the row's maximum), none before it
    // as large
    if (hits) hit += lr[t] == row_max[static_cast<size_t>(r)] && kernels::max_of(lr, t) < lr[t];
  }
  if (hits) *hits = hit;
  return count ? static_cast<float>(loss / count) : 0.0f;
}

void cross_entropy_backward(float* dlogits, const float* probs, const int32_t* targets,
                            int32_t ignore_index, long R, long V, float dloss, Grad into) {
  long count = 0;
  for (long r = 0; r < R; ++r) count += targets[r] != ignore_index;
  const float scale = count ? dloss / static_cast<float>(count) : 0.0f;
  for (long r = 0; r < R; ++r) {
    MapRowV row(dlogits + r * V, V);
    if (targets[r] == ignore_index) {
      if (into == Grad::kSet) row.setZero();
      continue;
    }
    // dlogits += dloss · (p − onehot(t)) / count  (kSet: =, the same bits as += onto zeros)
    if (into == Grad::kSet) {
      row = scale * CMapRowV(probs + r * V, V);
    } else {
      row += scale * CMapRowV(probs + r * V, V);
    }
    dlogits[r * V + targets[r]] -= scale;
  }
}

}  // namespace lab
