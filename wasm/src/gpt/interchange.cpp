#include "gpt/interchange.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace lab {

namespace {

constexpr const char* kWte = "transformer.wte.weight";
constexpr const char* kWpe = "transformer.wpe.weight";
constexpr const char* kLmHead = "lm_head.weight";

const SafetensorsTensor& require_matrix(const SafetensorsFile& file, const char* name) {
  const SafetensorsTensor* t = file.find(name);
  if (!t) throw InputError(std::string("the file has no ") + name + ": not a GPT state dict");
  if (t->tensor.rank() != 2) {
    throw InputError(std::string(name) + " has shape " + shape_str(t->tensor.shape) +
                     ", not (rows, d_model)");
  }
  return *t;
}

}  // namespace

std::vector<uint8_t> write_gpt_safetensors(const GptModel& model) {
  const GptConfig& c = model.config();
  std::vector<SafetensorsTensor> tensors;
  for (const ParamView& v : model.param_views()) {
    const float* p = model.params().data() + v.offset;
    tensors.push_back({v.name, "F32", Tensor(v.shape, std::vector<float>(p, p + v.size))});
  }
  // lm_head.weight: the tied copy of wte that GPT.state_dict() also holds
  const ParamView& wte = model.param(kWte);
  const float* p = model.params().data() + wte.offset;
  tensors.push_back({kLmHead, "F32", Tensor(wte.shape, std::vector<float>(p, p + wte.size))});
  const nlohmann::json config = {{"vocab", c.vocab},
                                 {"block_size", c.block_size},
                                 {"layers", c.layers},
                                 {"heads", c.heads},
                                 {"d_model", c.d_model}};
  return write_safetensors(tensors, {{"format", "pt"}, {"config", config.dump()}});
}

GptConfig gpt_config_of(const SafetensorsFile& file, long heads) {
  const SafetensorsTensor& wte = require_matrix(file, kWte);
  const SafetensorsTensor& wpe = require_matrix(file, kWpe);
  GptConfig c;
  c.vocab = wte.tensor.shape[0];
  c.d_model = wte.tensor.shape[1];
  c.block_size = wpe.tensor.shape[0];
  c.layers = 0;
  while (file.find("transformer.h." + std::to_string(c.layers) + ".ln_1.weight")) ++c.layers;
  c.heads = heads;
  if (heads <= 0) {
    const auto it = file.metadata.find("config");
    if (it == file.metadata.end()) {
      throw InputError("the number of heads is not in the file (no \"config\" metadata): give it");
    }
    const nlohmann::json j = nlohmann::json::parse(it->second, nullptr, false);
    if (!j.is_object() || !j.contains("heads") || !j["heads"].is_number_integer()) {
      throw InputError("the file's \"config\" metadata has no integer \"heads\"");
    }
    c.heads = j["heads"].get<long>();
  }
  return c;
}

void load_gpt_weights(GptModel& model, const SafetensorsFile& file) {
  std::vector<float> values(model.params().size());
  std::set<std::string> known;
  for (const ParamView& v : model.param_views()) {
    const SafetensorsTensor* t = file.find(v.name);
    if (!t) throw InputError("the file has no tensor " + v.name + " " + shape_str(v.shape));
    if (t->tensor.shape != v.shape) {
      throw InputError("tensor " + v.name + " has shape " + shape_str(t->tensor.shape) +
                       ", the model needs " + shape_str(v.shape));
    }
    for (long i = 0; i < v.size; ++i) {
      if (!std::isfinite(t->tensor.data[i])) {
        throw InputError("tensor " + v.name + " value " + std::to_string(i) + " is not finite");
      }
    }
    std::copy(t->tensor.data.begin(), t->tensor.data.end(), values.begin() + v.offset);
    known.insert(v.name);
  }
  for (const SafetensorsTensor& t : file.tensors) {
    if (t.name == kLmHead) {
      // tied: the output layer is wte itself, so a different lm_head cannot be kept
      const SafetensorsTensor* wte = file.find(kWte);
      if (t.tensor.shape != wte->tensor.shape || t.tensor.data != wte->tensor.data) {
        throw InputError("lm_head.weight differs from transformer.wte.weight: this GPT ties them");
      }
    } else if (!known.count(t.name)) {
      throw InputError("the file has a tensor " + t.name + " that this GPT does not have (" +
                       std::to_string(model.config().layers) + " layers; names as nanoGPT's)");
    }
  }
  model.load_params(values);
}

}  // namespace lab
