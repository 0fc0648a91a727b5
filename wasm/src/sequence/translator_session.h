// A translator's training session, one class for every encoder-decoder model (rnn/session.h's
// Seq2SeqSession, transformer/session.h's TransformerSession): one Task, one model, Adam, the Rng
// that draws the training batches and the step counter. Everything the front ends (embind, the
// CLI, the web worker) do with a model goes through it: train, evaluate, translate, ask why, save
// and load; they only convert values, the same way for every model.
//
// Determinism: the config's seed drives the weights and the batch sampling (and, through
// task_options.seed, the task's data), and a saved session holds the weights, Adam's moments and
// step, the sampling Rng's state and the step counter. So save → load → train(n) gives exactly
// the losses an uninterrupted run would have given, bit for bit, on the same build.
//
// A model joins through its session config, `Config`, which holds
//   task, task_options, seed, batch_size, learning_rate, clip_norm and its model's own settings;
//   validate(), which calls check_config;
//   Model        the model (Model::Config its config; what train_steps and teacher_forced_totals
//                of session_common.h call);
//   Translation  TranslationOf<its greedy result, its beam result> (session_types.h);
//   kKind        a SessionKind;
// and through the functions of its model that the shared loops call by the model's type:
// greedy_decode(model, src, options[, interventions]), beam_search, decoded (sequence/decode.h),
// attribute (sequence/attribution.h) and attention_values (translate.h). Each model defines the
// private members marked "the model's own" below for its session (explicit specializations in its
// session.cpp and session_io.cpp). The members are defined in session_common.h (training,
// evaluation, translation), session_why.h (interventions, attribution, the timeline) and
// session_file.h (save, load), and each model's session files instantiate them, so that the
// front ends see one declaration.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "optim.h"
#include "rng.h"
#include "sequence/alignment.h"
#include "sequence/session_types.h"
#include "sequence/tasks.h"
#include "sequence/timeline.h"
#include "sequence/vocab.h"

namespace lab {

// What the shared session says and writes of one kind of model.
struct SessionKind {
  const char* name;               // in messages: "Seq2Seq", "Transformer"
  const char* file_kind;          // the .atlb header's "kind"
  long file_version;              // the header's "version" this build writes and reads
  const char* unversioned;        // the error for a file of this kind without a version (or null)
  long positions;                 // the positional table's size, which limits the source and the
                                  // decoding; 0: none (sources up to kDefaultMaxTokens)
  const char* divergence_advice;  // ends the message of TrainingDiverged
};

template <class Config>
class TranslatorSession {
 public:
  using Model = typename Config::Model;
  using Translation = typename Config::Translation;

  // Validates the config, builds the task and a freshly initialised model. Throws InputError.
  explicit TranslatorSession(const Config& config);
  // With a task built elsewhere (make_task, or a test's own); config.task is not read.
  TranslatorSession(const Config& config, std::unique_ptr<Task> task);
  // Movable (the embind handle owns one on the heap), not copyable (the model is not).
  TranslatorSession(TranslatorSession&&) = default;
  TranslatorSession& operator=(TranslatorSession&&) = default;
  TranslatorSession(const TranslatorSession&) = delete;
  TranslatorSession& operator=(const TranslatorSession&) = delete;

  // The checks every session's config passes (Config::validate calls it): the task is named, the
  // model's own limits (with the smallest vocabularies as stand-ins), batch size, learning rate
  // (any positive float32: a huge rate costs no memory and its divergence is reported with the
  // weights kept, which is one of the things the lab exists to show) and clip norm.
  static void check_config(const Config& c);
  // The model's config of a session config, for the given vocabulary sizes (the model's own).
  static typename Model::Config model_config(const Config& c, long src_vocab, long tgt_vocab);

  // `steps` Adam steps (in [1, kMaxTrainSteps]) on batches drawn from the task. Throws
  // TrainingDiverged when the run diverges, with the session as it was after the last good
  // step; any other error of a step (a bad batch, a bug) keeps its own type and message.
  TrainResult train(long steps);
  EvalResult evaluate(const EvalOptions& options = {});
  // Tokenizes `text` (unknown tokens flagged, never an error) and decodes it, greedily or with a
  // beam. Interventions are translate_intervened's (an InputError here).
  Translation translate(const std::string& text, const TranslateOptions& options = {});
  // Greedy decoding with options.interventions (decode.h), and the plain decoding beside it in
  // `intervention`. A member of its own, so that a build that binds none of it (the widgets'
  // modules) links none of it.
  Translation translate_intervened(const std::string& text, const TranslateOptions& options);
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
  static TranslatorSession load(const uint8_t* data, size_t size);
  static TranslatorSession load(const std::vector<uint8_t>& bytes) {
    return load(bytes.data(), bytes.size());
  }
  // True if `data` is a model file whose header kind is this session's (for loaders that accept
  // several kinds). Throws InputError for a file that does not parse.
  static bool is_session_file(const uint8_t* data, size_t size);

  // The tokens a user can type (source) or the model can write (target), in id order, without
  // the reserved <pad>, <sos>, <eos> and <unk>: token i has id i + kNumReservedTokens. For a
  // front end that offers the vocabulary as clickable words.
  std::vector<std::string> source_vocabulary() const;
  std::vector<std::string> target_vocabulary() const;

  const Config& config() const { return config_; }
  const Task& task() const { return *task_; }
  const Model& model() const { return model_; }
  long step() const { return step_; }
  // The longest source translate() takes, in tokens: the positional table's size, if the model
  // has one, else kDefaultMaxTokens.
  static constexpr long max_source_tokens() {
    return Config::kKind.positions ? Config::kKind.positions : kDefaultMaxTokens;
  }

 private:
  // The model's own: one Adam step on the gradients of the last forward_backward.
  void update();
  // The model's own: the loss of one teacher-forced evaluation chunk (its batch), counting the
  // alignment of its attention where the model has one attention over the source.
  float score_chunk(const std::vector<Example>& chunk, const Batch& batch,
                    AlignmentCount& alignment);
  // The model's own: its settings in the .atlb header (beside session_header's) and back.
  static void write_config(nlohmann::json& header, const Config& c);
  static void read_config(const nlohmann::json& header, Config& c);

  // The source tokens of `text` (within the positional table, if the model has one).
  Encoded encode(const std::string& text) const;
  DecodeOptions decode_defaults(long longest_target) const;
  // translate's and translate_intervened's start: the text as the task reads it, its source
  // tokens in result.source, and the decoding options.
  void start_translation(const std::string& typed, const TranslateOptions& options,
                         Translation& result, Encoded& encoded, DecodeOptions& opt) const;
  // The timeline's decoder (timeline.h): greedy decoding of this session's model.
  auto probe_decoder() {
    return [this](const std::vector<int32_t>& probe, const DecodeOptions& options) {
      return decoded(greedy_decode(model_, probe, options));
    };
  }

  Config config_;
  std::unique_ptr<Task> task_;
  Model model_;
  AdamOptions adam_;
  Rng rng_;  // draws the training batches
  long step_ = 0;
  // train() reaches the timeline through this pointer, which record_timeline sets: a build
  // that never records one (the widgets' modules) links none of its code.
  static void (*timeline_after_step_)(TranslatorSession& session);
  AttentionTimeline timeline_;  // not saved: a view of this run, not part of the model
  std::vector<SourceToken> timeline_probe_;
};

}  // namespace lab
