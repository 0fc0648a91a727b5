// What every translator session shares (sequence/translator_session.h): its constants, its
// training steps (on session_checks.h's loop), the teacher-forced part of evaluation, the choice of
// evaluation examples, the decoding options of a translation and its source tokens, and the
// session's training, evaluation and translation members, which each model's session.cpp
// instantiates. What the GPT session (gpt/session.cpp) shares with them is in
// sequence/session_checks.h.
#pragma once

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "format.h"
#include "optim.h"               // NonFiniteError
#include "sequence/alignment.h"  // equal_width_buckets
#include "sequence/batch.h"
#include "sequence/session_checks.h"
#include "sequence/session_types.h"
#include "sequence/tasks.h"
#include "sequence/translate.h"
#include "sequence/translator_session.h"
#include "sequence/vocab.h"

namespace lab::session_common {

inline constexpr long kEvalChunk = 256;  // examples per teacher-forced evaluation batch
inline constexpr long kDefaultLengthCount =
    200;  // evaluate({length}) examples when count is absent
inline constexpr uint64_t kDefaultLengthSeed = 1;

// Forward declaration: train_steps below reads a step's token accuracy.
inline TokenCount count_correct(const std::vector<float>& logits, const Batch& batch, long Vt);

// A translator's training (TranslatorSession::train): train_loop over batches of `batch_size`
// drawn from `task`, each step model.forward_backward, the divergence test, the clipping to
// `clip_norm` (0: none), then update(), the model's Adam step, with the step's teacher-forced
// token accuracy beside its loss. Throws TrainingDiverged.
template <class Model, class Update, class AfterStep = NoAfterStep>
TrainResult train_steps(long steps, const Task& task, long batch_size, double clip_norm, Rng& rng,
                        long& step, Model& model, const Update& update, const char* advice,
                        const AfterStep& after_step = AfterStep()) {
  const long Vt = model.config().tgt_vocab;
  return train_loop<TrainingDiverged, TrainResult>(
      steps, kMaxTrainSteps, rng, step, [&](Rng& r) { return task.sample_batch(r, batch_size); },
      [&](const Batch& batch, TrainResult& result) {
        const float loss = model.forward_backward(batch);
        check_loss_not_diverged(loss, Vt);
        // Read before the update: the accuracy of the same forward pass as the loss.
        const TokenCount count = count_correct(model.last_logits(), batch, Vt);
        if (clip_norm > 0) model.clip_grad_norm(static_cast<float>(clip_norm));
        update();
        result.losses.push_back(loss);
        result.token_accuracy.push_back(static_cast<float>(count.correct) /
                                        static_cast<float>(count.total));
      },
      advice, after_step);
}

// Teacher-forced targets whose logit row has its maximum at the target, over non-pad targets.
inline TokenCount count_correct(const std::vector<float>& logits, const Batch& batch, long Vt) {
  return count_argmax_hits(logits.data(), batch.tgt_out.data(), batch.B * batch.T, Vt, kPadId);
}

// The examples evaluate(options) scores: `fresh` (filled here) for options.length, else the
// task's held-out set. Throws InputError for options that do not go together.
inline const std::vector<Example>& eval_examples(const Task& task, const EvalOptions& options,
                                                 std::vector<Example>& fresh) {
  if (!options.length && (options.count || options.seed)) {
    throw InputError("evaluate: count and seed only apply with a length");
  }
  if (options.max_examples)
    check_range(*options.max_examples, 1, kMaxHeldOut, "evaluate: maxExamples");
  if (options.length) {
    fresh = task.eval_at_length(*options.length, options.count.value_or(kDefaultLengthCount),
                                options.seed.value_or(kDefaultLengthSeed));
  } else if (task.held_out().empty()) {
    throw InputError("task '" + task.name() + "' has no held-out set");
  }
  return options.length ? fresh : task.held_out();
}

// How many of `all` evaluate(options) scores: the first options.max_examples, or all.
inline size_t eval_count(const std::vector<Example>& all, const EvalOptions& options) {
  return std::min<size_t>(
      all.size(),
      static_cast<size_t>(options.max_examples.value_or(static_cast<long>(all.size()))));
}

// The teacher-forced part of evaluate(): the first n of `all`, in batches of kEvalChunk.
struct TeacherForcedTotals {
  double loss_sum = 0;      // Σ chunk loss × its targets (each chunk's loss is a mean over them)
  TokenCount tokens;        // over all non-pad targets
  long longest_target = 0;  // the longest target (without <eos>) seen, or the caller's floor
  std::vector<TokenCount> by_position;  // tokens, by position t in the target (<eos> included)
};

// score_chunk(chunk, batch) runs the model's teacher-forced forward pass on the batch of the
// examples `chunk` and returns its loss; model.last_logits() then holds that pass's logits.
template <class Model, class ScoreChunk>
TeacherForcedTotals teacher_forced_totals(const Model& model, const std::vector<Example>& all,
                                          size_t n, long longest_target,
                                          const ScoreChunk& score_chunk) {
  TeacherForcedTotals totals;
  totals.longest_target = longest_target;
  for (size_t start = 0; start < n; start += kEvalChunk) {
    const std::vector<Example> chunk(
        all.begin() + static_cast<long>(start),
        all.begin() + static_cast<long>(std::min(n, start + kEvalChunk)));
    const Batch batch = make_batch(chunk);
    const float loss = score_chunk(chunk, batch);
    // the chunk's non-pad targets whose argmax is right, in all and by position
    const long Vt = model.config().tgt_vocab;
    TokenCount count;
    if (static_cast<long>(totals.by_position.size()) < batch.T) totals.by_position.resize(batch.T);
    for (long b = 0; b < batch.B; ++b) {
      for (long t = 0; t < batch.T; ++t) {
        const long row = b * batch.T + t;
        const TokenCount one = count_argmax_hits(model.last_logits().data() + row * Vt,
                                                 batch.tgt_out.data() + row, 1, Vt, kPadId);
        totals.by_position[t].correct += one.correct;
        totals.by_position[t].total += one.total;
        count.correct += one.correct;
        count.total += one.total;
      }
    }
    totals.loss_sum += static_cast<double>(loss) * count.total;
    totals.tokens.correct += count.correct;
    totals.tokens.total += count.total;
    totals.longest_target = std::max(totals.longest_target, batch.T - 1);
  }
  return totals;
}

// The n greedy translations of evaluate(): how many equal their reference, in all and by source
// length (result.exact_match_by_length), in the task's length buckets, or four of equal width when
// the task has none or the caller chose the lengths, so that both kinds of translator are compared
// on the same lengths. matches(i): does the translation of all[i] equal its reference?
template <class Matches>
long count_exact_matches(EvalResult& result, const Task& task, const std::vector<Example>& all,
                         size_t n, const EvalOptions& options, Matches matches) {
  const std::vector<LengthBucket> buckets = task.length_buckets().empty() || options.length
                                                ? equal_width_buckets(all, n)
                                                : task.length_buckets();
  for (const LengthBucket& bucket : buckets) {
    result.exact_match_by_length.push_back({bucket.min_words, bucket.max_words, 0, 0.0});
  }
  long exact = 0;
  for (size_t i = 0; i < n; ++i) {
    const bool match = matches(i);
    exact += match;
    const long words = static_cast<long>(all[i].source_ids.size());
    for (LengthBucketResult& bucket : result.exact_match_by_length) {
      if (words < bucket.min_words || words > bucket.max_words) continue;
      ++bucket.examples;
      bucket.exact_match += match;  // a count until divided below
    }
  }
  for (LengthBucketResult& bucket : result.exact_match_by_length) {
    if (bucket.examples > 0) bucket.exact_match /= static_cast<double>(bucket.examples);
  }
  return exact;
}

// The fields of evaluate()'s result that every session fills the same way, from the teacher-forced
// totals and the count of the n greedy translations that equal their reference.
inline void fill_eval_result(EvalResult& result, const TeacherForcedTotals& totals, long exact,
                             size_t n, const EvalOptions& options, const Task& task) {
  result.loss = totals.loss_sum / static_cast<double>(totals.tokens.total);
  result.token_accuracy =
      static_cast<double>(totals.tokens.correct) / static_cast<double>(totals.tokens.total);
  for (const TokenCount& at : totals.by_position) {
    if (at.total == 0) break;  // no example's target is this long
    result.token_accuracy_by_position.push_back(static_cast<double>(at.correct) /
                                                static_cast<double>(at.total));
  }
  result.exact_match = static_cast<double>(exact) / static_cast<double>(n);
  result.examples = static_cast<long>(n);
  result.held_out_is_training_data = !options.length && task.held_out_is_training_data();
}

// A session's decoding defaults: <sos> and <eos> ids, room for the longest target and its <eos>
// (at most max_length_limit), and at most as many top tokens as the target vocabulary has.
inline DecodeOptions session_decode_defaults(long longest_target, long tgt_vocab,
                                             long max_length_limit) {
  DecodeOptions opt;
  opt.sos_id = kSosId;
  opt.eos_id = kEosId;
  opt.max_length = std::min(std::max<long>(opt.max_length, longest_target + 1), max_length_limit);
  opt.top_k = std::min<long>(opt.top_k, tgt_vocab);
  return opt;
}

// The source sentence as the model reads it: each token as typed, its id, and whether it is
// unknown (then shown as "<unk>").
inline std::vector<SourceToken> source_tokens(const std::string& text, const Vocab& source_vocab,
                                              const Encoded& encoded) {
  std::vector<SourceToken> source;
  const std::vector<std::string_view> words = tokenize(text, source_vocab.tokenizer());
  for (size_t i = 0; i < encoded.ids.size(); ++i) {
    const bool unknown = encoded.unknown[i] != 0;
    source.push_back({source_vocab.token(unknown ? kUnkId : encoded.ids[i]), std::string(words[i]),
                      encoded.ids[i], unknown});
  }
  return source;
}

// The vocabulary's tokens without the reserved ones (<pad>, <sos>, <eos>, <unk>).
inline std::vector<std::string> user_tokens(const Vocab& vocab) {
  const std::vector<std::string>& all = vocab.tokens();
  return {all.begin() + kNumReservedTokens, all.end()};
}

}  // namespace lab::session_common

namespace lab {

template <class Config>
void (*TranslatorSession<Config>::timeline_after_step_)(TranslatorSession<Config>&) = nullptr;

template <class Config>
void TranslatorSession<Config>::check_config(const Config& c) {
  if (c.task.empty()) {
    throw InputError("task is missing (expected note, zh-en, dates, reverse, copy, pairs)");
  }
  model_config(c, 2, 2).validate();
  check_range(c.batch_size, 1, kMaxBatchSize, "batch size");
  session_common::check_float32(c.learning_rate, false, "learning rate");
  session_common::check_float32(c.clip_norm, true, "clip norm (0: no clipping)");
}

template <class Config>
TranslatorSession<Config>::TranslatorSession(const Config& config)
    : TranslatorSession(config, [&] {
        config.validate();
        return make_task(config.task, config.task_options);
      }()) {}

template <class Config>
TranslatorSession<Config>::TranslatorSession(const Config& config, std::unique_ptr<Task> task)
    : config_(config),
      task_(std::move(task)),
      model_([&] {
        typename Model::Config m =
            model_config(config, task_->source_vocab().size(), task_->target_vocab().size());
        m.seed = config.seed;
        return m;
      }()),
      rng_(config.seed ^ session_common::kSamplerSeedMix) {
  adam_.lr = static_cast<float>(config.learning_rate);
}

template <class Config>
TrainResult TranslatorSession<Config>::train(long steps) {
  return session_common::train_steps(
      steps, *task_, config_.batch_size, config_.clip_norm, rng_, step_, model_, [&] { update(); },
      Config::kKind.divergence_advice,
      // decoding only: changes nothing training reads
      [&] {
        if (timeline_after_step_) timeline_after_step_(*this);
      });
}

template <class Config>
Encoded TranslatorSession<Config>::encode(const std::string& text) const {
  const long positions = Config::kKind.positions;
  if (positions == 0) return task_->source_vocab().encode(text);
  // A sentence longer than the positional table has positions without an encoding.
  const long tokens = static_cast<long>(tokenize(text, task_->source_vocab().tokenizer()).size());
  if (tokens > positions) {
    throw InputError("sentence has " + std::to_string(tokens) + " tokens; the " +
                         Config::kKind.name + "'s positional table has " +
                         std::to_string(positions) + " positions",
                     "sentenceOverPositions", {{"count", tokens}, {"limit", positions}});
  }
  return task_->source_vocab().encode(text, positions);
}

template <class Config>
DecodeOptions TranslatorSession<Config>::decode_defaults(long longest_target) const {
  // without a positional table, no limit on the length
  const long positions = Config::kKind.positions;
  return session_common::session_decode_defaults(longest_target, model_.config().tgt_vocab,
                                                 positions ? positions : LONG_MAX);
}

template <class Config>
EvalResult TranslatorSession<Config>::evaluate(const EvalOptions& options) {
  using namespace session_common;
  std::vector<Example> fresh;
  const std::vector<Example>& all = eval_examples(*task_, options, fresh);
  const size_t n = eval_count(all, options);

  AlignmentCount alignment;
  const TeacherForcedTotals totals =
      teacher_forced_totals(model_, all, n, task_->max_target_tokens(),
                            [&](const std::vector<Example>& chunk, const Batch& batch) {
                              return score_chunk(chunk, batch, alignment);
                            });
  DecodeOptions opt = decode_defaults(totals.longest_target);
  opt.top_k = 1;  // the trace is not kept
  EvalResult result;
  const long exact = count_exact_matches(result, *task_, all, n, options, [&](size_t i) {
    return decoded(greedy_decode(model_, all[i].source_ids, opt)).tokens == all[i].target_ids;
  });
  if (alignment.scored > 0) {
    result.alignment_accuracy =
        static_cast<double>(alignment.hits) / static_cast<double>(alignment.scored);
    result.aligned_tokens = alignment.scored;
  }
  fill_eval_result(result, totals, exact, n, options, *task_);
  return result;
}

template <class Config>
void TranslatorSession<Config>::start_translation(const std::string& typed,
                                                  const TranslateOptions& options,
                                                  Translation& result, Encoded& encoded,
                                                  DecodeOptions& opt) const {
  const std::string text = task_->input_text(typed);
  encoded = encode(text);
  opt = with_translate_options(decode_defaults(task_->max_target_tokens()), options);
  opt.validate(model_.config().tgt_vocab);
  result.source = session_common::source_tokens(text, task_->source_vocab(), encoded);
}

template <class Config>
auto TranslatorSession<Config>::translate(const std::string& typed, const TranslateOptions& options)
    -> Translation {
  Translation result;
  Encoded encoded;
  DecodeOptions opt;
  start_translation(typed, options, result, encoded, opt);
  if (!options.interventions.empty()) {
    throw InputError("interventions: translate_intervened() takes them, translate() does not");
  }
  decode_translation(result, model_, encoded.ids, opt, options.beam.has_value(),
                     task_->target_vocab());
  return result;
}

template <class Config>
std::vector<std::string> TranslatorSession<Config>::source_vocabulary() const {
  return session_common::user_tokens(task_->source_vocab());
}

template <class Config>
std::vector<std::string> TranslatorSession<Config>::target_vocabulary() const {
  return session_common::user_tokens(task_->target_vocab());
}

}  // namespace lab
