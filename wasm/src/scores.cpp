#include "scores.h"

#include <cmath>
#include <string>

#include "kernels/gemm.h"
#include "ops.h"

namespace lab {
namespace {

// F.normalize's floor on the norm: a zero vector gives a zero direction, not NaN.
constexpr float kNormEps = 1e-12f;

struct Dims {
  long B, N, M, D, Dk;
};

Dims dims_of(const AttentionInputs& in) {
  return {in.query.dim(0), in.query.dim(1), in.key.dim(1), in.query.dim(2), in.key.dim(2)};
}

// y = x / max(‖x‖, eps) row by row; x, y (R, C); norm (R)
void normalize_rows_forward(float* y, float* norm, const float* x, long R, long C) {
  CMapR X(x, R, C);
  MapR Y(y, R, C);
  for (long r = 0; r < R; ++r) {
    norm[r] = X.row(r).norm();
    Y.row(r) = X.row(r) / std::max(norm[r], kNormEps);
  }
}

// dx += (dy − y (y·dy)) / ‖x‖, or dy / eps where the norm was floored (y = x / eps is linear).
void normalize_rows_backward(float* dx, const float* dy, const float* y, const float* norm, long R,
                             long C) {
  MapR dX(dx, R, C);
  CMapR dY(dy, R, C), Y(y, R, C);
  for (long r = 0; r < R; ++r) {
    if (norm[r] > kNormEps) {
      dX.row(r) += (dY.row(r) - Y.row(r) * Y.row(r).dot(dY.row(r))) / norm[r];
    } else {
      dX.row(r) += dY.row(r) / kNormEps;
    }
  }
}

void need_param(const Tensor& t, const std::vector<long>& shape, Score score, const char* name) {
  if (t.empty()) {
    throw InputError(std::string("score '") + score_name(score) + "' needs params." + name +
                     " of shape " + shape_str(shape));
  }
  check_shape(t, shape, std::string("params.") + name);
  check_finite(t, std::string("params.") + name);
}

}  // namespace

void validate_score_params(const AttentionInputs& in, Score score) {
  const long D = in.query.dim(2), Dk = in.key.dim(2);
  if (score == Score::kGeneral) need_param(in.params.w, {D, Dk}, score, "w");
  if (score == Score::kAdditive) {
    if (in.params.w1.empty() || in.params.w1.rank() != 2) {
      throw InputError("score 'additive' needs params.w1 of shape [A, " + std::to_string(D) +
                       "] (A = the score's hidden size)");
    }
    const long A = in.params.w1.dim(0);
    need_param(in.params.w1, {A, D}, score, "w1");
    need_param(in.params.w2, {A, Dk}, score, "w2");
    need_param(in.params.b, {A}, score, "b");
    need_param(in.params.v, {A}, score, "v");
    if (A == 0) throw InputError("params.w1 is empty: the additive score needs A >= 1");
  }
}

void score_forward(const AttentionInputs& in, const AttentionConfig& cfg, AttentionForward& fwd,
                   AttentionWorkspace& ws, float* scores) {
  const auto [B, N, M, D, Dk] = dims_of(in);
  const ScoreParams& p = in.params;
  const long A = cfg.score == Score::kAdditive ? p.w1.dim(0) : 0;
  if (cfg.score == Score::kGeneral) ensure_shape(fwd.key_proj, {B, M, D});
  if (cfg.score == Score::kAdditive) {
    ensure_shape(fwd.additive_tanh, {B, N, M, A});
    ws.pq.resize(N, A);  // W1 q (N, A)
    ws.pk.resize(M, A);  // W2 k + b (M, A)
  }
  if (cfg.score == Score::kCosine) {
    ensure_shape(fwd.q_hat, {B, N, D});
    ensure_shape(fwd.k_hat, {B, M, D});
    ensure_shape(fwd.q_norm, {B, N});
    ensure_shape(fwd.k_norm, {B, M});
  }
  MatR& pq = ws.pq;
  MatR& pk = ws.pk;

  for (long b = 0; b < B; ++b) {
    CMapR Q(in.query.ptr() + b * N * D, N, D);
    CMapR K(in.key.ptr() + b * M * Dk, M, Dk);
    MapR S(scores + b * N * M, N, M);
    switch (cfg.score) {
      case Score::kDot:
      case Score::kScaled:
        // s = Q Kᵀ
        kernels::gemm_nt(S.data(), M, Q.data(), D, K.data(), Dk, N, M, D, /*accumulate=*/false);
        break;
      case Score::kGeneral: {
        MapR Kp(fwd.key_proj.ptr() + b * M * D, M, D);
        // Kp = K Wᵀ, so s = q · (W k) = qᵀ W k
        kernels::gemm_nt(Kp.data(), D, K.data(), Dk, p.w.ptr(), Dk, M, D, Dk, false);
        kernels::gemm_nt(S.data(), M, Q.data(), D, Kp.data(), D, N, M, D, false);
        break;
      }
      case Score::kAdditive: {
        // pq = Q W1ᵀ, pk = K W2ᵀ + b
        kernels::gemm_nt(pq.data(), A, Q.data(), D, p.w1.ptr(), D, N, A, D, false);
        kernels::gemm_nt(pk.data(), A, K.data(), Dk, p.w2.ptr(), Dk, M, A, Dk, false, p.b.ptr());
        CMapV v(p.v.ptr(), A);
        for (long n = 0; n < N; ++n) {
          MapR E(fwd.additive_tanh.ptr() + (b * N + n) * M * A, M, A);
          // E[m] = tanh(W1 q_n + W2 k_m + b);  s[n, m] = vᵀ E[m]
          E = (pk.rowwise() + pq.row(n)).array().tanh().matrix();
          S.row(n).noalias() = (E * v).transpose();
        }
        break;
      }
      case Score::kCosine: {
        float* qh = fwd.q_hat.ptr() + b * N * D;
        float* kh = fwd.k_hat.ptr() + b * M * D;
        normalize_rows_forward(qh, fwd.q_norm.ptr() + b * N, Q.data(), N, D);
        normalize_rows_forward(kh, fwd.k_norm.ptr() + b * M, K.data(), M, D);
        // s = q̂ k̂ᵀ
        kernels::gemm_nt(S.data(), M, qh, D, kh, D, N, M, D, false);
        break;
      }
    }
  }
}

float score_scale(const AttentionInputs& in, const AttentionConfig& cfg) {
  if (cfg.score == Score::kScaled) return 1.0f / std::sqrt(static_cast<float>(in.query.dim(2)));
  if (cfg.score == Score::kCosine) return 1.0f / cfg.temperature;
  return 1.0f;
}

void score_backward(const AttentionGrads& g, AttentionWorkspace& ws, const AttentionInputs& in,
                    const AttentionConfig& cfg, const AttentionForward& fwd,
                    const Tensor& dscores) {
  const auto [B, N, M, D, Dk] = dims_of(in);
  const ScoreParams& p = in.params;
  const long A = cfg.score == Score::kAdditive ? p.w1.dim(0) : 0;
  // scratch, sized once per shape (resize keeps the buffer when the size is unchanged)
  if (cfg.score == Score::kGeneral) ws.dkp.resize(M, D);
  if (cfg.score == Score::kCosine) {
    ws.dqh.resize(N, D);
    ws.dkh.resize(M, D);
  }
  if (cfg.score == Score::kAdditive) {
    ws.dpq.resize(N, A);
    ws.dpk.resize(M, A);
    ws.dpre.resize(M, A);
  }
  MatR &dKp = ws.dkp, &dqh = ws.dqh, &dkh = ws.dkh, &dpq = ws.dpq, &dpk = ws.dpk, &dpre = ws.dpre;
  for (long b = 0; b < B; ++b) {
    CMapR Q(in.query.ptr() + b * N * D, N, D);
    CMapR K(in.key.ptr() + b * M * Dk, M, Dk);
    MapR dQ(g.query + b * N * D, N, D);
    MapR dK(g.key + b * M * Dk, M, Dk);
    CMapR dS(dscores.ptr() + b * N * M, N, M);
    switch (cfg.score) {
      case Score::kDot:
      case Score::kScaled:
        // dQ += dS K,  dK += dSᵀ Q
        kernels::gemm_nn(dQ.data(), D, dS.data(), M, K.data(), Dk, N, D, M, /*accumulate=*/true);
        kernels::gemm_tn(dK.data(), Dk, dS.data(), M, Q.data(), D, M, Dk, N, /*accumulate=*/true);
        break;
      case Score::kGeneral: {
        CMapR Kp(fwd.key_proj.ptr() + b * M * D, M, D);
        CMapR W(p.w.ptr(), D, Dk);
        // dQ += dS Kp;  dKp = dSᵀ Q;  dK += dKp W;  dW += dKpᵀ K
        kernels::gemm_nn(dQ.data(), D, dS.data(), M, Kp.data(), D, N, D, M, true);
        kernels::gemm_tn(dKp.data(), D, dS.data(), M, Q.data(), D, M, D, N, false);
        kernels::gemm_nn(dK.data(), Dk, dKp.data(), D, W.data(), Dk, M, Dk, D, true);
        kernels::gemm_tn(g.w, Dk, dKp.data(), D, K.data(), Dk, D, Dk, M, true);
        break;
      }
      case Score::kAdditive: {
        CMapRowV v(p.v.ptr(), A);
        MapRowV dv(g.v, A);
        dpq.setZero();
        dpk.setZero();
        for (long n = 0; n < N; ++n) {
          CMapR E(fwd.additive_tanh.ptr() + (b * N + n) * M * A, M, A);
          // dv += Σ_m dS[n, m] E[m]
          dv.noalias() += dS.row(n) * E;
          // dpre[m] = dS[n, m] v ⊙ (1 − E[m]²)
          dpre = (dS.row(n).transpose() * v).array() * (1.0f - E.array().square());
          // dpq[n] = Σ_m dpre[m];  dpk[m] += dpre[m]
          dpq.row(n) = dpre.colwise().sum();
          dpk += dpre;
        }
        // db += Σ_n dpq[n];  dQ += dpq W1;  dW1 += dpqᵀ Q;  dK += dpk W2;  dW2 += dpkᵀ K
        MapRowV(g.b, A) += dpq.colwise().sum();
        kernels::gemm_nn(dQ.data(), D, dpq.data(), A, p.w1.ptr(), D, N, D, A, true);
        kernels::gemm_tn(g.w1, D, dpq.data(), A, Q.data(), D, A, D, N, true);
        kernels::gemm_nn(dK.data(), Dk, dpk.data(), A, p.w2.ptr(), Dk, M, Dk, A, true);
        kernels::gemm_tn(g.w2, Dk, dpk.data(), A, K.data(), Dk, A, Dk, M, true);
        break;
      }
      case Score::kCosine: {
        const float* qh = fwd.q_hat.ptr() + b * N * D;
        const float* kh = fwd.k_hat.ptr() + b * M * D;
        // dq̂ = dS k̂,  dk̂ = dSᵀ q̂, then back through the normalisation
        kernels::gemm_nn(dqh.data(), D, dS.data(), M, kh, D, N, D, M, false);
        kernels::gemm_tn(dkh.data(), D, dS.data(), M, qh, D, M, D, N, false);
        normalize_rows_backward(dQ.data(), dqh.data(), qh, fwd.q_norm.ptr() + b * N, N, D);
        normalize_rows_backward(dK.data(), dkh.data(), kh, fwd.k_norm.ptr() + b * M, M, D);
        break;
      }
    }
  }
}

}  // namespace lab
