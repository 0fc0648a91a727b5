#include "ops.h"

#include <cmath>
#include <limits>
#include <string>

#include "tensor.h"
#include "vec_exp.h"

namespace lab {

void linear_forward(float* y, const float* x, const float* w, const float* b, long R, long I,
                    long O) {
  MapR Y(y, R, O);
  CMapR X(x, R, I), W(w, O, I);
  // y = x Wᵀ + b
  Y.noalias() = X * W.transpose();
  if (b) Y.rowwise() += CMapRowV(b, O);
}

void linear_backward(float* dx, float* dw, float* db, const float* dy, const float* x,
                     const float* w, long R, long I, long O) {
  CMapR dY(dy, R, O), X(x, R, I), W(w, O, I);
  // dx += dy W
  if (dx) MapR(dx, R, I).noalias() += dY * W;
  // dW += dyᵀ x
  if (dw) MapR(dw, O, I).noalias() += dY.transpose() * X;
  // db += Σ_r dy
  if (db) MapRowV(db, O) += dY.colwise().sum();
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

void tanh_forward(float* y, const float* x, long n) {
  MapV(y, n) = CMapV(x, n).array().tanh().matrix();
}

void tanh_backward(float* dx, const float* dy, const float* y, long n) {
  CMapV Y(y, n);
  // dx += dy ⊙ (1 − y²)
  MapV(dx, n).array() += CMapV(dy, n).array() * (1.0f - Y.array().square());
}

void softmax_forward(float* y, const float* x, const uint8_t* keep, long R, long C) {
  for (long r = 0; r < R; ++r) {
    const float* xr = x + r * C;
    float* yr = y + r * C;
    const uint8_t* kr = keep ? keep + r * C : nullptr;
    // Subtracting the row max keeps exp() in range: scores near 2000 that differ by ~1 still give
    // the right weights instead of inf/inf.
    float mx = -std::numeric_limits<float>::infinity();
    for (long c = 0; c < C; ++c) {
      if (!kr || kr[c]) mx = std::max(mx, xr[c]);
    }
    if (mx == -std::numeric_limits<float>::infinity()) {
      throw InputError("softmax row " + std::to_string(r) + " has every entry masked");
    }
    // y = exp(x − max), vectorised over the row; masked entries then set to exactly 0
    for (long c = 0; c < C; ++c) yr[c] = xr[c] - mx;
    exp_inplace(yr, C);
    float sum = 0.0f;
    for (long c = 0; c < C; ++c) {
      if (kr && !kr[c]) yr[c] = 0.0f;
      sum += yr[c];
    }
    float inv = 1.0f / sum;  // sum >= 1: the max entry contributes exp(0)
    for (long c = 0; c < C; ++c) yr[c] *= inv;
  }
}

void softmax_backward(float* dx, const float* dy, const float* y, long R, long C) {
  MapR dX(dx, R, C);
  CMapR dY(dy, R, C), Y(y, R, C);
  // dx += y ⊙ (dy − Σ_c dy ⊙ y)
  VecF dot = (dY.array() * Y.array()).rowwise().sum();
  dX.array() += Y.array() * (dY.colwise() - dot).array();
}

float cross_entropy_forward(float* probs, const float* logits, const int32_t* targets,
                            int32_t ignore_index, long R, long V) {
  softmax_forward(probs, logits, nullptr, R, V);
  double loss = 0.0;
  long count = 0;
  for (long r = 0; r < R; ++r) {
    int32_t t = targets[r];
    if (t == ignore_index) continue;
    if (t < 0 || t >= V) {
      throw InputError("target " + std::to_string(t) + " at row " + std::to_string(r) +
                       " is outside the vocabulary of " + std::to_string(V));
    }
    // −log p computed from the logits (log-sum-exp), not log(probs): a tiny probability would
    // underflow to 0 and give inf.
    const float* lr = logits + r * V;
    float mx = lr[0];
    for (long c = 1; c < V; ++c) mx = std::max(mx, lr[c]);
    double s = 0.0;
    for (long c = 0; c < V; ++c) s += std::exp(static_cast<double>(lr[c] - mx));
    loss += std::log(s) + mx - lr[t];
    ++count;
  }
  return count ? static_cast<float>(loss / count) : 0.0f;
}

void cross_entropy_backward(float* dlogits, const float* probs, const int32_t* targets,
                            int32_t ignore_index, long R, long V, float dloss) {
  long count = 0;
  for (long r = 0; r < R; ++r) count += targets[r] != ignore_index;
  if (!count) return;
  float scale = dloss / static_cast<float>(count);
  for (long r = 0; r < R; ++r) {
    if (targets[r] == ignore_index) continue;
    // dlogits += dloss · (p − onehot(t)) / count
    MapRowV(dlogits + r * V, V) += scale * CMapRowV(probs + r * V, V);
    dlogits[r * V + targets[r]] -= scale;
  }
}

}  // namespace lab
