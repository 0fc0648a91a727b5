// Seq2SeqSession: config checks, the training loop, evaluation and translation. Saving and
// loading are in session_io.cpp.
#include "seq2seq/session.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "format.h"
#include "seq2seq/alignment.h"
#include "seq2seq/session_common.h"
#include "seq2seq/vocab.h"

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
    throw InputError("task is missing (expected note, zh-en, dates, reverse, copy)");
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
  check_range(steps, 1, kMaxTrainSteps, "train: steps");
  TrainResult result;
  result.losses.reserve(static_cast<size_t>(steps));
  result.token_accuracy.reserve(static_cast<size_t>(steps));
  const long Vt = model_.config().tgt_vocab;
  for (long i = 0; i < steps; ++i) {
    const Rng before = rng_;
    const Batch batch = task_->sample_batch(rng_, config_.batch_size);
    try {
      const float loss = model_.forward_backward(batch);
      check_loss_not_diverged(loss, Vt);
      // Read before the update: the accuracy of the same forward pass as the loss.
      const TokenCount count = count_correct(model_.last_logits(), batch, Vt);
      if (config_.clip_norm > 0) model_.clip_grad_norm(static_cast<float>(config_.clip_norm));
      model_.adam_step(adam_);  // all-or-nothing: a bad step leaves weights and moments alone
      result.losses.push_back(loss);
      result.token_accuracy.push_back(static_cast<float>(count.correct) /
                                      static_cast<float>(count.total));
      result.step = ++step_;
    } catch (const InputError& e) {
      // Rewinding the Rng leaves the whole session as it was after the last good step, so a
      // save() now equals one taken right after that step.
      rng_ = before;
      if (!is_divergence(e)) throw;
      result.step = step_;
      throw TrainingDiverged("training diverged at step " + std::to_string(step_ + 1) + " (" +
                                 e.what() + "); the weights after step " + std::to_string(step_) +
                                 " are kept: try a smaller learningRate or set clipNorm",
                             std::move(result));
    }
    timeline_.after_step(step_, model_);  // decoding only: changes nothing training reads
  }
  return result;
}

DecodeOptions Seq2SeqSession::decode_defaults(long longest_target) const {
  DecodeOptions opt;
  opt.sos_id = kSosId;
  opt.eos_id = kEosId;
  opt.max_length = std::max<long>(opt.max_length, longest_target + 1);  // + <eos>
  opt.top_k = std::min<long>(opt.top_k, model_.config().tgt_vocab);
  return opt;
}

EvalResult Seq2SeqSession::evaluate(const EvalOptions& options) {
  std::vector<Example> fresh;
  const std::vector<Example>& all = eval_examples(*task_, options, fresh);
  const size_t n = eval_count(all, options);

  double loss_sum = 0;
  TokenCount tokens;
  AlignmentCount alignment;
  long longest_target = task_->max_target_tokens();
  for (size_t start = 0; start < n; start += kEvalChunk) {
    const std::vector<Example> chunk(
        all.begin() + static_cast<long>(start),
        all.begin() + static_cast<long>(std::min(n, start + kEvalChunk)));
    const Batch batch = make_batch(chunk);
    const Seq2SeqOutputs out = model_.evaluate(batch);
    const TokenCount count = count_correct(out.logits.data, batch, model_.config().tgt_vocab);
    loss_sum += static_cast<double>(out.loss) * count.total;  // the loss is a mean over targets
    tokens.correct += count.correct;
    tokens.total += count.total;
    longest_target = std::max(longest_target, batch.T - 1);
    if (out.attention.data.empty()) continue;
    for (long b = 0; b < batch.B; ++b) {  // attention (B, T, S)
      const Example& example = chunk[static_cast<size_t>(b)];
      const AlignmentCount c =
          count_alignment(out.attention.data.data() + b * batch.T * batch.S, batch.S,
                          batch.src_len[static_cast<size_t>(b)], example.alignment);
      alignment.hits += c.hits;
      alignment.scored += c.scored;
    }
  }
  DecodeOptions opt = decode_defaults(longest_target);
  opt.top_k = 1;  // the trace is not kept
  EvalResult result;
  const std::vector<LengthBucket> buckets = task_->length_buckets().empty() || options.length
                                                ? equal_width_buckets(all, n)
                                                : task_->length_buckets();
  for (const LengthBucket& bucket : buckets) {
    result.exact_match_by_length.push_back({bucket.min_words, bucket.max_words, 0, 0.0});
  }
  long exact = 0;
  for (size_t i = 0; i < n; ++i) {
    const bool match = greedy_decode(model_, all[i].source_ids, opt).tokens == all[i].target_ids;
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
  if (alignment.scored > 0) {
    result.alignment_accuracy =
        static_cast<double>(alignment.hits) / static_cast<double>(alignment.scored);
    result.aligned_tokens = alignment.scored;
  }
  result.loss = loss_sum / static_cast<double>(tokens.total);
  result.token_accuracy = static_cast<double>(tokens.correct) / static_cast<double>(tokens.total);
  result.exact_match = static_cast<double>(exact) / static_cast<double>(n);
  result.examples = static_cast<long>(n);
  result.held_out_is_training_data = !options.length && task_->held_out_is_training_data();
  return result;
}

TranslateResult Seq2SeqSession::translate(const std::string& text,
                                          const TranslateOptions& options) {
  const Vocab& source_vocab = task_->source_vocab();
  const Vocab& target_vocab = task_->target_vocab();
  const Encoded encoded = source_vocab.encode(text);
  DecodeOptions opt = decode_defaults(task_->max_target_tokens());
  if (options.max_length) opt.max_length = *options.max_length;
  if (options.top_k) opt.top_k = *options.top_k;
  if (options.beam) opt.beam_width = *options.beam;
  opt.validate(model_.config());

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
    result.finished = !result.beam.hypotheses.empty() && result.beam.hypotheses.front().finished;
    for (const BeamHypothesis& h : result.beam.hypotheses) {
      result.hypothesis_texts.push_back(target_vocab.decode_text(h.tokens));
    }
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
