// Seq2SeqSession: config checks, the training loop, evaluation and translation. Saving and
// loading are in session_io.cpp.
#include "rnn/session.h"

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <string>

#include "format.h"
#include "sequence/alignment.h"
#include "sequence/session_common.h"
#include "sequence/vocab.h"

namespace lab {

namespace {

using namespace session_common;

Seq2SeqConfig model_config(const SessionConfig& c, long src_vocab, long tgt_vocab) {
  Seq2SeqConfig m = seq2seq_config(c, src_vocab, tgt_vocab);
  m.seed = c.seed;
  return m;
}

}  // namespace

long default_batch_size(const std::string& task) {
  return task == "note" ? 1 : 32;
}

void SessionConfig::validate() const {
  if (task.empty())
    throw InputError("task is missing (expected note, zh-en, dates, reverse, copy, pairs)");
  // Everything about the model that does not depend on the vocabularies (hidden and embedding
  // sizes, cell, score, attentional tanh), with the smallest vocabularies as stand-ins.
  model_config(*this, 2, 2).validate();
  check_range(batch_size, 1, kMaxBatchSize, "batch size");
  check_float32(learning_rate, false, "learning rate");
  check_float32(clip_norm, true, "clip norm (0: no clipping)");
}

Seq2SeqSession::Seq2SeqSession(const SessionConfig& config)
    : Seq2SeqSession(config, [&] {
        config.validate();
        return make_task(config.task, config.task_options);
      }()) {}

Seq2SeqSession::Seq2SeqSession(const SessionConfig& config, std::unique_ptr<Task> task)
    : config_(config),
      task_(std::move(task)),
      model_(model_config(config, task_->source_vocab().size(), task_->target_vocab().size())),
      rng_(config.seed ^ kSamplerSeedMix) {
  adam_.lr = static_cast<float>(config.learning_rate);
}

TrainResult Seq2SeqSession::train(long steps) {
  return train_steps(
      steps, *task_, config_.batch_size, config_.clip_norm, rng_, step_, model_,
      [&] { model_.adam_step_consuming_grads(adam_); },
      "try a smaller learningRate or set clipNorm",
      // decoding only: changes nothing training reads
      [&] { timeline_.after_step(step_, probe_decoder()); });
}

DecodeOptions Seq2SeqSession::decode_defaults(long longest_target) const {
  // no limit on the length: the recurrent decoder has no positional table
  return session_decode_defaults(longest_target, model_.config().tgt_vocab, LONG_MAX);
}

EvalResult Seq2SeqSession::evaluate(const EvalOptions& options) {
  std::vector<Example> fresh;
  const std::vector<Example>& all = eval_examples(*task_, options, fresh);
  const size_t n = eval_count(all, options);

  AlignmentCount alignment;
  const TeacherForcedTotals totals = teacher_forced_totals(
      model_, all, n, task_->max_target_tokens(),
      [&](const std::vector<Example>& chunk, const Batch& batch) {
        const Seq2SeqOutputs out = model_.evaluate(batch);
        for (long b = 0; b < batch.B && !out.attention.data.empty(); ++b) {  // (B, T, S)
          const AlignmentCount c = count_alignment(
              out.attention.data.data() + b * batch.T * batch.S, batch.S,
              batch.src_len[static_cast<size_t>(b)], chunk[static_cast<size_t>(b)].alignment);
          alignment.hits += c.hits;
          alignment.scored += c.scored;
        }
        return out.loss;
      });
  DecodeOptions opt = decode_defaults(totals.longest_target);
  opt.top_k = 1;  // the trace is not kept
  EvalResult result;
  const long exact = count_exact_matches(result, *task_, all, n, options, [&](size_t i) {
    return greedy_decode(model_, all[i].source_ids, opt).tokens == all[i].target_ids;
  });
  if (alignment.scored > 0) {
    result.alignment_accuracy =
        static_cast<double>(alignment.hits) / static_cast<double>(alignment.scored);
    result.aligned_tokens = alignment.scored;
  }
  fill_eval_result(result, totals, exact, n, options, *task_);
  return result;
}

TranslateResult Seq2SeqSession::translate(const std::string& typed,
                                          const TranslateOptions& options) {
  const std::string text = task_->input_text(typed);
  const Vocab& source_vocab = task_->source_vocab();
  const Vocab& target_vocab = task_->target_vocab();
  const Encoded encoded = source_vocab.encode(text);
  const DecodeOptions opt =
      with_translate_options(decode_defaults(task_->max_target_tokens()), options);
  opt.validate(model_.config().tgt_vocab);

  TranslateResult result;
  result.source = source_tokens(text, source_vocab, encoded);
  if (!options.interventions.empty()) {
    throw InputError("interventions: translate_intervened() takes them, translate() does not");
  }
  if (!options.beam) {
    result.greedy = greedy_decode(model_, encoded.ids, opt);
    result.output = result.greedy.tokens;
    result.finished = result.greedy.finished;
  } else {
    result.beam_width = opt.beam_width;
    result.beam = beam_search(model_, encoded.ids, opt);
    result.output = result.beam.tokens;
    result.finished = beam_texts(result.beam, target_vocab, result.hypothesis_texts);
  }
  result.text = target_vocab.decode_text(result.output);
  return result;
}

std::vector<std::string> Seq2SeqSession::source_vocabulary() const {
  return user_tokens(task_->source_vocab());
}

std::vector<std::string> Seq2SeqSession::target_vocabulary() const {
  return user_tokens(task_->target_vocab());
}

}  // namespace lab
