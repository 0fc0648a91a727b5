// The PyTorch interchange: a Seq2Seq translator as a .safetensors file that PyTorch's
// load_state_dict takes as it is, and that this core reads back (docs/safetensors.md).
//
//   tensors        the state dict: the project's names (model_params.cpp, the same as the
//                  reference modules of tests/reference/gen_seq2seq.py), or the book's class,
//                  whose output layer lives in the decoder (decoder.out.* for out.*)
//   __metadata__   "config"     JSON text {"arch": "seq2seq", "cell", "hidden", "embedding",
//                               "attention", "score", "attentionalTanh", "tokenizer"}
//                  "src_vocab"  JSON text: the source tokens in id order
//                  "tgt_vocab"  the same for the target; it must hold "<sos>" and "<eos>"
//
// A vocabulary keeps the file's order, because the ids are the rows of the embeddings and of
// the output layer: so the logits here are PyTorch's, index for index. It need not hold <pad> or
// <unk> (the book's has neither); without <unk>, a word outside the source vocabulary is an
// error rather than <unk>. The project's own vocabularies (<pad> <sos> <eos> <unk> at 0–3) are
// one case of this.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "seq2seq/model.h"
#include "seq2seq/session.h"
#include "seq2seq/vocab.h"

namespace lab {

struct SafetensorsFile;  // io/safetensors.h

// How the state dict names the output layer: "out.weight" (the project's reference modules) or
// "decoder.out.weight" (the book's Decoder, which owns its output layer). Every other name is
// the same in both.
enum class StateDictNames { kProject, kBook };
StateDictNames parse_state_dict_names(const std::string& name);  // "project" | "book"
const char* state_dict_names_name(StateDictNames names);

struct InterchangeConfig {
  CellKind cell = CellKind::kRnn;
  long hidden = 128;
  long embedding = 0;  // 0: same as hidden (written out as the effective size)
  bool attention = true;
  Score score = Score::kDot;
  bool attentional_tanh = false;
  Tokenizer tokenizer = Tokenizer::kWords;

  // The "config" metadata string. Unknown keys, wrong types and an arch other than "seq2seq"
  // throw InputError ("transformer" is reserved for the Transformer, which this reader does not
  // load yet).
  static InterchangeConfig from_json_text(const std::string& text);
  std::string to_json_text() const;
};

// A vocabulary in a file's order (see above).
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

// A translator read from (or to be written as) a .safetensors file.
class InterchangeModel {
 public:
  // Throws InputError for anything read_safetensors rejects, then for missing or bad metadata,
  // a config the core rejects, missing, unknown or misshapen tensors (naming each).
  static InterchangeModel read(const uint8_t* data, size_t size);
  static InterchangeModel read(const SafetensorsFile& file);
  // A copy of a training session's model and vocabularies.
  static InterchangeModel from_session(const Seq2SeqSession& session);

  std::vector<uint8_t> write(StateDictNames names = StateDictNames::kProject) const;

  TranslateResult translate(const std::string& text, const TranslateOptions& options = {});
  TeacherForced teacher_forced(const std::string& source, const std::string& target);

  const InterchangeConfig& config() const { return config_; }
  const FileVocab& source_vocab() const { return src_; }
  const FileVocab& target_vocab() const { return tgt_; }
  const Seq2SeqModel& model() const { return model_; }
  // How the file that was read named its output layer (kProject for from_session).
  StateDictNames names() const { return names_; }
  // Extra "__metadata__" entries the file carried besides config and the vocabularies.
  const std::vector<std::pair<std::string, std::string>>& extra_metadata() const { return extra_; }

 private:
  InterchangeModel(InterchangeConfig config, FileVocab src, FileVocab tgt);

  InterchangeConfig config_;
  FileVocab src_, tgt_;
  Seq2SeqModel model_;
  StateDictNames names_ = StateDictNames::kProject;
  std::vector<std::pair<std::string, std::string>> extra_;
};

// Session → .safetensors bytes (InterchangeModel::from_session(session).write(names)).
std::vector<uint8_t> export_safetensors(const Seq2SeqSession& session,
                                        StateDictNames names = StateDictNames::kProject);

}  // namespace lab
