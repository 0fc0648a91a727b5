// A translator session's resumable .atlb file (model_file.h): the header keys of a session on a
// task beyond sequence/session_fields.h's (kind, version, task, taskOptions, config.seed, the
// training state, the vocabularies), and TranslatorSession's save and load, which each model's
// session_io.cpp instantiates with its own header keys (write_config, read_config) and its
// session's kind and version (SessionKind).
#pragma once

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "params.h"  // ParamView
#include "rng.h"
#include "sequence/model_file.h"
#include "sequence/session_fields.h"
#include "sequence/tasks.h"
#include "sequence/translator_session.h"
#include "sequence/vocab.h"

namespace lab {

// The header of a session's file but for its architecture: "kind", "version", "task",
// "taskOptions", "config": {"seed"}, "training": {batchSize, learningRate, clipNorm, step,
// samplerState, adamStep} and both vocabularies, of a session's Config; the caller adds its
// architecture's keys to "config" (and any of its own to "training").
template <class Config, class Model>
nlohmann::json session_header(const char* kind, long version, const Config& c, const Task& task,
                              const Model& model, long step, const Rng& sampler) {
  nlohmann::json h = nlohmann::json::object();
  h["kind"] = kind;
  h["version"] = version;
  h["task"] = c.task;
  h["taskOptions"] = task_options_to_json(c.task_options);
  h["config"] = {{"seed", c.seed}};
  h["training"] = {{"batchSize", c.batch_size},
                   {"learningRate", c.learning_rate},
                   {"clipNorm", c.clip_norm},
                   {"step", step},
                   {"samplerState", hex64(sampler.state())},
                   {"adamStep", model.adam_state().step}};
  h["sourceVocab"] = task.source_vocab().to_json();
  h["targetVocab"] = task.target_vocab().to_json();
  return h;
}

// Reads what session_header wrote of the config into c: task, taskOptions, config.seed and
// training.{batchSize, learningRate, clipNorm}.
template <class Config>
void read_session_config(const nlohmann::json& h, Config& c) {
  const nlohmann::json& jt = h.at("training");
  c.task = header_field<std::string>(h, "task", "task");
  if (!h.contains("taskOptions")) throw InputError("model file header has no 'taskOptions'");
  c.task_options = task_options_from_json(h.at("taskOptions"));
  c.seed = header_field<uint64_t>(h.at("config"), "seed", "config.seed");
  c.batch_size = header_field<long>(jt, "batchSize", "training.batchSize");
  c.learning_rate = header_field<double>(jt, "learningRate", "training.learningRate");
  c.clip_norm = header_field<double>(jt, "clipNorm", "training.clipNorm");
}

// The task the file was trained on, rebuilt from its name and options, whose vocabularies must
// be the file's.
inline std::unique_ptr<Task> session_task(const nlohmann::json& h, const std::string& name,
                                          const TaskOptions& options) {
  std::unique_ptr<Task> task = make_task(name, options);
  if (!h.contains("sourceVocab") || !h.contains("targetVocab") ||
      Vocab::from_json(h.at("sourceVocab")).tokens() != task->source_vocab().tokens() ||
      Vocab::from_json(h.at("targetVocab")).tokens() != task->target_vocab().tokens()) {
    throw InputError("model file's vocabularies do not match task '" + task->name() + "'");
  }
  return task;
}

template <class Config>
std::vector<uint8_t> TranslatorSession<Config>::save() const {
  const SessionKind& kind = Config::kKind;
  nlohmann::json h =
      session_header(kind.file_kind, kind.file_version, config_, *task_, model_, step_, rng_);
  write_config(h, config_);
  return write_model_file(
      h, session_arrays(model_.params(), model_.adam_state(), model_.param_views()));
}

template <class Config>
bool TranslatorSession<Config>::is_session_file(const uint8_t* data, size_t size) {
  const ModelFileContents file = read_model_file(data, size);
  return file.header.is_object() && file.header.value("kind", "") == Config::kKind.file_kind;
}

template <class Config>
TranslatorSession<Config> TranslatorSession<Config>::load(const uint8_t* data, size_t size) {
  // read_model_file checks the checksum, the layout and that every value is finite.
  const ModelFileContents file = read_model_file(data, size);
  const nlohmann::json& h = file.header;
  const SessionKind& kind = Config::kKind;
  return reading_session_header([&] {
    if (kind.unversioned && h.value("kind", "") == kind.file_kind && !h.contains("version")) {
      throw InputError(kind.unversioned);
    }
    check_session_header(h, kind.file_kind, kind.name, kind.file_version);
    Config c;
    read_session_config(h, c);
    read_config(h, c);
    c.validate();
    const SessionProgress progress = read_session_progress(h.at("training"));
    TranslatorSession session(c, session_task(h, c.task, c.task_options));
    restore_session(file, session.model_, session.model_.param_views(), progress, session.rng_,
                    session.step_);
    return session;
  });
}

}  // namespace lab
