// What the translators' sessions share for asking the model why (decode.h's interventions,
// attribution.h): a front end's named interventions resolved against the target vocabulary, and
// the comparison of an intervened decoding with the plain one.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sequence/decode.h"
#include "sequence/session_types.h"
#include "sequence/vocab.h"

namespace lab {

// force-token's word → its id ("<eos>" ends the translation there); InputError for a word the
// vocabulary does not have. `find` gives a target word's id, or −1 when it has none.
inline std::vector<Intervention> resolve_interventions(
    const std::vector<InterventionRequest>& requests,
    const std::function<int32_t(const std::string&)>& find) {
  std::vector<Intervention> out;
  for (size_t i = 0; i < requests.size(); ++i) {
    Intervention v = requests[i].intervention;
    if (v.kind == InterventionKind::kForceToken) {
      const std::string& word = requests[i].token;
      if (word.empty()) {
        throw InputError("intervention " + std::to_string(i) + " (force-token at step " +
                         std::to_string(v.step) + "): it needs a token, the word to write");
      }
      v.token = find(word);
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

// The words attribution explains: every step of the greedy translation, <eos> included when it
// was produced (so the rows match translate()'s steps).
inline std::vector<int32_t> attributed_words(const GreedyResult& greedy) {
  std::vector<int32_t> out;
  for (const GreedyStep& s : greedy.steps) out.push_back(s.token);
  return out;
}

// attribution(text)'s result for either session: the source tokens, the text of the greedy
// translation `greedy` (decoded with `options`) and its words' attribution by
// `attribute(words, attribution_options)`.
template <class Attribute>
SessionAttribution attribute_translation(std::vector<SourceToken> source, const Vocab& target_vocab,
                                         const GreedyResult& greedy, const DecodeOptions& options,
                                         AttributionOptions attribution_options,
                                         const Attribute& attribute) {
  SessionAttribution out;
  out.source = std::move(source);
  out.text = target_vocab.decode_text(greedy.tokens);
  attribution_options.sos_id = options.sos_id;
  out.attribution = attribute(attributed_words(greedy), attribution_options);
  for (int32_t id : out.attribution.target) out.words.push_back(target_vocab.token(id));
  return out;
}

}  // namespace lab
