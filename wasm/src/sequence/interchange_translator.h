// A translator read from (or to be written as) a .safetensors file, whatever its architecture
// (docs/safetensors.md): its config (the "config" metadata), both vocabularies in the file's
// order, the model and the file's other metadata entries, and what every such translator does
// alike: translate with the file's own ids, be made from a training session, write its file. Each
// architecture's class (rnn/interchange.h's InterchangeModel, transformer/interchange.h's
// TransformerInterchange) derives from it as `Derived` and adds how it reads a file, names its
// tensors and runs a teacher-forced pass; it gives
//   Derived(config, src, tgt)          the model of `config` for these vocabularies (init weights);
//   Derived::file_config(session)      the config of a session's model, but for the tokenizer.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "sequence/interchange_contract.h"
#include "sequence/session_types.h"

namespace lab {

template <class Derived, class Config, class Model, class Translation>
class InterchangeTranslator {
 public:
  // A copy of a training session's model and vocabularies (in its task's tokenizer); the file's
  // metadata adds `task`.
  template <class Session>
  static Derived from_session(const Session& session) {
    Config c = Derived::file_config(session);
    c.tokenizer = session.task().tokenizer();
    Derived m(
        c,
        FileVocab(c.tokenizer, session.task().source_vocab().tokens(), interchange::kSrcVocabKey),
        FileVocab(c.tokenizer, session.task().target_vocab().tokens(), interchange::kTgtVocabKey));
    m.model_.params() = session.model().params();
    m.extra_.push_back({"task", session.task().name()});
    return m;
  }

  Translation translate(const std::string& text, const TranslateOptions& options = {}) {
    return translate_in_file_vocabs<Translation>(model_, src_, tgt_, text, options);
  }

  const Config& config() const { return config_; }
  const FileVocab& source_vocab() const { return src_; }
  const FileVocab& target_vocab() const { return tgt_; }
  const Model& model() const { return model_; }
  // Extra "__metadata__" entries the file carried besides config and the vocabularies.
  const std::vector<std::pair<std::string, std::string>>& extra_metadata() const { return extra_; }

 protected:
  // The model of model_config(config, source size, target size), its weights the init's.
  template <class ModelConfigOf>
  InterchangeTranslator(Config config, FileVocab src, FileVocab tgt,
                        const ModelConfigOf& model_config)
      : config_(config),
        src_(std::move(src)),
        tgt_(std::move(tgt)),
        model_(model_config(config_, src_.size(), tgt_.size())) {}

  // The file: every parameter under file_name(its name), then the metadata.
  std::vector<uint8_t> write_file(
      const std::function<std::string(const std::string&)>& file_name) const {
    return write_interchange(model_.param_views(), model_.params(), file_name, extra_,
                             config_.to_json_text(), src_, tgt_);
  }

  // read()'s end, once the contract has checked every tensor against `expected`: the file's other
  // metadata and every parameter.
  void load_file(const InterchangeFile& contract, const std::vector<ExpectedTensor>& expected) {
    extra_ = contract.extra_metadata();
    contract.load(model_, model_.param_views(), expected);
  }

  Config config_;
  FileVocab src_, tgt_;
  Model model_;
  std::vector<std::pair<std::string, std::string>> extra_;
};

}  // namespace lab
