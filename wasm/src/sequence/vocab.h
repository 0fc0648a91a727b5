// Tokenizers and vocabularies: text ↔ token ids for the Seq2Seq tasks.
//
// Ids 0–3 are reserved in every vocabulary: <pad> 0, <sos> 1, <eos> 2, <unk> 3. Real tokens
// follow in a deterministic order chosen by whoever builds the vocabulary (first appearance for
// the note's corpus, code-point order for characters), so the same data always gives the same ids.
//
// Two tokenizers, both strict about UTF-8 (invalid input names the offending byte offset):
//   words  split on whitespace, ASCII or Unicode (U+3000 too; the note's Chinese is pre-split)
//   chars  one token per Unicode code point, leading and trailing whitespace ignored
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sequence/batch.h"  // kPadId
#include "tensor.h"          // InputError

namespace lab {

enum class Tokenizer { kWords, kChars };

// "words" or "chars"; throws InputError naming both choices for anything else.
Tokenizer parse_tokenizer(const std::string& name);
const char* tokenizer_name(Tokenizer kind);

constexpr int32_t kSosId = 1;
constexpr int32_t kEosId = 2;
constexpr int32_t kUnkId = 3;
constexpr int32_t kNumReservedTokens = 4;
extern const char* const kReservedTokens[kNumReservedTokens];  // "<pad>", "<sos>", "<eos>", "<unk>"

// Limits on what a user may type: long enough for every task (the reverse task goes to 60
// symbols), short enough that an RNN step loop over it stays interactive.
constexpr long kDefaultMaxTokens = 64;
constexpr size_t kMaxSentenceBytes = 4096;
// Limits on a vocabulary read from a file.
constexpr long kMaxVocabSize = 65536;
constexpr size_t kMaxTokenBytes = 256;

// Throws InputError("invalid UTF-8 at byte N") for the first malformed, overlong, surrogate or
// out-of-range sequence.
void check_utf8(std::string_view text);

// The tokens of `text` (views into it) after UTF-8 validation; empty for blank text.
std::vector<std::string_view> tokenize(std::string_view text, Tokenizer kind);

// "sentence has 70 tokens; the limit is 64", with the code "sentenceTooLong" and the details
// {count, limit}: a page says it in its reader's words.
InputError sentence_too_long(long count, long limit);

// The inverse for display: words joined by single spaces, chars concatenated.
std::string join_tokens(const std::vector<std::string>& tokens, Tokenizer kind);

struct Encoded {
  std::vector<int32_t> ids;      // one per token, no <sos>/<eos>
  std::vector<uint8_t> unknown;  // 1 where the token is not in the vocabulary (id is <unk>)
};

class Vocab {
 public:
  // Only the reserved tokens.
  explicit Vocab(Tokenizer kind = Tokenizer::kWords);

  // Reserved tokens, then `tokens` in order of first appearance (repeats are skipped). Throws
  // for a token the tokenizer could never produce (empty, whitespace inside a word, more than
  // one code point for chars, a reserved name) and beyond kMaxVocabSize.
  static Vocab build(Tokenizer kind, const std::vector<std::string>& tokens);

  // The exact id → token table (reserved tokens included, at ids 0–3), as stored in a file.
  // Throws for missing or misplaced reserved tokens, duplicates and invalid tokens.
  static Vocab from_tokens(Tokenizer kind, const std::vector<std::string>& all_tokens);

  // {"tokenizer": "words", "tokens": ["<pad>", "<sos>", "<eos>", "<unk>", ...]}
  nlohmann::json to_json() const;
  static Vocab from_json(const nlohmann::json& j);

  Tokenizer tokenizer() const { return kind_; }
  long size() const { return static_cast<long>(tokens_.size()); }
  const std::vector<std::string>& tokens() const { return tokens_; }

  // The id of a token, or kUnkId when it is not in the vocabulary.
  int32_t id(std::string_view token) const;
  bool contains(std::string_view token) const;
  // The id of a token, or −1 when it is not in the vocabulary (as FileVocab::find).
  int32_t find(std::string_view token) const { return contains(token) ? id(token) : -1; }
  // Throws InputError for an id outside [0, size()).
  const std::string& token(int32_t id) const;

  // Tokenizes and looks up a sentence. Unknown tokens become <unk> and are flagged, never an
  // error; the reserved names typed as text ("<eos>") are unknown too, so input cannot inject
  // control tokens. Throws "sentence is empty", "sentence has 75 tokens; the limit is 64",
  // "sentence is 5000 bytes long; the limit is 4096" and invalid UTF-8.
  Encoded encode(std::string_view text, long max_tokens = kDefaultMaxTokens) const;

  // One token string per id (reserved ones by name). Throws for an id outside the vocabulary.
  std::vector<std::string> decode(const std::vector<int32_t>& ids) const;
  // Display text of a model's output: stops at the first <eos>, skips <pad> and <sos>.
  std::string decode_text(const std::vector<int32_t>& ids) const;

 private:
  void add(const std::string& token);  // validated by the caller

  Tokenizer kind_;
  std::vector<std::string> tokens_;
  std::map<std::string, int32_t, std::less<>> ids_;
  // Ids of one-byte tokens (-1: absent): the chars tasks look up every character of every
  // example, and this keeps building a 10k-example task well under 100 ms in wasm.
  std::array<int32_t, 128> ascii_ids_;
};

}  // namespace lab
