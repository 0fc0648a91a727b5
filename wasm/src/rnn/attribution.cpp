// The recurrent translator's attribution (rnn/attribution.h) through sequence/attribution.h's
// methods, with its teacher-forced attention beside it.
#include "rnn/attribution.h"

#include <algorithm>

namespace lab {

AttributionResult attribute(Seq2SeqModel& model, const std::vector<int32_t>& src,
                            const std::vector<int32_t>& target, const AttributionOptions& options) {
  options.validate();
  const Seq2SeqConfig& config = model.config();
  check_attributed_words(target, config.tgt_vocab);
  const long S = static_cast<long>(src.size()), T = static_cast<long>(target.size());
  const Batch batch = attribution_batch(src, target, options.sos_id);
  const std::vector<float> x = model.source_embeddings(src);  // (S, E)
  AttributionResult result =
      attribute_embeddings(x, S, config.embedding_size(), config.tgt_vocab, target, options,
                           [&](const std::vector<float>& src_emb) {
                             return model.source_embedding_gradient(batch, src_emb);
                           });
  if (config.attention) {
    // Teacher-forced attention of each output word: row t of batch row t (every row is the same).
    const Seq2SeqOutputs out = model.evaluate(batch);
    result.attention.resize(static_cast<size_t>(T * S));
    for (long t = 0; t < T; ++t) {
      std::copy_n(out.attention.data.begin() + (t * T + t) * S, S,
                  result.attention.begin() + t * S);
    }
  }
  set_rank_correlation(result);
  return result;
}

}  // namespace lab
