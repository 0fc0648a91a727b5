// A translation's decoding, the same for every translator (the sessions of
// sequence/translator_session.h and the models read from .safetensors files): greedy or beam
// search, or greedy decoding with interventions beside the plain decoding. `Model` is any model
// whose own functions are greedy_decode(model, src, options[, interventions]),
// beam_search(model, src, options) and attention_values(model, src), each found by the model's
// type; `TargetVocab` is a session's Vocab or a file's FileVocab (decode_text, find).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sequence/decode.h"
#include "sequence/session_types.h"

namespace lab {

// force-token's word → its id in `target_vocab` ("<eos>" ends the translation there; a session's
// Vocab or a file's FileVocab); InputError for a word the vocabulary does not have.
template <class TargetVocab>
std::vector<Intervention> resolve_interventions(const std::vector<InterventionRequest>& requests,
                                                const TargetVocab& target_vocab) {
  std::vector<Intervention> out;
  for (size_t i = 0; i < requests.size(); ++i) {
    Intervention v = requests[i].intervention;
    if (v.kind == InterventionKind::kForceToken) {
      const std::string& word = requests[i].token;
      if (word.empty()) {
        throw InputError("intervention " + std::to_string(i) + " (force-token at step " +
                         std::to_string(v.step) + "): it needs a token, the word to write");
      }
      v.token = target_vocab.find(word);
      if (v.token < 0) {
        throw InputError("intervention " + std::to_string(i) + " (force-token at step " +
                         std::to_string(v.step) + "): '" + word +
                         "' is not in the target vocabulary");
      }
    }
    out.push_back(std::move(v));
  }
  return out;
}

// Marks each step of `intervened` whose token differs from `original`'s at the same step (or
// that the original never reached).
inline InterventionComparison compare_with_original(GreedyResult original,
                                                    std::string original_text,
                                                    const GreedyResult& intervened) {
  InterventionComparison cmp;
  cmp.original = std::move(original);
  cmp.original_text = std::move(original_text);
  const std::vector<GreedyStep>& orig = cmp.original.steps;
  cmp.changed.resize(intervened.steps.size());
  for (size_t t = 0; t < intervened.steps.size(); ++t) {
    const bool differs = t >= orig.size() || orig[t].token != intervened.steps[t].token;
    cmp.changed[t] = differs ? 1 : 0;
    if (differs && cmp.first_change < 0) cmp.first_change = static_cast<long>(t);
  }
  return cmp;
}

// Decodes `src` greedily into r.greedy, or with `beam` by beam search into r.beam (and the texts
// of its hypotheses), then r.output, r.finished and r.text. r.source is the caller's.
template <class Translation, class Model, class TargetVocab>
void decode_translation(Translation& r, Model& model, const std::vector<int32_t>& src,
                        const DecodeOptions& options, bool beam, const TargetVocab& target_vocab) {
  if (!beam) {
    r.greedy = greedy_decode(model, src, options);
    r.output = decoded(r.greedy).tokens;
    r.finished = decoded(r.greedy).finished;
  } else {
    r.beam_width = options.beam_width;
    r.beam = beam_search(model, src, options);
    r.output = decoded(r.beam).tokens;
    r.finished = beam_texts(decoded(r.beam), target_vocab, r.hypothesis_texts);
  }
  r.text = target_vocab.decode_text(r.output);
}

// Decodes `src` greedily with the interventions `requests` (force-token's words looked up in
// target_vocab; the model's decoder checks them all first) into r.greedy, and plainly beside it
// into r.intervention, with the values a forced attention mixes (attention_values(model, src)).
template <class Translation, class Model, class TargetVocab>
void decode_intervened(Translation& r, Model& model, const std::vector<int32_t>& src,
                       const DecodeOptions& options,
                       const std::vector<InterventionRequest>& requests,
                       const TargetVocab& target_vocab) {
  r.greedy = greedy_decode(model, src, options, resolve_interventions(requests, target_vocab));
  GreedyResult original = decoded(greedy_decode(model, src, options));
  std::string original_text = target_vocab.decode_text(original.tokens);
  r.intervention =
      compare_with_original(std::move(original), std::move(original_text), decoded(r.greedy));
  r.intervention->encoder_outputs = attention_values(model, src);
  r.output = decoded(r.greedy).tokens;
  r.finished = decoded(r.greedy).finished;
  r.text = target_vocab.decode_text(r.output);
}

}  // namespace lab
