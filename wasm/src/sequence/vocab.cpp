#include "sequence/vocab.h"

#include "tensor.h"

namespace lab {

const char* const kReservedTokens[kNumReservedTokens] = {"<pad>", "<sos>", "<eos>", "<unk>"};

namespace {

bool is_ascii_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

bool in_range(unsigned char c, unsigned char lo, unsigned char hi) {
  return c >= lo && c <= hi;
}

// Bytes of the whitespace character at text[pos] (Unicode's White_Space property), or 0. Beyond
// ASCII: U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F and U+3000, the
// ideographic space that Chinese input methods type between words.
size_t space_length(std::string_view text, size_t pos) {
  auto byte = [&](size_t i) -> unsigned char {
    return pos + i < text.size() ? static_cast<unsigned char>(text[pos + i]) : 0;
  };
  const unsigned char b0 = byte(0), b1 = byte(1), b2 = byte(2);
  if (is_ascii_space(b0)) return 1;
  if (b0 == 0xC2 && (b1 == 0x85 || b1 == 0xA0)) return 2;
  if (b0 == 0xE1 && b1 == 0x9A && b2 == 0x80) return 3;
  if (b0 == 0xE2 && b1 == 0x80 &&
      (in_range(b2, 0x80, 0x8A) || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF))
    return 3;
  if (b0 == 0xE2 && b1 == 0x81 && b2 == 0x9F) return 3;
  if (b0 == 0xE3 && b1 == 0x80 && b2 == 0x80) return 3;
  return 0;
}

// Length of the well-formed UTF-8 sequence starting at text[pos], or 0 when it is malformed.
// Follows the table of RFC 3629 §4, which excludes overlong forms, surrogates and > U+10FFFF.
size_t utf8_sequence_length(std::string_view text, size_t pos) {
  auto byte = [&](size_t i) -> unsigned char {
    return pos + i < text.size() ? static_cast<unsigned char>(text[pos + i]) : 0;
  };
  unsigned char b0 = byte(0);
  if (b0 < 0x80) return 1;
  // The allowed range of the second byte depends on the first; later bytes are always 80–BF.
  size_t length = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (in_range(b0, 0xC2, 0xDF)) {
    length = 2;
  } else if (b0 == 0xE0) {
    length = 3, lo = 0xA0;
  } else if (b0 == 0xED) {
    length = 3, hi = 0x9F;
  } else if (in_range(b0, 0xE1, 0xEF)) {
    length = 3;
  } else if (b0 == 0xF0) {
    length = 4, lo = 0x90;
  } else if (b0 == 0xF4) {
    length = 4, hi = 0x8F;
  } else if (in_range(b0, 0xF1, 0xF3)) {
    length = 4;
  } else {
    return 0;  // a stray continuation byte, C0/C1 or F5–FF
  }
  if (pos + length > text.size()) return 0;
  if (!in_range(byte(1), lo, hi)) return 0;
  for (size_t i = 2; i < length; ++i) {
    if (!in_range(byte(i), 0x80, 0xBF)) return 0;
  }
  return length;
}

// `text` without leading and trailing whitespace; `text` is valid UTF-8.
std::string_view trim_space(std::string_view text) {
  size_t begin = 0;
  while (size_t n = space_length(text, begin)) begin += n;
  size_t end = begin, last_end = begin;  // end of the last non-space character
  while (end < text.size()) {
    if (size_t n = space_length(text, end)) {
      end += n;
    } else {
      end += utf8_sequence_length(text, end);
      last_end = end;
    }
  }
  return text.substr(begin, last_end - begin);
}

bool is_reserved(std::string_view token) {
  for (const char* reserved : kReservedTokens) {
    if (token == reserved) return true;
  }
  return false;
}

// Throws unless `token` is something the tokenizer can produce.
void check_token(std::string_view token, Tokenizer kind) {
  if (token.empty()) throw InputError("vocabulary token is empty");
  if (token.size() > kMaxTokenBytes) {
    throw InputError("vocabulary token is " + std::to_string(token.size()) +
                     " bytes long; the limit is " + std::to_string(kMaxTokenBytes));
  }
  check_utf8(token);
  if (kind == Tokenizer::kWords) {
    for (size_t pos = 0; pos < token.size(); pos += utf8_sequence_length(token, pos)) {
      if (space_length(token, pos)) {
        throw InputError("vocabulary token '" + std::string(token) +
                         "' contains whitespace, which the words tokenizer splits on");
      }
    }
  } else if (utf8_sequence_length(token, 0) != token.size()) {
    throw InputError("vocabulary token '" + std::string(token) +
                     "' is more than one character, which the chars tokenizer never produces");
  }
}

}  // namespace

Tokenizer parse_tokenizer(const std::string& name) {
  if (name == "words") return Tokenizer::kWords;
  if (name == "chars") return Tokenizer::kChars;
  throw InputError("unknown tokenizer '" + name + "' (expected words, chars)");
}

const char* tokenizer_name(Tokenizer kind) {
  return kind == Tokenizer::kWords ? "words" : "chars";
}

void check_utf8(std::string_view text) {
  for (size_t pos = 0; pos < text.size();) {
    size_t length = utf8_sequence_length(text, pos);
    if (length == 0) throw InputError("invalid UTF-8 at byte " + std::to_string(pos));
    pos += length;
  }
}

InputError sentence_too_long(long count, long limit) {
  return InputError(
      "sentence has " + std::to_string(count) + " tokens; the limit is " + std::to_string(limit),
      "sentenceTooLong", {{"count", count}, {"limit", limit}});
}

std::vector<std::string_view> tokenize(std::string_view text, Tokenizer kind) {
  check_utf8(text);
  std::vector<std::string_view> tokens;
  if (kind == Tokenizer::kWords) {
    size_t pos = 0;
    while (pos < text.size()) {
      while (size_t n = space_length(text, pos)) pos += n;
      size_t start = pos;
      // Whole characters only (validated above), so a space is never found inside one.
      while (pos < text.size() && !space_length(text, pos)) pos += utf8_sequence_length(text, pos);
      if (pos > start) tokens.push_back(text.substr(start, pos - start));
    }
  } else {
    std::string_view trimmed = trim_space(text);
    for (size_t pos = 0; pos < trimmed.size();) {
      size_t length = utf8_sequence_length(trimmed, pos);  // > 0: validated above
      tokens.push_back(trimmed.substr(pos, length));
      pos += length;
    }
  }
  return tokens;
}

std::string join_tokens(const std::vector<std::string>& tokens, Tokenizer kind) {
  std::string text;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (kind == Tokenizer::kWords && i > 0) text += ' ';
    text += tokens[i];
  }
  return text;
}

Vocab::Vocab(Tokenizer kind) : kind_(kind) {
  ascii_ids_.fill(-1);
  for (const char* reserved : kReservedTokens) add(reserved);
}

void Vocab::add(const std::string& token) {
  if (size() >= kMaxVocabSize) {
    throw InputError("vocabulary has more than " + std::to_string(kMaxVocabSize) + " tokens");
  }
  auto id = static_cast<int32_t>(tokens_.size());
  ids_.emplace(token, id);
  if (token.size() == 1 && static_cast<unsigned char>(token[0]) < 128) {
    ascii_ids_[static_cast<unsigned char>(token[0])] = id;
  }
  tokens_.push_back(token);
}

Vocab Vocab::build(Tokenizer kind, const std::vector<std::string>& tokens) {
  Vocab vocab(kind);
  for (const std::string& token : tokens) {
    check_token(token, kind);
    if (is_reserved(token)) throw InputError("vocabulary token '" + token + "' is reserved");
    if (!vocab.contains(token)) vocab.add(token);
  }
  return vocab;
}

Vocab Vocab::from_tokens(Tokenizer kind, const std::vector<std::string>& all_tokens) {
  if (static_cast<long>(all_tokens.size()) > kMaxVocabSize) {
    throw InputError("vocabulary has " + std::to_string(all_tokens.size()) +
                     " tokens; the limit is " + std::to_string(kMaxVocabSize));
  }
  for (int32_t i = 0; i < kNumReservedTokens; ++i) {
    if (static_cast<size_t>(i) >= all_tokens.size() || all_tokens[i] != kReservedTokens[i]) {
      throw InputError("vocabulary is missing the reserved token " +
                       std::string(kReservedTokens[i]) + " at id " + std::to_string(i));
    }
  }
  Vocab vocab(kind);
  for (size_t i = kNumReservedTokens; i < all_tokens.size(); ++i) {
    const std::string& token = all_tokens[i];
    if (vocab.ids_.count(token) != 0) {
      throw InputError("vocabulary token '" + token + "' appears twice (ids " +
                       std::to_string(vocab.ids_.find(token)->second) + " and " +
                       std::to_string(i) + ")");
    }
    check_token(token, kind);
    vocab.add(token);
  }
  return vocab;
}

nlohmann::json Vocab::to_json() const {
  return nlohmann::json{{"tokenizer", tokenizer_name(kind_)}, {"tokens", tokens_}};
}

Vocab Vocab::from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw InputError("vocabulary must be a JSON object");
  auto tokenizer = j.find("tokenizer");
  if (tokenizer == j.end() || !tokenizer->is_string()) {
    throw InputError("vocabulary needs a string 'tokenizer' (words or chars)");
  }
  auto tokens = j.find("tokens");
  if (tokens == j.end() || !tokens->is_array()) {
    throw InputError("vocabulary needs an array 'tokens'");
  }
  if (static_cast<long>(tokens->size()) > kMaxVocabSize) {
    throw InputError("vocabulary has " + std::to_string(tokens->size()) + " tokens; the limit is " +
                     std::to_string(kMaxVocabSize));
  }
  std::vector<std::string> all_tokens;
  all_tokens.reserve(tokens->size());
  for (const auto& token : *tokens) {
    if (!token.is_string()) {
      throw InputError("vocabulary token " + std::to_string(all_tokens.size()) +
                       " is not a string");
    }
    all_tokens.push_back(token.get<std::string>());
  }
  return from_tokens(parse_tokenizer(tokenizer->get<std::string>()), all_tokens);
}

int32_t Vocab::id(std::string_view token) const {
  if (token.size() == 1 && static_cast<unsigned char>(token[0]) < 128) {
    int32_t ascii_id = ascii_ids_[static_cast<unsigned char>(token[0])];
    return ascii_id < 0 ? kUnkId : ascii_id;
  }
  auto it = ids_.find(token);
  return it == ids_.end() ? kUnkId : it->second;
}

bool Vocab::contains(std::string_view token) const {
  return id(token) != kUnkId || token == kReservedTokens[kUnkId];
}

const std::string& Vocab::token(int32_t id) const {
  if (id < 0 || id >= size()) {
    throw InputError("token id " + std::to_string(id) + " is outside the vocabulary (size " +
                     std::to_string(size()) + ")");
  }
  return tokens_[static_cast<size_t>(id)];
}

Encoded Vocab::encode(std::string_view text, long max_tokens) const {
  if (max_tokens < 1) {
    throw InputError("max_tokens must be at least 1, not " + std::to_string(max_tokens));
  }
  if (text.size() > kMaxSentenceBytes) {
    throw InputError("sentence is " + std::to_string(text.size()) + " bytes long; the limit is " +
                     std::to_string(kMaxSentenceBytes));
  }
  std::vector<std::string_view> tokens = tokenize(text, kind_);
  if (tokens.empty()) throw InputError("sentence is empty");
  if (static_cast<long>(tokens.size()) > max_tokens) {
    throw sentence_too_long(static_cast<long>(tokens.size()), max_tokens);
  }
  Encoded encoded;
  encoded.ids.reserve(tokens.size());
  encoded.unknown.reserve(tokens.size());
  for (std::string_view token : tokens) {
    int32_t token_id = id(token);
    bool unknown = token_id < kNumReservedTokens;  // typed "<eos>" is text, not a control token
    encoded.ids.push_back(unknown ? kUnkId : token_id);
    encoded.unknown.push_back(unknown ? 1 : 0);
  }
  return encoded;
}

std::vector<std::string> Vocab::decode(const std::vector<int32_t>& ids) const {
  std::vector<std::string> tokens;
  tokens.reserve(ids.size());
  for (int32_t token_id : ids) tokens.push_back(token(token_id));
  return tokens;
}

std::string Vocab::decode_text(const std::vector<int32_t>& ids) const {
  std::vector<std::string> tokens;
  for (int32_t token_id : ids) {
    if (token_id == kEosId) break;
    if (token_id == kPadId || token_id == kSosId) continue;
    tokens.push_back(token(token_id));
  }
  return join_tokens(tokens, kind_);
}

}  // namespace lab
