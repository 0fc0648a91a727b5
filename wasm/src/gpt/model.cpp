// GptModel: the forward of a batch (logits, every layer's attention, the loss) and its backward.
#include "gpt/model.h"

#include <algorithm>

namespace lab {

namespace {

template <class P, class Base>
GptBlockP<P> at(const GptBlockP<long>& o, Base base) {
  GptBlockP<P> b;
  b.ln_1 = {base + o.ln_1.w, base + o.ln_1.b};
  b.ln_2 = {base + o.ln_2.w, base + o.ln_2.b};
  b.attn = {base + o.attn.in_w, base + o.attn.in_b, base + o.attn.out_w, base + o.attn.out_b};
  b.fc_w = base + o.fc_w;
  b.fc_b = base + o.fc_b;
  b.proj_w = base + o.proj_w;
  b.proj_b = base + o.proj_b;
  return b;
}

}  // namespace

GptBlockP<const float*> GptModel::block_w(long l) const {
  return at<const float*>(off_.blocks[l], params_.data());
}

GptBlockP<float*> GptModel::block_g(long l) {
  return at<float*>(off_.blocks[l], grads_.data());
}

const std::vector<float>& GptModel::forward(const GptBatch& batch) {
  return forward(batch, {});
}

const std::vector<float>& GptModel::forward(const GptBatch& batch,
                                            const std::vector<uint8_t>& zero_heads) {
  validate_batch(batch);
  if (!zero_heads.empty() &&
      static_cast<long>(zero_heads.size()) != config_.layers * config_.heads) {
    throw InputError("the head mask has " + std::to_string(zero_heads.size()) +
                     " entries; the model has layers × heads = " +
                     std::to_string(config_.layers * config_.heads));
  }
  rows_ = nullptr;
  forward_loss(batch, zero_heads.empty() ? nullptr : zero_heads.data());
  return logits_;
}

void GptModel::select_rows(const GptBatch& batch) {
  rows_ = nullptr;
  const long B = batch.B, T = batch.T;
  // each window's rows up to its last target
  loss_set_ = kernels::prefix_rows(loss_rows_, B, T, [&](long b) {
    long n = T;
    while (n > 0 && batch.targets[static_cast<size_t>(b * T + n - 1)] == kGptIgnoreTarget) --n;
    return n;
  });
  if (loss_set_.count < B * T) rows_ = &loss_set_;
}

float GptModel::forward_loss(const GptBatch& batch, const uint8_t* zero_heads, bool with_dlogits) {
  const long B = batch.B, T = batch.T, C = config_.d_model, H = config_.heads, F = 4 * C;
  const long V = config_.vocab, R = B * T;
  B_ = B;
  T_ = T;
  // x_0 = wte[idx] + wpe[t]
  x0_.resize(R * C);
  embedding_forward(x0_.data(), batch.idx.data(), wte(), R, V, C);
  for (long r = 0; r < R; ++r) {
    const float* pos = wpe() + (r % T) * C;
    for (long c = 0; c < C; ++c) x0_[r * C + c] += pos[c];
  }
  const float* x = x0_.data();
  for (long l = 0; l < config_.layers; ++l) {
    const MhaMask causal{nullptr, true, zero_heads ? zero_heads + l * H : nullptr, rows_, rows_};
    BlockActs& a = blocks_[l];
    const GptBlockP<const float*> w = block_w(l);
    for (NormActs* n : {&a.ln_1, &a.ln_2}) {
      n->y.resize(R * C);
      n->mean.resize(R);
      n->rstd.resize(R);
    }
    for (auto* v : {&a.mid, &a.mlp, &a.out}) v->resize(R * C);
    a.fc.resize(R * F);
    a.gelu.resize(R * F);
    a.gelu_t.resize(R * F);
    // m = x + attn(ln_1(x)), causal
    layernorm_forward(a.ln_1.y.data(), a.ln_1.mean.data(), a.ln_1.rstd.data(), x, w.ln_1.w,
                      w.ln_1.b, R, C, rows_);
    check_softmax_status(
        mha_forward(a.attn, w.attn, a.ln_1.y.data(), a.ln_1.y.data(), causal, B, T, T, C, H));
    residual_forward(a.mid.data(), x, a.attn.out.data(), R * C);
    // x' = m + c_proj(gelu(c_fc(ln_2(m))))
    layernorm_forward(a.ln_2.y.data(), a.ln_2.mean.data(), a.ln_2.rstd.data(), a.mid.data(),
                      w.ln_2.w, w.ln_2.b, R, C, rows_);
    linear_forward(a.fc.data(), a.ln_2.y.data(), w.fc_w, w.fc_b, R, C, F, rows_);
    kernels::row_runs(rows_, R, [&](long r, long n) {
      gelu_forward(a.gelu.data() + r * F, a.fc.data() + r * F, n * F, a.gelu_t.data() + r * F);
    });
    linear_forward(a.mlp.data(), a.gelu.data(), w.proj_w, w.proj_b, R, F, C, rows_);
    residual_forward(a.out.data(), a.mid.data(), a.mlp.data(), R * C);
    x = a.out.data();
  }
  // logits = ln_f(x_L) wteᵀ
  ln_f_.y.resize(R * C);
  ln_f_.mean.resize(R);
  ln_f_.rstd.resize(R);
  const LayerNormP<const float*> lnf = ln_f_w();
  layernorm_forward(ln_f_.y.data(), ln_f_.mean.data(), ln_f_.rstd.data(), x, lnf.w, lnf.b, R, C,
                    rows_);
  logits_.resize(R * V);
  linear_forward(logits_.data(), ln_f_.y.data(), wte(), nullptr, R, C, V, rows_);
  if (batch.targets.empty()) return 0.0f;
  // loss = mean −log softmax(logits)[target] over positions with a target
  if (with_dlogits) {
    // dlogits = (probs − onehot(target)) / count, ignored rows 0
    dlogits_.resize(R * V);
    return cross_entropy_forward_backward(dlogits_.data(), logits_.data(), batch.targets.data(),
                                          kGptIgnoreTarget, R, V, 1.0f, &last_hits_);
  }
  probs_.resize(R * V);
  return cross_entropy_forward(probs_.data(), logits_.data(), batch.targets.data(),
                               kGptIgnoreTarget, R, V, LogSumExp::kFloat, ProbsFor::kTargetRows);
}

namespace {

void require_targets(const GptBatch& batch) {
  const bool any = std::any_of(batch.targets.begin(), batch.targets.end(),
                               [](int32_t t) { return t != kGptIgnoreTarget; });
  if (!any) throw InputError("the batch has no targets (every target is -1 or none was given)");
}

}  // namespace

float GptModel::forward_backward(const GptBatch& batch) {
  validate_batch(batch);
  require_targets(batch);
  clear_grads();
  select_rows(batch);
  return forward_backward_with([&] { return forward_loss(batch, nullptr, true); },
                               [&] { backward(batch); });
}

float GptModel::loss_only(const GptBatch& batch) {
  validate_batch(batch);
  require_targets(batch);
  select_rows(batch);
  return forward_loss(batch);
}

void GptModel::backward(const GptBatch& batch) {
  const long C = config_.d_model, F = 4 * C, V = config_.vocab, R = B_ * T_;
  float* dwte = grads_.data() + off_.wte;
  // dlogits_ = ∂loss/∂logits, written by forward_loss
  // logits = y wteᵀ (tied):  dy = dlogits wte,  dwte += dlogitsᵀ y
  dln_.resize(R * C);
  linear_backward(dln_.data(), dwte, nullptr, dlogits_.data(), ln_f_.y.data(), wte(), R, C, V,
                  Grad::kSet, rows_);
  // y = ln_f(x_L)
  dx_.resize(R * C);  // written: no zeroing first
  const LayerNormP<const float*> lnf = ln_f_w();
  layernorm_backward(dx_.data(), grads_.data() + off_.ln_f.w, grads_.data() + off_.ln_f.b,
                     dln_.data(), blocks_.back().out.data(), ln_f_.mean.data(), ln_f_.rstd.data(),
                     lnf.w, R, C, Grad::kSet, rows_);
  // dx_ is ∂L/∂x_{l+1} on entry to each block, ∂L/∂x_l on exit.
  for (long l = config_.layers - 1; l >= 0; --l) {
    BlockActs& a = blocks_[l];
    const GptBlockP<const float*> w = block_w(l);
    const GptBlockP<float*> g = block_g(l);
    const float* x = l == 0 ? x0_.data() : blocks_[l - 1].out.data();
    // x' = m + c_proj(gelu(c_fc(ln_2(m)))):  dm = dx' + ln_2ᵀ c_fcᵀ gelu′ c_projᵀ dx'
    dmid_ = dx_;
    dh_.resize(R * F);
    linear_backward(dh_.data(), g.proj_w, g.proj_b, dx_.data(), a.gelu.data(), w.proj_w, R, F, C,
                    Grad::kSet, rows_);
    dfc_.resize(R * F);
    kernels::row_runs(rows_, R, [&](long r, long n) {
      gelu_backward(dfc_.data() + r * F, dh_.data() + r * F, a.fc.data() + r * F, n * F,
                    a.gelu_t.data() + r * F, Grad::kSet);
    });
    // the other rows 0: natively the weight gradients below sum every row
    kernels::unlisted_runs(rows_, R,
                           [&](long r, long n) { std::fill_n(dfc_.data() + r * F, n * F, 0.0f); });
    linear_backward(dln_.data(), g.fc_w, g.fc_b, dfc_.data(), a.ln_2.y.data(), w.fc_w, R, C, F,
                    Grad::kSet, rows_);
    layernorm_backward(dmid_.data(), g.ln_2.w, g.ln_2.b, dln_.data(), a.mid.data(),
                       a.ln_2.mean.data(), a.ln_2.rstd.data(), w.ln_2.w, R, C, Grad::kAdd, rows_);
    // m = x + attn(ln_1(x)):  dx = dm + ln_1ᵀ attnᵀ dm
    mha_backward(dln_.data(), dln_.data(), g.attn, a.attn, w.attn, dmid_.data(), a.ln_1.y.data(),
                 a.ln_1.y.data(), Grad::kSet);  // dln_ written: no zeroing first
    dx_ = dmid_;
    layernorm_backward(dx_.data(), g.ln_1.w, g.ln_1.b, dln_.data(), x, a.ln_1.mean.data(),
                       a.ln_1.rstd.data(), w.ln_1.w, R, C, Grad::kAdd, rows_);
  }
  // x_0 = wte[idx] + wpe[t]:  dwte[idx] += dx_0,  dwpe[t] += Σ_b dx_0[b, t]
  embedding_backward(dwte, dx_.data(), batch.idx.data(), R, C);
  float* dwpe = grads_.data() + off_.wpe;
  for (long r = 0; r < R; ++r) {
    float* pos = dwpe + (r % T_) * C;
    for (long c = 0; c < C; ++c) pos[c] += dx_[r * C + c];
  }
}

}  // namespace lab
