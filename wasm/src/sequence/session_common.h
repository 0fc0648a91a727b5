// What the Seq2Seq session (rnn/session.cpp) and the Transformer session
// (transformer/session.cpp) share: their constants, config checks, the training loop and its
// divergence test, the teacher-forced part of evaluation, the choice of evaluation examples, the
// decoding options of a translation and its source tokens. Only those two files include it; what
// the GPT session (gpt/session.cpp) shares with them too is in sequence/session_checks.h.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
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
#include "sequence/vocab.h"

namespace lab::session_common {

inline constexpr long kEvalChunk = 256;  // examples per teacher-forced evaluation batch
inline constexpr long kDefaultLengthCount =
    200;  // evaluate({length}) examples when count is absent
inline constexpr uint64_t kDefaultLengthSeed = 1;

struct TokenCount {
  long correct = 0, total = 0;
};

// Forward declaration: train_steps below reads a step's token accuracy.
inline TokenCount count_correct(const std::vector<float>& logits, const Batch& batch, long Vt);

// The training loop of both sessions: `steps` steps (in [1, kMaxTrainSteps]), each on a batch of
// `batch_size` drawn from `task` with `rng`: model.forward_backward, the divergence test, the
// clipping to `clip_norm` (0: none), then update(), the model's Adam step, which is
// all-or-nothing: a bad step leaves weights and moments alone. `step` counts the steps trained in
// total. A step that diverges throws TrainingDiverged (its message ends with `advice`), with the
// Rng rewound, so the session is exactly as after the last good step and a save() now equals one
// taken right after that step; any other error keeps its own type and message.
// What train_steps runs after each good step by default: nothing.
struct NoAfterStep {
  void operator()() const {}
};

// after_step() runs after each good step (the Seq2Seq session's training timeline records there).
template <class Model, class Update, class AfterStep = NoAfterStep>
TrainResult train_steps(long steps, const Task& task, long batch_size, double clip_norm, Rng& rng,
                        long& step, Model& model, const Update& update, const char* advice,
                        const AfterStep& after_step = AfterStep()) {
  check_range(steps, 1, kMaxTrainSteps, "train: steps");
  TrainResult result;
  result.losses.reserve(static_cast<size_t>(steps));
  result.token_accuracy.reserve(static_cast<size_t>(steps));
  const long Vt = model.config().tgt_vocab;
  for (long i = 0; i < steps; ++i) {
    const Rng before = rng;
    const Batch batch = task.sample_batch(rng, batch_size);
    try {
      const float loss = model.forward_backward(batch);
      check_loss_not_diverged(loss, Vt);
      // Read before the update: the accuracy of the same forward pass as the loss.
      const TokenCount count = count_correct(model.last_logits(), batch, Vt);
      if (clip_norm > 0) model.clip_grad_norm(static_cast<float>(clip_norm));
      update();
      result.losses.push_back(loss);
      result.token_accuracy.push_back(static_cast<float>(count.correct) /
                                      static_cast<float>(count.total));
      result.step = ++step;
    } catch (const InputError& e) {
      rng = before;
      if (!is_divergence(e)) throw;
      result.step = step;
      throw TrainingDiverged("training diverged at step " + std::to_string(step + 1) + " (" +
                                 e.what() + "); the weights after step " + std::to_string(step) +
                                 " are kept: " + advice,
                             std::move(result));
    }
    after_step();
  }
  return result;
}

// Teacher-forced targets whose logit row has its maximum at the target, over non-pad targets.
inline TokenCount count_correct(const std::vector<float>& logits, const Batch& batch, long Vt) {
  TokenCount count;
  for (long i = 0; i < batch.B * batch.T; ++i) {
    const int32_t target = batch.tgt_out[static_cast<size_t>(i)];
    if (target == kPadId) continue;
    const float* row = logits.data() + i * Vt;
    count.correct += (std::max_element(row, row + Vt) - row) == target;
    ++count.total;
  }
  return count;
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
    const TokenCount count = count_correct(model.last_logits(), batch, model.config().tgt_vocab);
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

// The fields of evaluate()'s result that both sessions fill the same way, from the teacher-forced
// totals and the count of the n greedy translations that equal their reference.
inline void fill_eval_result(EvalResult& result, const TeacherForcedTotals& totals, long exact,
                             size_t n, const EvalOptions& options, const Task& task) {
  result.loss = totals.loss_sum / static_cast<double>(totals.tokens.total);
  result.token_accuracy =
      static_cast<double>(totals.tokens.correct) / static_cast<double>(totals.tokens.total);
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

// A translation's decoding options: the session's defaults with what the caller set.
inline DecodeOptions with_translate_options(DecodeOptions opt, const TranslateOptions& options) {
  if (options.max_length) opt.max_length = *options.max_length;
  if (options.top_k) opt.top_k = *options.top_k;
  if (options.beam) opt.beam_width = *options.beam;
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
