// Seq2SeqSession::save / load: the session ⇄ an .atlb file (model_file.h). The header schema
// and its version are documented in docs/model-format.md ("The Seq2Seq header").
#include <string>

#include "seq2seq/model_file.h"
#include "seq2seq/session.h"
#include "seq2seq/session_file.h"
#include "seq2seq/vocab.h"

namespace lab {

namespace {

constexpr const char* kFileKind = "attention-lab/seq2seq";
// 1: weights only (the first development builds; no "version" key). 2: a resumable session.
constexpr long kSessionFileVersion = 2;

}  // namespace

std::vector<uint8_t> Seq2SeqSession::save() const {
  const SessionConfig& c = config_;
  nlohmann::json h = nlohmann::json::object();
  h["kind"] = kFileKind;
  h["version"] = kSessionFileVersion;
  h["task"] = c.task;
  h["taskOptions"] = task_options_to_json(c.task_options);
  h["config"] = {{"cell", cell_name(c.cell)},
                 {"hidden", c.hidden},
                 {"embedding", c.embedding},
                 {"attention", c.attention},
                 {"score", score_name(c.score)},
                 {"attentionalTanh", c.attentional_tanh},
                 {"seed", c.seed}};
  h["training"] = {{"batchSize", c.batch_size},
                   {"learningRate", c.learning_rate},
                   {"clipNorm", c.clip_norm},
                   {"step", step_},
                   {"samplerState", hex64(rng_.state())},
                   {"adamStep", model_.adam_state().step}};
  h["sourceVocab"] = task_->source_vocab().to_json();
  h["targetVocab"] = task_->target_vocab().to_json();

  return write_model_file(
      h, session_arrays(model_.params(), model_.adam_state(), model_.param_table()));
}

Seq2SeqSession Seq2SeqSession::load(const uint8_t* data, size_t size) {
  const ModelFileContents file = read_model_file(data, size);
  const nlohmann::json& h = file.header;
  try {
    if (h.value("kind", "") != kFileKind) {
      throw InputError(std::string("model file is not a Seq2Seq model (header kind must be '") +
                       kFileKind + "')");
    }
    if (!h.contains("version")) {
      throw InputError(
          "model file is a Seq2Seq file of version 1 (weights only, from a development build), "
          "which this build cannot resume: train the model again");
    }
    const long version = header_field<long>(h, "version", "version");
    if (version != kSessionFileVersion) {
      throw InputError("model file has Seq2Seq version " + std::to_string(version) +
                       "; this build reads version " + std::to_string(kSessionFileVersion));
    }
    if (!h.contains("config") || !h.contains("training")) {
      throw InputError("model file header needs both 'config' and 'training'");
    }
    const nlohmann::json& jc = h.at("config");
    const nlohmann::json& jt = h.at("training");
    SessionConfig c;
    c.task = header_field<std::string>(h, "task", "task");
    if (!h.contains("taskOptions")) throw InputError("model file header has no 'taskOptions'");
    c.task_options = task_options_from_json(h.at("taskOptions"));
    c.cell = parse_cell(header_field<std::string>(jc, "cell", "config.cell").c_str());
    c.hidden = header_field<long>(jc, "hidden", "config.hidden");
    c.embedding = header_field<long>(jc, "embedding", "config.embedding");
    c.attention = header_field<bool>(jc, "attention", "config.attention");
    c.score = parse_score(header_field<std::string>(jc, "score", "config.score"));
    c.attentional_tanh = header_field<bool>(jc, "attentionalTanh", "config.attentionalTanh");
    c.seed = header_field<uint64_t>(jc, "seed", "config.seed");
    c.batch_size = header_field<long>(jt, "batchSize", "training.batchSize");
    c.learning_rate = header_field<double>(jt, "learningRate", "training.learningRate");
    c.clip_norm = header_field<double>(jt, "clipNorm", "training.clipNorm");
    c.validate();
    const SessionProgress progress = read_session_progress(jt);
    AdamState adam;
    adam.step = progress.adam_step;

    std::unique_ptr<Task> task = make_task(c.task, c.task_options);
    if (Vocab::from_json(h.at("sourceVocab")).tokens() != task->source_vocab().tokens() ||
        Vocab::from_json(h.at("targetVocab")).tokens() != task->target_vocab().tokens()) {
      throw InputError("model file's vocabularies do not match task '" + task->name() + "'");
    }
    Seq2SeqSession session(c, std::move(task));
    Seq2SeqModel& model = session.model_;
    load_session_arrays(file, model, model.param_table(), std::move(adam));
    session.rng_.set_state(progress.sampler_state);
    session.step_ = progress.step;
    return session;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("model file header is missing or has a wrong field: ") + e.what());
  }
}

}  // namespace lab
