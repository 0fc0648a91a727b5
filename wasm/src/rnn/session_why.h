// The recurrent translator's side of the ask-why plumbing that sequence/session_why.h shares.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rnn/model.h"
#include "sequence/session_why.h"

namespace lab {

// compare_with_original for a recurrent model, with the encoder outputs of src the contexts mix.
inline InterventionComparison compare_with_original(GreedyResult original,
                                                    std::string original_text,
                                                    const GreedyResult& intervened,
                                                    Seq2SeqModel& model,
                                                    const std::vector<int32_t>& src) {
  InterventionComparison cmp =
      compare_with_original(std::move(original), std::move(original_text), intervened);
  if (model.config().attention) cmp.encoder_outputs = model.encode(src).memory->outputs;
  return cmp;
}

}  // namespace lab
