// TransformerSession: config checks, the training loop, evaluation and translation. Saving and
// loading are in transformer/session_io.cpp. The loop is the Seq2Seq session's (seq2seq/
// session.cpp) with the Transformer's model and Adam's warm-up schedule.
#include "transformer/session.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "format.h"
#include "seq2seq/session_common.h"
#include "seq2seq/session_why.h"
#include "seq2seq/vocab.h"

namespace lab {

namespace {

using namespace session_common;

TransformerConfig model_config(const TransformerSessionConfig& c, long src_vocab, long tgt_vocab) {
  TransformerConfig m;
  m.layers = c.layers;
  m.heads = c.heads;
  m.d_model = c.d_model;
  m.d_ff = c.d_ff;
  m.norm_first = c.norm_first;
  m.src_vocab = src_vocab;
  m.tgt_vocab = tgt_vocab;
  m.seed = c.seed;
  return m;
}

}  // namespace

void TransformerSessionConfig::validate() const {
  if (task.empty()) throw InputError("task is missing (expected note, dates, reverse, copy)");
  // The model's own limits (layers, heads dividing dModel, dModel, dFF), with the smallest
  // vocabularies as stand-ins.
  model_config(*this, 2, 2).validate();
  check_range(warmup, 0, kMaxWarmupSteps, "warmup (steps; 0: no warm-up)");
  check_range(batch_size, 1, kMaxBatchSize, "batch size");
  check_float32(learning_rate, false, "learning rate");
  check_float32(clip_norm, true, "clip norm (0: no clipping)");
}

TransformerSession::TransformerSession(const TransformerSessionConfig& config)
    : TransformerSession(config, [&] {
        config.validate();
        return make_task(config.task, config.task_options);
      }()) {}

TransformerSession::TransformerSession(const TransformerSessionConfig& config,
                                       std::unique_ptr<Task> task)
    : config_(config),
      task_(std::move(task)),
      model_(model_config(config, task_->source_vocab().size(), task_->target_vocab().size())),
      rng_(config.seed ^ kSamplerSeedMix) {
  adam_.lr = static_cast<float>(config.learning_rate);
}

TrainResult TransformerSession::train(long steps) {
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
      const TokenCount count = count_correct(model_.last_logits(), batch, Vt);
      if (config_.clip_norm > 0) model_.clip_grad_norm(static_cast<float>(config_.clip_norm));
      model_.adam_step(adam_, config_.warmup);  // all-or-nothing, as the Seq2Seq model's
      result.losses.push_back(loss);
      result.token_accuracy.push_back(static_cast<float>(count.correct) /
                                      static_cast<float>(count.total));
      result.step = ++step_;
    } catch (const InputError& e) {
      // The rewound Rng leaves the session exactly as after the last good step; only divergence
      // is reported as divergence, as in the Seq2Seq session.
      rng_ = before;
      if (!is_divergence(e)) throw;
      result.step = step_;
      throw TrainingDiverged("training diverged at step " + std::to_string(step_ + 1) + " (" +
                                 e.what() + "); the weights after step " + std::to_string(step_) +
                                 " are kept: try a smaller learningRate, a longer warmup or set "
                                 "clipNorm",
                             std::move(result));
    }
  }
  return result;
}

DecodeOptions TransformerSession::decode_defaults(long longest_target) const {
  DecodeOptions opt;
  opt.sos_id = kSosId;
  opt.eos_id = kEosId;
  opt.max_length =
      std::min<long>(std::max<long>(opt.max_length, longest_target + 1), kTransformerMaxLen);
  opt.top_k = std::min<long>(opt.top_k, model_.config().tgt_vocab);
  return opt;
}

EvalResult TransformerSession::evaluate(const EvalOptions& options) {
  std::vector<Example> fresh;
  const std::vector<Example>& all = eval_examples(*task_, options, fresh);
  const size_t n = eval_count(all, options);

  double loss_sum = 0;
  TokenCount tokens;
  long longest_target = task_->max_target_tokens();
  for (size_t start = 0; start < n; start += kEvalChunk) {
    const std::vector<Example> chunk(
        all.begin() + static_cast<long>(start),
        all.begin() + static_cast<long>(std::min(n, start + kEvalChunk)));
    const Batch batch = make_batch(chunk);
    const float loss = model_.loss_only(batch);
    const TokenCount count = count_correct(model_.last_logits(), batch, model_.config().tgt_vocab);
    loss_sum += static_cast<double>(loss) * count.total;  // the loss is a mean over targets
    tokens.correct += count.correct;
    tokens.total += count.total;
    longest_target = std::max(longest_target, batch.T - 1);
  }
  DecodeOptions opt = decode_defaults(longest_target);
  opt.top_k = 1;
  long exact = 0;
  for (size_t i = 0; i < n; ++i) {
    exact += transformer_greedy_decode(model_, all[i].source_ids, opt).result.tokens ==
             all[i].target_ids;
  }
  EvalResult result;
  result.loss = loss_sum / static_cast<double>(tokens.total);
  result.token_accuracy = static_cast<double>(tokens.correct) / static_cast<double>(tokens.total);
  result.exact_match = static_cast<double>(exact) / static_cast<double>(n);
  result.examples = static_cast<long>(n);
  result.held_out_is_training_data = !options.length && task_->held_out_is_training_data();
  return result;
}

TransformerTranslateResult TransformerSession::translate(const std::string& text,
                                                         const TranslateOptions& options) {
  const Vocab& source_vocab = task_->source_vocab();
  const Vocab& target_vocab = task_->target_vocab();
  // A sentence longer than the positional table has positions without an encoding.
  const long tokens = static_cast<long>(tokenize(text, source_vocab.tokenizer()).size());
  if (tokens > kTransformerMaxLen) {
    throw InputError("sentence has " + std::to_string(tokens) +
                     " tokens; the Transformer's positional table has " +
                     std::to_string(kTransformerMaxLen) + " positions");
  }
  const Encoded encoded = source_vocab.encode(text, kTransformerMaxLen);
  DecodeOptions opt = decode_defaults(task_->max_target_tokens());
  if (options.max_length) opt.max_length = *options.max_length;
  if (options.top_k) opt.top_k = *options.top_k;
  if (options.beam) opt.beam_width = *options.beam;

  TransformerTranslateResult result;
  result.source = source_tokens(text, source_vocab, encoded);
  if (!options.interventions.empty()) {
    if (options.beam) throw InputError("interventions need greedy decoding: leave out beam");
    const std::vector<Intervention> list =
        resolve_interventions(options.interventions, [&](const std::string& word) {
          return target_vocab.contains(word) ? target_vocab.id(word) : -1;
        });
    result.greedy = transformer_greedy_decode(model_, encoded.ids, opt, list);  // checks them
    GreedyResult original = transformer_greedy_decode(model_, encoded.ids, opt).result;
    std::string original_text = target_vocab.decode_text(original.tokens);
    result.intervention =
        compare_with_original(std::move(original), std::move(original_text), result.greedy.result);
    result.output = result.greedy.result.tokens;
    result.finished = result.greedy.result.finished;
  } else if (!options.beam) {
    result.greedy = transformer_greedy_decode(model_, encoded.ids, opt);
    result.output = result.greedy.result.tokens;
    result.finished = result.greedy.result.finished;
  } else {
    result.beam = transformer_beam_search(model_, encoded.ids, opt);
    result.beam_width = opt.beam_width;
    const BeamResult& beam = result.beam.result;
    result.output = beam.tokens;
    result.finished = !beam.hypotheses.empty() && beam.hypotheses.front().finished;
    for (const BeamHypothesis& h : beam.hypotheses) {
      result.hypothesis_texts.push_back(target_vocab.decode_text(h.tokens));
    }
  }
  result.text = target_vocab.decode_text(result.output);
  return result;
}

std::vector<std::string> TransformerSession::source_vocabulary() const {
  return user_tokens(task_->source_vocab());
}

std::vector<std::string> TransformerSession::target_vocabulary() const {
  return user_tokens(task_->target_vocab());
}

}  // namespace lab
