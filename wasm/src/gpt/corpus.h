// A character-level corpus for the GPT: text (UTF-8) → its vocabulary of characters → ids, and
// training windows of consecutive ids. The poems come from scripts/poems.mjs, which extracts them
// at build time from Debian's fortunes-zh files into build/poems/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpt/model.h"
#include "rng.h"

namespace lab {

class CharVocab {
 public:
  // Every distinct character (Unicode code point) of `text`, in code-point order. Throws
  // InputError for invalid UTF-8 (naming the byte offset) and for fewer than 2 characters.
  static CharVocab from_text(const std::string& text);

  long size() const { return static_cast<long>(chars_.size()); }
  const std::vector<std::string>& chars() const { return chars_; }  // id → character (UTF-8)
  const std::vector<uint32_t>& points() const { return points_; }   // id → code point
  // Throws InputError naming a character outside the vocabulary and its position.
  std::vector<int32_t> encode(const std::string& text) const;
  std::string decode(const std::vector<int32_t>& ids) const;  // InputError for a bad id
  // The distinct characters of `text` outside the vocabulary, in order of first appearance
  // (InputError for invalid UTF-8).
  std::vector<std::string> missing(const std::string& text) const;

 private:
  std::vector<uint32_t> points_;    // sorted
  std::vector<std::string> chars_;  // the same, encoded
};

// B windows of T + 1 consecutive ids of `ids`, each starting at a position drawn from rng:
// idx = window[0, T), targets = window[1, T + 1), as nanoGPT's get_batch. Throws InputError when
// the text is not longer than T.
GptBatch sample_windows(const std::vector<int32_t>& ids, long B, long T, Rng& rng);
// Where a window of one poem starts in the training ids, and how many of its next ids are still
// that poem's (up to and including the blank line that closes it).
struct PoemWindow {
  long start = 0;
  long targets = 0;
};

// B windows of T + 1 ids each starting at windows[rng.below(windows.size())].start and read
// cyclically (the id after the last is the first): the poems' own windows (GptWindows::kPoem).
// Every target past the window's `targets` is kGptIgnoreTarget, so that the loss learns nothing
// about the next poem from positions where its lines fall elsewhere than in a window of its own.
//
// drills: null, or where each window is, with probability drills->share, a form drill in place
// of a poem of the text: a training poem drawn with rng whose every character but its line
// breaks and punctuation is a draw from the text's other characters (by their counts), read
// from the blank line before it as the poem's own first window reads it. A drill carries the
// form and nothing of the words: the model learns where the marks fall from many poems' worth of
// shapes, and the words from the real poems, which it then reads fewer times (docs/gpt.md).
struct FormDrills {
  double share = 0;  // of the windows, in [0, 1)
  // each training poem ("\n\n" body "\n\n") with kDrillFill for every character a drill draws
  std::vector<std::vector<int32_t>> shapes;
  std::vector<int32_t> content;  // the training text's other characters, each occurrence
};
constexpr int32_t kDrillFill = -1;
GptBatch sample_windows_at(const std::vector<int32_t>& ids, const std::vector<PoemWindow>& windows,
                           long B, long T, Rng& rng, const FormDrills* drills = nullptr);

// Whether a character (a code point) is one a form drill keeps: a line break, or one of the marks
// that end a sentence or a clause (，。？！；、： and their ASCII forms).
bool drill_keeps(uint32_t point);

}  // namespace lab
