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

#include "rnn/model.h"
#include "rnn/session.h"
#include "sequence/interchange_contract.h"
#include "sequence/interchange_translator.h"

namespace lab {

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

// The recurrent translator read from (or to be written as) a .safetensors file
// (sequence/interchange_translator.h has what every architecture's does alike).
class InterchangeModel : public InterchangeTranslator<InterchangeModel, InterchangeConfig,
                                                      Seq2SeqModel, TranslateResult> {
 public:
  // Throws InputError for anything read_safetensors rejects, then for missing or bad metadata,
  // a config the core rejects, missing, unknown or misshapen tensors (naming each).
  static InterchangeModel read(const uint8_t* data, size_t size);
  static InterchangeModel read(const SafetensorsFile& file);

  std::vector<uint8_t> write(StateDictNames names = StateDictNames::kProject) const;
  // How the file that was read named its output layer (kProject for from_session).
  StateDictNames names() const { return names_; }

  TeacherForced teacher_forced(const std::string& source, const std::string& target);

 private:
  friend InterchangeTranslator;
  // Throws InputError when the target vocabulary lacks <sos> or <eos>.
  InterchangeModel(InterchangeConfig config, FileVocab src, FileVocab tgt);
  static InterchangeConfig file_config(const Seq2SeqSession& session);

  StateDictNames names_ = StateDictNames::kProject;
};

// Session → .safetensors bytes (InterchangeModel::from_session(session).write(names)).
std::vector<uint8_t> export_safetensors(const Seq2SeqSession& session,
                                        StateDictNames names = StateDictNames::kProject);

}  // namespace lab
