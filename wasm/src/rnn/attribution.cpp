// The recurrent translator's attribution (rnn/attribution.h) through sequence/attribution.h's
// methods, with its teacher-forced attention beside it.
#include "rnn/attribution.h"

#include <algorithm>

namespace lab {

AttributionResult attribute(Seq2SeqModel& model, const std::vector<int32_t>& src,
                            const std::vector<int32_t>& target, const AttributionOptions& options) {
  const Seq2SeqConfig& config = model.config();
  return attribute_model(
      model, src, target, options, config.embedding_size(), 0, [&](const Batch& batch) {
        // Teacher-forced attention of each output word: row t of batch row t (every row is the
        // same).
        std::vector<float> attention;
        if (!config.attention) return attention;
        const long S = batch.S, T = batch.T;
        const Seq2SeqOutputs out = model.evaluate(batch);
        attention.resize(static_cast<size_t>(T * S));
        for (long t = 0; t < T; ++t) {
          std::copy_n(out.attention.data.begin() + (t * T + t) * S, S, attention.begin() + t * S);
        }
        return attention;
      });
}

}  // namespace lab
