// §3.5 self-attention and §3.6 multi-head attention: the validating wrappers around the
// Transformer's multi-head attention (attention/mha.h); self-attention is its one head without
// the output projection.
#include <algorithm>
#include <cmath>
#include <string>

#include "attention/attention.h"
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

// The core's packed in_proj (Wq; Wk; Wv) (3D, D) and its bias (3D), from the API's separate ones.
struct InProj {
  std::vector<float> w, b;
};
InProj pack_in_proj(const ProjectionParams& p) {
  InProj in;
  for (const Tensor* t : {&p.wq, &p.wk, &p.wv})
    in.w.insert(in.w.end(), t->data.begin(), t->data.end());
  for (const Tensor* t : {&p.bq, &p.bk, &p.bv})
    in.b.insert(in.b.end(), t->data.begin(), t->data.end());
  return in;
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
Tensor split_heads(const std::vector<float>& t, long B, long N, long D, long H) {
  const long Dh = D / H;
  Tensor out({B * H, N, Dh});
  for (long b = 0; b < B; ++b)
    for (long n = 0; n < N; ++n)
      for (long h = 0; h < H; ++h)
        std::copy_n(t.data() + (b * N + n) * D + h * Dh, Dh,
                    out.ptr() + ((b * H + h) * N + n) * Dh);
  return out;
}

// Runs the core on x and copies what the caller reads out of its activations. H heads; with_output:
// the output projection (multi-head) or none (self-attention, whose output is the one head's).
SelfAttentionForward forward(const Tensor& x, const ProjectionParams& p, long H, bool with_output,
                             const AttentionMask& mask) {
  const long B = x.dim(0), N = x.dim(1), D = x.dim(2);
  check_work_size({B * H, N, N}, "the attention matrix (B, N, M)");
  // The mask as bytes, built by §3.1's attention, which also rejects a query with every key
  // masked (the core would only report it).
  AttentionWorkspace ws;
  if (mask.any()) build_keep(ws, mask, B, N, N);
  const InProj in = pack_in_proj(p);
  const MhaW w{in.w.data(), in.b.data(), with_output ? p.wo.ptr() : nullptr,
               with_output ? p.bo.ptr() : nullptr};
  SelfAttentionForward fwd;
  MhaActs& a = fwd.acts;
  a.keep_scores = true;
  const MhaMask m{mask.key_padding.empty() ? nullptr : ws.key_pad.data(), mask.causal};
  if (!mha_forward(a, w, x.ptr(), x.ptr(), m, B, N, N, D, H).finite) {
    throw InputError("the attention scores overflow float32: scale the inputs down");
  }
  const std::vector<long> heads{B * H, N, N};
  if (H == 1) {
    fwd.qkv.query = Tensor(x.shape, a.q);
    fwd.qkv.key = Tensor(x.shape, a.k);
    fwd.qkv.value = Tensor(x.shape, a.v);
  } else {
    fwd.qkv.query = split_heads(a.q, B, N, D, H);
    fwd.qkv.key = split_heads(a.k, B, N, D, H);
    fwd.qkv.value = split_heads(a.v, B, N, D, H);
  }
  // scaled = scores / √Dh: what entered the softmax (the scores are not needed by backward)
  fwd.attn.scores = Tensor(heads, std::move(a.scores));
  fwd.attn.scaled = Tensor(heads);
  MapV(fwd.attn.scaled.ptr(), fwd.attn.scaled.size()) =
      CMapV(fwd.attn.scores.ptr(), fwd.attn.scores.size()) *
      (1.0f / std::sqrt(static_cast<float>(D / H)));
  fwd.attn.weights = Tensor(heads, a.att);
  if (with_output) {
    fwd.attn.output = split_heads(a.ctx, B, N, D, H);
    fwd.context = Tensor(x.shape, a.ctx);
    fwd.output = Tensor(x.shape, a.out);
  } else {
    fwd.attn.output = Tensor(x.shape, a.ctx);
    fwd.output = fwd.attn.output;
  }
  return fwd;
}

// Accumulates into g through the core's backward; its packed in_proj gradients are split out.
void backward(ProjectionGrads& g, const Tensor& x, const ProjectionParams& p, bool with_output,
              SelfAttentionForward& fwd, const Tensor& doutput) {
  const long D = x.dim(2);
  check_shape(doutput, fwd.output.shape, "gradOutput");
  check_finite(doutput, "gradOutput");
  const InProj in = pack_in_proj(p);
  const MhaW w{in.w.data(), in.b.data(), with_output ? p.wo.ptr() : nullptr,
               with_output ? p.bo.ptr() : nullptr};
  std::vector<float> din_w(3 * D * D, 0.0f), din_b(3 * D, 0.0f);
  const MhaG dw{din_w.data(), din_b.data(), with_output ? g.params.wo.ptr() : nullptr,
                with_output ? g.params.bo.ptr() : nullptr};
  mha_backward(g.x.ptr(), g.x.ptr(), dw, fwd.acts, w, doutput.ptr(), x.ptr(), x.ptr());
  Tensor* gw[] = {&g.params.wq, &g.params.wk, &g.params.wv};
  Tensor* gb[] = {&g.params.bq, &g.params.bk, &g.params.bv};
  for (long i = 0; i < 3; ++i) {
    MapV(gw[i]->ptr(), D * D) += CMapV(din_w.data() + i * D * D, D * D);
    MapV(gb[i]->ptr(), D) += CMapV(din_b.data() + i * D, D);
  }
  const char* what = "the attention gradients";
  const char* advice = "scale the inputs or gradOutput down";
  check_finite_result(g.x, what, advice);
  for (const Tensor* t : {gw[0], gw[1], gw[2], gb[0], gb[1], gb[2], &g.params.wo, &g.params.bo}) {
    check_finite_result(*t, what, advice);
  }
}

}  // namespace

SelfAttentionForward self_attention_forward(const Tensor& x, const ProjectionParams& p,
                                            const AttentionMask& mask) {
  validate_projections(x, p, false, mask);
  return forward(x, p, 1, false, mask);
}

void self_attention_backward(ProjectionGrads& g, const Tensor& x, const ProjectionParams& p,
                             SelfAttentionForward& fwd, const Tensor& doutput) {
  backward(g, x, p, false, fwd, doutput);
}

SelfAttentionForward multi_head_forward(const Tensor& x, const ProjectionParams& p, long num_heads,
                                        const AttentionMask& mask) {
  validate_projections(x, p, true, mask);
  const long D = x.dim(2);
  if (num_heads < 1 || num_heads > D || D % num_heads != 0) {
    throw InputError("numHeads " + std::to_string(num_heads) + " does not divide the " +
                     std::to_string(D) + " features of x");
  }
  return forward(x, p, num_heads, true, mask);
}

void multi_head_backward(ProjectionGrads& g, const Tensor& x, const ProjectionParams& p,
                         SelfAttentionForward& fwd, const Tensor& doutput) {
  backward(g, x, p, true, fwd, doutput);
}

}  // namespace lab
