// Seq2SeqModel inference: encode one sentence, then one real autoregressive decoder step at a
// time (what greedy and beam search call). Uses the same cell and head code as training, so a
// step-by-step run reproduces the teacher-forced logits.
#include <algorithm>
#include <string>

#include "ops.h"
#include "rnn/model.h"
#include "rnn/model_workspace.h"

namespace lab {

DecoderState Seq2SeqModel::encode(const std::vector<int32_t>& src, long length) {
  if (length < 0) length = static_cast<long>(src.size());
  if (length < 1 || length > static_cast<long>(src.size())) {
    throw InputError("encode: source length " + std::to_string(length) + " must be in [1, " +
                     std::to_string(src.size()) + "] (the number of source ids given)");
  }
  shape_numel({length, 4 * std::max(config_.hidden, config_.embedding_size())}, "source");
  for (long s = 0; s < length; ++s) {
    if (src[s] < 0 || src[s] >= config_.src_vocab) {
      throw InputError("encode: source id " + std::to_string(src[s]) + " at position " +
                       std::to_string(s) + " is outside the source vocabulary of " +
                       std::to_string(config_.src_vocab));
    }
  }
  const long S = length, E = config_.embedding_size(), Hd = config_.hidden;
  Workspace& w = *step_ws_;
  w.enc_emb.resize(S * E);
  w.enc.resize({config_.cell, 1, S, E, Hd});
  // enc_emb = encoder.embedding[src]    (S, E)
  embedding_forward(w.enc_emb.data(), src.data(), p(ix_.enc_emb), S, config_.src_vocab, E);
  const int32_t len = static_cast<int32_t>(S);
  cell_forward(w.enc, cell_weights(false), w.enc_emb.data(), &len, nullptr, nullptr);

  auto memory = std::make_shared<EncoderMemory>();
  memory->S = S;
  memory->outputs = w.enc.out;  // (S, Hd)
  DecoderState state;
  state.memory = memory;
  state.h = w.enc.h_last;  // (Hd)
  state.c = w.enc.c_last;  // (Hd) LSTM, else empty
  return state;
}

DecoderStepResult Seq2SeqModel::decoder_step(const DecoderState& state, int32_t token,
                                             const AttentionEdit& edit) {
  const long E = config_.embedding_size(), Hd = config_.hidden, Vt = config_.tgt_vocab;
  const bool lstm = config_.cell == CellKind::kLstm;
  if (!state.memory)
    throw InputError("decoder_step: the state has no encoder memory (encode first)");
  if (static_cast<long>(state.h.size()) != Hd ||
      static_cast<long>(state.c.size()) != (lstm ? Hd : 0)) {
    throw InputError("decoder_step: the state does not belong to this model (hidden size " +
                     std::to_string(state.h.size()) + ", model has " + std::to_string(Hd) + ")");
  }
  if (token < 0 || token >= Vt) {
    throw InputError("decoder_step: token " + std::to_string(token) +
                     " is outside the target vocabulary of " + std::to_string(Vt));
  }
  const EncoderMemory& memory = *state.memory;
  const long S = memory.S;
  Workspace& w = *step_ws_;
  w.dec_emb.resize(E);
  w.dec.resize({config_.cell, 1, 1, E, Hd});
  w.concat.resize(2 * Hd);
  w.dense.resize(Hd);

  // dec_emb = decoder.embedding[token]   (1, E)
  embedding_forward(w.dec_emb.data(), &token, p(ix_.dec_emb), 1, Vt, E);
  const int32_t one = 1;
  cell_forward(w.dec, cell_weights(true), w.dec_emb.data(), &one, state.h.data(),
               lstm ? state.c.data() : nullptr);

  DecoderStepResult result;
  const float* context = nullptr;
  if (config_.attention) {
    // The new decoder output (1, Hd) attends over all S encoder outputs (S, Hd).
    throw_if_diverged(w.dec.out);
    throw_if_diverged(memory.outputs);
    reshape_in_place(w.attn_weights, {1, 1, S});
    w.context.resize(Hd);
    w.score_acts.resize(config_.score, 1, 1, S, Hd, additive_size(config_));
    const float* enc_out = memory.outputs.data();
    throw_if_overflowed(attn::attention_forward(w.context.data(), w.attn_weights.ptr(), nullptr,
                                                w.score_acts.at(0), w.attn_scratch.score,
                                                score_weights(), nullptr, w.dec.out.data(), enc_out,
                                                enc_out, attn::contiguous(1, S, Hd, Hd, Hd)));
    context = w.context.data();
    result.attention = w.attn_weights.data;  // (S)
    if (edit) {
      edit(result.attention);
      float* ctx = w.context.data();  // (Hd)
      std::fill(ctx, ctx + Hd, 0.0f);
      for (long s = 0; s < S; ++s) {
        const float a = result.attention[static_cast<size_t>(s)];
        if (a == 0.0f) continue;  // a masked or unforced source token adds nothing, exactly
        // context += weights[s] · enc_out[s]
        for (long h = 0; h < Hd; ++h) ctx[h] += a * memory.outputs[static_cast<size_t>(s * Hd + h)];
      }
    }
    result.context.assign(context, context + Hd);
  }
  result.logits.resize(Vt);
  head_forward(1, w.dec.out.data(), context, w.concat.data(), w.dense.data(), result.logits.data());
  result.state.memory = state.memory;
  result.state.h = w.dec.h_last;
  result.state.c = w.dec.c_last;
  return result;
}

std::vector<float> Seq2SeqModel::source_embeddings(const std::vector<int32_t>& src) const {
  const long S = static_cast<long>(src.size()), E = config_.embedding_size();
  for (long s = 0; s < S; ++s) {
    if (src[s] < 0 || src[s] >= config_.src_vocab) {
      throw InputError("source id " + std::to_string(src[s]) + " at position " + std::to_string(s) +
                       " is outside the source vocabulary of " + std::to_string(config_.src_vocab));
    }
  }
  std::vector<float> out(static_cast<size_t>(S * E));  // (S, E)
  embedding_forward(out.data(), src.data(), p(ix_.enc_emb), S, config_.src_vocab, E);
  return out;
}

SourceEmbeddingGradient Seq2SeqModel::source_embedding_gradient(const Batch& batch,
                                                                const std::vector<float>& src_emb) {
  validate_batch(batch, config_);
  const long E = config_.embedding_size();
  if (static_cast<long>(src_emb.size()) != batch.B * batch.S * E) {
    throw InputError("source embeddings: " + std::to_string(src_emb.size()) +
                     " values, expected B·S·E = " + std::to_string(batch.B * batch.S * E));
  }
  const GradientsKeptAside training_grads(grads_, grads_valid_);
  // the given embeddings replace the looked-up ones for this forward only, whatever happens
  struct EndOverride {
    Seq2SeqModel& m;
    ~EndOverride() { m.src_emb_override_ = nullptr; }
  } end_override{*this};
  src_emb_override_ = src_emb.data();
  forward(batch);
  SourceEmbeddingGradient out;
  out.loss = ws_->loss;
  check_loss_finite(out.loss);
  backward(batch);
  out.logits = ws_->logits;
  out.grad = ws_->denc_emb;  // (B, S, E)
  return out;
}

}  // namespace lab
