// The Transformer's side of its session (session.h): its config's checks and defaults, its
// model's config and Adam's warm-up schedule; the session's shared training, evaluation and
// translation (sequence/session_common.h) instantiated for it.
#include "transformer/session.h"

#include <string>

#include "sequence/session_common.h"

namespace lab {

template <>
TransformerConfig TransformerSession::model_config(const TransformerSessionConfig& c,
                                                   long src_vocab, long tgt_vocab) {
  return transformer_config(c, src_vocab, tgt_vocab);
}

void TransformerSessionConfig::validate() const {
  // The model's own limits: layers, heads dividing dModel, dModel, dFF.
  TransformerSession::check_config(*this);
  check_range(warmup, 0, kMaxWarmupSteps, "warmup (steps; 0: no warm-up)");
}

TransformerSessionConfig transformer_session_defaults(const std::string& task) {
  TransformerSessionConfig c;
  c.task = task;
  if (task == "dates" || task == "zh-en") {
    // The recipe tuned on dates (transformer/session.h); zh-en takes it with a second layer.
    c.layers = task == "dates" ? 1 : 2;
    c.heads = 4;
    c.d_model = 32;
    c.d_ff = 64;
    c.norm_first = true;
    c.batch_size = 32;
    c.learning_rate = 1e-2;
    c.warmup = 200;
  }
  return c;
}

template <>
void TransformerSession::update() {
  model_.adam_step_consuming_grads(adam_, config_.warmup);
}

// The teacher-forced loss alone: the Transformer's many attentions have no one alignment.
template <>
float TransformerSession::score_chunk(const std::vector<Example>&, const Batch& batch,
                                      AlignmentCount&) {
  return model_.loss_only(batch);
}

template class TranslatorSession<TransformerSessionConfig>;

}  // namespace lab
