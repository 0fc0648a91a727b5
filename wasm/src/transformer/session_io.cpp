// TransformerSession::save / load: the session ⇄ an .atlb model file (seq2seq/model_file.h) of
// kind "attention-lab/transformer". The header schema is documented in docs/model-format.md
// ("The Transformer header"); the arrays are the weights under PyTorch's state-dict names, then
// Adam's two moments of each ("adam.exp_avg.<name>", "adam.exp_avg_sq.<name>").
#include <string>

#include "seq2seq/model_file.h"
#include "seq2seq/session_file.h"
#include "seq2seq/vocab.h"
#include "transformer/session.h"

namespace lab {

namespace {

constexpr const char* kFileKind = "attention-lab/transformer";
constexpr long kFileVersion = 1;

}  // namespace

std::vector<uint8_t> TransformerSession::save() const {
  const TransformerSessionConfig& c = config_;
  nlohmann::json h = nlohmann::json::object();
  h["kind"] = kFileKind;
  h["version"] = kFileVersion;
  h["task"] = c.task;
  h["taskOptions"] = task_options_to_json(c.task_options);
  h["config"] = {{"layers", c.layers}, {"heads", c.heads},          {"dModel", c.d_model},
                 {"dFF", c.d_ff},      {"normFirst", c.norm_first}, {"seed", c.seed}};
  h["training"] = {{"batchSize", c.batch_size},
                   {"learningRate", c.learning_rate},
                   {"warmup", c.warmup},
                   {"clipNorm", c.clip_norm},
                   {"step", step_},
                   {"samplerState", hex64(rng_.state())},
                   {"adamStep", model_.adam_state().step}};
  h["sourceVocab"] = task_->source_vocab().to_json();
  h["targetVocab"] = task_->target_vocab().to_json();

  return write_model_file(
      h, session_arrays(model_.params(), model_.adam_state(), model_.param_views()));
}

bool TransformerSession::is_transformer_file(const uint8_t* data, size_t size) {
  const ModelFileContents file = read_model_file(data, size);
  return file.header.is_object() && file.header.value("kind", "") == kFileKind;
}

TransformerSession TransformerSession::load(const uint8_t* data, size_t size) {
  // read_model_file checks the checksum, the layout and that every value is finite.
  const ModelFileContents file = read_model_file(data, size);
  const nlohmann::json& h = file.header;
  try {
    if (h.value("kind", "") != kFileKind) {
      throw InputError(std::string("model file is not a Transformer model (header kind must be '") +
                       kFileKind + "')");
    }
    const long version = header_field<long>(h, "version", "version");
    if (version != kFileVersion) {
      throw InputError("model file has Transformer version " + std::to_string(version) +
                       "; this build reads version " + std::to_string(kFileVersion));
    }
    if (!h.contains("config") || !h.contains("training")) {
      throw InputError("model file header needs both 'config' and 'training'");
    }
    const nlohmann::json& jc = h.at("config");
    const nlohmann::json& jt = h.at("training");
    TransformerSessionConfig c;
    c.task = header_field<std::string>(h, "task", "task");
    if (!h.contains("taskOptions")) throw InputError("model file header has no 'taskOptions'");
    c.task_options = task_options_from_json(h.at("taskOptions"));
    c.layers = header_field<long>(jc, "layers", "config.layers");
    c.heads = header_field<long>(jc, "heads", "config.heads");
    c.d_model = header_field<long>(jc, "dModel", "config.dModel");
    c.d_ff = header_field<long>(jc, "dFF", "config.dFF");
    c.norm_first = header_field<bool>(jc, "normFirst", "config.normFirst");
    c.seed = header_field<uint64_t>(jc, "seed", "config.seed");
    c.batch_size = header_field<long>(jt, "batchSize", "training.batchSize");
    c.learning_rate = header_field<double>(jt, "learningRate", "training.learningRate");
    c.warmup = header_field<long>(jt, "warmup", "training.warmup");
    c.clip_norm = header_field<double>(jt, "clipNorm", "training.clipNorm");
    c.validate();
    const SessionProgress progress = read_session_progress(jt);
    AdamState adam;
    adam.step = progress.adam_step;

    std::unique_ptr<Task> task = make_task(c.task, c.task_options);
    if (!h.contains("sourceVocab") || !h.contains("targetVocab") ||
        Vocab::from_json(h.at("sourceVocab")).tokens() != task->source_vocab().tokens() ||
        Vocab::from_json(h.at("targetVocab")).tokens() != task->target_vocab().tokens()) {
      throw InputError("model file's vocabularies do not match task '" + task->name() + "'");
    }
    TransformerSession session(c, std::move(task));
    TransformerModel& model = session.model_;
    load_session_arrays(file, model, model.param_views(), std::move(adam));
    session.rng_.set_state(progress.sampler_state);
    session.step_ = progress.step;
    return session;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("model file header is missing or has a wrong field: ") + e.what());
  }
}

}  // namespace lab
