// A Transformer training session: the Transformer counterpart of rnn/session.h's
// Seq2SeqSession, with the same tasks, vocabularies, batches, sampler, Adam, evaluation and
// decoding options, so that every front end (embind, the CLI, the web worker) drives both the
// same way. What differs: the model (transformer/model.h), Adam's warm-up schedule, and the
// trace of a translation, which holds every layer's and head's attention (transformer/decode.h).
//
// Determinism as the Seq2Seq session: the seed drives the weights and the batch sampling, and a
// saved session (kind "attention-lab/transformer", docs/model-format.md) holds the weights,
// Adam's moments and step, the sampler's state and the step counter, so save → load → train(n)
// gives the losses of an uninterrupted run bit for bit on the same build.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sequence/session_types.h"  // TrainResult, EvalOptions, EvalResult, TranslateOptions, SourceToken
#include "sequence/tasks.h"
#include "sequence/timeline.h"
#include "transformer/decode.h"
#include "transformer/model.h"

namespace lab {

constexpr long kMaxWarmupSteps = 1000000;

struct TransformerSessionConfig {
  std::string task;          // note | dates | reverse | copy (any name make_task knows)
  TaskOptions task_options;  // its seed picks the task's data (the front ends default it to seed)
  long layers = 2;           // L, in [1, kTransformerMaxLayers]
  long heads = 4;            // H, must divide d_model
  long d_model = 64;         // Dm
  long d_ff = 128;           // F
  bool norm_first = false;   // pre-norm (true) or PyTorch's default post-norm
  // Adam's rate follows warmup_lr (transformer/model.h): linear warm-up over this many steps to
  // learning_rate, then 1/√step decay; 0: learning_rate at every step.
  long warmup = 100;
  uint64_t seed = 1;            // the weights and the batch sampling
  long batch_size = 32;         // in [1, kMaxBatchSize]
  double learning_rate = 2e-3;  // the peak rate: any positive float32 (as the Seq2Seq session)
  double clip_norm = 1.0;       // clip the gradient norm to this before each step; 0: no clipping

  // Throws InputError for anything absurd or inconsistent, before any allocation (the parameter
  // count, which needs the vocabularies, is checked again by the model).
  void validate() const;
};

// The defaults of a session on `task`: the member initialisers above, except where a recipe was
// tuned for the task (docs/transformer.md gives each recipe and its measurements; the other
// tasks' defaults are untuned):
//   dates  pre-norm, 1 layer, 4 heads, dModel 32, dFF 64, batch 32, peak lr 1e-2 after 200
//          warm-up steps: 98% held-out exact match in 1,750–2,500 steps (seeds 1–3)
//   zh-en  the same with 2 layers: after 800 steps (§3.3's recipe length) exact match on the
//          longest sentences (12–14 words) is 100% for seeds 1–3, at or above the RNN with
//          attention's (GRU 64, dot: 94–100%)
// The front ends (createSeq2Seq({arch: 'transformer'}), `attention-lab train --arch
// transformer`) start from these and override what the caller sets. Any task name is accepted
// (the session checks it).
TransformerSessionConfig transformer_session_defaults(const std::string& task);

struct TransformerTranslateResult {
  std::vector<SourceToken> source;
  std::vector<int32_t> output;  // target ids without <eos>
  std::string text;
  bool finished = false;  // <eos> was produced within max_length
  long beam_width = 0;    // 0: greedy, and `greedy` holds the trace; else `beam` does
  TransformerGreedyResult greedy;
  TransformerBeamResult beam;
  std::vector<std::string> hypothesis_texts;           // beam only: the text of each hypothesis
  std::optional<InterventionComparison> intervention;  // with interventions only (greedy)
};

class TransformerSession {
 public:
  explicit TransformerSession(const TransformerSessionConfig& config);
  TransformerSession(TransformerSession&&) = default;
  TransformerSession& operator=(TransformerSession&&) = default;
  TransformerSession(const TransformerSession&) = delete;
  TransformerSession& operator=(const TransformerSession&) = delete;

  // `steps` Adam steps (in [1, kMaxTrainSteps]). Throws TrainingDiverged with the session as it
  // was after the last good step.
  TrainResult train(long steps);
  EvalResult evaluate(const EvalOptions& options = {});
  // Tokenizes `text` (unknown tokens flagged) and decodes it, greedily or with a beam.
  TransformerTranslateResult translate(const std::string& text,
                                       const TranslateOptions& options = {});

  std::vector<uint8_t> save() const;
  static TransformerSession load(const uint8_t* data, size_t size);
  static TransformerSession load(const std::vector<uint8_t>& bytes) {
    return load(bytes.data(), bytes.size());
  }
  // True if `data` is a model file whose header kind is a Transformer session's (for loaders
  // that accept both kinds). Throws InputError for a file that does not parse.
  static bool is_transformer_file(const uint8_t* data, size_t size);

  // ---- asking the model why (transformer/session_why.cpp; bound in the full module only), as
  // the Seq2Seq session's: the attribution of the greedy translation's words
  // (transformer/attribution.h) and the training timeline of a probe (sequence/timeline.h).
  SessionAttribution attribution(const std::string& text, const AttributionRequest& request = {});
  void record_timeline(const std::string& probe, long every, long capacity);
  void stop_timeline() { timeline_.stop(); }
  const AttentionTimeline& timeline() const { return timeline_; }
  const std::vector<SourceToken>& timeline_probe() const { return timeline_probe_; }

  std::vector<std::string> source_vocabulary() const;
  std::vector<std::string> target_vocabulary() const;

  const TransformerSessionConfig& config() const { return config_; }
  const Task& task() const { return *task_; }
  const TransformerModel& model() const { return model_; }
  long step() const { return step_; }

  // On a task of the caller's (the config's task name is not used): tests train on a task whose
  // batches are invalid.
  TransformerSession(const TransformerSessionConfig& config, std::unique_ptr<Task> task);

 private:
  DecodeOptions decode_defaults(long longest_target) const;

  TransformerSessionConfig config_;
  std::unique_ptr<Task> task_;
  TransformerModel model_;
  AdamOptions adam_;
  Rng rng_;  // draws the training batches
  long step_ = 0;
  // train() reaches the timeline through this pointer, which record_timeline sets: a build
  // that never records one (the widgets' module) links none of its code.
  static void (*timeline_after_step_)(TransformerSession& session);
  AttentionTimeline timeline_;  // not saved: a view of this run, not part of the model
  std::vector<SourceToken> timeline_probe_;
};

}  // namespace lab
