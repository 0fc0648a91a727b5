#include "attention/score.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "kernels/gemm.h"

namespace lab {

Score parse_score(const std::string& name) {
  if (name == "dot") return Score::kDot;
  if (name == "scaled" || name == "scaled-dot" || name == "scaled_dot") return Score::kScaled;
  if (name == "general") return Score::kGeneral;
  if (name == "additive" || name == "bahdanau" || name == "concat") return Score::kAdditive;
  if (name == "cosine") return Score::kCosine;
  throw InputError("unknown score function '" + name +
                   "' (expected dot, scaled, general, additive or cosine)");
}

const char* score_name(Score score) {
  switch (score) {
    case Score::kDot:
      return "dot";
    case Score::kScaled:
      return "scaled";
    case Score::kGeneral:
      return "general";
    case Score::kAdditive:
      return "additive";
    case Score::kCosine:
      return "cosine";
  }
  return "?";
}

namespace attn {
namespace {

// F.normalize's floor on the norm: a zero vector gives a zero direction, not NaN.
constexpr float kNormEps = 1e-12f;

using CMapStrided = Eigen::Map<const MatR, 0, Eigen::OuterStride<>>;
using MapStrided = Eigen::Map<MatR, 0, Eigen::OuterStride<>>;

// y = x / max(‖x‖, eps) row by row; x (R, C) rows ld apart, y (R, C); norm (R)
void normalize_rows_forward(float* y, float* norm, const float* x, long ld, long R, long C) {
  CMapStrided X(x, R, C, Eigen::OuterStride<>(ld));
  MapR Y(y, R, C);
  for (long r = 0; r < R; ++r) {
    norm[r] = X.row(r).norm();
    Y.row(r) = X.row(r) / std::max(norm[r], kNormEps);
  }
}

// dx += (dy − y (y·dy)) / ‖x‖, or dy / eps where the norm was floored (y = x / eps is linear).
void normalize_rows_backward(float* dx, long ld, const float* dy, const float* y, const float* norm,
                             long R, long C) {
  MapStrided dX(dx, R, C, Eigen::OuterStride<>(ld));
  CMapR dY(dy, R, C), Y(y, R, C);
  for (long r = 0; r < R; ++r) {
    if (norm[r] > kNormEps) {
      dX.row(r) += (dY.row(r) - Y.row(r) * Y.row(r).dot(dY.row(r))) / norm[r];
    } else {
      dX.row(r) += dY.row(r) / kNormEps;
    }
  }
}

}  // namespace

float score_scale(const ScoreWeights& sw, long D) {
  if (sw.score == Score::kScaled) return 1.0f / std::sqrt(static_cast<float>(D));
  if (sw.score == Score::kCosine) return 1.0f / sw.temperature;
  return 1.0f;
}

void dot_score_forward(float* s, const float* q, const float* k, const Dims& d) {
  // s = q kᵀ
  kernels::gemm_nt(s, d.M, q, d.ldq, k, d.ldk, d.N, d.M, d.D, /*accumulate=*/false);
}

void dot_score_backward(float* dq, float* dk, const float* ds, const float* q, const float* k,
                        const Dims& d, bool accumulate) {
  // dq (+)= ds k,  dk (+)= dsᵀ q
  kernels::gemm_nn(dq, d.ldq, ds, d.M, k, d.ldk, d.N, d.D, d.M, accumulate);
  kernels::gemm_tn(dk, d.ldk, ds, d.M, q, d.ldq, d.M, d.Dk, d.N, accumulate);
}

void score_forward(float* s, const ScoreActs& acts, ScoreScratch& scratch, const ScoreWeights& sw,
                   const float* q, const float* k, const Dims& d) {
  const long N = d.N, M = d.M, D = d.D, Dk = d.Dk, A = sw.A;
  switch (sw.score) {
    case Score::kDot:
    case Score::kScaled:
      dot_score_forward(s, q, k, d);
      break;
    case Score::kGeneral: {
      float* kp = acts.key_proj;  // (M, D)
      // kp = k Wᵀ, so s = q · (W k) = qᵀ W k
      kernels::gemm_nt(kp, D, k, d.ldk, sw.w, Dk, M, D, Dk, false);
      kernels::gemm_nt(s, M, q, d.ldq, kp, D, N, M, D, false);
      break;
    }
    case Score::kAdditive: {
      MatR& pq = scratch.pq;
      MatR& pk = scratch.pk;
      pq.resize(N, A);
      pk.resize(M, A);
      // pq = q W1ᵀ, pk = k W2ᵀ + b
      kernels::gemm_nt(pq.data(), A, q, d.ldq, sw.w1, D, N, A, D, false);
      kernels::gemm_nt(pk.data(), A, k, d.ldk, sw.w2, Dk, M, A, Dk, false, sw.b);
      CMapV v(sw.v, A);
      MapR S(s, N, M);
      for (long n = 0; n < N; ++n) {
        MapR E(acts.tanh + n * M * A, M, A);
        // E[m] = tanh(W1 q_n + W2 k_m + b);  s[n, m] = vᵀ E[m]
        E = (pk.rowwise() + pq.row(n)).array().tanh().matrix();
        S.row(n).noalias() = (E * v).transpose();
      }
      break;
    }
    case Score::kCosine:
      normalize_rows_forward(acts.q_hat, acts.q_norm, q, d.ldq, N, D);
      normalize_rows_forward(acts.k_hat, acts.k_norm, k, d.ldk, M, D);
      // s = q̂ k̂ᵀ
      kernels::gemm_nt(s, M, acts.q_hat, D, acts.k_hat, D, N, M, D, false);
      break;
  }
}

void score_backward(float* dq, float* dk, const ScoreGrads& g, ScoreScratch& scratch,
                    const ScoreWeights& sw, const ScoreActsC& acts, const float* ds, const float* q,
                    const float* k, const Dims& d) {
  const long N = d.N, M = d.M, D = d.D, Dk = d.Dk, A = sw.A;
  switch (sw.score) {
    case Score::kDot:
    case Score::kScaled:
      dot_score_backward(dq, dk, ds, q, k, d);
      break;
    case Score::kGeneral: {
      MatR& dkp = scratch.dkp;
      dkp.resize(M, D);
      const float* kp = acts.key_proj;
      // dq += ds kp;  dkp = dsᵀ q;  dk += dkp W;  dW += dkpᵀ k
      kernels::gemm_nn(dq, d.ldq, ds, M, kp, D, N, D, M, true);
      kernels::gemm_tn(dkp.data(), D, ds, M, q, d.ldq, M, D, N, false);
      kernels::gemm_nn(dk, d.ldk, dkp.data(), D, sw.w, Dk, M, Dk, D, true);
      kernels::gemm_tn(g.w, Dk, dkp.data(), D, k, d.ldk, D, Dk, M, true);
      break;
    }
    case Score::kAdditive: {
      MatR &dpq = scratch.dpq, &dpk = scratch.dpk, &dpre = scratch.dpre;
      dpq.resize(N, A);
      dpk.resize(M, A);
      dpre.resize(M, A);
      CMapR dS(ds, N, M);
      CMapRowV v(sw.v, A);
      MapRowV dv(g.v, A);
      dpq.setZero();
      dpk.setZero();
      for (long n = 0; n < N; ++n) {
        CMapR E(acts.tanh + n * M * A, M, A);
        // dv += Σ_m ds[n, m] E[m]
        dv.noalias() += dS.row(n) * E;
        // dpre[m] = ds[n, m] v ⊙ (1 − E[m]²)
        dpre = (dS.row(n).transpose() * v).array() * (1.0f - E.array().square());
        // dpq[n] = Σ_m dpre[m];  dpk[m] += dpre[m]
        dpq.row(n) = dpre.colwise().sum();
        dpk += dpre;
      }
      // db += Σ_n dpq[n];  dq += dpq W1;  dW1 += dpqᵀ q;  dk += dpk W2;  dW2 += dpkᵀ k
      MapRowV(g.b, A) += dpq.colwise().sum();
      kernels::gemm_nn(dq, d.ldq, dpq.data(), A, sw.w1, D, N, D, A, true);
      kernels::gemm_tn(g.w1, D, dpq.data(), A, q, d.ldq, A, D, N, true);
      kernels::gemm_nn(dk, d.ldk, dpk.data(), A, sw.w2, Dk, M, Dk, A, true);
      kernels::gemm_tn(g.w2, Dk, dpk.data(), A, k, d.ldk, A, Dk, M, true);
      break;
    }
    case Score::kCosine: {
      MatR &dqh = scratch.dqh, &dkh = scratch.dkh;
      dqh.resize(N, D);
      dkh.resize(M, D);
      // dq̂ = ds k̂,  dk̂ = dsᵀ q̂, then back through the normalisation
      kernels::gemm_nn(dqh.data(), D, ds, M, acts.k_hat, D, N, D, M, false);
      kernels::gemm_tn(dkh.data(), D, ds, M, acts.q_hat, D, M, D, N, false);
      normalize_rows_backward(dq, d.ldq, dqh.data(), acts.q_hat, acts.q_norm, N, D);
      normalize_rows_backward(dk, d.ldk, dkh.data(), acts.k_hat, acts.k_norm, M, D);
      break;
    }
  }
}

}  // namespace attn
}  // namespace lab
