// The note's sequence-to-sequence translator (§3.3): embedding + recurrent encoder, embedding +
// recurrent decoder started from the encoder's last state, optionally Luong attention of every
// decoder output over the encoder outputs, and a linear layer to the target vocabulary.
//
//   plain:            logits = Linear(dec_out)                                  (Hd → Vt)
//   attention:        context = attention(dec_out, enc_out), logits = Linear([dec_out; context])
//   attentional_tanh: logits = Linear(tanh(W_c [dec_out; context] + b_c))      (2Hd → Hd → Vt)
//
// Shapes use tensor.h's dimension letters (S source and T target length, E, Hd, Vs, Vt, F, P).
//
// Token id kPadId (batch.h) is padding in both vocabularies: sources are padded after their
// length, targets with it, and the loss ignores target positions equal to it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "attention/score.h"
#include "optim.h"
#include "params.h"
#include "rnn/cells.h"
#include "sequence/attribution.h"  // SourceEmbeddingGradient
#include "sequence/batch.h"
#include "sequence/decode.h"  // AttentionEdit
#include "tensor.h"

namespace lab {

struct Seq2SeqConfig {
  CellKind cell = CellKind::kRnn;
  long hidden = 128;   // Hd
  long embedding = 0;  // E; 0 means "same as hidden", as in the note
  long src_vocab = 0;  // Vs, padding id 0 included
  long tgt_vocab = 0;  // Vt, padding id 0 included
  bool attention = true;
  Score score = Score::kDot;      // the note's dec_out · enc_outᵀ
  bool attentional_tanh = false;  // Luong's tanh(W_c [dec; ctx] + b_c) layer; needs attention
  uint64_t seed = 0;

  long embedding_size() const { return embedding ? embedding : hidden; }
  // Throws InputError for absurd or inconsistent values, before anything is allocated.
  void validate() const;
};

// The model config of a config that names the architecture with Seq2SeqConfig's field names
// (the session's SessionConfig, the interchange file's InterchangeConfig), for the given
// vocabulary sizes. The seed is left 0: only a session has one.
template <class Architecture>
Seq2SeqConfig seq2seq_config(const Architecture& a, long src_vocab, long tgt_vocab) {
  Seq2SeqConfig m;
  m.cell = a.cell;
  m.hidden = a.hidden;
  m.embedding = a.embedding;
  m.attention = a.attention;
  m.score = a.score;
  m.attentional_tanh = a.attentional_tanh;
  m.src_vocab = src_vocab;
  m.tgt_vocab = tgt_vocab;
  return m;
}

// Checks a padded, teacher-forced Batch (batch.h) against the model: sizes, lengths in [1, S],
// every id inside its vocabulary. Throws InputError naming the array, position and problem.
void validate_batch(const Batch& batch, const Seq2SeqConfig& config);

// Whether the training forward projects a cell's embedded input through its vocabulary of V
// entries (once per entry) rather than row by row, for `rows` = B·S ids (model.cpp says how).
// The reference and finite-difference tests check that their batches take both paths.
bool projects_by_vocabulary(long V, long rows);

// Teacher-forced results for a batch (the heatmap of the note uses `attention`).
struct Seq2SeqOutputs {
  float loss = 0.0f;
  Tensor logits;     // (B, T, Vt)
  Tensor attention;  // (B, T, S) weights of each target step over the source; empty w/o attention
};

// The encoder's outputs for one source sentence, shared by every decoder state (and beam).
struct EncoderMemory {
  long S = 0;                  // source length (no padding at inference)
  std::vector<float> outputs;  // (S, Hd) encoder output at every source position
};

// Decoder state between autoregressive steps.
struct DecoderState {
  std::shared_ptr<const EncoderMemory> memory;
  std::vector<float> h;  // (Hd)
  std::vector<float> c;  // (Hd) LSTM only, else empty
};

struct DecoderStepResult {
  DecoderState state;
  std::vector<float> logits;     // (Vt)
  std::vector<float> attention;  // (S) weights over source tokens; empty without attention
  std::vector<float> context;    // (Hd) Σ_s attention[s] · enc_out[s]; empty without attention
};

class Seq2SeqModel : public ParamStore {
 public:
  explicit Seq2SeqModel(const Seq2SeqConfig& config);
  // Movable, not copyable (a copy would share scratch buffers): snapshot weights via params().
  Seq2SeqModel(const Seq2SeqModel&) = delete;
  Seq2SeqModel& operator=(const Seq2SeqModel&) = delete;
  Seq2SeqModel(Seq2SeqModel&&) = default;
  Seq2SeqModel& operator=(Seq2SeqModel&&) = default;

  using Config = Seq2SeqConfig;
  const Seq2SeqConfig& config() const { return config_; }

  // ---- parameters: ParamStore's flat buffer, gradients, named views and Adam state
  // Re-draws every weight from config().seed (PyTorch-style init) and resets Adam.
  void reset_parameters();

  // ---- training
  // Zeroes the gradients, then computes the mean cross-entropy over non-pad targets and every
  // parameter's gradient. Throws NonFiniteError if the loss is NaN/Inf (gradients then invalid).
  float forward_backward(const Batch& batch);
  float loss_only(const Batch& batch);
  Seq2SeqOutputs evaluate(const Batch& batch);  // loss, logits and attention, no grads

  // One torch.optim.Adam step with the gradients of the last forward_backward. Throws (and
  // leaves weights and optimiser state untouched) if the options are invalid, the last loss or
  // the gradient norm was not finite, or a weight would become NaN/Inf.
  void adam_step(float lr, float beta1 = 0.9f, float beta2 = 0.999f, float eps = 1e-8f,
                 float weight_decay = 0.0f);
  void adam_step(const AdamOptions& options);
  // adam_step, after which the gradients are spent: zeroed in the update's own pass, so the next
  // backward need not clear them (a training loop's step; grads() then reads zeros, and another
  // adam_step needs another forward_backward).
  void adam_step_consuming_grads(const AdamOptions& options);
  // (B, T, Vt) logits of the last forward_backward / loss_only / evaluate: what the trainer reads
  // the token accuracy of a training batch from, without a second forward pass.
  const std::vector<float>& last_logits() const;

  // ---- inference, one sentence at a time
  // Runs the encoder over src[0, length) (length = src.size() when negative) and returns the
  // decoder's initial state: the encoder's last state plus its outputs for attention.
  DecoderState encode(const std::vector<int32_t>& src, long length = -1);
  // One real autoregressive step: feed `token` (Vt id) into the decoder. With `edit`, the
  // context is computed from the edited weights (which the result's attention then holds):
  //   context = Σ_s weights[s] · enc_out[s]
  // so a one-hot row on source j gives exactly encoder output j.
  DecoderStepResult decoder_step(const DecoderState& state, int32_t token,
                                 const AttentionEdit& edit = nullptr);

  // The teacher-forced loss of `batch` with the source embeddings src_emb (B, S, E) in place of
  // the looked-up ones, and its gradient with respect to them: the core's own backward pass.
  // The parameter gradients (and whether they are valid for an Adam step) are left as they were.
  SourceEmbeddingGradient source_embedding_gradient(const Batch& batch,
                                                    const std::vector<float>& src_emb);
  // encoder.embedding[src]   (S·E): the input that attribution scales.
  std::vector<float> source_embeddings(const std::vector<int32_t>& src) const;

  struct Workspace;  // scratch buffers of one batch shape (model_workspace.h)

 private:
  void build_table();
  void forward(const Batch& batch);
  void backward(const Batch& batch);
  const float* p(int index) const {
    return index < 0 ? nullptr : params_.data() + table_[static_cast<size_t>(index)].offset;
  }
  float* g(int index) {
    return index < 0 ? nullptr : grads_.data() + table_[static_cast<size_t>(index)].offset;
  }
  CellWeights cell_weights(bool decoder) const;
  CellGrads cell_grads(bool decoder);
  // The score's weights: views into params_ (none but for general and additive).
  attn::ScoreWeights score_weights() const;
  // The layers after the decoder cell for R rows: concat = [dec_out; context], dense =
  // tanh(W_c concat + b_c), logits = feature W_outᵀ + b_out. Returns the feature rows (R, F).
  const float* head_forward(long R, const float* dec_out, const float* context, float* concat,
                            float* dense, float* logits) const;

  Seq2SeqConfig config_;
  const float* src_emb_override_ = nullptr;  // (B, S, E) forward's source embeddings, if set
  std::shared_ptr<Workspace> ws_;       // training scratch, resized when the batch shape changes
  std::shared_ptr<Workspace> step_ws_;  // B = 1 scratch for encode / decoder_step

  // Indices into table_ of each parameter (−1 when the config does not have it).
  struct Index {
    int enc_emb = -1, enc_w_ih = -1, enc_w_hh = -1, enc_b_ih = -1, enc_b_hh = -1;
    int dec_emb = -1, dec_w_ih = -1, dec_w_hh = -1, dec_b_ih = -1, dec_b_hh = -1;
    int att_w = -1, att_w1 = -1, att_w2 = -1, att_b = -1, att_v = -1;
    int dense_w = -1, dense_b = -1, out_w = -1, out_b = -1;
  } ix_;
};

}  // namespace lab
