// Seq2SeqModel: teacher-forced forward and backward of a padded batch, optimiser steps.
#include "rnn/model.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "ops.h"
#include "rnn/model_workspace.h"

namespace lab {

// A cell's input is an embedding lookup, so its projection x_proj = x W_ihᵀ + b_ih takes one value
// per vocabulary entry. With fewer entries than rows (the dates recipe: 60 source and 15 target
// characters, for 128 rows a time step), the vocabulary is projected once and its rows gathered:
//   table = Emb W_ihᵀ + b_ih   (V, G·Hd),   x_proj[r] = table[id_r]
// and the backward scatters dx_proj by id, then runs one linear backward over the V rows:
//   dtable[v] = Σ_{r : id_r = v} dx_proj[r],
//   dEmb += dtable W_ih,  dW_ih += dtableᵀ Emb,  db_ih += Σ_v dtable[v]
// These are the sums of the lookup-then-project path grouped by id: the same gradients in another
// rounding order, for V rows of GEMM instead of B·S.
bool projects_by_vocabulary(long V, long rows) {
  return V < rows;
}

namespace {

void zero(std::vector<float>& v) {
  std::fill(v.begin(), v.end(), 0.0f);
}

// x_proj of the cell `act` from token ids (B·S of them) and the embedding table emb (V, E): through
// the vocabulary (above), or as a lookup into x (B·S, E) and one GEMM.
void embedded_input_forward(CellActivations& act, bool by_vocab, std::vector<float>& x,
                            std::vector<float>& table, const CellWeights& w, const float* emb,
                            const int32_t* ids, long V) {
  const long rows = act.shape.B * act.shape.S, E = act.shape.E;
  if (by_vocab) {
    const long GH = act.shape.G() * act.shape.Hd;
    table.resize(static_cast<size_t>(V * GH));
    linear_forward(table.data(), emb, w.w_ih, w.b_ih, V, E, GH);
    embedding_forward(act.x_proj.data(), ids, table.data(), rows, V, GH);
  } else {
    embedding_forward(x.data(), ids, emb, rows, V, E);
    cell_project_inputs(act, w, x.data());
  }
}

// The backward of embedded_input_forward from scratch.dx_proj: accumulates dEmb, dW_ih and db_ih.
// dx (B·S, E) or dtable (V, G·Hd), whichever the path uses, is overwritten.
void embedded_input_backward(CellGrads& g, float* demb, std::vector<float>& dx,
                             std::vector<float>& dtable, const CellScratch& scratch,
                             const CellActivations& act, bool by_vocab, const CellWeights& w,
                             const float* emb, const float* x, const int32_t* ids, long V) {
  const long rows = act.shape.B * act.shape.S, E = act.shape.E;
  const long GH = act.shape.G() * act.shape.Hd;
  if (by_vocab) {
    // dtable[v] = Σ_{r : id_r = v} dx_proj[r]
    dtable.assign(static_cast<size_t>(V * GH), 0.0f);
    embedding_backward(dtable.data(), scratch.dx_proj.data(), ids, rows, GH);
    linear_backward(demb, g.dw_ih, g.db_ih, dtable.data(), emb, w.w_ih, V, E, GH);
  } else {
    zero(dx);
    linear_backward(dx.data(), g.dw_ih, g.db_ih, scratch.dx_proj.data(), x, w.w_ih, rows, E, GH);
    embedding_backward(demb, dx.data(), ids, rows, E);
  }
}

}  // namespace

CellWeights Seq2SeqModel::cell_weights(bool decoder) const {
  const Index& i = ix_;
  return decoder ? CellWeights{p(i.dec_w_ih), p(i.dec_w_hh), p(i.dec_b_ih), p(i.dec_b_hh)}
                 : CellWeights{p(i.enc_w_ih), p(i.enc_w_hh), p(i.enc_b_ih), p(i.enc_b_hh)};
}

CellGrads Seq2SeqModel::cell_grads(bool decoder) {
  const Index& i = ix_;
  return decoder ? CellGrads{g(i.dec_w_ih), g(i.dec_w_hh), g(i.dec_b_ih), g(i.dec_b_hh)}
                 : CellGrads{g(i.enc_w_ih), g(i.enc_w_hh), g(i.enc_b_ih), g(i.enc_b_hh)};
}

const float* Seq2SeqModel::head_forward(long R, const float* dec_out, const float* context,
                                        float* concat, float* dense, float* logits) const {
  const long Hd = config_.hidden, Vt = config_.tgt_vocab, F = output_features(config_);
  const float* feature = dec_out;  // (R, Hd) without attention
  if (config_.attention) {
    // concat = [dec_out; context]      (R, 2Hd), decoder output first as in the note
    MapR cat(concat, R, 2 * Hd);
    cat.leftCols(Hd) = CMapR(dec_out, R, Hd);
    cat.rightCols(Hd) = CMapR(context, R, Hd);
    feature = concat;
    if (config_.attentional_tanh) {
      // dense = tanh(concat W_cᵀ + b_c)   (R, Hd)
      linear_forward(dense, concat, p(ix_.dense_w), p(ix_.dense_b), R, 2 * Hd, Hd);
      tanh_forward(dense, dense, R * Hd);
      feature = dense;
    }
  }
  // logits = feature W_outᵀ + b_out       (R, Vt)
  linear_forward(logits, feature, p(ix_.out_w), p(ix_.out_b), R, F, Vt);
  return feature;
}

void Seq2SeqModel::forward(const Batch& batch) {
  Workspace& w = *ws_;
  w.resize(config_, batch.B, batch.S, batch.T);
  const long B = batch.B, S = batch.S, T = batch.T, E = config_.embedding_size();
  const long Hd = config_.hidden, Vt = config_.tgt_vocab;
  const bool lstm = config_.cell == CellKind::kLstm;

  // enc.x_proj = encoder.embedding[src] W_ihᵀ + b_ih    (B, S, G·Hd); from the embeddings
  // attribution gives, when it gives them
  const CellWeights enc_w = cell_weights(false), dec_w = cell_weights(true);
  w.enc_by_vocab = !src_emb_override_ && projects_by_vocabulary(config_.src_vocab, B * S);
  if (src_emb_override_) {
    std::copy(src_emb_override_, src_emb_override_ + B * S * E, w.enc_emb.begin());
    cell_project_inputs(w.enc, enc_w, w.enc_emb.data());
  } else {
    embedded_input_forward(w.enc, w.enc_by_vocab, w.enc_emb, w.enc_table, enc_w, p(ix_.enc_emb),
                           batch.src.data(), config_.src_vocab);
  }
  // enc.out (B, S, Hd); enc.h_last / c_last (B, Hd) = state at each source's own length
  cell_forward_steps(w.enc, enc_w, batch.src_len.data(), nullptr, nullptr);
  // dec.x_proj = decoder.embedding[tgt_in] W_ihᵀ + b_ih  (B, T, G·Hd)
  w.dec_by_vocab = projects_by_vocabulary(Vt, B * T);
  embedded_input_forward(w.dec, w.dec_by_vocab, w.dec_emb, w.dec_table, dec_w, p(ix_.dec_emb),
                         batch.tgt_in.data(), Vt);
  // The decoder starts from the encoder's last state: the note's whole "fixed-size context".
  cell_forward_steps(w.dec, dec_w, w.dec_len.data(), w.enc.h_last.data(),
                     lstm ? w.enc.c_last.data() : nullptr);

  const float* context = nullptr;
  if (config_.attention) {
    throw_if_diverged(w.enc.out);
    throw_if_diverged(w.dec.out);
    // One attention call per batch row for all T steps (the note's decoder does not feed the
    // context back): queries dec.out (T, Hd), keys = values enc.out (S, Hd).
    const attn::ScoreWeights sw = score_weights();
    const attn::Dims d = attn::contiguous(T, S, Hd, Hd, Hd);
    for (long b = 0; b < B; ++b) {
      // keep (T, S): the source positions within the length
      uint8_t* keep = w.keep.data() + b * T * S;
      for (long t = 0; t < T; ++t) {
        for (long s = 0; s < S; ++s) keep[t * S + s] = s < batch.src_len[b];
      }
      const float* enc_out = w.enc.out.data() + b * S * Hd;
      const kernels::SoftmaxStatus status =
          attn::attention_forward(w.context.data() + b * T * Hd, w.attn_weights.ptr() + b * T * S,
                                  nullptr, w.score_acts.at(b), w.attn_scratch.score, sw, keep,
                                  w.dec.out.data() + b * T * Hd, enc_out, enc_out, d);
      throw_if_overflowed(status);
    }
    context = w.context.data();  // (B, T, Hd)
  }
  head_forward(B * T, w.dec.out.data(), context, w.concat.data(), w.dense.data(), w.logits.data());
  // loss = mean over non-pad targets of −log softmax(logits)[target]
  w.loss = cross_entropy_forward(w.probs.data(), w.logits.data(), batch.tgt_out.data(), kPadId,
                                 B * T, Vt, LogSumExp::kDouble, ProbsFor::kTargetRows);
}

void Seq2SeqModel::backward(const Batch& batch) {
  Workspace& w = *ws_;
  const long B = batch.B, T = batch.T, BT = B * T;
  const long Hd = config_.hidden, Vt = config_.tgt_vocab, F = output_features(config_);
  const bool lstm = config_.cell == CellKind::kLstm;
  clear_grads();
  // Only the buffers the passes below accumulate into (+=); ddec_out is assigned from dconcat
  // before the attention adds to it.
  for (auto* v :
       {&w.dlogits, &w.dfeature, &w.ddense_pre, &w.dconcat, &w.denc_out, &w.dh0, &w.dc0}) {
    zero(*v);
  }

  // dlogits = (probs − onehot(target)) / count, 0 on pad targets
  cross_entropy_backward(w.dlogits.data(), w.probs.data(), batch.tgt_out.data(), kPadId, BT, Vt,
                         1.0f);
  const float* feature = config_.attentional_tanh ? w.dense.data()
                         : config_.attention      ? w.concat.data()
                                                  : w.dec.out.data();
  // dfeature += dlogits W_out,  dW_out += dlogitsᵀ feature,  db_out += Σ dlogits
  linear_backward(w.dfeature.data(), g(ix_.out_w), g(ix_.out_b), w.dlogits.data(), feature,
                  p(ix_.out_w), BT, F, Vt);

  const float* ddec_out = w.dfeature.data();  // (B, T, Hd) without attention
  if (config_.attention) {
    const float* dconcat = w.dfeature.data();
    if (config_.attentional_tanh) {
      // d(pre-tanh) = dfeature ⊙ (1 − dense²)
      tanh_backward(w.ddense_pre.data(), w.dfeature.data(), w.dense.data(), BT * Hd);
      linear_backward(w.dconcat.data(), g(ix_.dense_w), g(ix_.dense_b), w.ddense_pre.data(),
                      w.concat.data(), p(ix_.dense_w), BT, 2 * Hd, Hd);
      dconcat = w.dconcat.data();
    }
    // Split d[dec_out; context] (B·T, 2Hd) into its two halves.
    CMapR dcat(dconcat, BT, 2 * Hd);
    MapR(w.dcontext.data(), BT, Hd) = dcat.rightCols(Hd);
    MapR(w.ddec_out.data(), BT, Hd) = dcat.leftCols(Hd);
    // Accumulated straight into the model's buffers: the decoder output is the query, the
    // encoder output both key and value; the score's weights into the flat gradient buffer.
    const attn::ScoreWeights sw = score_weights();
    const attn::ScoreGrads sg{g(ix_.att_w), g(ix_.att_w1), g(ix_.att_w2), g(ix_.att_b),
                              g(ix_.att_v)};
    const long S = batch.S;
    const attn::Dims d = attn::contiguous(T, S, Hd, Hd, Hd);
    const attn::ScoreActsBuffer& acts = w.score_acts;
    for (long b = 0; b < B; ++b) {
      float* denc_out = w.denc_out.data() + b * S * Hd;
      const float* enc_out = w.enc.out.data() + b * S * Hd;
      attn::attention_backward(w.ddec_out.data() + b * T * Hd, denc_out, denc_out, sg,
                               w.attn_scratch, sw, acts.at(b), w.dcontext.data() + b * T * Hd,
                               w.attn_weights.ptr() + b * T * S, w.dec.out.data() + b * T * Hd,
                               enc_out, enc_out, d);
    }
    ddec_out = w.ddec_out.data();
  }

  // Decoder through time; the gradient on its initial state flows into the encoder's last state.
  CellGrads dec_grads = cell_grads(true);
  const CellWeights enc_w = cell_weights(false), dec_w = cell_weights(true);
  cell_backward_steps(dec_grads, w.dh0.data(), lstm ? w.dc0.data() : nullptr, w.dec_scratch, w.dec,
                      dec_w, w.dec_len.data(), ddec_out, nullptr, nullptr);
  embedded_input_backward(dec_grads, g(ix_.dec_emb), w.ddec_emb, w.ddec_table, w.dec_scratch, w.dec,
                          w.dec_by_vocab, dec_w, p(ix_.dec_emb), w.dec_emb.data(),
                          batch.tgt_in.data(), Vt);
  CellGrads enc_grads = cell_grads(false);
  cell_backward_steps(enc_grads, nullptr, nullptr, w.enc_scratch, w.enc, enc_w,
                      batch.src_len.data(), w.denc_out.data(), w.dh0.data(),
                      lstm ? w.dc0.data() : nullptr);
  // (with attribution's embeddings, denc_emb is its answer: the gradient on each given row)
  embedded_input_backward(enc_grads, g(ix_.enc_emb), w.denc_emb, w.denc_table, w.enc_scratch, w.enc,
                          w.enc_by_vocab, enc_w, p(ix_.enc_emb), w.enc_emb.data(), batch.src.data(),
                          config_.src_vocab);
}

float Seq2SeqModel::forward_backward(const Batch& batch) {
  validate_batch(batch, config_);  // first, so that a bad batch leaves the last gradients valid
  return forward_backward_with([&] { return loss_only(batch); }, [&] { backward(batch); });
}

float Seq2SeqModel::loss_only(const Batch& batch) {
  validate_batch(batch, config_);
  forward(batch);
  return ws_->loss;
}

Seq2SeqOutputs Seq2SeqModel::evaluate(const Batch& batch) {
  validate_batch(batch, config_);
  forward(batch);
  const Workspace& w = *ws_;
  Seq2SeqOutputs out;
  out.loss = w.loss;
  out.logits = Tensor({batch.B, batch.T, config_.tgt_vocab}, w.logits);
  if (config_.attention) out.attention = w.attn_weights;
  return out;
}

void Seq2SeqModel::adam_step(float lr, float beta1, float beta2, float eps, float weight_decay) {
  AdamOptions o;
  o.lr = lr;
  o.beta1 = beta1;
  o.beta2 = beta2;
  o.eps = eps;
  o.weight_decay = weight_decay;
  adam_step(o);
}

void Seq2SeqModel::adam_step(const AdamOptions& options) {
  options.validate();
  step_adam(options);
}

void Seq2SeqModel::adam_step_consuming_grads(const AdamOptions& options) {
  options.validate();
  step_adam_consuming_grads(options);
}

}  // namespace lab
