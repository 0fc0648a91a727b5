// An encoder-decoder Transformer (Vaswani et al. 2017) matching PyTorch's
//
//   x = src_embedding(src) · √Dm + pe[:S],   y = tgt_embedding(tgt_in) · √Dm + pe[:T]
//   h = nn.Transformer(Dm, H, L, L, F, dropout=0, batch_first=True, norm_first)(x, y,
//         tgt_mask=causal(T), src_key_padding_mask=src_pad, tgt_key_padding_mask=tgt_pad,
//         memory_key_padding_mask=src_pad)
//   logits = out(h)
//
// parameter for parameter (state-dict names and layouts, transformer/model_params.cpp) and number
// for number (tests/reference/gen_transformer.py). Every layer of layers.h, then the final
// encoder / decoder LayerNorms nn.Transformer always adds, then the output Linear.
//
// Dimension letters (besides tensor.h's):
//   L  layers (of the encoder, and of the decoder)   Dm model size     F feed-forward size
//   S  source length     T target length (decoder inputs)     Vs / Vt source / target vocabulary
//   P  number of parameters
//
// Padding: token id 0 in both vocabularies (kPadId). Source positions at or past a row's
// src_len are padding (src_key_padding_mask and memory_key_padding_mask); decoder inputs equal
// to 0 are padding (tgt_key_padding_mask); the loss ignores targets equal to 0. Every row must
// keep one real key for every query: src_len ≥ 1 and tgt_in[b, 0] ≠ 0 (validate_batch checks).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "optim.h"
#include "params.h"                // ParamView
#include "sequence/attribution.h"  // SourceEmbeddingGradient
#include "sequence/batch.h"
#include "tensor.h"
#include "transformer/layers.h"

namespace lab {

// Longest source or target sequence: the size of the positional-encoding table.
constexpr long kTransformerMaxLen = 256;
constexpr long kTransformerMaxLayers = 6;

struct TransformerConfig {
  long layers = 2;    // L, encoder layers = decoder layers
  long heads = 2;     // H, must divide d_model
  long d_model = 32;  // Dm
  long d_ff = 64;     // F
  bool norm_first = false;
  long src_vocab = 0;  // Vs, padding id 0 included
  long tgt_vocab = 0;  // Vt, padding id 0 included
  uint64_t seed = 0;

  // Throws InputError naming the problem, before anything is allocated.
  void validate() const;
};

// The architecture's five sizes (layers, heads, d_model, d_ff, norm_first), copied between the
// configs that carry them: the model's, a session's, an interchange file's.
template <class To, class From>
void copy_transformer_sizes(To& to, const From& from) {
  to.layers = from.layers;
  to.heads = from.heads;
  to.d_model = from.d_model;
  to.d_ff = from.d_ff;
  to.norm_first = from.norm_first;
}

// The model config of a config that carries the five sizes (a session's, an interchange file's),
// for the given vocabulary sizes, as seq2seq_config (rnn/model.h). The seed is left 0: only a
// session has one.
template <class Architecture>
TransformerConfig transformer_config(const Architecture& a, long src_vocab, long tgt_vocab) {
  TransformerConfig m;
  copy_transformer_sizes(m, a);
  m.src_vocab = src_vocab;
  m.tgt_vocab = tgt_vocab;
  return m;
}

void validate_batch(const Batch& batch, const TransformerConfig& config);

// Attention weights of every layer for one teacher-forced batch.
struct TransformerAttention {
  std::vector<Tensor> encoder_self;  // L × (B, H, S, S)
  std::vector<Tensor> decoder_self;  // L × (B, H, T, T), 0 above the diagonal
  std::vector<Tensor> cross;         // L × (B, H, T, S)
};

struct TransformerOutputs {
  float loss = 0.0f;
  Tensor logits;  // (B, T, Vt)
  TransformerAttention attention;
};

// Linear warm-up then inverse-square-root decay (Vaswani et al. 2017, eq. 3, "Noam"), scaled
// so that the peak, reached at step == warmup, is `peak_lr`:
//   lr(step) = peak_lr · min(step / warmup, √(warmup / step)),   step counted from 1.
// warmup = 0 means no schedule (peak_lr at every step). Throws InputError for step < 1.
float warmup_lr(float peak_lr, long step, long warmup);

struct TransformerWorkspace;  // training scratch (transformer/workspace.h)

class TransformerModel : public ParamStore {
 public:
  explicit TransformerModel(const TransformerConfig& config);
  TransformerModel(const TransformerModel&) = delete;
  TransformerModel& operator=(const TransformerModel&) = delete;
  // Movable (defined where the workspace type is complete), not copyable.
  TransformerModel(TransformerModel&&) noexcept;
  TransformerModel& operator=(TransformerModel&&) noexcept;
  ~TransformerModel();

  using Config = TransformerConfig;
  const TransformerConfig& config() const { return config_; }

  // ---- parameters: ParamStore's flat buffer, gradients, named views and Adam state
  // PyTorch's init from config().seed, except the embeddings: N(0, 1/Dm) (Vaswani et al.; see
  // model_params.cpp) where nn.Embedding has N(0, 1); nn.Transformer's xavier_uniform_ on
  // every matrix; attention biases 0; linear1/2 biases U(±1/√fan_in); LayerNorms 1 and 0; out
  // as nn.Linear. Resets Adam.
  void reset_parameters();
  const std::vector<float>& positional_table() const { return pe_; }  // (kTransformerMaxLen, Dm)

  // ---- training
  // Zeroes the gradients, computes the mean cross-entropy over non-pad targets and every
  // parameter's gradient. Throws NonFiniteError if the loss is NaN/Inf.
  float forward_backward(const Batch& batch);
  float loss_only(const Batch& batch);
  TransformerOutputs evaluate(const Batch& batch);  // loss, logits, every attention map
  // torch.optim.Adam step (optim.h). With warmup > 0 the rate is warmup_lr(options.lr,
  // step, warmup) for the step about to be taken.
  void adam_step(const AdamOptions& options, long warmup = 0);
  // adam_step, after which the gradients are spent (ParamStore::step_adam_consuming_grads: a
  // training loop's step; the next backward need not clear them).
  void adam_step_consuming_grads(const AdamOptions& options, long warmup = 0);
  const std::vector<float>& last_logits() const;  // (B, T, Vt) of the last forward

  // ---- attribution (transformer/attribution.cpp)
  // The teacher-forced loss of `batch` with the source token embeddings src_emb (B, S, Dm) in
  // place of the looked-up src_embedding[src] (still scaled by √Dm, still plus pe), and its
  // gradient with respect to them. The parameter gradients (and whether they are valid for an
  // Adam step) are left as they were.
  SourceEmbeddingGradient source_embedding_gradient(const Batch& batch,
                                                    const std::vector<float>& src_emb);
  // src_embedding[src] (S, Dm): the input that attribution scales. Throws InputError for bad ids.
  std::vector<float> source_embeddings(const std::vector<int32_t>& src) const;

 private:
  void build_table();
  // padded_rows: also compute the encoder's padded rows, which the loss never reads (evaluate's
  // attention maps show their queries); without it they are skipped and left finite.
  void forward(const Batch& batch, bool padded_rows = false);
  // forward's two halves, around the source embedding (x = src_embedding[src] · √Dm + pe):
  // masks and scratch for the batch's shape; then everything from x to the loss.
  void forward_begin(const Batch& batch);
  void forward_from_source(const Batch& batch, bool padded_rows = false);
  void backward(const Batch& batch);
  EncoderLayerW enc_w(long l) const;
  DecoderLayerW dec_w(long l) const;
  EncoderLayerG enc_g(long l);
  DecoderLayerG dec_g(long l);
  const float* p(long off) const { return params_.data() + off; }
  float* g(long off) { return grads_.data() + off; }

  TransformerConfig config_;
  std::vector<float> pe_;  // (kTransformerMaxLen, Dm)
  std::unique_ptr<TransformerWorkspace> ws_;

  // Offsets into params_ / grads_ of every parameter.
  struct Offsets {
    long src_emb = 0, tgt_emb = 0, out_w = 0, out_b = 0;
    std::vector<EncoderLayerP<long>> enc;
    std::vector<DecoderLayerP<long>> dec;
    LayerNormP<long> enc_norm{}, dec_norm{};
  } off_;

 public:
  // For transformer/decode.cpp: the weight pointers of the embeddings, final norms and output.
  const float* src_embedding() const { return p(off_.src_emb); }
  const float* tgt_embedding() const { return p(off_.tgt_emb); }
  LayerNormP<const float*> enc_norm_w() const { return {p(off_.enc_norm.w), p(off_.enc_norm.b)}; }
  LayerNormP<const float*> dec_norm_w() const { return {p(off_.dec_norm.w), p(off_.dec_norm.b)}; }
  const float* out_w() const { return p(off_.out_w); }
  const float* out_b() const { return p(off_.out_b); }
  EncoderLayerW encoder_layer(long l) const { return enc_w(l); }
  DecoderLayerW decoder_layer(long l) const { return dec_w(l); }
  LayerDims dims() const {
    return {config_.d_model, config_.heads, config_.d_ff, config_.norm_first};
  }
};

}  // namespace lab
