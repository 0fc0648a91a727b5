// The PyTorch interchange of the Transformer: a session's model as a .safetensors file that
// tests/reference/gen_transformer.py's TransformerSeq2Seq takes with load_state_dict(strict=True),
// and the same file read back as a translator (docs/safetensors.md).
//
//   tensors        the state dict under PyTorch's names: src_embedding.weight,
//                  tgt_embedding.weight, transformer.encoder.layers.<l>.self_attn.in_proj_weight …,
//                  transformer.encoder.norm.*, transformer.decoder.norm.*, out.weight, out.bias
//   __metadata__   "config"     JSON text {"arch": "transformer", "layers", "heads", "dModel",
//                               "dFF", "normFirst", "tokenizer"}
//                  "src_vocab"  JSON text: the source tokens in id order
//                  "tgt_vocab"  the same for the target
//
// The vocabularies keep the file's order, as for the recurrent translators, with one more rule:
// both must hold <pad> at id 0, because the model's padding masks are id 0 (as the reference
// module's), and the target must hold <sos> and <eos>.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "io/safetensors.h"
#include "sequence/interchange_contract.h"  // FileVocab
#include "sequence/interchange_translator.h"
#include "transformer/model.h"
#include "transformer/session.h"

namespace lab {

struct TransformerInterchangeConfig {
  long layers = 2, heads = 4, d_model = 64, d_ff = 128;
  bool norm_first = false;
  Tokenizer tokenizer = Tokenizer::kWords;

  // The "config" metadata string, arch "transformer". Unknown keys, wrong types and another
  // arch throw InputError; the sizes are checked by the model's own validate.
  static TransformerInterchangeConfig from_json_text(const std::string& text);
  std::string to_json_text() const;
};

// Whether a file's "config" metadata names arch "transformer" (false when it has no config or
// the config is not JSON: the recurrent reader then reports what is wrong).
bool is_transformer_interchange(const SafetensorsFile& file);

// A Transformer read from (or to be written as) a .safetensors file; it translates, it does not
// train (it has no task). sequence/interchange_translator.h has what every architecture's does
// alike.
class TransformerInterchange
    : public InterchangeTranslator<TransformerInterchange, TransformerInterchangeConfig,
                                   TransformerModel, TransformerTranslateResult> {
 public:
  // Throws InputError for bad metadata, vocabularies without <pad> at 0, a config the model
  // rejects, and unknown, missing or misshapen tensors (naming each), before the model is
  // allocated when the file's tensors could not fill it.
  static TransformerInterchange read(const SafetensorsFile& file);

  // Decoder fed <sos> + target: the logits (T, Vt), as one teacher-forced PyTorch forward.
  TeacherForced teacher_forced(const std::string& source, const std::string& target);
  // Under PyTorch's names, which are the model's.
  std::vector<uint8_t> write() const;

 private:
  friend InterchangeTranslator;
  TransformerInterchange(TransformerInterchangeConfig config, FileVocab src, FileVocab tgt);
  static TransformerInterchangeConfig file_config(const TransformerSession& session);
};

}  // namespace lab
