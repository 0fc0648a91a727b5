// The recurrent translator's training session: sequence/translator_session.h's session on a
// Seq2SeqModel, configured by SessionConfig. Its own parts (session.cpp, session_io.cpp): the
// model's config and Adam step, the attention alignment that evaluation counts, and its
// settings in the .atlb header (docs/model-format.md, "The Seq2Seq header").
#pragma once

#include <cstdint>
#include <string>

#include "attention/score.h"
#include "rnn/attribution.h"
#include "rnn/cells.h"
#include "rnn/decode.h"
#include "rnn/model.h"
#include "sequence/session_types.h"
#include "sequence/tasks.h"
#include "sequence/translator_session.h"

namespace lab {

// The batch size a task trains with when the caller does not choose one: the note's recipe is
// one pair per step; the generated tasks learn faster on 32.
long default_batch_size(const std::string& task);

struct SessionConfig {
  using Model = Seq2SeqModel;
  using Translation = TranslateResult;
  // 1: weights only (the first development builds; no "version" key). 2: a resumable session.
  static constexpr SessionKind kKind = {
      "Seq2Seq",
      "attention-lab/seq2seq",
      2,
      "model file is a Seq2Seq file of version 1 (weights only, from a development build), "
      "which this build cannot resume: train the model again",
      0,  // no positional table: no limit on the length
      "try a smaller learningRate or set clipNorm"};

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
  // Adam's learning rate: any positive float32 (TranslatorSession::check_config says why).
  double learning_rate = 1e-3;
  double clip_norm = 0.0;  // clip the gradient norm to this before each step; 0: no clipping

  // Throws InputError for anything absurd or inconsistent, before any allocation. The task's own
  // options are checked by make_task before it generates any data, and the parameter count
  // (which needs the vocabulary sizes) by Seq2SeqConfig::validate before the model allocates.
  void validate() const;
};

using Seq2SeqSession = TranslatorSession<SessionConfig>;

}  // namespace lab
