// Helpers of the GPT tests: the reference's configs and batches (tests/reference/gen_gpt.py,
// labtest::reference("gpt.json")), tiny configs, a model with every weight away from its init.
// test_util.h has what every model's tests share.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpt/model.h"
#include "rng.h"
#include "test_util.h"

namespace gpttest {

inline lab::GptConfig config_from_json(const nlohmann::json& c) {
  lab::GptConfig cfg = labtest::sized_config<lab::GptConfig>(c);
  labtest::read_whole_fields(c, {{"vocab", &cfg.vocab}, {"block_size", &cfg.block_size}});
  return cfg;
}

inline lab::GptBatch batch_from_json(const nlohmann::json& b) {
  lab::GptBatch batch;
  batch.B = b.at("B");
  batch.T = b.at("T");
  batch.idx = b.at("idx").get<std::vector<int32_t>>();
  batch.targets = b.at("targets").get<std::vector<int32_t>>();
  return batch;
}

inline lab::GptConfig tiny_config(long layers, long heads, long d_model = 8, long block = 8,
                                  long vocab = 11, uint64_t seed = 1) {
  lab::GptConfig c = labtest::sized_config<lab::GptConfig>(layers, heads, d_model);
  c.block_size = block;
  c.vocab = vocab;
  c.seed = seed;
  return c;
}

// B rows of T random ids and their next ids, from `seed`.
inline lab::GptBatch random_batch(long B, long T, long vocab, uint64_t seed) {
  lab::Rng rng(seed);
  lab::GptBatch b;
  b.B = B;
  b.T = T;
  for (long r = 0; r < B; ++r) {
    std::vector<int32_t> row;
    for (long t = 0; t <= T; ++t) row.push_back(static_cast<int32_t>(rng.below(vocab)));
    b.idx.insert(b.idx.end(), row.begin(), row.end() - 1);
    b.targets.insert(b.targets.end(), row.begin() + 1, row.end());
  }
  return b;
}

// As gen_gpt.py's perturb: matrices N(0, 0.3²), LayerNorm gains 1 + 0.2 N, biases 0.1 N, so
// that attention is far from uniform and every bias matters.
inline void perturb(lab::GptModel& model, uint64_t seed) {
  labtest::redraw_params(model, seed, [](const lab::ParamView& v, float, lab::Rng& rng) {
    const bool gain =
        v.name.find("ln_") != std::string::npos && v.name.find(".weight") != std::string::npos;
    const bool bias = v.name.find(".bias") != std::string::npos;
    return gain ? 1.0f + 0.2f * rng.normal() : (bias ? 0.1f : 0.3f) * rng.normal();
  });
}

}  // namespace gpttest
