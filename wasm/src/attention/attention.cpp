#include "attention/attention.h"

#include <cmath>
#include <string>

#include "format.h"

namespace lab {

namespace {

// t takes this shape in the buffer it has: a batch of another length (the Seq2Seq recipes pad
// each batch to its own longest sentence) zero-fills only the part that grew, not a new tensor.
// Every caller overwrites all of t, so the values it keeps from the last shape are never read.
void ensure_shape(Tensor& t, const std::vector<long>& shape) {
  if (t.shape == shape) return;
  t.data.resize(static_cast<size_t>(shape_numel(shape, "attention buffer")));
  t.shape = shape;
}

void check_finite_span(const float* p, long n, const char* what, const char* advice) {
  for (long i = 0; i < n; ++i) {
    if (!std::isfinite(p[i])) throw InputError(std::string(what) + " overflow float32: " + advice);
  }
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

void build_keep(AttentionWorkspace& ws, const AttentionMask& mask, long B, long N, long M) {
  const bool padded = !mask.key_padding.empty();
  ws.keep.resize(static_cast<size_t>(B * N * M));
  if (padded) {
    ws.key_pad.resize(static_cast<size_t>(B * M));
    for (long i = 0; i < B * M; ++i) ws.key_pad[i] = mask.key_padding.data[i] != 0.0f;
  }
  for (long b = 0; b < B; ++b) {
    const long n = attn::keep_mask(ws.keep.data() + b * N * M,
                                   padded ? ws.key_pad.data() + b * M : nullptr, mask.causal, N, M);
    if (n >= 0) {
      throw InputError("query " + std::to_string(n) + " of batch " + std::to_string(b) +
                       " has every key masked, so its attention weights are undefined");
    }
  }
}

namespace {

void need_param(const Tensor& t, const std::vector<long>& shape, Score score, const char* name) {
  if (t.empty()) {
    throw InputError(std::string("score '") + score_name(score) + "' needs params." + name +
                     " of shape " + shape_str(shape));
  }
  check_shape(t, shape, std::string("params.") + name);
  check_finite(t, std::string("params.") + name);
}

// The score's weights are present and shaped for D = query features, Dk = key features.
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

namespace {

// Points the core's views of the score's weights (or of their gradients) at p's tensors.
template <class Views, class Params>
void view_score_params(Views& views, Params& p) {
  views.w = p.w.ptr();
  views.w1 = p.w1.ptr();
  views.w2 = p.w2.ptr();
  views.b = p.b.ptr();
  views.v = p.v.ptr();
}

attn::ScoreWeights score_weights(const AttentionInputs& in, const AttentionConfig& cfg) {
  attn::ScoreWeights sw;
  sw.score = cfg.score;
  sw.temperature = cfg.temperature;
  sw.A = cfg.score == Score::kAdditive ? in.params.w1.dim(0) : 0;
  view_score_params(sw, in.params);
  return sw;
}

}  // namespace

AttentionGrads AttentionGradTensors::views() {
  AttentionGrads g;
  g.query = query.ptr();
  g.key = key.ptr();
  g.value = value.ptr();
  view_score_params(g.score, params);
  return g;
}

void attention_forward(AttentionForward& fwd, AttentionWorkspace& ws, const AttentionInputs& in,
                       const AttentionConfig& cfg) {
  validate_inputs(in, cfg);
  const long B = in.query.dim(0), N = in.query.dim(1), M = in.key.dim(1);
  const long D = in.query.dim(2), Dk = in.key.dim(2), Dv = in.value.dim(2);
  const attn::ScoreWeights sw = score_weights(in, cfg);
  const long A = sw.A;
  // keep (B, N, M); also rejects a query with every key masked
  const bool masked = cfg.mask.any();
  if (masked) build_keep(ws, cfg.mask, B, N, M);
  // the buffers of what the caller keeps and of what the score's backward needs
  ensure_shape(fwd.weights, {B, N, M});
  ensure_shape(fwd.output, {B, N, Dv});
  auto keep_if = [](Tensor& t, bool keep, const std::vector<long>& shape) {
    if (keep) {
      ensure_shape(t, shape);
    } else {
      t = Tensor();
    }
  };
  keep_if(fwd.scores, cfg.keep_scores, {B, N, M});
  keep_if(fwd.scaled, cfg.keep_scaled, {B, N, M});
  fwd.score_acts.resize(cfg.score, B, N, M, D, A);
  // The raw scores go to the scores when kept, else to the scaled scores (scaled in place below),
  // else to the weights' buffer, where the softmax then runs in place.
  float* scores = cfg.keep_scores ? fwd.scores.ptr() : cfg.keep_scaled ? fwd.scaled.ptr() : nullptr;
  const attn::Dims d = attn::contiguous(N, M, D, Dk, Dv);
  for (long b = 0; b < B; ++b) {
    const kernels::SoftmaxStatus status = attn::attention_forward(
        fwd.output.ptr() + b * N * Dv, fwd.weights.ptr() + b * N * M,
        scores ? scores + b * N * M : nullptr, fwd.score_acts.at(b), ws.scratch.score, sw,
        masked ? ws.keep.data() + b * N * M : nullptr, in.query.ptr() + b * N * D,
        in.key.ptr() + b * M * Dk, in.value.ptr() + b * M * Dv, d);
    // Finite inputs can still overflow float32 in q·k (or cos / a tiny temperature); inf − inf in
    // the softmax would then be a silent NaN.
    if (!status.finite) {
      throw InputError("the attention scores overflow float32: scale the inputs down");
    }
  }
  if (cfg.keep_scaled) {
    // scaled = scores · scale: what entered the softmax
    MapV(fwd.scaled.ptr(), fwd.scaled.size()) =
        CMapV(scores, fwd.scaled.size()) * attn::score_scale(sw, D);
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
  const long B = in.query.dim(0), N = in.query.dim(1), M = in.key.dim(1);
  const long D = in.query.dim(2), Dk = in.key.dim(2), Dv = in.value.dim(2);
  check_shape(doutput, fwd.output.shape, "gradOutput");
  check_finite(doutput, "gradOutput");
  const attn::ScoreWeights sw = score_weights(in, cfg);
  const attn::Dims d = attn::contiguous(N, M, D, Dk, Dv);
  for (long b = 0; b < B; ++b) {
    attn::attention_backward(g.query + b * N * D, g.key + b * M * Dk, g.value + b * M * Dv, g.score,
                             ws.scratch, sw, fwd.score_acts.at(b), doutput.ptr() + b * N * Dv,
                             fwd.weights.ptr() + b * N * M, in.query.ptr() + b * N * D,
                             in.key.ptr() + b * M * Dk, in.value.ptr() + b * M * Dv, d);
  }
  const char* what = "the attention gradients";
  const char* advice = "scale the inputs or gradOutput down";
  check_finite_span(g.query, in.query.size(), what, advice);
  check_finite_span(g.key, in.key.size(), what, advice);
  check_finite_span(g.value, in.value.size(), what, advice);
  const ScoreParams& p = in.params;
  if (cfg.score == Score::kGeneral) check_finite_span(g.score.w, p.w.size(), what, advice);
  if (cfg.score == Score::kAdditive) {
    check_finite_span(g.score.w1, p.w1.size(), what, advice);
    check_finite_span(g.score.w2, p.w2.size(), what, advice);
    check_finite_span(g.score.b, p.b.size(), what, advice);
    check_finite_span(g.score.v, p.v.size(), what, advice);
  }
}

}  // namespace lab
