// Internal to the seq2seq model (model*.cpp): the scratch buffers of one batch shape and the
// output head shared by the batched forward and the single decoder step. Dimension letters as in
// model.h.
#pragma once

#include <vector>

#include "attention/core.h"
#include "rnn/cells.h"
#include "rnn/model.h"

namespace lab {

// Everything one forward/backward of a (B, S, T) batch writes. Allocated by resize() when the
// batch shape changes (std::vector keeps its capacity, so alternating shapes do not reallocate).
struct Seq2SeqModel::Workspace {
  long B = -1, S = -1, T = -1;
  float loss = 0.0f;
  std::vector<float> enc_emb;    // (B, S, E) source embeddings
  std::vector<float> dec_emb;    // (B, T, E) decoder-input embeddings
  std::vector<int32_t> dec_len;  // (B) all T: the decoder runs every step, the loss skips pads
  CellActivations enc, dec;      // enc.out (B, S, Hd), dec.out (B, T, Hd)
  // Input projections through the vocabulary (projects_by_vocabulary, model.cpp): whether this
  // forward took that path, and its tables (Vs or Vt, G·Hd) with their gradients, sized only when
  // it does (then smaller than the (B·S, G·Hd) buffers, so a large vocabulary costs nothing).
  bool enc_by_vocab = false, dec_by_vocab = false;
  std::vector<float> enc_table, dec_table, denc_table, ddec_table;
  CellScratch enc_scratch, dec_scratch;
  // The attention of the decoder outputs dec.out (queries) over the encoder outputs enc.out (keys
  // and values), on the model's buffers (attention/core.h):
  std::vector<uint8_t> keep;         // (B, T, S) 1 where s < src_len[b]
  Tensor attn_weights;               // (B, T, S) (evaluate returns it)
  std::vector<float> context;        // (B, T, Hd)
  attn::ScoreActsBuffer score_acts;  // what the score's backward needs
  attn::AttentionScratch attn_scratch;
  std::vector<float> concat;  // (B, T, 2Hd) [dec_out; context]
  std::vector<float> dense;   // (B, T, Hd) tanh(W_c concat + b_c)
  std::vector<float> logits;  // (B, T, Vt)
  std::vector<float> probs;   // (B, T, Vt) softmax of the logits, kept for the loss gradient
  // Gradients of the activations above (accumulated with +=, zeroed per backward; ddec_out is
  // assigned first).
  std::vector<float> dlogits;     // (B, T, Vt)
  std::vector<float> dfeature;    // (B, T, F)
  std::vector<float> ddense_pre;  // (B, T, Hd) before the tanh
  std::vector<float> dconcat;     // (B, T, 2Hd)
  std::vector<float> dcontext;    // (B, T, Hd)
  std::vector<float> ddec_out;    // (B, T, Hd)
  std::vector<float> denc_out;    // (B, S, Hd)
  std::vector<float> ddec_emb;    // (B, T, E)
  std::vector<float> denc_emb;    // (B, S, E)
  std::vector<float> dh0, dc0;    // (B, Hd) decoder's initial state = encoder's final state

  void resize(const Seq2SeqConfig& config, long B, long S, long T);
};

// F: width of the features entering the output layer.
long output_features(const Seq2SeqConfig& config);

// Diverged weights surface first as non-finite recurrent states: throws NonFiniteError saying so,
// before the attention layer would reject its (internal) query with a confusing message.
void throw_if_diverged(const std::vector<float>& states);
// Finite states can still give scores that overflow float32: throws InputError saying so.
void throw_if_overflowed(const kernels::SoftmaxStatus& status);

// t takes this shape in the buffer it has (model_params.cpp says why).
void reshape_in_place(Tensor& t, std::vector<long> shape);

// A Seq2Seq step that attends over the source: the additive score's hidden size A = Hd.
long additive_size(const Seq2SeqConfig& config);

}  // namespace lab
