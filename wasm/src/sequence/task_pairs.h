// The "pairs" task: the reader's own sentence pairs, one `source<TAB>target` per line.
//
//   # a comment line            skipped, as are blank lines
//   咖哥 喜欢 小冰<TAB>KaGe likes XiaoBing
//
// Tokens are words (split on whitespace, ASCII or Unicode) or characters (one per code point,
// whitespace dropped), as the reader chooses. Identical pairs count once, so no held-out pair is
// ever a training pair too. A seeded shuffle of the distinct pairs holds out
// floor(pairs × fraction) of them; the vocabularies are built from the training pairs only (in
// order of first appearance), so a held-out word the model never saw is <unk>, as it would be for
// a sentence the reader types. With a fraction of 0 nothing is held out and evaluate() scores
// the training pairs (said so by heldOutIsTrainingData, as for the note).
//
// Every limit is an InputError that names the line: "line 7: no tab between source and target",
// "line 12: the target has 83 words; at most 64".
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sequence/tasks.h"
#include "sequence/vocab.h"

namespace lab {

constexpr long kMaxPairs = 20000;                    // pair lines (before duplicates are dropped)
constexpr long kMaxPairTokens = kMaxSequenceLength;  // tokens per side: what translate() reads
constexpr size_t kMaxPairsBytes = size_t{1} << 20;   // 1 MiB of text, stored in the model file
constexpr double kMaxHeldOutFraction = 0.5;

struct PairLine {
  long line = 0;       // 1-based line number in the text
  std::string source;  // tokens joined as the tokenizer reads them back (words: single spaces)
  std::string target;
};

// The pair lines of `text` in file order, each side checked against the limits above. Throws
// InputError naming the line for a line without exactly one tab, an empty side, too many tokens
// or bytes, a reserved token (<eos> …), a control character or invalid UTF-8; and for text that
// is too long, has more than kMaxPairs pairs or none at all.
std::vector<PairLine> parse_pairs(std::string_view text, Tokenizer kind);

// Throws unless options.held_out_fraction is in [0, kMaxHeldOutFraction] and options.pairs
// within kMaxPairsBytes (every task's options are checked: these have defaults that pass).
void check_pairs_options(const TaskOptions& options);
// Throws "sentence pairs are for task 'pairs' only (the task is 'note')".
[[noreturn]] void pairs_for_another_task(const std::string& task);

// The task named "pairs": options.pairs (the text), options.tokenize, options.held_out_fraction
// and options.seed (the split). Throws parse_pairs' errors and "12 distinct pairs are too few
// to hold 5% out …" when the fraction holds none out or leaves nothing to train on.
std::unique_ptr<Task> make_pairs_task(const TaskOptions& options);

}  // namespace lab
