// Asking a translator session why (sequence/translator_session.h): translate with interventions
// beside the plain translation (translate.h), the attribution of the greedy translation's words
// (attribution.h) and the training timeline (timeline.h). Each model's session_why.cpp
// instantiates these members, so that a build that binds none of them (the widgets' modules)
// links none of this.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sequence/attribution.h"
#include "sequence/decode.h"
#include "sequence/session_common.h"
#include "sequence/session_types.h"
#include "sequence/translate.h"
#include "sequence/translator_session.h"
#include "sequence/vocab.h"

namespace lab {

// The words attribution explains: every step of the greedy translation, <eos> included when it
// was produced (so the rows match translate()'s steps).
inline std::vector<int32_t> attributed_words(const GreedyResult& greedy) {
  std::vector<int32_t> out;
  for (const GreedyStep& s : greedy.steps) out.push_back(s.token);
  return out;
}

// attribution(text)'s result: the source tokens, the text of the greedy
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

template <class Config>
auto TranslatorSession<Config>::translate_intervened(const std::string& typed,
                                                     const TranslateOptions& options)
    -> Translation {
  if (options.beam) throw InputError("interventions need greedy decoding: leave out beam");
  Translation result;
  Encoded encoded;
  DecodeOptions opt;
  start_translation(typed, options, result, encoded, opt);
  decode_intervened(result, model_, encoded.ids, opt, options.interventions, task_->target_vocab());
  return result;
}

template <class Config>
void TranslatorSession<Config>::record_timeline(const std::string& probe, long every,
                                                long capacity) {
  const std::string text = task_->input_text(probe);
  const Encoded encoded = encode(text);
  DecodeOptions opt = decode_defaults(task_->max_target_tokens());
  opt.top_k = 1;
  timeline_.start(encoded.ids, every, capacity, step_, opt, probe_decoder());
  timeline_probe_ = session_common::source_tokens(text, task_->source_vocab(), encoded);
  timeline_after_step_ = [](TranslatorSession& s) {
    s.timeline_.after_step(s.step_, s.probe_decoder());
  };
}

template <class Config>
SessionAttribution TranslatorSession<Config>::attribution(const std::string& typed,
                                                          const AttributionRequest& request) {
  request.options.validate();
  const std::string text = task_->input_text(typed);
  const Encoded encoded = encode(text);
  DecodeOptions opt = decode_defaults(task_->max_target_tokens());
  if (request.max_length) opt.max_length = *request.max_length;
  opt.top_k = 1;
  return attribute_translation(
      session_common::source_tokens(text, task_->source_vocab(), encoded), task_->target_vocab(),
      decoded(greedy_decode(model_, encoded.ids, opt)), opt, request.options,
      [&](const std::vector<int32_t>& words, const AttributionOptions& options) {
        return attribute(model_, encoded.ids, words, options);
      });
}

}  // namespace lab
