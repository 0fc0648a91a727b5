// Asking a Seq2SeqSession why (session.h): translate with interventions beside the plain
// translation, attribution of the greedy translation's words, and the training timeline. Their
// own file, and reached only through translate_intervened / attribution / record_timeline, so a
// build that binds none of them (the widgets' module) links none of this.
#include "rnn/session_why.h"

#include <string>
#include <vector>

#include "rnn/session.h"
#include "sequence/session_common.h"
#include "sequence/vocab.h"

namespace lab {

using namespace session_common;

TranslateResult Seq2SeqSession::translate_intervened(const std::string& text,
                                                     const TranslateOptions& options) {
  if (options.beam) throw InputError("interventions need greedy decoding: leave out beam");
  const Vocab& source_vocab = task_->source_vocab();
  const Vocab& target_vocab = task_->target_vocab();
  const Encoded encoded = source_vocab.encode(text);
  DecodeOptions opt = decode_defaults(task_->max_target_tokens());
  if (options.max_length) opt.max_length = *options.max_length;
  if (options.top_k) opt.top_k = *options.top_k;
  opt.validate(model_.config().tgt_vocab);
  TranslateResult result;
  result.source = source_tokens(text, source_vocab, encoded);
  const std::vector<Intervention> list =
      resolve_interventions(options.interventions, [&](const std::string& word) {
        return target_vocab.contains(word) ? target_vocab.id(word) : -1;
      });
  result.greedy = greedy_decode(model_, encoded.ids, opt, list);  // checks them first
  GreedyResult original = greedy_decode(model_, encoded.ids, opt);
  std::string original_text = target_vocab.decode_text(original.tokens);
  result.intervention = compare_with_original(std::move(original), std::move(original_text),
                                              result.greedy, model_, encoded.ids);
  result.output = result.greedy.tokens;
  result.finished = result.greedy.finished;
  result.text = target_vocab.decode_text(result.output);
  return result;
}

void Seq2SeqSession::record_timeline(const std::string& probe, long every, long capacity) {
  const Encoded encoded = task_->source_vocab().encode(probe);
  DecodeOptions opt = decode_defaults(task_->max_target_tokens());
  opt.top_k = 1;
  timeline_.start(encoded.ids, every, capacity, step_, opt, probe_decoder());
  timeline_probe_ = source_tokens(probe, task_->source_vocab(), encoded);
}

SessionAttribution Seq2SeqSession::attribution(const std::string& text,
                                               const AttributionRequest& request) {
  request.options.validate();
  const Vocab& source_vocab = task_->source_vocab();
  const Vocab& target_vocab = task_->target_vocab();
  const Encoded encoded = source_vocab.encode(text);
  DecodeOptions opt = decode_defaults(task_->max_target_tokens());
  if (request.max_length) opt.max_length = *request.max_length;
  opt.top_k = 1;
  return attribute_translation(
      source_tokens(text, source_vocab, encoded), target_vocab,
      greedy_decode(model_, encoded.ids, opt), opt, request.options,
      [&](const std::vector<int32_t>& words, const AttributionOptions& options) {
        return attribute(model_, encoded.ids, words, options);
      });
}

}  // namespace lab
