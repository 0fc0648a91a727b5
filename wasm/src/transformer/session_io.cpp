// The Transformer's settings in its session's .atlb header ("The Transformer header" of
// docs/model-format.md; the arrays are the weights under PyTorch's state-dict names, then Adam's
// two moments of each), and the shared save and load (sequence/session_file.h) instantiated for
// its session.
#include <string>

#include "sequence/session_file.h"
#include "transformer/session.h"

namespace lab {

template <>
void TransformerSession::write_config(nlohmann::json& h, const TransformerSessionConfig& c) {
  h["config"].update({{"layers", c.layers},
                      {"heads", c.heads},
                      {"dModel", c.d_model},
                      {"dFF", c.d_ff},
                      {"normFirst", c.norm_first}});
  h["training"]["warmup"] = c.warmup;
}

template <>
void TransformerSession::read_config(const nlohmann::json& h, TransformerSessionConfig& c) {
  const nlohmann::json& jc = h.at("config");
  c.layers = header_field<long>(jc, "layers", "config.layers");
  c.heads = header_field<long>(jc, "heads", "config.heads");
  c.d_model = header_field<long>(jc, "dModel", "config.dModel");
  c.d_ff = header_field<long>(jc, "dFF", "config.dFF");
  c.norm_first = header_field<bool>(jc, "normFirst", "config.normFirst");
  c.warmup = header_field<long>(h.at("training"), "warmup", "training.warmup");
}

template std::vector<uint8_t> TranslatorSession<TransformerSessionConfig>::save() const;
template TranslatorSession<TransformerSessionConfig>
TranslatorSession<TransformerSessionConfig>::load(const uint8_t*, size_t);
template bool TranslatorSession<TransformerSessionConfig>::is_session_file(const uint8_t*, size_t);

}  // namespace lab
