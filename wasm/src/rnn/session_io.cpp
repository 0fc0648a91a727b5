// The recurrent translator's settings in its session's .atlb header ("The Seq2Seq header" of
// docs/model-format.md), and the shared save and load (sequence/session_file.h) instantiated for
// its session.
#include <string>

#include "rnn/session.h"
#include "sequence/session_file.h"

namespace lab {

template <>
void Seq2SeqSession::write_config(nlohmann::json& h, const SessionConfig& c) {
  h["config"].update({{"cell", cell_name(c.cell)},
                      {"hidden", c.hidden},
                      {"embedding", c.embedding},
                      {"attention", c.attention},
                      {"score", score_name(c.score)},
                      {"attentionalTanh", c.attentional_tanh}});
}

template <>
void Seq2SeqSession::read_config(const nlohmann::json& h, SessionConfig& c) {
  const nlohmann::json& jc = h.at("config");
  c.cell = parse_cell(header_field<std::string>(jc, "cell", "config.cell").c_str());
  c.hidden = header_field<long>(jc, "hidden", "config.hidden");
  c.embedding = header_field<long>(jc, "embedding", "config.embedding");
  c.attention = header_field<bool>(jc, "attention", "config.attention");
  c.score = parse_score(header_field<std::string>(jc, "score", "config.score"));
  c.attentional_tanh = header_field<bool>(jc, "attentionalTanh", "config.attentionalTanh");
}

template std::vector<uint8_t> TranslatorSession<SessionConfig>::save() const;
template TranslatorSession<SessionConfig> TranslatorSession<SessionConfig>::load(const uint8_t*,
                                                                                 size_t);

}  // namespace lab
