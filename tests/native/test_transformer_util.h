// Helpers shared by the Transformer tests: tiny configs and the reference's configs
// (tests/reference/gen_transformer.py, labtest::reference("transformer.json")); the batches are
// test_seq2seq_util.h's.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "test_seq2seq_util.h"  // batch_from_json, make_batch
#include "test_util.h"
#include "transformer/model.h"

namespace tftest {

inline lab::TransformerConfig tiny_config(long layers, long heads, bool norm_first,
                                          uint64_t seed = 1) {
  lab::TransformerConfig c = labtest::sized_config<lab::TransformerConfig>(layers, heads, 8);
  c.seed = seed;
  c.d_ff = 12;
  c.norm_first = norm_first;
  c.src_vocab = 7;
  c.tgt_vocab = 9;
  return c;
}

inline lab::TransformerConfig config_from_json(const nlohmann::json& c) {
  lab::TransformerConfig cfg = labtest::sized_config<lab::TransformerConfig>(c);
  labtest::read_whole_fields(
      c, {{"d_ff", &cfg.d_ff}, {"src_vocab", &cfg.src_vocab}, {"tgt_vocab", &cfg.tgt_vocab}});
  cfg.norm_first = c.at("norm_first");
  return cfg;
}

}  // namespace tftest
