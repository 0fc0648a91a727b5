// The recurrent translator's decoders (sequence/decode.h has the options, results and loops they
// share with the Transformer's): greedy and beam search over a Seq2SeqModel, and greedy decoding
// with interventions.
//
// Dimension letters as in tensor.h: S source length, Vt target vocabulary.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "rnn/model.h"
#include "sequence/decode.h"

namespace lab {

// Checks every intervention against the model, the source length S and the options before any
// decoding; the messages name the intervention by its index, kind and step. Throws InputError.
void validate_interventions(const std::vector<Intervention>& interventions,
                            const Seq2SeqConfig& config, long S, const DecodeOptions& options);

namespace decoding {

// The recurrent model's greedy loop, plain (greedy_decode, decode.cpp) or with interventions
// (intervention.cpp): step t runs the decoder under the attention edit edit_for(t) (null: none),
// and adjust(t, step, logp) may change the chosen step (a forced word) before it is appended.
template <class EditFor, class Adjust>
GreedyResult run_greedy(Seq2SeqModel& model, const std::vector<int32_t>& src,
                        const DecodeOptions& options, EditFor edit_for, Adjust adjust) {
  GreedyResult result;
  DecoderState state = model.encode(src);
  int32_t input = options.sos_id;
  for (long t = 0; t < options.max_length; ++t) {
    const AttentionEdit edit = edit_for(t);
    DecoderStepResult r = model.decoder_step(state, input, edit);
    const std::vector<double> logp = log_softmax(r.logits);
    GreedyStep step = greedy_choice(r.logits, logp, options.top_k);
    adjust(t, step, logp);
    step.edited_attention = edit != nullptr;
    step.attention = std::move(r.attention);
    step.logits = std::move(r.logits);
    step.context = std::move(r.context);
    if (!append_greedy_step(result, std::move(step), options.eos_id)) break;
    input = result.steps.back().token;
    state = std::move(r.state);
  }
  return result;
}

}  // namespace decoding

// src: source ids (all real tokens, no padding).
GreedyResult greedy_decode(Seq2SeqModel& model, const std::vector<int32_t>& src,
                           const DecodeOptions& options);
// The same search with interventions (intervention.cpp; validated first): each is applied at its
// step and decoding goes on from there; one whose step the decoding does not reach (it ended
// earlier) is an InputError. An empty list gives plain greedy decoding, bit for bit. A separate
// function, so that a build without interventions (the widgets' module) links none of it.
GreedyResult greedy_decode(Seq2SeqModel& model, const std::vector<int32_t>& src,
                           const DecodeOptions& options,
                           const std::vector<Intervention>& interventions);

// What a forced attention mixes, for InterventionComparison::encoder_outputs
// (sequence/translate.h): the encoder outputs of src (S, Hd), none without attention.
std::vector<float> attention_values(Seq2SeqModel& model, const std::vector<int32_t>& src);

// Keeps the beam_width best prefixes by log-probability; a prefix ending in <eos> leaves the beam
// as a finished hypothesis and the beam shrinks by one, so the search ends when beam_width
// hypotheses are finished (or at max_length). With beam_width 1 it is exactly greedy decoding.
BeamResult beam_search(Seq2SeqModel& model, const std::vector<int32_t>& src,
                       const DecodeOptions& options);

}  // namespace lab
