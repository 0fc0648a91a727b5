// The interchange contract that every .safetensors translator file follows, whatever its
// architecture (docs/safetensors.md): three "__metadata__" strings, "config" (a JSON object whose
// "arch" says which reader takes the file), "src_vocab" and "tgt_vocab" (JSON arrays of tokens in
// id order), and a state dict whose names and shapes the config fixes. One reader of that
// contract serves the recurrent translators (rnn/interchange.h) and the Transformer
// (transformer/interchange.h); each gives only its config keys and its table of tensors.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "params.h"                  // ParamView
#include "sequence/decode.h"         // DecodeOptions
#include "sequence/session_types.h"  // SourceToken, TranslateOptions
#include "sequence/translate.h"
#include "sequence/vocab.h"
#include "tensor.h"

namespace lab {

struct SafetensorsFile;  // io/safetensors.h

namespace interchange {

constexpr const char* kConfigKey = "config";
constexpr const char* kSrcVocabKey = "src_vocab";
constexpr const char* kTgtVocabKey = "tgt_vocab";

// A metadata string as JSON; throws "__metadata__ <what> is not valid JSON".
nlohmann::json parse_json(const std::string& text, const std::string& what);

// The "config" object: throws unless it is a JSON object whose keys are all in `known`; the
// message for an unknown key ends in "(<expected>)", e.g. "expected arch, cell, …".
nlohmann::json parse_config(const std::string& text, const std::set<std::string>& known,
                            const std::string& expected);
// A config value of one type; absent: `fallback`, or an InputError naming the key without one.
std::string config_string(const nlohmann::json& config, const char* key, const char* fallback);
long config_whole(const nlohmann::json& config, const char* key,
                  std::optional<long> fallback);  // 0 … kMaxDim
bool config_bool(const nlohmann::json& config, const char* key, std::optional<bool> fallback);

}  // namespace interchange

// A vocabulary in a file's order: the ids are the rows of the embeddings and of the output layer,
// so the logits are PyTorch's index for index. It need not hold <pad> or <unk>.
class FileVocab {
 public:
  // Throws InputError naming `what` ("src_vocab") for duplicates, empty or oversized tokens,
  // tokens the tokenizer could never produce, and more than kMaxVocabSize tokens.
  FileVocab(Tokenizer kind, std::vector<std::string> tokens, const std::string& what);
  // The "src_vocab" / "tgt_vocab" metadata string: a JSON array of strings.
  static FileVocab from_json_text(Tokenizer kind, const std::string& text, const std::string& what);
  std::string to_json_text() const;

  long size() const { return static_cast<long>(tokens_.size()); }
  const std::vector<std::string>& tokens() const { return tokens_; }
  Tokenizer tokenizer() const { return kind_; }
  // The id of a token; −1 when absent.
  int32_t find(const std::string& token) const;
  const std::string& token(int32_t id) const;  // throws for an id outside the vocabulary
  int32_t sos() const { return find("<sos>"); }
  int32_t eos() const { return find("<eos>"); }
  int32_t unk() const { return find("<unk>"); }

  // A sentence's tokens and ids. A word outside the vocabulary (or a reserved name typed as
  // text) becomes <unk> and is flagged when the vocabulary has <unk>; without it, it throws
  // "'foo' is not in the source vocabulary, which has no <unk> token". The project's length
  // limits apply (vocab.h).
  std::vector<SourceToken> encode(const std::string& text, const std::string& what) const;
  // Output ids → text: stops at <eos>, skips <pad> and <sos>.
  std::string decode_text(const std::vector<int32_t>& ids) const;

 private:
  Tokenizer kind_;
  std::vector<std::string> tokens_;
};

// Teacher-forced outputs of one pair: decoder inputs <sos> + target, outputs target + <eos>.
struct TeacherForced {
  std::vector<int32_t> source_ids, target_in, target_out;
  Tensor logits;     // (T, Vt)
  Tensor attention;  // (T, S); empty without attention
};

// A tensor a translator's config fixes: its name in the model's parameter table, in the file,
// and its shape.
struct ExpectedTensor {
  ExpectedTensor(std::string name_, std::vector<long> shape_)
      : name(std::move(name_)), shape(std::move(shape_)) {}
  std::string name;
  std::vector<long> shape;
  std::string file_name;  // the name in the file (the same but for the book's output layer)
};

// The parts of a translator file an architecture's reader checks: the metadata, its
// vocabularies, and its tensors (each found, nothing extra, each of the expected shape).
struct InterchangeFile {
  // Throws when the file lacks config, src_vocab or tgt_vocab. The config text is left to the
  // architecture's reader; the vocabularies are read with its tokenizer by read_vocabularies.
  explicit InterchangeFile(const SafetensorsFile& file);
  const std::string& config_text() const;
  std::pair<FileVocab, FileVocab> read_vocabularies(Tokenizer tokenizer) const;
  // Throws InputError for a tensor outside `expected` ("… is not a parameter of this model
  // (<model>), whose tensors are <listing>"), a missing one, or one of another shape ("… but the
  // config (<model>[; the vocabulary sizes]) needs …"; the sizes when `names_vocabs(tensor)`).
  void check_tensors(const std::vector<ExpectedTensor>& expected, const std::string& model,
                     const std::string& listing, long src_vocab, long tgt_vocab,
                     const std::function<bool(const ExpectedTensor&)>& names_vocabs) const;
  // Sets every parameter from the file, after check_tensors: `table` (the model's own
  // parameter table) must list `expected` in order, or the two tables disagree (a logic_error).
  template <class Model>
  void load(Model& model, const std::vector<ParamView>& table,
            const std::vector<ExpectedTensor>& expected) const {
    check_same_table(table, expected);
    for (size_t i = 0; i < table.size(); ++i) {
      model.set_param(table[i].name, tensor_data(expected[i].file_name));
    }
  }
  // The "__metadata__" entries besides config and the vocabularies, kept and written back.
  std::vector<std::pair<std::string, std::string>> extra_metadata() const;

 private:
  static void check_same_table(const std::vector<ParamView>& table,
                               const std::vector<ExpectedTensor>& expected);
  const std::vector<float>& tensor_data(const std::string& file_name) const;
  const SafetensorsFile& file_;
};

// A model's parameters (`table` views into `params`) under their file names, and the metadata
// (`extra` entries, then the config and the vocabularies), as .safetensors bytes.
std::vector<uint8_t> write_interchange(
    const std::vector<ParamView>& table, const std::vector<float>& params,
    const std::function<std::string(const std::string&)>& file_name,
    const std::vector<std::pair<std::string, std::string>>& extra, const std::string& config_text,
    const FileVocab& src, const FileVocab& tgt);

// A pair's ids under two file vocabularies, teacher-forced: source_ids, decoder inputs
// <sos> + target and outputs target + <eos>. The logits (and attention) are the model's.
TeacherForced teacher_forced_ids(const FileVocab& src, const FileVocab& tgt,
                                 const std::string& source, const std::string& target);

// The decoding options for translate() under a target vocabulary: its <sos> and <eos>, top_k at
// most its size, and the caller's max length, top k and beam width.
DecodeOptions interchange_decode_options(const FileVocab& tgt, const TranslateOptions& options);

// translate(text, options) of a model read from a file (translate.h decodes it): the source in the
// file's own ids (a word outside src is an error), decoded greedily, by beam search, or greedily
// with the interventions beside the plain decoding.
template <class Translation, class Model>
Translation translate_in_file_vocabs(Model& model, const FileVocab& src, const FileVocab& tgt,
                                     const std::string& text, const TranslateOptions& options) {
  Translation result;
  result.source = src.encode(text, "source");
  std::vector<int32_t> ids;
  for (const SourceToken& t : result.source) ids.push_back(t.id);
  const DecodeOptions opt = interchange_decode_options(tgt, options);
  opt.validate(model.config().tgt_vocab);
  if (options.interventions.empty()) {
    decode_translation(result, model, ids, opt, options.beam.has_value(), tgt);
  } else {
    if (options.beam) throw InputError("interventions need greedy decoding: leave out beam");
    decode_intervened(result, model, ids, opt, options.interventions, tgt);
  }
  return result;
}

}  // namespace lab
