// The pieces of a resumable session's .atlb file (model_file.h) that the Seq2Seq session
// (rnn/session_io.cpp) and the Transformer session (transformer/session_io.cpp) share beyond
// sequence/session_fields.h's: the header keys of a session on a task (kind, version, task,
// taskOptions, config.seed, the training state, the vocabularies). Each session keeps its own kind,
// version and architecture keys.
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
#include "sequence/vocab.h"

namespace lab {

// The header of a session's file but for its architecture: "kind", "version", "task",
// "taskOptions", "config": {"seed"}, "training": {batchSize, learningRate, clipNorm, step,
// samplerState, adamStep} and both vocabularies. Config is SessionConfig or
// TransformerSessionConfig; the caller adds its architecture's keys to "config" (and any of its
// own to "training").
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

}  // namespace lab
