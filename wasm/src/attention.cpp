#include "attention.h"

#include <cmath>
#include <string>

#include "format.h"
#include "kernels/gemm.h"
#include "kernels/softmax.h"
#include "ops.h"
#include "scores.h"

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

namespace {

// keep (B, N, M): 1 where query n of batch b may attend to key m. Throws for a query with no key
// left: softmax over nothing has no meaning, and returning NaN would poison everything after it.
void build_keep(std::vector<uint8_t>& keep, const AttentionMask& mask, long B, long N, long M) {
  keep.resize(static_cast<size_t>(B * N * M));
  for (long b = 0; b < B; ++b) {
    for (long n = 0; n < N; ++n) {
      uint8_t* row = keep.data() + (b * N + n) * M;
      long kept = 0;
      for (long m = 0; m < M; ++m) {
        bool padded = !mask.key_padding.empty() && mask.key_padding.data[b * M + m] != 0.0f;
        bool future = mask.causal && m > n;
        row[m] = !(padded || future);
        kept += row[m];
      }
      if (!kept) {
        throw InputError("query " + std::to_string(n) + " of batch " + std::to_string(b) +
                         " has every key masked, so its attention weights are undefined");
      }
    }
  }
}

void check_finite_span(const float* p, long n, const char* what, const char* advice) {
  for (long i = 0; i < n; ++i) {
    if (!std::isfinite(p[i])) throw InputError(std::string(what) + " overflow float32: " + advice);
  }
}

bool has_mask(const AttentionMask& mask) {
  return mask.causal || !mask.key_padding.empty();
}

}  // namespace

void validate_mask(const AttentionMask& mask, long B, long M) {
  if (mask.key_padding.empty()) return;
  check_shape(mask.key_padding, {B, M}, "mask.keyPadding");
  check_finite(mask.key_padding, "mask.keyPadding");
  // PyTorch reads a float key_padding_mask as an additive bias, a bool one as "ignore": only 0 and
  // 1 mean the same in both, so anything else would silently be read one way or the other.
  for (size_t i = 0; i < mask.key_padding.data.size(); ++i) {
    const float x = mask.key_padding.data[i];
    if (x != 0.0f && x != 1.0f) {
      throw InputError("mask.keyPadding must hold only 0 (attend) and 1 (ignore), but has " +
                       format_number(x) + " at flat index " + std::to_string(i));
    }
  }
}

namespace {

// Shapes, finiteness, the score's weights and the mask, except fully masked rows: those need the
// keep mask, which the forward builds once and gets the check with.
void validate_inputs(const AttentionInputs& in, const AttentionConfig& cfg) {
  check_rank(in.query, 3, "query", "(batch, queries, features)");
  check_rank(in.key, 3, "key", "(batch, keys, features)");
  check_rank(in.value, 3, "value", "(batch, keys, features)");
  check_nonempty(in.query, "query");
  check_nonempty(in.key, "key");
  check_nonempty(in.value, "value");
  const long B = in.query.dim(0), D = in.query.dim(2), M = in.key.dim(1), Dk = in.key.dim(2);
  if (in.key.dim(0) != B) {
    throw InputError("key has batch " + std::to_string(in.key.dim(0)) + " but query has batch " +
                     std::to_string(B));
  }
  if (in.value.dim(0) != B) {
    throw InputError("value has batch " + std::to_string(in.value.dim(0)) +
                     " but query has batch " + std::to_string(B));
  }
  if (in.value.dim(1) != M) {
    throw InputError("value has " + std::to_string(in.value.dim(1)) + " positions but key has " +
                     std::to_string(M));
  }
  bool needs_same_features = cfg.score != Score::kGeneral && cfg.score != Score::kAdditive;
  if (needs_same_features && Dk != D) {
    throw InputError("key has " + std::to_string(Dk) + " features but query has " +
                     std::to_string(D) + " (score '" + score_name(cfg.score) +
                     "' compares them directly; 'general' and 'additive' allow different sizes)");
  }
  if (cfg.score == Score::kCosine && !(std::isfinite(cfg.temperature) && cfg.temperature > 0)) {
    throw InputError("temperature must be a positive finite number, got " +
                     format_number(cfg.temperature));
  }
  const long N = in.query.dim(1);
  check_work_size({B, N, M}, "the attention matrix (B, N, M)");
  if (cfg.score == Score::kAdditive && !in.params.w1.empty() && in.params.w1.rank() == 2) {
    check_work_size({B, N, M, in.params.w1.dim(0)},
                    "the additive score's hidden activations (B, N, M, A)");
  }
  check_finite(in.query, "query");
  check_finite(in.key, "key");
  check_finite(in.value, "value");
  validate_score_params(in, cfg.score);
  validate_mask(cfg.mask, B, M);
}

}  // namespace

AttentionGradTensors::AttentionGradTensors(const AttentionInputs& in, Score score)
    : query(in.query.shape), key(in.key.shape), value(in.value.shape) {
  const ScoreParams& p = in.params;
  if (score == Score::kGeneral) params.w = Tensor(p.w.shape);
  if (score == Score::kAdditive) {
    params.w1 = Tensor(p.w1.shape);
    params.w2 = Tensor(p.w2.shape);
    params.b = Tensor(p.b.shape);
    params.v = Tensor(p.v.shape);
  }
}

AttentionGrads AttentionGradTensors::views() {
  AttentionGrads g;
  g.query = query.ptr();
  g.key = key.ptr();
  g.value = value.ptr();
  g.w = params.w.ptr();
  g.w1 = params.w1.ptr();
  g.w2 = params.w2.ptr();
  g.b = params.b.ptr();
  g.v = params.v.ptr();
  return g;
}

void attention_forward(AttentionForward& fwd, AttentionWorkspace& ws, const AttentionInputs& in,
                       const AttentionConfig& cfg) {
  validate_inputs(in, cfg);
  const long B = in.query.dim(0), N = in.query.dim(1), M = in.key.dim(1), Dv = in.value.dim(2);
  // keep (B, N, M); also rejects a query with every key masked
  const bool masked = has_mask(cfg.mask);
  if (masked) build_keep(ws.keep, cfg.mask, B, N, M);
  // the scores go where the softmax reads them: their own tensor when kept, else the weights'
  // buffer, where the softmax then runs in place
  ensure_shape(fwd.weights, {B, N, M});
  if (cfg.keep_scores) {
    ensure_shape(fwd.scores, {B, N, M});
  } else {
    fwd.scores = Tensor();
  }
  float* scores = cfg.keep_scores ? fwd.scores.ptr() : fwd.weights.ptr();
  score_forward(in, cfg, fwd, ws, scores);
  const float scale = score_scale(in, cfg);
  if (cfg.keep_scaled) {
    // scaled = scores · scale: what enters the softmax
    ensure_shape(fwd.scaled, {B, N, M});
    MapV(fwd.scaled.ptr(), fwd.scaled.size()) = CMapV(scores, fwd.scaled.size()) * scale;
  } else {
    fwd.scaled = Tensor();
  }
  // weights = softmax(mask(scores · scale)) over the key axis (build_keep rejected empty rows)
  const kernels::SoftmaxStatus status = kernels::softmax_forward(
      fwd.weights.ptr(), scores, masked ? ws.keep.data() : nullptr, B * N, M, scale);
  // Finite inputs can still overflow float32 in q·k (or cos / a tiny temperature); inf − inf in
  // the softmax would then be a silent NaN.
  if (!status.finite) {
    throw InputError("the attention scores overflow float32: scale the inputs down");
  }

  ensure_shape(fwd.output, {B, N, Dv});
  for (long b = 0; b < B; ++b) {
    // output = weights V
    kernels::gemm_nn(fwd.output.ptr() + b * N * Dv, Dv, fwd.weights.ptr() + b * N * M, M,
                     in.value.ptr() + b * M * Dv, Dv, N, Dv, M, /*accumulate=*/false);
  }
}

AttentionForward attention_forward(const AttentionInputs& in, const AttentionConfig& cfg) {
  AttentionForward fwd;
  AttentionWorkspace ws;
  attention_forward(fwd, ws, in, cfg);
  return fwd;
}

void attention_backward(const AttentionGrads& g, AttentionWorkspace& ws, const AttentionInputs& in,
                        const AttentionConfig& cfg, const AttentionForward& fwd,
                        const Tensor& doutput) {
  const long B = in.query.dim(0), N = in.query.dim(1), M = in.key.dim(1), Dv = in.value.dim(2);
  check_shape(doutput, fwd.output.shape, "gradOutput");
  check_finite(doutput, "gradOutput");

  ensure_shape(ws.dweights, {B, N, M});
  for (long b = 0; b < B; ++b) {
    const float* dO = doutput.ptr() + b * N * Dv;
    const float* V = in.value.ptr() + b * M * Dv;
    // dweights = dO Vᵀ;  dV += weightsᵀ dO
    kernels::gemm_nt(ws.dweights.ptr() + b * N * M, M, dO, Dv, V, Dv, N, M, Dv,
                     /*accumulate=*/false);
    kernels::gemm_tn(g.value + b * M * Dv, Dv, fwd.weights.ptr() + b * N * M, M, dO, Dv, M, Dv, N,
                     /*accumulate=*/true);
  }
  // dscores = scale · weights ⊙ (dweights − Σ dweights ⊙ weights), through the softmax and the
  // scale at once. Masked weights are 0, so they get no gradient: no mask needed here.
  ensure_shape(ws.dscores, {B, N, M});
  kernels::softmax_backward(ws.dscores.ptr(), ws.dweights.ptr(), fwd.weights.ptr(), B * N, M,
                            score_scale(in, cfg), /*accumulate=*/false);
  score_backward(g, ws, in, cfg, fwd, ws.dscores);
  const char* what = "the attention gradients";
  const char* advice = "scale the inputs or gradOutput down";
  check_finite_span(g.query, in.query.size(), what, advice);
  check_finite_span(g.key, in.key.size(), what, advice);
  check_finite_span(g.value, in.value.size(), what, advice);
  const ScoreParams& p = in.params;
  if (cfg.score == Score::kGeneral) check_finite_span(g.w, p.w.size(), what, advice);
  if (cfg.score == Score::kAdditive) {
    check_finite_span(g.w1, p.w1.size(), what, advice);
    check_finite_span(g.w2, p.w2.size(), what, advice);
    check_finite_span(g.b, p.b.size(), what, advice);
    check_finite_span(g.v, p.v.size(), what, advice);
  }
}

}  // namespace lab
