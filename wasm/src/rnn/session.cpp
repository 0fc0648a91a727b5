// The recurrent translator's side of its session (session.h): its config's checks, its model's
// config and Adam step, and evaluation's alignment count; the session's shared training,
// evaluation and translation (sequence/session_common.h) instantiated for it.
#include "rnn/session.h"

#include <string>

#include "sequence/alignment.h"
#include "sequence/session_common.h"

namespace lab {

long default_batch_size(const std::string& task) {
  return task == "note" ? 1 : 32;
}

template <>
Seq2SeqConfig Seq2SeqSession::model_config(const SessionConfig& c, long src_vocab, long tgt_vocab) {
  return seq2seq_config(c, src_vocab, tgt_vocab);
}

void SessionConfig::validate() const {
  // The model's own limits: hidden and embedding sizes, cell, score, attentional tanh.
  Seq2SeqSession::check_config(*this);
}

template <>
void Seq2SeqSession::update() {
  model_.adam_step_consuming_grads(adam_);
}

// The teacher-forced pass with the attention, whose argmax on each target token is scored
// against the example's alignment.
template <>
float Seq2SeqSession::score_chunk(const std::vector<Example>& chunk, const Batch& batch,
                                  AlignmentCount& alignment) {
  const Seq2SeqOutputs out = model_.evaluate(batch);
  for (long b = 0; b < batch.B && !out.attention.data.empty(); ++b) {  // (B, T, S)
    const AlignmentCount c = count_alignment(out.attention.data.data() + b * batch.T * batch.S,
                                             batch.S, batch.src_len[static_cast<size_t>(b)],
                                             chunk[static_cast<size_t>(b)].alignment);
    alignment.hits += c.hits;
    alignment.scored += c.scored;
  }
  return out.loss;
}

template class TranslatorSession<SessionConfig>;

}  // namespace lab
