// §3.5 self-attention and §3.6 multi-head attention: learned projections around the scaled
// dot-product attention of attention.cpp.
#include <algorithm>
#include <string>

#include "attention.h"
#include "ops.h"

namespace lab {

namespace {

void check_linear(const Tensor& w, const Tensor& b, long D, const char* wname, const char* bname) {
  if (w.empty()) throw InputError(std::string("params.") + wname + " is missing");
  if (b.empty()) throw InputError(std::string("params.") + bname + " is missing");
  check_shape(w, {D, D}, std::string("params.") + wname);
  check_shape(b, {D}, std::string("params.") + bname);
  check_finite(w, std::string("params.") + wname);
  check_finite(b, std::string("params.") + bname);
}

void validate_projections(const Tensor& x, const ProjectionParams& p, bool with_output,
                          const AttentionMask& mask) {
  check_rank(x, 3, "x", "(batch, positions, features)");
  check_nonempty(x, "x");
  check_finite(x, "x");
  const long D = x.dim(2);
  check_linear(p.wq, p.bq, D, "wq", "bq");
  check_linear(p.wk, p.bk, D, "wk", "bk");
  check_linear(p.wv, p.bv, D, "wv", "bv");
  if (with_output) check_linear(p.wo, p.bo, D, "wo", "bo");
  validate_mask(mask, x.dim(0), x.dim(1));
}

// Q, K, V = x Wᵀ + b, each (R, D) with R = B·N
void project_qkv(AttentionInputs& qkv, const Tensor& x, const ProjectionParams& p) {
  const long R = x.dim(0) * x.dim(1), D = x.dim(2);
  qkv.query = Tensor(x.shape);
  qkv.key = Tensor(x.shape);
  qkv.value = Tensor(x.shape);
  linear_forward(qkv.query.ptr(), x.ptr(), p.wq.ptr(), p.bq.ptr(), R, D, D);
  linear_forward(qkv.key.ptr(), x.ptr(), p.wk.ptr(), p.bk.ptr(), R, D, D);
  linear_forward(qkv.value.ptr(), x.ptr(), p.wv.ptr(), p.bv.ptr(), R, D, D);
}

// dx += dQ Wq + dK Wk + dV Wv, and the weight gradients, from per-projection grads (R, D)
void project_qkv_backward(ProjectionGrads& g, const Tensor& x, const ProjectionParams& p,
                          const Tensor& dq, const Tensor& dk, const Tensor& dv) {
  const long R = x.dim(0) * x.dim(1), D = x.dim(2);
  linear_backward(g.x.ptr(), g.params.wq.ptr(), g.params.bq.ptr(), dq.ptr(), x.ptr(), p.wq.ptr(), R,
                  D, D);
  linear_backward(g.x.ptr(), g.params.wk.ptr(), g.params.bk.ptr(), dk.ptr(), x.ptr(), p.wk.ptr(), R,
                  D, D);
  linear_backward(g.x.ptr(), g.params.wv.ptr(), g.params.bv.ptr(), dv.ptr(), x.ptr(), p.wv.ptr(), R,
                  D, D);
}

}  // namespace

ProjectionGrads zero_projection_grads(const Tensor& x, bool with_output) {
  ProjectionGrads g;
  const long D = x.dim(2);
  g.x = Tensor(x.shape);
  for (Tensor* w : {&g.params.wq, &g.params.wk, &g.params.wv}) *w = Tensor({D, D});
  for (Tensor* b : {&g.params.bq, &g.params.bk, &g.params.bv}) *b = Tensor({D});
  if (with_output) {
    g.params.wo = Tensor({D, D});
    g.params.bo = Tensor({D});
  }
  return g;
}

namespace {

// (B, N, H·Dh) → (B·H, N, Dh): PyTorch's view(B, N, H, Dh).transpose(1, 2)
Tensor split_heads(const Tensor& t, long H) {
  const long B = t.dim(0), N = t.dim(1), Dh = t.dim(2) / H;
  Tensor out({B * H, N, Dh});
  for (long b = 0; b < B; ++b)
    for (long n = 0; n < N; ++n)
      for (long h = 0; h < H; ++h)
        std::copy_n(t.ptr() + (b * N + n) * H * Dh + h * Dh, Dh,
                    out.ptr() + ((b * H + h) * N + n) * Dh);
  return out;
}

// (B·H, N, Dh) → (B, N, H·Dh): transpose(1, 2).contiguous().view(B, N, D)
Tensor combine_heads(const Tensor& t, long B, long H) {
  const long N = t.dim(1), Dh = t.dim(2);
  Tensor out({B, N, H * Dh});
  for (long b = 0; b < B; ++b)
    for (long h = 0; h < H; ++h)
      for (long n = 0; n < N; ++n)
        std::copy_n(t.ptr() + ((b * H + h) * N + n) * Dh, Dh,
                    out.ptr() + (b * N + n) * H * Dh + h * Dh);
  return out;
}

// Every head of a batch row shares that row's key padding: (B, M) → (B·H, M).
AttentionMask repeat_mask(const AttentionMask& mask, long H) {
  AttentionMask out;
  out.causal = mask.causal;
  if (mask.key_padding.empty()) return out;
  const long B = mask.key_padding.dim(0), M = mask.key_padding.dim(1);
  out.key_padding = Tensor({B * H, M});
  for (long b = 0; b < B; ++b)
    for (long h = 0; h < H; ++h)
      std::copy_n(mask.key_padding.ptr() + b * M, M, out.key_padding.ptr() + (b * H + h) * M);
  return out;
}

AttentionConfig scaled_config(const AttentionMask& mask) {
  AttentionConfig cfg;
  cfg.score = Score::kScaled;
  cfg.mask = mask;
  return cfg;
}

}  // namespace

SelfAttentionForward self_attention_forward(const Tensor& x, const ProjectionParams& p,
                                            const AttentionMask& mask) {
  validate_projections(x, p, false, mask);
  SelfAttentionForward fwd;
  project_qkv(fwd.qkv, x, p);
  fwd.attn = attention_forward(fwd.qkv, scaled_config(mask));
  fwd.output = fwd.attn.output;
  return fwd;
}

void self_attention_backward(ProjectionGrads& g, const Tensor& x, const ProjectionParams& p,
                             const AttentionMask& mask, const SelfAttentionForward& fwd,
                             const Tensor& doutput) {
  // dQ, dK, dV (B, N, D), then through the projections into g
  AttentionGradTensors ga(fwd.qkv, Score::kScaled);
  AttentionWorkspace ws;
  attention_backward(ga.views(), ws, fwd.qkv, scaled_config(mask), fwd.attn, doutput);
  project_qkv_backward(g, x, p, ga.query, ga.key, ga.value);
}

SelfAttentionForward multi_head_forward(const Tensor& x, const ProjectionParams& p, long num_heads,
                                        const AttentionMask& mask) {
  validate_projections(x, p, true, mask);
  const long B = x.dim(0), N = x.dim(1), D = x.dim(2);
  if (num_heads < 1 || num_heads > D || D % num_heads != 0) {
    throw InputError("numHeads " + std::to_string(num_heads) + " does not divide the " +
                     std::to_string(D) + " features of x");
  }
  SelfAttentionForward fwd;
  AttentionInputs flat;
  project_qkv(flat, x, p);
  fwd.qkv.query = split_heads(flat.query, num_heads);
  fwd.qkv.key = split_heads(flat.key, num_heads);
  fwd.qkv.value = split_heads(flat.value, num_heads);
  fwd.attn = attention_forward(fwd.qkv, scaled_config(repeat_mask(mask, num_heads)));
  fwd.context = combine_heads(fwd.attn.output, B, num_heads);
  // output = context Woᵀ + bo
  fwd.output = Tensor({B, N, D});
  linear_forward(fwd.output.ptr(), fwd.context.ptr(), p.wo.ptr(), p.bo.ptr(), B * N, D, D);
  return fwd;
}

void multi_head_backward(ProjectionGrads& g, const Tensor& x, const ProjectionParams& p,
                         long num_heads, const AttentionMask& mask, const SelfAttentionForward& fwd,
                         const Tensor& doutput) {
  const long B = x.dim(0), N = x.dim(1), D = x.dim(2);
  check_shape(doutput, fwd.output.shape, "gradOutput");
  check_finite(doutput, "gradOutput");
  Tensor dcontext({B, N, D});
  linear_backward(dcontext.ptr(), g.params.wo.ptr(), g.params.bo.ptr(), doutput.ptr(),
                  fwd.context.ptr(), p.wo.ptr(), B * N, D, D);
  // per-head dQ, dK, dV (B·H, N, Dh), then combined and through the projections into g
  AttentionGradTensors ga(fwd.qkv, Score::kScaled);
  AttentionWorkspace ws;
  attention_backward(ga.views(), ws, fwd.qkv, scaled_config(repeat_mask(mask, num_heads)), fwd.attn,
                     split_heads(dcontext, num_heads));
  project_qkv_backward(g, x, p, combine_heads(ga.query, B, num_heads),
                       combine_heads(ga.key, B, num_heads), combine_heads(ga.value, B, num_heads));
}

}  // namespace lab
