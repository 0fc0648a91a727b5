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
GptBatch sample_windows_at(const std::vector<int32_t>& ids, const std::vector<PoemWindow>& windows,
                           long B, long T, Rng& rng);

}  // namespace lab
