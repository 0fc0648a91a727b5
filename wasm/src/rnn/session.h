// A Seq2Seq training session: one Task, one Seq2SeqModel, the Rng that draws the training
// batches and the step counter. Everything the front ends (embind, the CLI) do with a model goes
// through it: train, evaluate, translate, save and load. The front ends only convert values.
//
// Determinism: the config's seed drives the weights and the batch sampling (and, through
// task_options.seed, the task's data), and a saved session holds the weights, Adam's moments and
// step, the sampling Rng's state and the step counter. So save → load → train(n) gives exactly
// the losses an uninterrupted run would have given, bit for bit, on the same build.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "attention/score.h"
#include "optim.h"
#include "rng.h"
#include "rnn/attribution.h"
#include "rnn/cells.h"
#include "rnn/decode.h"
#include "rnn/model.h"
#include "sequence/session_types.h"
#include "sequence/tasks.h"
#include "sequence/timeline.h"

namespace lab {

// The batch size a task trains with when the caller does not choose one: the note's recipe is
// one pair per step; the generated tasks learn faster on 32.
long default_batch_size(const std::string& task);

struct SessionConfig {
  std::string task;          // note | zh-en | dates | reverse | copy
  TaskOptions task_options;  // its seed picks the task's data (the front ends default it to seed)
  CellKind cell = CellKind::kRnn;
  long hidden = 128;   // Hd, in [1, 4096]
  long embedding = 0;  // E, in [0, 4096]; 0: same as hidden
  bool attention = true;
  Score score = Score::kDot;
  bool attentional_tanh = false;
  uint64_t seed = 1;     // the weights and the batch sampling
  long batch_size = 32;  // in [1, kMaxBatchSize]
  // Adam's learning rate: any positive float32. There is deliberately no smaller upper limit:
  // a huge rate costs no memory and its divergence is reported with the weights kept, which is
  // one of the things the lab exists to show.
  double learning_rate = 1e-3;
  double clip_norm = 0.0;  // clip the gradient norm to this before each step; 0: no clipping

  // Throws InputError for anything absurd or inconsistent, before any allocation. The task's own
  // options are checked by make_task before it generates any data, and the parameter count
  // (which needs the vocabulary sizes) by Seq2SeqConfig::validate before the model allocates.
  void validate() const;
};

class Seq2SeqSession {
 public:
  // Validates the config, builds the task and a freshly initialised model. Throws InputError.
  explicit Seq2SeqSession(const SessionConfig& config);
  // With a task built elsewhere (make_task, or a test's own); config.task is not read.
  Seq2SeqSession(const SessionConfig& config, std::unique_ptr<Task> task);
  // Movable (the embind handle owns one on the heap), not copyable (the model is not).
  Seq2SeqSession(Seq2SeqSession&&) = default;
  Seq2SeqSession& operator=(Seq2SeqSession&&) = default;
  Seq2SeqSession(const Seq2SeqSession&) = delete;
  Seq2SeqSession& operator=(const Seq2SeqSession&) = delete;

  // `steps` Adam steps (in [1, kMaxTrainSteps]) on batches drawn from the task. Throws
  // TrainingDiverged when the run diverges, with the session as it was after the last good
  // step; any other error of a step (a bad batch, a bug) keeps its own type and message.
  TrainResult train(long steps);
  EvalResult evaluate(const EvalOptions& options = {});
  // Tokenizes `text` (unknown tokens flagged, never an error) and decodes it. Interventions
  // are translate_intervened's (an InputError here).
  TranslateResult translate(const std::string& text, const TranslateOptions& options = {});
  // Greedy decoding with options.interventions (decode.h), and the plain decoding beside it in
  // `intervention` (session_why.cpp).
  TranslateResult translate_intervened(const std::string& text, const TranslateOptions& options);
  // Records the attention of `probe` (tokenized like translate's text) now and every `every`
  // training steps, at most `capacity` frames (timeline.h). Replaces any earlier timeline.
  void record_timeline(const std::string& probe, long every, long capacity);
  void stop_timeline() { timeline_.stop(); }
  const AttentionTimeline& timeline() const { return timeline_; }
  const std::vector<SourceToken>& timeline_probe() const { return timeline_probe_; }

  // Attributes each word of the greedy translation of `text` to its source tokens.
  SessionAttribution attribution(const std::string& text, const AttributionRequest& request = {});

  // The .atlb file (docs/model-format.md): everything a bit-identical resume needs.
  std::vector<uint8_t> save() const;
  // Throws InputError for anything a file from save() could not contain.
  static Seq2SeqSession load(const uint8_t* data, size_t size);
  static Seq2SeqSession load(const std::vector<uint8_t>& bytes) {
    return load(bytes.data(), bytes.size());
  }

  // The tokens a user can type (source) or the model can write (target), in id order, without
  // the reserved <pad>, <sos>, <eos> and <unk>: token i has id i + kNumReservedTokens. For a
  // front end that offers the vocabulary as clickable words.
  std::vector<std::string> source_vocabulary() const;
  std::vector<std::string> target_vocabulary() const;

  const SessionConfig& config() const { return config_; }
  const Task& task() const { return *task_; }
  const Seq2SeqModel& model() const { return model_; }
  long step() const { return step_; }
  // The effective embedding size (config().embedding, or hidden when it is 0).
  long embedding_size() const { return model_.config().embedding_size(); }

 private:
  DecodeOptions decode_defaults(long longest_target) const;
  // The timeline's decoder (timeline.h): greedy decoding of this session's model.
  auto probe_decoder() {
    return [this](const std::vector<int32_t>& probe, const DecodeOptions& options) {
      return greedy_decode(model_, probe, options);
    };
  }

  SessionConfig config_;
  std::unique_ptr<Task> task_;
  Seq2SeqModel model_;
  AdamOptions adam_;
  Rng rng_;  // draws the training batches
  long step_ = 0;
  AttentionTimeline timeline_;  // not saved: a view of this run, not part of the model
  std::vector<SourceToken> timeline_probe_;
};

}  // namespace lab
