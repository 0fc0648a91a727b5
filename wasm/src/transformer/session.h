// The Transformer's training session: sequence/translator_session.h's session on a
// TransformerModel, configured by TransformerSessionConfig, with the same tasks, vocabularies,
// batches, sampler, Adam, evaluation and decoding as the recurrent translator's, so that every
// front end (embind, the CLI, the web worker) drives both the same way. Its own parts
// (session.cpp, session_io.cpp): the model's config, Adam's warm-up schedule, and its settings in
// the .atlb header (kind "attention-lab/transformer", docs/model-format.md); a translation's trace
// holds every layer's and head's attention (transformer/decode.h).
#pragma once

#include <cstdint>
#include <string>

#include "sequence/session_types.h"
#include "sequence/tasks.h"
#include "sequence/translator_session.h"
#include "transformer/attribution.h"
#include "transformer/decode.h"
#include "transformer/model.h"

namespace lab {

constexpr long kMaxWarmupSteps = 1000000;

// A Transformer's translation: its trace holds every layer's and head's attention.
using TransformerTranslateResult = TranslationOf<TransformerGreedyResult, TransformerBeamResult>;

struct TransformerSessionConfig {
  using Model = TransformerModel;
  using Translation = TransformerTranslateResult;
  static constexpr SessionKind kKind = {
      "Transformer",
      "attention-lab/transformer",
      1,
      nullptr,
      kTransformerMaxLen,
      "try a smaller learningRate, a longer warmup or set clipNorm"};

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
  double learning_rate = 2e-3;  // the peak rate: any positive float32
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

using TransformerSession = TranslatorSession<TransformerSessionConfig>;

}  // namespace lab
