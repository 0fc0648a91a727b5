// The recurrent translator's greedy decoding and beam search: sequence/decode.h's loops over
// Seq2SeqModel's encoder and decoder step.
#include "rnn/decode.h"

namespace lab {

using namespace decoding;

GreedyResult greedy_decode(Seq2SeqModel& model, const std::vector<int32_t>& src,
                           const DecodeOptions& options) {
  options.validate(model.config().tgt_vocab);
  return run_greedy(
      model, src, options, [](long) { return AttentionEdit(); },
      [](long, GreedyStep&, const std::vector<double>&) {});
}

BeamResult beam_search(Seq2SeqModel& model, const std::vector<int32_t>& src,
                       const DecodeOptions& options) {
  options.validate(model.config().tgt_vocab);
  BeamResult result;
  run_beam(
      result, model.encode(src), options,
      [&](const DecoderState& state, int32_t input) { return model.decoder_step(state, input); },
      [](long, BeamNode& node, const DecoderStepResult& r) { node.attention = r.attention; });
  return result;
}

}  // namespace lab
