// Helpers shared by the Transformer tests: the reference JSON, configs, tiny models and batches.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "test_seq2seq_util.h"  // batch_from_json, make_batch
#include "test_util.h"
#include "transformer/model.h"

namespace tftest {

inline const nlohmann::json& transformer_reference() {
  static const nlohmann::json j = labtest::load_reference("transformer.json");
  return j;
}

inline lab::TransformerConfig config_from_json(const nlohmann::json& c) {
  lab::TransformerConfig cfg;
  cfg.layers = c.at("layers");
  cfg.heads = c.at("heads");
  cfg.d_model = c.at("d_model");
  cfg.d_ff = c.at("d_ff");
  cfg.norm_first = c.at("norm_first");
  cfg.src_vocab = c.at("src_vocab");
  cfg.tgt_vocab = c.at("tgt_vocab");
  return cfg;
}

inline lab::TransformerConfig tiny_config(long layers, long heads, bool norm_first,
                                          uint64_t seed = 1) {
  lab::TransformerConfig c;
  c.layers = layers;
  c.heads = heads;
  c.d_model = 8;
  c.d_ff = 12;
  c.norm_first = norm_first;
  c.src_vocab = 7;
  c.tgt_vocab = 9;
  c.seed = seed;
  return c;
}

}  // namespace tftest
