// TransformerSession: config checks, the training loop, evaluation and translation. Saving and
// loading are in transformer/session_io.cpp. The loop is the one every translator session shares
// (sequence/session_common.h), with the Transformer's model and Adam's warm-up schedule.
#include "transformer/session.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "format.h"
#include "sequence/session_common.h"
#include "sequence/session_why.h"
#include "sequence/vocab.h"

namespace lab {

namespace {

using namespace session_common;

TransformerConfig model_config(const TransformerSessionConfig& c, long src_vocab, long tgt_vocab) {
  TransformerConfig m = transformer_config(c, src_vocab, tgt_vocab);
  m.seed = c.seed;
  return m;
}

}  // namespace

void TransformerSessionConfig::validate() const {
  if (task.empty())
    throw InputError("task is missing (expected note, zh-en, dates, reverse, copy, pairs)");
  // The model's own limits (layers, heads dividing dModel, dModel, dFF), with the smallest
  // vocabularies as stand-ins.
  model_config(*this, 2, 2).validate();
  check_range(warmup, 0, kMaxWarmupSteps, "warmup (steps; 0: no warm-up)");
  check_range(batch_size, 1, kMaxBatchSize, "batch size");
  check_float32(learning_rate, false, "learning rate");
  check_float32(clip_norm, true, "clip norm (0: no clipping)");
}

TransformerSessionConfig transformer_session_defaults(const std::string& task) {
  TransformerSessionConfig c;
  c.task = task;
  if (task == "dates" || task == "zh-en") {
    // The recipe tuned on dates (transformer/session.h); zh-en takes it with a second layer.
    c.layers = task == "dates" ? 1 : 2;
    c.heads = 4;
    c.d_model = 32;
    c.d_ff = 64;
    c.norm_first = true;
    c.batch_size = 32;
    c.learning_rate = 1e-2;
    c.warmup = 200;
  }
  return c;
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

void (*TransformerSession::timeline_after_step_)(TransformerSession&) = nullptr;

TrainResult TransformerSession::train(long steps) {
  return train_steps(
      steps, *task_, config_.batch_size, config_.clip_norm, rng_, step_, model_,
      [&] { model_.adam_step(adam_, config_.warmup); },
      "try a smaller learningRate, a longer warmup or set clipNorm",
      // decoding only: changes nothing training reads
      [&] {
        if (timeline_after_step_) timeline_after_step_(*this);
      });
}

DecodeOptions TransformerSession::decode_defaults(long longest_target) const {
  return session_decode_defaults(longest_target, model_.config().tgt_vocab, kTransformerMaxLen);
}

EvalResult TransformerSession::evaluate(const EvalOptions& options) {
  std::vector<Example> fresh;
  const std::vector<Example>& all = eval_examples(*task_, options, fresh);
  const size_t n = eval_count(all, options);

  const TeacherForcedTotals totals = teacher_forced_totals(
      model_, all, n, task_->max_target_tokens(),
      [&](const std::vector<Example>&, const Batch& batch) { return model_.loss_only(batch); });
  DecodeOptions opt = decode_defaults(totals.longest_target);
  opt.top_k = 1;
  EvalResult result;
  const long exact = count_exact_matches(result, *task_, all, n, options, [&](size_t i) {
    return transformer_greedy_decode(model_, all[i].source_ids, opt).result.tokens ==
           all[i].target_ids;
  });
  fill_eval_result(result, totals, exact, n, options, *task_);
  return result;
}

TransformerTranslateResult TransformerSession::translate(const std::string& typed,
                                                         const TranslateOptions& options) {
  const std::string text = task_->input_text(typed);
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
  const DecodeOptions opt =
      with_translate_options(decode_defaults(task_->max_target_tokens()), options);

  TransformerTranslateResult result;
  result.source = source_tokens(text, source_vocab, encoded);
  if (!options.interventions.empty()) {
#ifdef LAB_NO_INTERVENTIONS
    // the widgets' Transformer module (CMakeLists.txt); its binding says so first
    throw InputError("interventions: this build has none; the full module has them");
#else
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
#endif
  } else if (!options.beam) {
    result.greedy = transformer_greedy_decode(model_, encoded.ids, opt);
    result.output = result.greedy.result.tokens;
    result.finished = result.greedy.result.finished;
  } else {
#ifdef LAB_NO_BEAM
    // the widgets' Transformer module (CMakeLists.txt): §4 decodes greedily
    throw InputError(
        "beam: this build (the 'transformer' module for widgets) has no beam search; "
        "the full module has it");
#else
    result.beam = transformer_beam_search(model_, encoded.ids, opt);
    result.beam_width = opt.beam_width;
    result.output = result.beam.result.tokens;
    result.finished = beam_texts(result.beam.result, target_vocab, result.hypothesis_texts);
#endif
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
