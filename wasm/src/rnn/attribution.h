// The recurrent translator's attribution of its output words to its source tokens
// (sequence/attribution.h has the methods, gradient × input and integrated gradients, which it
// shares with the Transformer's transformer/attribution.h).
#pragma once

#include <cstdint>
#include <vector>

#include "rnn/model.h"
#include "sequence/attribution.h"

namespace lab {

// src: source ids (S ≥ 1, no padding); target: the output words (T ≥ 1, <eos> included if it
// is one of them), fed back teacher-forced after <sos>. Throws InputError for bad ids or options.
AttributionResult attribute(Seq2SeqModel& model, const std::vector<int32_t>& src,
                            const std::vector<int32_t>& target, const AttributionOptions& options);

}  // namespace lab
