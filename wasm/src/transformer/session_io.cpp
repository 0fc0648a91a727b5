// TransformerSession::save / load: the session ⇄ an .atlb model file (seq2seq/model_file.h) of
// kind "attention-lab/transformer". The header schema is documented in docs/model-format.md
// ("The Transformer header"); the arrays are the weights under PyTorch's state-dict names, then
// Adam's two moments of each ("adam.exp_avg.<name>", "adam.exp_avg_sq.<name>").
#include <cinttypes>
#include <climits>
#include <cstdio>
#include <string>
#include <type_traits>

#include "seq2seq/model_file.h"
#include "seq2seq/vocab.h"
#include "transformer/session.h"

namespace lab {

namespace {

constexpr const char* kFileKind = "attention-lab/transformer";
constexpr long kFileVersion = 1;
constexpr const char* kFirstMoment = "adam.exp_avg.";
constexpr const char* kSecondMoment = "adam.exp_avg_sq.";

// 64-bit Rng states as 16 hex digits: JSON numbers are often read as doubles (53 bits).
std::string hex64(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, value);
  return text;
}

uint64_t parse_hex64(const std::string& text, const std::string& what) {
  if (text.size() != 16 || text.find_first_not_of("0123456789abcdef") != std::string::npos) {
    throw InputError("model file: " + what + " must be 16 lowercase hex digits");
  }
  return std::stoull(text, nullptr, 16);
}

// The header field obj[key], named `path` in messages; present and of exactly the JSON type T
// needs, so that nothing is converted silently (2.5 → 2, -1 → 2^64 − 1).
template <class T>
T field(const nlohmann::json& obj, const char* key, const std::string& path) {
  if (!obj.is_object() || !obj.contains(key)) {
    throw InputError("model file header has no '" + path + "'");
  }
  const nlohmann::json& v = obj.at(key);
  bool ok = false;
  const char* expected = "";
  if constexpr (std::is_same_v<T, bool>) {
    ok = v.is_boolean(), expected = "true or false";
  } else if constexpr (std::is_same_v<T, std::string>) {
    ok = v.is_string(), expected = "a string";
  } else if constexpr (std::is_same_v<T, double>) {
    ok = v.is_number(), expected = "a number";
  } else if constexpr (std::is_unsigned_v<T>) {
    ok = v.is_number_unsigned(), expected = "a whole number >= 0";
  } else {
    static_assert(std::is_same_v<T, long>);
    ok = (v.is_number_unsigned() && v.get<uint64_t>() <= static_cast<uint64_t>(LONG_MAX)) ||
         (v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() >= LONG_MIN &&
          v.get<int64_t>() <= LONG_MAX);
    expected = "a whole number within the range of long";
  }
  if (!ok) {
    std::string shown = v.dump();
    if (shown.size() > 40) shown = shown.substr(0, 40) + "…";
    throw InputError("model file header field '" + path + "' must be " + expected + " (got " +
                     shown + ")");
  }
  return v.get<T>();
}

Tensor slice(const std::vector<float>& flat, const ParamView& p) {
  return Tensor(p.shape,
                std::vector<float>(flat.begin() + p.offset, flat.begin() + p.offset + p.size));
}

const std::vector<float>& array_like(const ModelFileContents& file, const std::string& name,
                                     const ParamView& p) {
  const Tensor& t = file.array(name);
  if (t.shape != p.shape) {
    throw InputError("model file array '" + name + "' has shape " + shape_str(t.shape) +
                     " but the model needs " + shape_str(p.shape));
  }
  return t.data;
}

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

  const AdamState& adam = model_.adam_state();
  std::vector<NamedArray> arrays;
  for (const ParamView& p : model_.param_views())
    arrays.push_back({p.name, slice(model_.params(), p)});
  for (const ParamView& p : model_.param_views()) {
    arrays.push_back({kFirstMoment + p.name, slice(adam.exp_avg, p)});
  }
  for (const ParamView& p : model_.param_views()) {
    arrays.push_back({kSecondMoment + p.name, slice(adam.exp_avg_sq, p)});
  }
  return write_model_file(h, arrays);
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
    const long version = field<long>(h, "version", "version");
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
    c.task = field<std::string>(h, "task", "task");
    if (!h.contains("taskOptions")) throw InputError("model file header has no 'taskOptions'");
    c.task_options = task_options_from_json(h.at("taskOptions"));
    c.layers = field<long>(jc, "layers", "config.layers");
    c.heads = field<long>(jc, "heads", "config.heads");
    c.d_model = field<long>(jc, "dModel", "config.dModel");
    c.d_ff = field<long>(jc, "dFF", "config.dFF");
    c.norm_first = field<bool>(jc, "normFirst", "config.normFirst");
    c.seed = field<uint64_t>(jc, "seed", "config.seed");
    c.batch_size = field<long>(jt, "batchSize", "training.batchSize");
    c.learning_rate = field<double>(jt, "learningRate", "training.learningRate");
    c.warmup = field<long>(jt, "warmup", "training.warmup");
    c.clip_norm = field<double>(jt, "clipNorm", "training.clipNorm");
    c.validate();
    const long step = field<long>(jt, "step", "training.step");
    if (step < 0) throw InputError("model file: training step must be >= 0");
    const uint64_t sampler_state = parse_hex64(
        field<std::string>(jt, "samplerState", "training.samplerState"), "training.samplerState");
    AdamState adam;
    adam.step = field<long>(jt, "adamStep", "training.adamStep");
    if (adam.step < 0) throw InputError("model file: training.adamStep must be >= 0");

    std::unique_ptr<Task> task = make_task(c.task, c.task_options);
    if (!h.contains("sourceVocab") || !h.contains("targetVocab") ||
        Vocab::from_json(h.at("sourceVocab")).tokens() != task->source_vocab().tokens() ||
        Vocab::from_json(h.at("targetVocab")).tokens() != task->target_vocab().tokens()) {
      throw InputError("model file's vocabularies do not match task '" + task->name() + "'");
    }
    TransformerSession session(c, std::move(task));
    TransformerModel& model = session.model_;
    const size_t expected = 3 * model.param_views().size();  // weights and both moments
    if (file.arrays.size() != expected) {
      throw InputError("model file has " + std::to_string(file.arrays.size()) +
                       " arrays but this configuration needs " + std::to_string(expected) +
                       " (its weights and Adam's two moments of each)");
    }
    adam.exp_avg.resize(model.params().size());
    adam.exp_avg_sq.resize(model.params().size());
    for (const ParamView& p : model.param_views()) {
      model.set_param(p.name, array_like(file, p.name, p));
      const std::vector<float>& m = array_like(file, kFirstMoment + p.name, p);
      const std::vector<float>& v = array_like(file, kSecondMoment + p.name, p);
      std::copy(m.begin(), m.end(), adam.exp_avg.begin() + p.offset);
      std::copy(v.begin(), v.end(), adam.exp_avg_sq.begin() + p.offset);
    }
    model.set_adam_state(std::move(adam));
    session.rng_.set_state(sampler_state);
    session.step_ = step;
    return session;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("model file header is missing or has a wrong field: ") + e.what());
  }
}

}  // namespace lab
