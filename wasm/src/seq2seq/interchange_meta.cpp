// The interchange's metadata (interchange.h): the "config" string and the vocabularies, which
// keep a file's token order. The model itself is in interchange.cpp.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "seq2seq/interchange.h"

namespace lab {

namespace {

using json = nlohmann::json;

json parse_metadata_json(const std::string& text, const std::string& what) {
  try {
    // The same input type as the container's header (one parser instantiation in the module)
    const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
    return json::parse(bytes, bytes + text.size());
  } catch (const json::exception&) {
    throw InputError("__metadata__ " + what + " is not valid JSON");
  }
}

}  // namespace

// ---- config

InterchangeConfig InterchangeConfig::from_json_text(const std::string& text) {
  const json j = parse_metadata_json(text, "config");
  if (!j.is_object()) throw InputError("__metadata__ config must be a JSON object");
  static const std::set<std::string> known = {"arch",      "cell",  "hidden",          "embedding",
                                              "attention", "score", "attentionalTanh", "tokenizer"};
  for (const auto& item : j.items()) {
    if (!known.count(item.key())) {
      throw InputError("__metadata__ config has an unknown key '" + item.key().substr(0, 64) +
                       "' (expected arch, cell, hidden, embedding, attention, score, "
                       "attentionalTanh, tokenizer)");
    }
  }
  auto string_of = [&](const char* key, const char* fallback) -> std::string {
    if (!j.contains(key)) {
      if (fallback) return fallback;
      throw InputError(std::string("__metadata__ config has no '") + key + "'");
    }
    if (!j[key].is_string()) {
      throw InputError(std::string("__metadata__ config '") + key + "' must be a string");
    }
    return j[key].get<std::string>();
  };
  auto whole_of = [&](const char* key, std::optional<long> fallback) -> long {
    if (!j.contains(key)) {
      if (fallback) return *fallback;
      throw InputError(std::string("__metadata__ config has no '") + key + "'");
    }
    if (!j[key].is_number_integer()) {
      throw InputError(std::string("__metadata__ config '") + key + "' must be a whole number");
    }
    const long long v = j[key].get<long long>();
    if (v < 0 || v > kMaxDim) {
      throw InputError(std::string("__metadata__ config '") + key + "' is out of range (" +
                       std::to_string(v) + ")");
    }
    return static_cast<long>(v);
  };
  auto bool_of = [&](const char* key, std::optional<bool> fallback) -> bool {
    if (!j.contains(key)) {
      if (fallback) return *fallback;
      throw InputError(std::string("__metadata__ config has no '") + key + "'");
    }
    if (!j[key].is_boolean()) {
      throw InputError(std::string("__metadata__ config '") + key + "' must be true or false");
    }
    return j[key].get<bool>();
  };
  const std::string arch = string_of("arch", nullptr);
  // arch "transformer" is transformer/interchange.h's: a front end asks
  // is_transformer_interchange() first and hands such a file there.
  if (arch != "seq2seq") {
    throw InputError("__metadata__ config arch '" + arch.substr(0, 64) +
                     "' is unknown to the recurrent reader (expected seq2seq; transformer files "
                     "are read by the Transformer's)");
  }
  InterchangeConfig c;
  c.cell = parse_cell(string_of("cell", nullptr).c_str());
  c.hidden = whole_of("hidden", std::nullopt);
  c.embedding = whole_of("embedding", 0L);
  c.attention = bool_of("attention", std::nullopt);
  c.score = parse_score(string_of("score", "dot"));
  c.attentional_tanh = bool_of("attentionalTanh", false);
  c.tokenizer = parse_tokenizer(string_of("tokenizer", "words"));
  Seq2SeqConfig sizes;  // sizes, and tanh without attention (vocabularies: the smallest)
  sizes.cell = c.cell;
  sizes.hidden = c.hidden;
  sizes.embedding = c.embedding;
  sizes.attention = c.attention;
  sizes.score = c.score;
  sizes.attentional_tanh = c.attentional_tanh;
  sizes.src_vocab = sizes.tgt_vocab = 2;
  sizes.validate();
  return c;
}

std::string InterchangeConfig::to_json_text() const {
  json j = {{"arch", "seq2seq"},
            {"cell", cell_name(cell)},
            {"hidden", hidden},
            {"embedding", embedding ? embedding : hidden},
            {"attention", attention},
            {"score", score_name(score)},
            {"attentionalTanh", attentional_tanh},
            {"tokenizer", tokenizer_name(tokenizer)}};
  return j.dump();
}

// ---- vocabularies

FileVocab::FileVocab(Tokenizer kind, std::vector<std::string> tokens, const std::string& what)
    : kind_(kind), tokens_(std::move(tokens)) {
  if (tokens_.size() < 2 || static_cast<long>(tokens_.size()) > kMaxVocabSize) {
    throw InputError(what + " has " + std::to_string(tokens_.size()) +
                     " tokens; it must have 2 to " + std::to_string(kMaxVocabSize));
  }
  std::set<std::string_view> seen;
  for (size_t i = 0; i < tokens_.size(); ++i) {
    const std::string& t = tokens_[i];
    const std::string where = what + " token " + std::to_string(i);
    if (t.empty() || t.size() > kMaxTokenBytes) {
      throw InputError(where + " must be 1 to " + std::to_string(kMaxTokenBytes) + " bytes long");
    }
    check_utf8(t);
    const bool reserved = std::find(std::begin(kReservedTokens), std::end(kReservedTokens), t) !=
                          std::end(kReservedTokens);
    // chars: one code point (a space is a token there); words: what the tokenizer splits out
    const long code_points = std::count_if(
        t.begin(), t.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
    const std::vector<std::string_view> pieces = tokenize(t, kind_);
    const bool one =
        kind_ == Tokenizer::kChars ? code_points == 1 : pieces.size() == 1 && pieces[0] == t;
    if (!reserved && !one) {
      throw InputError(where + " '" + t + "' is not one " +
                       (kind_ == Tokenizer::kChars ? "character" : "word without spaces"));
    }
    if (!seen.insert(t).second) throw InputError(what + " has '" + t + "' twice");
  }
}

FileVocab FileVocab::from_json_text(Tokenizer kind, const std::string& text,
                                    const std::string& what) {
  const json j = parse_metadata_json(text, what);
  if (!j.is_array()) throw InputError("__metadata__ " + what + " must be a JSON array of tokens");
  std::vector<std::string> tokens;
  for (const json& t : j) {
    if (!t.is_string()) throw InputError("__metadata__ " + what + " holds a non-string token");
    tokens.push_back(t.get<std::string>());
  }
  return FileVocab(kind, std::move(tokens), what);
}

std::string FileVocab::to_json_text() const {
  return json(tokens_).dump();
}

int32_t FileVocab::find(const std::string& token) const {
  const auto it = std::find(tokens_.begin(), tokens_.end(), token);
  return it == tokens_.end() ? -1 : static_cast<int32_t>(it - tokens_.begin());
}

const std::string& FileVocab::token(int32_t id) const {
  if (id < 0 || id >= size()) {
    throw InputError("token id " + std::to_string(id) + " is outside the vocabulary of " +
                     std::to_string(size()));
  }
  return tokens_[static_cast<size_t>(id)];
}

std::vector<SourceToken> FileVocab::encode(const std::string& text, const std::string& what) const {
  if (text.size() > kMaxSentenceBytes) {
    throw InputError("sentence is " + std::to_string(text.size()) + " bytes long; the limit is " +
                     std::to_string(kMaxSentenceBytes));
  }
  const std::vector<std::string_view> words = tokenize(text, kind_);
  if (words.empty()) throw InputError("sentence is empty");
  if (static_cast<long>(words.size()) > kDefaultMaxTokens) {
    throw InputError("sentence has " + std::to_string(words.size()) + " tokens; the limit is " +
                     std::to_string(kDefaultMaxTokens));
  }
  std::vector<SourceToken> out;
  for (std::string_view w : words) {
    const std::string word(w);
    const bool reserved = std::find(std::begin(kReservedTokens), std::end(kReservedTokens), word) !=
                          std::end(kReservedTokens);
    const int32_t id = reserved ? -1 : find(word);  // typed "<eos>" is text, not a control token
    if (id >= 0) {
      out.push_back({word, word, id, false});
    } else if (unk() >= 0) {
      out.push_back({"<unk>", word, unk(), true});
    } else {
      throw InputError("'" + word + "' is not in the " + what +
                       " vocabulary, which has no <unk> token");
    }
  }
  return out;
}

std::string FileVocab::decode_text(const std::vector<int32_t>& ids) const {
  std::vector<std::string> words;
  for (int32_t id : ids) {
    const std::string& t = token(id);
    if (t == "<eos>") break;
    if (t == "<pad>" || t == "<sos>") continue;
    words.push_back(t);
  }
  return join_tokens(words, kind_);
}

}  // namespace lab
