// TransformerModel: teacher-forced forward and backward of a padded batch, optimiser steps.
#include "transformer/model.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "ops.h"
#include "transformer/workspace.h"

namespace lab {

namespace {

template <class P, class Base>
MhaP<P> at(const MhaP<long>& o, Base base) {
  return {base + o.in_w, base + o.in_b, base + o.out_w, base + o.out_b};
}
template <class P, class Base>
FfnP<P> at(const FfnP<long>& o, Base base) {
  return {base + o.w1, base + o.b1, base + o.w2, base + o.b2};
}
template <class P, class Base>
LayerNormP<P> at(const LayerNormP<long>& o, Base base) {
  return {base + o.w, base + o.b};
}

void zero(std::vector<float>& v) {
  std::fill(v.begin(), v.end(), 0.0f);
}

}  // namespace

EncoderLayerW TransformerModel::enc_w(long l) const {
  const auto& o = off_.enc[l];
  const float* b = params_.data();
  return {at<const float*>(o.sa, b), at<const float*>(o.ff, b), at<const float*>(o.n1, b),
          at<const float*>(o.n2, b)};
}

DecoderLayerW TransformerModel::dec_w(long l) const {
  const auto& o = off_.dec[l];
  const float* b = params_.data();
  return {at<const float*>(o.sa, b), at<const float*>(o.ca, b), at<const float*>(o.ff, b),
          at<const float*>(o.n1, b), at<const float*>(o.n2, b), at<const float*>(o.n3, b)};
}

EncoderLayerG TransformerModel::enc_g(long l) {
  const auto& o = off_.enc[l];
  float* b = grads_.data();
  return {at<float*>(o.sa, b), at<float*>(o.ff, b), at<float*>(o.n1, b), at<float*>(o.n2, b)};
}

DecoderLayerG TransformerModel::dec_g(long l) {
  const auto& o = off_.dec[l];
  float* b = grads_.data();
  return {at<float*>(o.sa, b), at<float*>(o.ca, b), at<float*>(o.ff, b),
          at<float*>(o.n1, b), at<float*>(o.n2, b), at<float*>(o.n3, b)};
}

void TransformerModel::forward_begin(const Batch& batch) {
  TransformerWorkspace& w = *ws_;
  const long B = batch.B, S = batch.S, T = batch.T;
  w.resize(config_, B, S, T);
  // src_pad (B, S): 1 past each source's length; tgt_pad (B, T): 1 where tgt_in is <pad>
  for (long b = 0; b < B; ++b) {
    for (long s = 0; s < S; ++s) w.src_pad[b * S + s] = s >= batch.src_len[b];
  }
  w.src_real = kernels::prefix_rows(w.src_rows, B, S, [&](long b) { return batch.src_len[b]; });
  for (long i = 0; i < B * T; ++i) w.tgt_pad[i] = batch.tgt_in[i] == kPadId;
}

void TransformerModel::forward(const Batch& batch, bool padded_rows) {
  forward_begin(batch);
  // x = src_embedding[src] · √Dm + pe[:S]
  embed_forward(ws_->src_x.data(), batch.src.data(), p(off_.src_emb), pe_.data(), batch.B, batch.S,
                config_.src_vocab, config_.d_model);
  forward_from_source(batch, padded_rows);
}

void TransformerModel::forward_from_source(const Batch& batch, bool padded_rows) {
  TransformerWorkspace& w = *ws_;
  const long B = batch.B, S = batch.S, T = batch.T, Dm = config_.d_model, Vt = config_.tgt_vocab;
  const long L = config_.layers;
  const LayerDims d = dims();
  // The encoder's real rows, when some are padding and those may be skipped
  const kernels::RowSet* rows = padded_rows || w.src_real.count == B * S ? nullptr : &w.src_real;
  w.enc_rows = rows;
  const float* x = w.src_x.data();
  for (long l = 0; l < L; ++l) {
    encoder_layer_forward(w.enc[l], enc_w(l), x, w.src_pad.data(), B, S, d, nullptr, rows);
    x = w.enc[l].out(d.norm_first);
  }
  // memory = encoder.norm(x)
  layernorm_forward(w.enc_norm, x, {p(off_.enc_norm.w), p(off_.enc_norm.b)}, B * S, Dm, rows);
  const float* mem = w.enc_norm.y.data();

  // y = tgt_embedding[tgt_in] · √Dm + pe[:T]
  embed_forward(w.tgt_x.data(), batch.tgt_in.data(), p(off_.tgt_emb), pe_.data(), B, T, Vt, Dm);
  const float* y = w.tgt_x.data();
  for (long l = 0; l < L; ++l) {
    decoder_layer_forward(w.dec[l], dec_w(l), y, mem, w.tgt_pad.data(), w.src_pad.data(), B, T, S,
                          d, rows);
    y = w.dec[l].out(d.norm_first);
  }
  // h = decoder.norm(y), logits = h Woutᵀ + b_out
  layernorm_forward(w.dec_norm, y, {p(off_.dec_norm.w), p(off_.dec_norm.b)}, B * T, Dm);
  linear_forward(w.logits.data(), w.dec_norm.y.data(), p(off_.out_w), p(off_.out_b), B * T, Dm, Vt);
  // loss = mean over non-pad targets of −log softmax(logits)[target]
  w.loss = cross_entropy_forward(w.probs.data(), w.logits.data(), batch.tgt_out.data(), kPadId,
                                 B * T, Vt, LogSumExp::kFloat, ProbsFor::kTargetRows);
}

void TransformerModel::backward(const Batch& batch) {
  TransformerWorkspace& w = *ws_;
  const long B = batch.B, S = batch.S, T = batch.T, Dm = config_.d_model, Vt = config_.tgt_vocab;
  const long L = config_.layers;
  const LayerDims d = dims();
  clear_grads();
  zero(w.dmem);  // summed over the decoder layers; the other gradients are written first

  // dlogits = (probs − onehot(target)) / count, 0 on pad targets (written: no zeroing first)
  cross_entropy_backward(w.dlogits.data(), w.probs.data(), batch.tgt_out.data(), kPadId, B * T, Vt,
                         1.0f, Grad::kSet);
  // dh = dlogits Wout, dWout += dlogitsᵀ h, db_out += Σ dlogits; dh is in dtgt_b (written)
  linear_backward(w.dtgt_b.data(), g(off_.out_w), g(off_.out_b), w.dlogits.data(),
                  w.dec_norm.y.data(), p(off_.out_w), B * T, Dm, Vt, Grad::kSet);
  const float* y_top = L ? w.dec[L - 1].out(d.norm_first) : w.tgt_x.data();
  layernorm_backward(w.dtgt_a.data(), g(off_.dec_norm.w), g(off_.dec_norm.b), w.dtgt_b.data(),
                     y_top, w.dec_norm.mean.data(), w.dec_norm.rstd.data(), p(off_.dec_norm.w),
                     B * T, Dm, Grad::kSet);
  // Decoder layers top-down: dtgt_a holds ∂L/∂(layer output), dtgt_b receives ∂L/∂(layer input).
  const float* mem = w.enc_norm.y.data();
  for (long l = L - 1; l >= 0; --l) {
    const float* y_in = l ? w.dec[l - 1].out(d.norm_first) : w.tgt_x.data();
    decoder_layer_backward(w.dtgt_b.data(), w.dmem.data(), dec_g(l), w.dec[l], w.dec_scratch,
                           dec_w(l), w.dtgt_a.data(), y_in, mem, B * T, d, Grad::kSet);
    w.dtgt_a.swap(w.dtgt_b);
  }
  embed_backward(g(off_.tgt_emb), w.dtgt_a.data(), batch.tgt_in.data(), B * T, Dm);

  // memory = encoder.norm(x_top)
  const float* x_top = w.enc[L - 1].out(d.norm_first);
  layernorm_backward(w.dsrc_a.data(), g(off_.enc_norm.w), g(off_.enc_norm.b), w.dmem.data(), x_top,
                     w.enc_norm.mean.data(), w.enc_norm.rstd.data(), p(off_.enc_norm.w), B * S, Dm,
                     Grad::kSet, w.enc_rows);
  for (long l = L - 1; l >= 0; --l) {
    const float* x_in = l ? w.enc[l - 1].out(d.norm_first) : w.src_x.data();
    encoder_layer_backward(w.dsrc_b.data(), enc_g(l), w.enc[l], w.enc_scratch, enc_w(l),
                           w.dsrc_a.data(), x_in, B * S, d, Grad::kSet);
    w.dsrc_a.swap(w.dsrc_b);
  }
  embed_backward(g(off_.src_emb), w.dsrc_a.data(), batch.src.data(), B * S, Dm);
}

float TransformerModel::forward_backward(const Batch& batch) {
  validate_batch(batch, config_);  // first, so that a bad batch leaves the last gradients valid
  return forward_backward_with([&] { return loss_only(batch); }, [&] { backward(batch); });
}

float TransformerModel::loss_only(const Batch& batch) {
  validate_batch(batch, config_);
  forward(batch);
  return ws_->loss;
}

TransformerOutputs TransformerModel::evaluate(const Batch& batch) {
  validate_batch(batch, config_);
  forward(batch, /*padded_rows=*/true);
  const TransformerWorkspace& w = *ws_;
  const long B = batch.B, S = batch.S, T = batch.T, H = config_.heads;
  TransformerOutputs out;
  out.loss = w.loss;
  out.logits = Tensor({B, T, config_.tgt_vocab}, w.logits);
  auto take = [](const std::vector<float>& v, std::vector<long> shape) {
    const long n = shape_numel(shape, "attention");
    return Tensor(std::move(shape), std::vector<float>(v.begin(), v.begin() + n));
  };
  for (long l = 0; l < config_.layers; ++l) {
    out.attention.encoder_self.push_back(take(w.enc[l].sa.att, {B, H, S, S}));
    out.attention.decoder_self.push_back(take(w.dec[l].sa.att, {B, H, T, T}));
    out.attention.cross.push_back(take(w.dec[l].ca.att, {B, H, T, S}));
  }
  return out;
}

const std::vector<float>& TransformerModel::last_logits() const {
  return ws_->logits;
}

namespace {
// The step's options: the caller's (validated: its rate, before the schedule scales it) at
// warmup_lr's rate for the step about to be taken.
AdamOptions scheduled(const AdamOptions& options, long step, long warmup) {
  options.validate();
  AdamOptions o = options;
  o.lr = warmup_lr(options.lr, step, warmup);
  return o;
}
}  // namespace

void TransformerModel::adam_step(const AdamOptions& options, long warmup) {
  step_adam(scheduled(options, adam_.step + 1, warmup));
}

void TransformerModel::adam_step_consuming_grads(const AdamOptions& options, long warmup) {
  step_adam_consuming_grads(scheduled(options, adam_.step + 1, warmup));
}

}  // namespace lab
