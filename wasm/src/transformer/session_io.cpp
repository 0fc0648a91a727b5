// TransformerSession::save / load: the session ⇄ an .atlb model file (sequence/model_file.h) of
// kind "attention-lab/transformer". The header schema is documented in docs/model-format.md
// ("The Transformer header"); the arrays are the weights under PyTorch's state-dict names, then
// Adam's two moments of each ("adam.exp_avg.<name>", "adam.exp_avg_sq.<name>").
#include <string>

#include "sequence/model_file.h"
#include "sequence/session_file.h"
#include "sequence/vocab.h"
#include "transformer/session.h"

namespace lab {

namespace {

constexpr const char* kTransformerFileKind = "attention-lab/transformer";
constexpr long kTransformerFileVersion = 1;

}  // namespace

std::vector<uint8_t> TransformerSession::save() const {
  const TransformerSessionConfig& c = config_;
  nlohmann::json h =
      session_header(kTransformerFileKind, kTransformerFileVersion, c, *task_, model_, step_, rng_);
  h["config"].update({{"layers", c.layers},
                      {"heads", c.heads},
                      {"dModel", c.d_model},
                      {"dFF", c.d_ff},
                      {"normFirst", c.norm_first}});
  h["training"]["warmup"] = c.warmup;
  return write_model_file(
      h, session_arrays(model_.params(), model_.adam_state(), model_.param_views()));
}

bool TransformerSession::is_transformer_file(const uint8_t* data, size_t size) {
  const ModelFileContents file = read_model_file(data, size);
  return file.header.is_object() && file.header.value("kind", "") == kTransformerFileKind;
}

TransformerSession TransformerSession::load(const uint8_t* data, size_t size) {
  // read_model_file checks the checksum, the layout and that every value is finite.
  const ModelFileContents file = read_model_file(data, size);
  const nlohmann::json& h = file.header;
  return reading_session_header([&] {
    check_session_header(h, kTransformerFileKind, "Transformer", kTransformerFileVersion);
    TransformerSessionConfig c;
    read_session_config(h, c);
    const nlohmann::json& jc = h.at("config");
    c.layers = header_field<long>(jc, "layers", "config.layers");
    c.heads = header_field<long>(jc, "heads", "config.heads");
    c.d_model = header_field<long>(jc, "dModel", "config.dModel");
    c.d_ff = header_field<long>(jc, "dFF", "config.dFF");
    c.norm_first = header_field<bool>(jc, "normFirst", "config.normFirst");
    c.warmup = header_field<long>(h.at("training"), "warmup", "training.warmup");
    c.validate();
    const SessionProgress progress = read_session_progress(h.at("training"));
    TransformerSession session(c, session_task(h, c.task, c.task_options));
    restore_session(file, session.model_, session.model_.param_views(), progress, session.rng_,
                    session.step_);
    return session;
  });
}

}  // namespace lab
