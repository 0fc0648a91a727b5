// GptModel: configuration and batch checks, the flat parameter layout (nanoGPT's state-dict
// names), nanoGPT's init, named access.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "gpt/model.h"
#include "rng.h"

namespace lab {

namespace {

double count_params(const GptConfig& c) {
  const double C = c.d_model, L = c.layers;
  const double block =
      4 * C + (3 * C * C + 3 * C) + (C * C + C) + (4 * C * C + 4 * C) + (4 * C * C + C);
  return (c.vocab + c.block_size) * C + L * block + 2 * C;
}

std::string at_position(long b, long t) {
  return " at row " + std::to_string(b) + ", position " + std::to_string(t);
}

}  // namespace

void GptConfig::validate() const {
  check_range(vocab, 2, kMaxVocab, "vocabulary size");
  check_range(block_size, 1, kGptMaxBlockSize, "block size (the longest context)");
  check_range(layers, 1, kGptMaxLayers, "number of layers");
  check_range(d_model, 1, kGptMaxWidth, "width d_model");
  check_heads(heads, d_model, "the width d_model");
  check_param_count(count_params(*this),
                    "use a smaller width, vocabulary, block size or fewer "
                    "layers");
}

void GptModel::validate_batch(const GptBatch& batch) const {
  const long B = batch.B, T = batch.T, V = config_.vocab;
  check_range(B, 1, kMaxDim, "batch size B");
  if (T > config_.block_size) {
    throw InputError("the context has " + std::to_string(T) +
                     " positions, more than the model's block size (" +
                     std::to_string(config_.block_size) + " rows of transformer.wpe)");
  }
  check_range(T, 1, config_.block_size, "context length T");
  // The largest buffers: every layer's (B, H, T, T) attention and (B, T, 4C) activations, and
  // the (B, T, V) logits.
  shape_numel({config_.layers, B * config_.heads, T, T}, "attention maps of this batch");
  shape_numel({config_.layers, B, T, 16 * config_.d_model}, "activations of this batch");
  shape_numel({3, B, T, V}, "logits of this batch");
  const size_t n = static_cast<size_t>(B * T);
  if (batch.idx.size() != n) {
    throw InputError("idx has " + std::to_string(batch.idx.size()) +
                     " ids, not B·T = " + std::to_string(n));
  }
  if (!batch.targets.empty() && batch.targets.size() != n) {
    throw InputError("targets has " + std::to_string(batch.targets.size()) +
                     " ids, not B·T = " + std::to_string(n));
  }
  for (size_t i = 0; i < n; ++i) {
    const long b = static_cast<long>(i) / T, t = static_cast<long>(i) % T;
    if (batch.idx[i] < 0 || batch.idx[i] >= V) {
      throw InputError("token id " + std::to_string(batch.idx[i]) + at_position(b, t) +
                       " is outside the vocabulary [0, " + std::to_string(V) + ")");
    }
    if (!batch.targets.empty() && batch.targets[i] != kGptIgnoreTarget &&
        (batch.targets[i] < 0 || batch.targets[i] >= V)) {
      throw InputError("target id " + std::to_string(batch.targets[i]) + at_position(b, t) +
                       " is outside the vocabulary [0, " + std::to_string(V) +
                       ") (-1 means no target)");
    }
  }
}

GptModel::GptModel(const GptConfig& config) : ParamStore("GPT"), config_(config) {
  config_.validate();
  build_table();
  allocate_params();
  blocks_.resize(config_.layers);
  reset_parameters();
}

void GptModel::build_table() {
  const long C = config_.d_model, F = 4 * C;
  auto add = [&](const std::string& name, std::vector<long> shape) {
    return add_param(name, std::move(shape));
  };
  auto norm = [&](const std::string& pre) {
    return LayerNormP<long>{add(pre + ".weight", {C}), add(pre + ".bias", {C})};
  };
  off_.wte = add("transformer.wte.weight", {config_.vocab, C});
  off_.wpe = add("transformer.wpe.weight", {config_.block_size, C});
  for (long l = 0; l < config_.layers; ++l) {
    const std::string pre = "transformer.h." + std::to_string(l);
    GptBlockP<long> b;
    b.ln_1 = norm(pre + ".ln_1");
    b.attn.in_w = add(pre + ".attn.c_attn.weight", {3 * C, C});
    b.attn.in_b = add(pre + ".attn.c_attn.bias", {3 * C});
    b.attn.out_w = add(pre + ".attn.c_proj.weight", {C, C});
    b.attn.out_b = add(pre + ".attn.c_proj.bias", {C});
    b.ln_2 = norm(pre + ".ln_2");
    b.fc_w = add(pre + ".mlp.c_fc.weight", {F, C});
    b.fc_b = add(pre + ".mlp.c_fc.bias", {F});
    b.proj_w = add(pre + ".mlp.c_proj.weight", {C, F});
    b.proj_b = add(pre + ".mlp.c_proj.bias", {C});
    off_.blocks.push_back(b);
  }
  off_.ln_f = norm("transformer.ln_f");
}

void GptModel::reset_parameters() {
  Rng rng(config_.seed);
  // nanoGPT: N(0, 0.02²), and 0.02/√(2L) for the projections into the residual stream
  const float std = 0.02f;
  const float proj_std = std / std::sqrt(2.0f * static_cast<float>(config_.layers));
  for (const ParamView& v : table_) {
    float* data = params_.data() + v.offset;
    const auto ends = [&](const std::string& s) {
      return v.name.size() >= s.size() &&
             v.name.compare(v.name.size() - s.size(), s.size(), s) == 0;
    };
    if (v.name.find("ln_") != std::string::npos) {
      std::fill(data, data + v.size, ends(".weight") ? 1.0f : 0.0f);
    } else if (ends(".bias")) {
      std::fill(data, data + v.size, 0.0f);
    } else {
      const float s = ends("c_proj.weight") ? proj_std : std;
      for (long i = 0; i < v.size; ++i) data[i] = s * rng.normal();
    }
  }
  reset_optimizer();
}

void GptModel::adam_step(const AdamOptions& options) {
  options.validate();
  step_adam(options);
}

void GptModel::adam_step_consuming_grads(const AdamOptions& options) {
  options.validate();
  step_adam_consuming_grads(options);
}

}  // namespace lab
