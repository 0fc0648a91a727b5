// Seq2SeqSession: config checks, the training loop, evaluation and translation. Saving and
// loading are in session_io.cpp.
#include "seq2seq/session.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "format.h"
#include "seq2seq/alignment.h"
#include "seq2seq/vocab.h"

namespace lab {

namespace {

constexpr long kEvalChunk = 256;           // examples per teacher-forced evaluation batch
constexpr long kDefaultLengthCount = 200;  // evaluate({length}) examples when count is absent
constexpr uint64_t kDefaultLengthSeed = 1;
// A training loss above this many times that of a uniform guess (ln Vt nats per token) means the
// model puts its probability mass on wrong tokens with logit gaps in the thousands: the run has
// diverged even though every number is still finite (Adam at lr 1e6 gives losses near 1e7).
// Sound runs stay far below: at lr 1, the note, dates and reverse tasks peak under 30 ln Vt.
constexpr double kDivergedLossFactor = 1000.0;
// Mixed into the seed so that the batch sampler's stream differs from the weight init's.
constexpr uint64_t kSamplerSeedMix = 0x5EED5EED5EED5EEDULL;

// A positive (or, with allow_zero, non-negative) value that stays finite as a float32.
void check_float32(double value, bool allow_zero, const std::string& what) {
  const bool ok =
      std::isfinite(value) && value <= FLT_MAX && (value > 0 || (allow_zero && value == 0));
  if (!ok) {
    throw InputError(what +
                     (allow_zero ? " must be 0 or a positive finite float32"
                                 : " must be a positive finite float32") +
                     " (got " + format_number(value) + ")");
  }
}

Seq2SeqConfig model_config(const SessionConfig& c, long src_vocab, long tgt_vocab) {
  Seq2SeqConfig m;
  m.cell = c.cell;
  m.hidden = c.hidden;
  m.embedding = c.embedding;
  m.attention = c.attention;
  m.score = c.score;
  m.attentional_tanh = c.attentional_tanh;
  m.seed = c.seed;
  m.src_vocab = src_vocab;
  m.tgt_vocab = tgt_vocab;
  return m;
}

struct TokenCount {
  long correct = 0, total = 0;
};

// Teacher-forced targets whose logit row has its maximum at the target, over non-pad targets.
TokenCount count_correct(const std::vector<float>& logits, const Batch& batch, long Vt) {
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
      const double diverged_loss = kDivergedLossFactor * std::log(static_cast<double>(Vt));
      if (loss > diverged_loss) {
        throw NonFiniteError("the loss " + format_number(loss, 3) + " is over " +
                             std::to_string(static_cast<long>(kDivergedLossFactor)) +
                             " times that of a uniform guess");
      }
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
      // Divergence: a NaN/Inf loss, gradient, state or weight (NonFiniteError), a finite loss
      // far past a uniform guess (above), or a computed value that overflowed float32
      // (OverflowError: the batch and the weights were finite, so the weights drove it there).
      // Any other error is a bug or bad input of its own and keeps its own message.
      if (dynamic_cast<const NonFiniteError*>(&e) == nullptr &&
          dynamic_cast<const OverflowError*>(&e) == nullptr) {
        throw;
      }
      result.step = step_;
      throw TrainingDiverged("training diverged at step " + std::to_string(step_ + 1) + " (" +
                                 e.what() + "); the weights after step " + std::to_string(step_) +
                                 " are kept: try a smaller learningRate or set clipNorm",
                             std::move(result));
    }
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
  if (!options.length && (options.count || options.seed)) {
    throw InputError("evaluate: count and seed only apply with a length");
  }
  if (options.max_examples)
    check_range(*options.max_examples, 1, kMaxHeldOut, "evaluate: maxExamples");
  std::vector<Example> fresh;
  if (options.length) {
    fresh = task_->eval_at_length(*options.length, options.count.value_or(kDefaultLengthCount),
                                  options.seed.value_or(kDefaultLengthSeed));
  } else if (task_->held_out().empty()) {
    throw InputError("task '" + task_->name() + "' has no held-out set");
  }
  const std::vector<Example>& all = options.length ? fresh : task_->held_out();
  const size_t n = std::min<size_t>(
      all.size(),
      static_cast<size_t>(options.max_examples.value_or(static_cast<long>(all.size()))));

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
  const std::vector<std::string_view> words = tokenize(text, source_vocab.tokenizer());
  for (size_t i = 0; i < encoded.ids.size(); ++i) {
    const bool unknown = encoded.unknown[i] != 0;
    result.source.push_back({source_vocab.token(unknown ? kUnkId : encoded.ids[i]),
                             std::string(words[i]), encoded.ids[i], unknown});
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

namespace {
std::vector<std::string> user_tokens(const Vocab& vocab) {
  const std::vector<std::string>& all = vocab.tokens();
  return {all.begin() + kNumReservedTokens, all.end()};
}
}  // namespace

std::vector<std::string> Seq2SeqSession::source_vocabulary() const {
  return user_tokens(task_->source_vocab());
}

std::vector<std::string> Seq2SeqSession::target_vocabulary() const {
  return user_tokens(task_->target_vocab());
}

}  // namespace lab
