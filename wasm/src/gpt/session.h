// A GPT training session: the GPT counterpart of transformer/session.h's TransformerSession, on a
// character corpus instead of a translation task. It owns the corpus (the caller's UTF-8 text,
// e.g. the Tang poems of scripts/poems.mjs), its character vocabulary and a seeded split into
// training and held-out poems, the model (gpt/model.h), Adam and the batch sampler.
//
// Poems are the text's paragraphs (runs of lines between blank lines), as scripts/poems.mjs
// writes them; a share of them, chosen with the seed, is held out whole, so no held-out line was
// ever seen in training. The vocabulary is every character of the whole text, so the held-out
// text has no unknown characters.
//
// Determinism as the other sessions: the seed drives the split, the weights and the batch
// sampling, and a saved session (kind "attention-lab/gpt", docs/gpt.md) holds the corpus, the
// weights, Adam's moments and step, the sampler's state and the step counter, so save → load →
// train(n) gives the losses of an uninterrupted run bit for bit on the same build.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpt/corpus.h"
#include "gpt/generate.h"
#include "gpt/heads.h"
#include "gpt/model.h"
#include "optim.h"
#include "rng.h"
#include "sequence/session_checks.h"  // TrainResult, TrainingDiverged

namespace lab {

constexpr size_t kGptMaxCorpusBytes = size_t{1} << 20;  // 1 MiB of UTF-8: fits a file's header
constexpr long kGptMaxTrainSteps = 100000;
constexpr long kGptMaxBatchSize = 1024;
constexpr long kGptMaxWarmup = 1000000;
constexpr double kGptMaxHeldOut = 0.5;
constexpr double kGptMaxDrills = 0.95;  // a batch keeps some real poems: the words come from them

// Where a training window starts (docs/gpt.md, "A session").
enum class GptWindows {
  kText,  // anywhere in the training text (nanoGPT's get_batch)
  // at the blank line before a poem, and every blockSize characters into a longer one; the
  // targets after the poem's closing blank line are ignored (-1), so a window holds one poem
  kPoem,
};

struct GptSessionConfig {
  std::string text;       // the corpus, UTF-8
  double held_out = 0.1;  // share of the poems held out, in [0, 0.5]; 0: none (evaluate
                          // then reports the training loss only)
  long block_size = 64;   // the model's context (and the training windows' length)
  long layers = 2;
  long heads = 4;
  long d_model = 64;
  long batch_size = 16;         // windows per step, in [1, kGptMaxBatchSize]
  double learning_rate = 3e-3;  // Adam's peak rate: a positive float32
  long warmup = 0;              // linear warm-up to learning_rate over this many steps; 0: none
  uint64_t seed = 1;            // the split, the weights and the batch sampling
  // kPoem puts a poem's k-th character at position k + 2 of every window that holds it, so the
  // learned position embedding can carry where a line's marks fall; evaluate() then reads each
  // held-out poem from its own start, as training does.
  GptWindows windows = GptWindows::kText;
  // The share of the training windows that are form drills (corpus.h, FormDrills), in [0, 0.95];
  // kPoem windows only. 0: none (the batches drawn are then those of a session without the
  // setting).
  double drills = 0;

  // Throws InputError naming the setting (the text's problems are the corpus's, checked when the
  // session splits it: empty, too large, too short for one block).
  void validate() const;
};

// The defaults of a session on the Tang poems: the recipe of docs/gpt.md (measured by
// scripts/gpt-poems.mjs). `text` is left empty.
GptSessionConfig gpt_poems_defaults();

// Losses in nats per character, each over every character of its text but the first (the one
// predicted from nothing). The model reads its text in consecutive blocks of block_size
// positions, each from an empty context: with GptWindows::kPoem each poem is its own text, from
// the blank line before it to the one after it. The baselines are fitted on the training text
// and scored on the same targets.
struct GptEvalResult {
  double train_loss = 0;       // on the first `characters` characters of the training text
  double validation_loss = 0;  // on the held-out text (0 when there is none)
  double unigram_loss = 0;     // baselines on the held-out text (see session.cpp)
  double bigram_loss = 0;
  long characters = 0;  // of the held-out text (0: none; then the training text's
                        // losses are reported in train_loss only)
};

struct GptSampleResult {
  std::string text;       // prompt + generated
  std::string generated;  // the generated characters only
  Generation generation;  // ids and each step's candidates and attention (gpt/generate.h)
};

struct GptCorpusInfo {
  long poems = 0, train_poems = 0, held_out_poems = 0;
  long train_characters = 0, held_out_characters = 0;
};

struct GptCorpusParts;  // session.cpp: the vocabulary and the split, checked

class GptSession {
 public:
  explicit GptSession(const GptSessionConfig& config);

  // `steps` Adam steps (in [1, kGptMaxTrainSteps]) on batches of random windows of the training
  // text (config.windows says where they may start): each step's mean loss per character (nats)
  // and its next-character accuracy. Throws TrainingDiverged with the session as after the last
  // good step.
  TrainResult train(long steps);
  // The batches a fresh session's train() draws for its first `steps` steps (the windows and
  // their targets), for a reference that must train on the same ones (bench/torch_gpt.py).
  std::vector<GptBatch> first_batches(long steps) const;
  GptEvalResult evaluate();
  // Generates after `prompt` (1 … block_size characters of the vocabulary). Throws InputError
  // naming every character of the prompt outside the vocabulary.
  GptSampleResult sample(const std::string& prompt, const GenerateOptions& options);
  // What each head learned (gpt/heads.h) on the session's probe: the held-out text (the training
  // text without one), newline and ，。？！；,.?!; as line ends, and r = min(16, blockSize / 2)
  // distinct ids drawn with the seed for the induction probe. InputError naming zeroHeads[i].
  GptHeadScores head_scores(const std::vector<GptHeadRef>& zero_heads = {});
  const GptHeadProbe& head_probe() const { return probe_; }

  std::vector<uint8_t> save() const;
  static GptSession load(const uint8_t* data, size_t size);
  static GptSession load(const std::vector<uint8_t>& bytes) {
    return load(bytes.data(), bytes.size());
  }

  const GptSessionConfig& config() const { return config_; }
  const CharVocab& vocab() const { return vocab_; }
  const GptModel& model() const { return model_; }
  const GptCorpusInfo& corpus() const { return info_; }
  const std::vector<int32_t>& train_ids() const { return train_ids_; }
  const std::vector<int32_t>& held_out_ids() const { return held_out_ids_; }
  const std::vector<PoemWindow>& poem_windows() const { return poem_windows_; }  // kPoem
  long step() const { return step_; }

 private:
  GptSession(const GptSessionConfig& config, GptCorpusParts&& parts);
  GptBatch draw_batch(Rng& rng) const;  // the next training batch (config_.windows) from rng
  static Rng sampler(const GptSessionConfig& config);  // rng_ as a fresh session seeds it

  GptSessionConfig config_;
  CharVocab vocab_;
  std::vector<int32_t> train_ids_, held_out_ids_;
  // kPoem: where each training window may start in train_ids_ (read cyclically) and how far
  // its poem goes, and the held-out poems' texts for evaluate()
  std::vector<PoemWindow> poem_windows_;
  std::vector<std::vector<int32_t>> held_out_poems_, train_poems_;
  GptCorpusInfo info_;
  GptModel model_;
  GptHeadProbe probe_;
  FormDrills drills_;  // over train_poems_ (config_.drills 0: none)
  Rng rng_;            // draws the training windows
  long step_ = 0;
};

// The poems of `text` (its paragraphs, without the blank lines between them) and the seeded
// split: held-out poem indices, ascending. Exposed for the tests. Throws InputError when
// held_out > 0 and the text has fewer than 2 poems.
std::vector<std::string> split_poems(const std::string& text);
std::vector<size_t> held_out_poems(size_t poems, double held_out, uint64_t seed);
// "poem" / "text" ⇄ GptWindows; InputError naming `key` for any other name.
GptWindows gpt_windows_from_name(const std::string& name, const std::string& key);
const char* gpt_windows_name(GptWindows w);

// Add-one (Laplace) smoothed unigram and bigram models fitted on `train`, scored on the targets
// `held[1 …]` (the bigram reads each target's predecessor in `held`): mean nats per character.
struct NgramLosses {
  double unigram = 0, bigram = 0;
};
NgramLosses ngram_baselines(const std::vector<int32_t>& train, const std::vector<int32_t>& held,
                            long vocab);

}  // namespace lab
