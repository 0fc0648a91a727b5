// Seq2SeqSession::save / load: the session ⇄ an .atlb file (model_file.h). The header schema
// and its version are documented in docs/model-format.md ("The Seq2Seq header").
#include <string>

#include "rnn/session.h"
#include "sequence/model_file.h"
#include "sequence/session_file.h"
#include "sequence/vocab.h"

namespace lab {

namespace {

constexpr const char* kSeq2SeqFileKind = "attention-lab/seq2seq";
// 1: weights only (the first development builds; no "version" key). 2: a resumable session.
constexpr long kSessionFileVersion = 2;

}  // namespace

std::vector<uint8_t> Seq2SeqSession::save() const {
  const SessionConfig& c = config_;
  nlohmann::json h =
      session_header(kSeq2SeqFileKind, kSessionFileVersion, c, *task_, model_, step_, rng_);
  h["config"].update({{"cell", cell_name(c.cell)},
                      {"hidden", c.hidden},
                      {"embedding", c.embedding},
                      {"attention", c.attention},
                      {"score", score_name(c.score)},
                      {"attentionalTanh", c.attentional_tanh}});
  return write_model_file(
      h, session_arrays(model_.params(), model_.adam_state(), model_.param_views()));
}

Seq2SeqSession Seq2SeqSession::load(const uint8_t* data, size_t size) {
  const ModelFileContents file = read_model_file(data, size);
  const nlohmann::json& h = file.header;
  return reading_session_header([&] {
    if (h.value("kind", "") == kSeq2SeqFileKind && !h.contains("version")) {
      throw InputError(
          "model file is a Seq2Seq file of version 1 (weights only, from a development build), "
          "which this build cannot resume: train the model again");
    }
    check_session_header(h, kSeq2SeqFileKind, "Seq2Seq", kSessionFileVersion);
    SessionConfig c;
    read_session_config(h, c);
    const nlohmann::json& jc = h.at("config");
    c.cell = parse_cell(header_field<std::string>(jc, "cell", "config.cell").c_str());
    c.hidden = header_field<long>(jc, "hidden", "config.hidden");
    c.embedding = header_field<long>(jc, "embedding", "config.embedding");
    c.attention = header_field<bool>(jc, "attention", "config.attention");
    c.score = parse_score(header_field<std::string>(jc, "score", "config.score"));
    c.attentional_tanh = header_field<bool>(jc, "attentionalTanh", "config.attentionalTanh");
    c.validate();
    const SessionProgress progress = read_session_progress(h.at("training"));
    Seq2SeqSession session(c, session_task(h, c.task, c.task_options));
    restore_session(file, session.model_, session.model_.param_views(), progress, session.rng_,
                    session.step_);
    return session;
  });
}

}  // namespace lab
