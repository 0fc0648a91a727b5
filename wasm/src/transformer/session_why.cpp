// Asking a TransformerSession why (session.h): the attribution of the greedy translation's words
// and the training timeline, as sequence/session_why.cpp does for the recurrent session. Their own
// file, reached only through attribution / record_timeline, so a build that binds neither (the
// widgets' module) links none of this. (translate's interventions are session.cpp's.)
#include "sequence/session_why.h"

#include <string>
#include <vector>

#include "sequence/session_common.h"
#include "sequence/vocab.h"
#include "transformer/attribution.h"
#include "transformer/session.h"

namespace lab {

using namespace session_common;

namespace {

// The timeline's decoder: greedy decoding of the session's model, the steps' attention being
// each step's rollout onto the source (what translate() gives).
auto probe_decoder(const TransformerModel& model) {
  return [&model](const std::vector<int32_t>& probe, const DecodeOptions& options) {
    return transformer_greedy_decode(model, probe, options).result;
  };
}

}  // namespace

void TransformerSession::record_timeline(const std::string& probe, long every, long capacity) {
  const std::string text = task_->input_text(probe);
  const Encoded encoded = task_->source_vocab().encode(text, kTransformerMaxLen);
  DecodeOptions opt = decode_defaults(task_->max_target_tokens());
  opt.top_k = 1;
  timeline_.start(encoded.ids, every, capacity, step_, opt, probe_decoder(model_));
  timeline_probe_ = source_tokens(text, task_->source_vocab(), encoded);
  timeline_after_step_ = [](TransformerSession& s) {
    s.timeline_.after_step(s.step_, probe_decoder(s.model_));
  };
}

SessionAttribution TransformerSession::attribution(const std::string& typed,
                                                   const AttributionRequest& request) {
  request.options.validate();
  const std::string text = task_->input_text(typed);
  const Vocab& source_vocab = task_->source_vocab();
  const Vocab& target_vocab = task_->target_vocab();
  const Encoded encoded = source_vocab.encode(text, kTransformerMaxLen);
  DecodeOptions opt = decode_defaults(task_->max_target_tokens());
  if (request.max_length) opt.max_length = *request.max_length;
  opt.top_k = 1;
  return attribute_translation(
      source_tokens(text, source_vocab, encoded), target_vocab,
      transformer_greedy_decode(model_, encoded.ids, opt).result, opt, request.options,
      [&](const std::vector<int32_t>& words, const AttributionOptions& options) {
        return attribute(model_, encoded.ids, words, options);
      });
}

}  // namespace lab
