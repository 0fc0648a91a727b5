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
#include "seq2seq/attribution.h"
#include "seq2seq/cells.h"
#include "seq2seq/decode.h"
#include "seq2seq/model.h"
#include "seq2seq/tasks.h"
#include "seq2seq/timeline.h"

namespace lab {

// Steps per train() call: large enough for any chart, small enough that one call ends.
constexpr long kMaxTrainSteps = 100000;

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

struct TrainResult {
  std::vector<float> losses;          // one per completed step of this call
  std::vector<float> token_accuracy;  // per step: teacher-forced argmax = target, over the batch
  long step = 0;                      // steps trained in total
};

// Training diverged (a NaN/Inf loss, gradient or weight). The session keeps the weights,
// optimiser state and Rng of the last good step; `completed` has the steps of this call that
// did complete before it.
struct TrainingDiverged : NonFiniteError {
  TrainingDiverged(const std::string& message, TrainResult completed)
      : NonFiniteError(message), completed(std::move(completed)) {}
  TrainResult completed;
};

struct EvalOptions {
  // Evaluate the first `max_examples` examples only; absent: all of them.
  std::optional<long> max_examples;
  // reverse/copy: instead of the held-out set, `count` fresh strings of exactly `length` symbols
  // (none from the training set) drawn with `seed`: accuracy against length.
  std::optional<long> length;
  std::optional<long> count;     // with length only; default 200
  std::optional<uint64_t> seed;  // with length only; default 1, the same strings for every model
};

struct LengthBucketResult {
  long min_words = 0, max_words = 0;  // source lengths, inclusive
  long examples = 0;
  double exact_match = 0.0;  // 0 when the bucket has no examples
};

struct EvalResult {
  double loss = 0.0;            // mean teacher-forced cross-entropy per target token
  double token_accuracy = 0.0;  // teacher-forced argmax = target, over all target tokens
  double exact_match = 0.0;     // greedy translation = reference, over examples
  long examples = 0;
  bool held_out_is_training_data = false;  // the note's five pairs (never with a length)
  // Teacher-forced: of the target tokens with aligned source tokens, the share whose attention
  // argmax is one of them (alignment.h). Absent without attention or without alignments (dates).
  std::optional<double> alignment_accuracy;
  long aligned_tokens = 0;  // the target tokens it was computed over
  // Greedy exact match per source-length bucket (the task's, or four of equal width).
  std::vector<LengthBucketResult> exact_match_by_length;
};

// An intervention as a front end names it: force-token's word as text (decode.h has its id).
struct InterventionRequest {
  Intervention intervention;  // .token is ignored: `token` names it
  std::string token;          // force-token: a target word, or "<eos>" to end there
};

struct TranslateOptions {
  std::optional<long> beam;        // absent: greedy decoding; else beam search of this width
  std::optional<long> max_length;  // absent: max(32, the task's longest target + 1)
  std::optional<long> top_k;       // absent: min(5, target vocabulary)
  // Greedy decoding only: decode once plainly and once with these (decode.h), and compare.
  std::vector<InterventionRequest> interventions;
};

// The plain translation beside an intervened one (TranslateResult::greedy holds the intervened).
struct InterventionComparison {
  GreedyResult original;
  std::string original_text;
  // (steps of the intervened decoding) 1 where its token differs from the original's at the
  // same step, or the original had already ended there.
  std::vector<uint8_t> changed;
  long first_change = -1;  // the first such step; −1: the same words
  // (S, Hd) what the attention mixes: a step forced onto source j has context row j exactly.
  std::vector<float> encoder_outputs;
};

struct SourceToken {
  std::string token;  // the vocabulary's token, or "<unk>"
  std::string text;   // as typed
  int32_t id = 0;
  bool unknown = false;
};

struct TranslateResult {
  std::vector<SourceToken> source;
  std::vector<int32_t> output;  // target ids without <eos>
  std::string text;
  bool finished = false;  // <eos> was produced within max_length
  long beam_width = 0;    // 0: greedy, and `greedy` holds the trace; else `beam` does
  GreedyResult greedy;
  BeamResult beam;
  std::vector<std::string> hypothesis_texts;  // beam only: the text of each beam.hypotheses[i]
  std::optional<InterventionComparison> intervention;  // with interventions only
};

struct AttributionRequest {
  AttributionOptions options;
  std::optional<long> max_length;  // of the greedy translation whose words are attributed
};

// attribution(text): the greedy translation and its words' attribution (attribution.h), one row
// per decoding step (<eos> included when it was produced).
struct SessionAttribution {
  std::vector<SourceToken> source;
  std::string text;
  std::vector<std::string> words;  // (T) the attributed output words
  AttributionResult attribution;
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
