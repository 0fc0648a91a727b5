// GptSession::save / load: the session ⇄ an .atlb model file (sequence/model_file.h) of kind
// "attention-lab/gpt". The header (docs/gpt.md, "The session file"):
//   kind, version
//   config    {seed, heldOut, blockSize, layers, heads, dModel, windows, drills}
//   training  {batchSize, learningRate, warmup, step, samplerState, adamStep}
//   text      the corpus (the split and the vocabulary are rebuilt from it and the seed)
//   vocab     the characters, in id order: checked against the rebuilt vocabulary
// The arrays are the weights under nanoGPT's names, then Adam's two moments of each
// (sequence/session_fields.h).
#include <string>

#include "gpt/session.h"
#include "sequence/model_file.h"
#include "sequence/session_fields.h"

namespace lab {

namespace {

constexpr const char* kGptFileKind = "attention-lab/gpt";
constexpr long kGptFileVersion = 1;

}  // namespace

std::vector<uint8_t> GptSession::save() const {
  const GptSessionConfig& c = config_;
  nlohmann::json h = nlohmann::json::object();
  h["kind"] = kGptFileKind;
  h["version"] = kGptFileVersion;
  h["config"] = {{"seed", c.seed},
                 {"heldOut", c.held_out},
                 {"blockSize", c.block_size},
                 {"layers", c.layers},
                 {"heads", c.heads},
                 {"dModel", c.d_model},
                 {"windows", gpt_windows_name(c.windows)},
                 {"drills", c.drills}};
  h["training"] = {{"batchSize", c.batch_size},
                   {"learningRate", c.learning_rate},
                   {"warmup", c.warmup},
                   {"step", step_},
                   {"samplerState", hex64(rng_.state())},
                   {"adamStep", model_.adam_state().step}};
  h["text"] = c.text;
  h["vocab"] = vocab_.chars();
  return write_model_file(
      h, session_arrays(model_.params(), model_.adam_state(), model_.param_views()));
}

GptSession GptSession::load(const uint8_t* data, size_t size) {
  // read_model_file checks the checksum, the layout and that every value is finite.
  const ModelFileContents file = read_model_file(data, size);
  const nlohmann::json& h = file.header;
  return reading_session_header([&] {
    check_session_header(h, kGptFileKind, "GPT", kGptFileVersion);
    const nlohmann::json& jc = h.at("config");
    const nlohmann::json& jt = h.at("training");
    GptSessionConfig c;
    c.seed = header_field<uint64_t>(jc, "seed", "config.seed");
    c.held_out = header_field<double>(jc, "heldOut", "config.heldOut");
    c.block_size = header_field<long>(jc, "blockSize", "config.blockSize");
    c.layers = header_field<long>(jc, "layers", "config.layers");
    c.heads = header_field<long>(jc, "heads", "config.heads");
    c.d_model = header_field<long>(jc, "dModel", "config.dModel");
    // a file written before windows could start at a poem trained on windows anywhere
    c.windows =
        jc.contains("windows")
            ? gpt_windows_from_name(header_field<std::string>(jc, "windows", "config.windows"),
                                    "config.windows")
            : GptWindows::kText;
    // and one written before form drills trained without them
    c.drills = jc.contains("drills") ? header_field<double>(jc, "drills", "config.drills") : 0.0;
    c.batch_size = header_field<long>(jt, "batchSize", "training.batchSize");
    c.learning_rate = header_field<double>(jt, "learningRate", "training.learningRate");
    c.warmup = header_field<long>(jt, "warmup", "training.warmup");
    c.text = header_field<std::string>(h, "text", "text");
    const SessionProgress progress = read_session_progress(jt);
    GptSession session(c);  // checks the config and the text
    if (!h.contains("vocab") || h.at("vocab") != nlohmann::json(session.vocab_.chars())) {
      throw InputError("model file's vocab does not match the characters of its text");
    }
    restore_session(file, session.model_, session.model_.param_views(), progress, session.rng_,
                    session.step_);
    return session;
  });
}

}  // namespace lab
