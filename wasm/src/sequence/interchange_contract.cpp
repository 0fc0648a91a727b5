// The interchange contract (interchange_contract.h): the metadata every translator file carries
// (config values, the vocabularies, which keep a file's token order), its tensor table checked
// against the one its config fixes, and the file written. Each model's config and tensors are its
// own (rnn/interchange.cpp, transformer/interchange.cpp).
#include "sequence/interchange_contract.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>

#include "io/safetensors.h"
#include "sequence/decode.h"

namespace lab {

using json = nlohmann::json;

namespace interchange {

json parse_json(const std::string& text, const std::string& what) {
  try {
    // The same input type as the container's header (one parser instantiation in the module)
    const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
    return json::parse(bytes, bytes + text.size());
  } catch (const json::exception&) {
    throw InputError("__metadata__ " + what + " is not valid JSON");
  }
}

json parse_config(const std::string& text, const std::set<std::string>& known,
                  const std::string& expected) {
  json j = parse_json(text, "config");
  if (!j.is_object()) throw InputError("__metadata__ config must be a JSON object");
  for (const auto& item : j.items()) {
    if (!known.count(item.key())) {
      throw InputError("__metadata__ config has an unknown key '" + item.key().substr(0, 64) +
                       "' (" + expected + ")");
    }
  }
  return j;
}

namespace {

// Whether `key` is there; absent and without a fallback: an InputError naming it.
bool present(const json& j, const char* key, bool has_fallback) {
  if (j.contains(key)) return true;
  if (has_fallback) return false;
  throw InputError(std::string("__metadata__ config has no '") + key + "'");
}

}  // namespace

std::string config_string(const json& j, const char* key, const char* fallback) {
  if (!present(j, key, fallback != nullptr)) return fallback;
  if (!j[key].is_string()) {
    throw InputError(std::string("__metadata__ config '") + key + "' must be a string");
  }
  return j[key].get<std::string>();
}

long config_whole(const json& j, const char* key, std::optional<long> fallback) {
  if (!present(j, key, fallback.has_value())) return *fallback;
  if (!j[key].is_number_integer()) {
    throw InputError(std::string("__metadata__ config '") + key + "' must be a whole number");
  }
  const long long v = j[key].get<long long>();
  if (v < 0 || v > kMaxDim) {
    throw InputError(std::string("__metadata__ config '") + key + "' is out of range (" +
                     std::to_string(v) + ")");
  }
  return static_cast<long>(v);
}

bool config_bool(const json& j, const char* key, std::optional<bool> fallback) {
  if (!present(j, key, fallback.has_value())) return *fallback;
  if (!j[key].is_boolean()) {
    throw InputError(std::string("__metadata__ config '") + key + "' must be true or false");
  }
  return j[key].get<bool>();
}

}  // namespace interchange

using namespace interchange;

// ---- the file

InterchangeFile::InterchangeFile(const SafetensorsFile& file) : file_(file) {
  for (const char* key : {kConfigKey, kSrcVocabKey, kTgtVocabKey}) {
    if (!file.metadata.count(key)) {
      throw InputError(std::string("safetensors __metadata__ has no '") + key +
                       "': a translator file needs config, src_vocab and tgt_vocab "
                       "(see docs/safetensors.md)");
    }
  }
}

const std::string& InterchangeFile::config_text() const {
  return file_.metadata.at(kConfigKey);
}

std::pair<FileVocab, FileVocab> InterchangeFile::read_vocabularies(Tokenizer tokenizer) const {
  FileVocab src =
      FileVocab::from_json_text(tokenizer, file_.metadata.at(kSrcVocabKey), kSrcVocabKey);
  FileVocab tgt =
      FileVocab::from_json_text(tokenizer, file_.metadata.at(kTgtVocabKey), kTgtVocabKey);
  return {std::move(src), std::move(tgt)};
}

void InterchangeFile::check_tensors(
    const std::vector<ExpectedTensor>& expected, const std::string& model,
    const std::string& listing, long src_vocab, long tgt_vocab,
    const std::function<bool(const ExpectedTensor&)>& names_vocabs) const {
  std::set<std::string> names;
  for (const ExpectedTensor& e : expected) names.insert(e.file_name);
  for (const SafetensorsTensor& t : file_.tensors) {
    if (!names.count(t.name)) {
      throw InputError("tensor '" + t.name + "' is not a parameter of this model (" + model +
                       "), whose tensors are " + listing);
    }
  }
  for (const ExpectedTensor& e : expected) {
    const SafetensorsTensor* t = file_.find(e.file_name);
    if (!t) {
      throw InputError("the file has no tensor '" + e.file_name + "', which this model (" + model +
                       ") needs");
    }
    if (t->tensor.shape != e.shape) {
      std::string why = model;
      if (names_vocabs(e)) {
        why += "; src_vocab has " + std::to_string(src_vocab) + " tokens, tgt_vocab " +
               std::to_string(tgt_vocab);
      }
      throw InputError("tensor '" + e.file_name + "' has shape " + shape_str(t->tensor.shape) +
                       ", but the config (" + why + ") needs " + shape_str(e.shape));
    }
  }
}

void InterchangeFile::check_same_table(const std::vector<ParamView>& table,
                                       const std::vector<ExpectedTensor>& expected) {
  bool same = table.size() == expected.size();
  for (size_t i = 0; same && i < table.size(); ++i) {
    same = table[i].name == expected[i].name && table[i].shape == expected[i].shape;
  }
  if (!same) throw std::logic_error("interchange: the expected tensors differ from the model's");
}

const std::vector<float>& InterchangeFile::tensor_data(const std::string& file_name) const {
  return file_.find(file_name)->tensor.data;
}

std::vector<std::pair<std::string, std::string>> InterchangeFile::extra_metadata() const {
  std::vector<std::pair<std::string, std::string>> extra;
  for (const auto& [key, value] : file_.metadata) {
    if (key != kConfigKey && key != kSrcVocabKey && key != kTgtVocabKey) {
      extra.push_back({key, value});
    }
  }
  return extra;
}

std::vector<uint8_t> write_interchange(
    const std::vector<ParamView>& table, const std::vector<float>& params,
    const std::function<std::string(const std::string&)>& file_name,
    const std::vector<std::pair<std::string, std::string>>& extra, const std::string& config_text,
    const FileVocab& src, const FileVocab& tgt) {
  std::vector<SafetensorsTensor> tensors;
  for (const ParamView& v : table) {
    SafetensorsTensor t;
    t.name = file_name(v.name);
    t.dtype = "F32";
    t.tensor = Tensor(
        v.shape, std::vector<float>(params.begin() + v.offset, params.begin() + v.offset + v.size));
    tensors.push_back(std::move(t));
  }
  std::map<std::string, std::string> metadata(extra.begin(), extra.end());
  metadata[kConfigKey] = config_text;
  metadata[kSrcVocabKey] = src.to_json_text();
  metadata[kTgtVocabKey] = tgt.to_json_text();
  return write_safetensors(tensors, metadata);
}

TeacherForced teacher_forced_ids(const FileVocab& src, const FileVocab& tgt,
                                 const std::string& source, const std::string& target) {
  TeacherForced r;
  for (const SourceToken& t : src.encode(source, "source")) r.source_ids.push_back(t.id);
  r.target_in.push_back(tgt.sos());
  for (const SourceToken& t : tgt.encode(target, "target")) {
    r.target_in.push_back(t.id);
    r.target_out.push_back(t.id);
  }
  r.target_out.push_back(tgt.eos());
  return r;
}

DecodeOptions interchange_decode_options(const FileVocab& tgt, const TranslateOptions& options) {
  DecodeOptions opt;
  opt.sos_id = tgt.sos();
  opt.eos_id = tgt.eos();
  opt.top_k = std::min<long>(opt.top_k, tgt.size());
  return with_translate_options(opt, options);
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
  const json j = parse_json(text, what);
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
    throw sentence_too_long(static_cast<long>(words.size()), kDefaultMaxTokens);
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
