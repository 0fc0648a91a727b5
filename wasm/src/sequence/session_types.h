// What a translator session's train, evaluate, translate and attribution calls take and give,
// the same for every model's session (sequence/translator_session.h): the front ends convert these
// once for all of them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sequence/attribution.h"
#include "sequence/decode.h"
#include "sequence/session_checks.h"  // TrainResult, TrainingDiverged

namespace lab {

// Steps per train() call: large enough for any chart, small enough that one call ends.
constexpr long kMaxTrainSteps = 100000;

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
  // The same by position t in the target (the (t+1)-th token written, <eos> included), over the
  // examples whose target has one: which part of a sequence the model gets wrong.
  std::vector<double> token_accuracy_by_position;
  double exact_match = 0.0;  // greedy translation = reference, over examples
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
  std::optional<long> beam;            // absent: greedy decoding; else beam search of this width
  std::optional<long> max_length;      // absent: max(32, the task's longest target + 1)
  std::optional<long> top_k;           // absent: min(5, target vocabulary)
  std::optional<double> length_alpha;  // beam only; absent: DecodeOptions' 1
  // Greedy decoding only: decode once plainly and once with these (decode.h), and compare.
  std::vector<InterventionRequest> interventions;
};

// A translation's decoding options: a model's defaults with what the caller set. The one place a
// front end's decoding option reaches the decoder (sessions and models read from files alike).
inline DecodeOptions with_translate_options(DecodeOptions opt, const TranslateOptions& options) {
  // greedy decoding has no hypotheses to score: an α there would be ignored without a word
  if (options.length_alpha && !options.beam) {
    throw InputError("lengthAlpha scores beam search's hypotheses: give beam too");
  }
  if (options.max_length) opt.max_length = *options.max_length;
  if (options.top_k) opt.top_k = *options.top_k;
  if (options.beam) opt.beam_width = *options.beam;
  if (options.length_alpha) opt.length_alpha = *options.length_alpha;
  return opt;
}

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

// A translation by a model whose decoders give `Greedy` and `Beam` (decoded() of each is the
// GreedyResult or BeamResult inside; a model's trace adds to them).
template <class Greedy, class Beam>
struct TranslationOf {
  std::vector<SourceToken> source;
  std::vector<int32_t> output;  // target ids without <eos>
  std::string text;
  bool finished = false;  // <eos> was produced within max_length
  long beam_width = 0;    // 0: greedy, and `greedy` holds the trace; else `beam` does
  Greedy greedy;
  Beam beam;
  std::vector<std::string> hypothesis_texts;  // beam only: the text of each hypothesis, best first
  std::optional<InterventionComparison> intervention;  // with interventions only (greedy)
};

// A translation whose trace is the plain results, each step with its attention over the source
// (the recurrent translator's).
using TranslateResult = TranslationOf<GreedyResult, BeamResult>;

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

}  // namespace lab
