// What each head of a GptModel learned, measured: four detectors, each a score in [0, 1] per layer
// × head, the mean attention weight a head puts on its detector's target position(s) over a fixed
// probe (docs/gpt.md, "What the heads learned", defines the targets with examples):
//
//   previous   query i → i − 1                                     (over the probe text)
//   lineBack   query at column c of a line → column c of the line before (对仗's parallel place);
//              not scored when that is i − 1 (a one-character line before), so that a pure
//              previous-character head scores 0 here
//   lineStart  query at column ≥ 2 → the first character of its line and the line end before it
//              (their weights summed)
//   induction  over r ++ r (r: n random ids): query n + j (the second copy of r_j) → j + 1, the
//              token after r_j's first copy, for j in [0, n − 2]
//
// A line is a run of characters ended by a line end (newline or punctuation, the probe's
// `line_end` ids); the line end is the line's last character. The text probe is read in
// consecutive windows of the block size, each from an empty context, as evaluate() reads the
// held-out text; a target outside its query's window is not scored, nor a query without targets.
//
// Zeroing heads (an intervention, forward only): a zeroed head's output is set to 0 before c_proj,
// in GptModel::forward, in generation (GenerateOptions::zero_heads) and in these scores.
#pragma once

#include <cstdint>
#include <vector>

#include "gpt/model.h"

namespace lab {

enum GptDetector : long { kPreviousChar = 0, kLineBack = 1, kLineStart = 2, kInduction = 3 };
constexpr long kGptDetectors = 4;
// The names the API and the page use, in GptDetector order.
extern const char* const kGptDetectorNames[kGptDetectors];
// Windows of the text probe scored at most (keeps a table update to a few forward passes).
constexpr long kGptProbeWindows = 16;

struct GptHeadProbe {
  std::vector<int32_t> text;      // ids of the text probe (e.g. held-out poems)
  std::vector<int32_t> line_end;  // the ids that end a line (newline and punctuation)
  std::vector<int32_t> random;    // r: the induction probe is r ++ r (3 ≤ n, 2n ≤ block
                                  // size), or empty: none (induction scores 0)
};

// One scored query of a window: its position and its target positions (window-local).
struct GptHeadQuery {
  long query = 0;
  std::vector<long> targets;
};

// The scored queries of text detector `d` (previous, lineBack, lineStart) on the window
// text[start, start + length), and of the induction detector on r ++ r with n = |r|: what
// gpt_head_scores scores, exposed for the hand-made pattern test.
std::vector<GptHeadQuery> gpt_text_queries(GptDetector d, const std::vector<int32_t>& text,
                                           const std::vector<int32_t>& line_end, long start,
                                           long length);
std::vector<GptHeadQuery> gpt_induction_queries(long n);

// Adds, per head, the summed target weight of every query to sums (H) from att (H, T, T).
void gpt_accumulate_scores(double* sums, const float* att, long H, long T,
                           const std::vector<GptHeadQuery>& queries);

struct GptHeadScores {
  long layers = 0, heads = 0;
  std::vector<float> scores;                   // (kGptDetectors, L, H)
  long queries[kGptDetectors] = {0, 0, 0, 0};  // scored queries per detector (0: score 0)
  // Per detector, the score of a head that spreads its weight evenly over the positions it may
  // see (query i: i + 1 of them), on the same queries: what a head that looks nowhere in
  // particular scores, the baseline each learned score is read against.
  float even[kGptDetectors] = {0, 0, 0, 0};
};

// A GptHeadRef list → the (L, H) mask of 1 = zeroed. Throws InputError naming zeroHeads[i].
struct GptHeadRef {
  long layer = 0, head = 0;
};
std::vector<uint8_t> gpt_head_mask(const GptConfig& c, const std::vector<GptHeadRef>& heads);

// The four detectors' scores of `model` on `probe`, with the heads of `zero_heads` zeroed. Throws
// InputError for ids outside the vocabulary, an empty or too long probe.
GptHeadScores gpt_head_scores(GptModel& model, const GptHeadProbe& probe,
                              const std::vector<GptHeadRef>& zero_heads = {});

}  // namespace lab
