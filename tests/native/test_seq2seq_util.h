// Helpers shared by the Seq2Seq tests: reference JSON loading, tiny models and batches.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "seq2seq/model.h"
#include "seq2seq/rng.h"

namespace s2stest {

inline const nlohmann::json& seq2seq_reference() {
  static const nlohmann::json j = [] {
    std::ifstream f(std::string(LAB_REFERENCE_DIR) + "/seq2seq.json");
    if (!f) throw std::runtime_error("cannot open shared/reference/seq2seq.json");
    return nlohmann::json::parse(f);
  }();
  return j;
}

inline lab::Seq2SeqConfig config_from_json(const nlohmann::json& c) {
  lab::Seq2SeqConfig cfg;
  cfg.cell = lab::parse_cell(c.at("cell").get<std::string>().c_str());
  cfg.hidden = c.at("hidden");
  cfg.embedding = c.at("embedding");
  cfg.src_vocab = c.at("src_vocab");
  cfg.tgt_vocab = c.at("tgt_vocab");
  cfg.attention = c.at("attention");
  cfg.score = lab::parse_score(c.at("score").get<std::string>());
  cfg.attentional_tanh = c.at("attentional_tanh");
  return cfg;
}

inline lab::Batch batch_from_json(const nlohmann::json& b) {
  lab::Batch batch;
  batch.B = b.at("B");
  batch.S = b.at("S");
  batch.T = b.at("T");
  batch.src = b.at("src").get<std::vector<int32_t>>();
  batch.src_len = b.at("src_len").get<std::vector<int32_t>>();
  batch.tgt_in = b.at("tgt_in").get<std::vector<int32_t>>();
  batch.tgt_out = b.at("tgt_out").get<std::vector<int32_t>>();
  return batch;
}

// |a − e| ≤ rtol · (|e| + max|e|) for every element: relative to the element and to the tensor's
// scale, so near-zero entries of a large tensor are not held to an impossible relative bound.
inline void expect_close(const float* actual, const std::vector<double>& expected, double rtol,
                         const std::string& what) {
  double scale = 0.0;
  for (double e : expected) scale = std::max(scale, std::abs(e));
  int failures = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    const double a = actual[i], e = expected[i];
    if (!(std::abs(a - e) <= rtol * (std::abs(e) + scale)) && failures++ < 5) {
      ADD_FAILURE() << what << "[" << i << "]: got " << a << ", PyTorch " << e << " (max |e| "
                    << scale << ")";
    }
  }
}

// A batch of B sequences with the given source/target lengths, deterministic ids from `seed`.
// Real ids are ≥ 1 (0 is padding); tgt_in = <sos>=1 + targets, tgt_out = targets + <eos>=2.
inline lab::Batch make_batch(const std::vector<int>& src_len, const std::vector<int>& tgt_len,
                             long src_vocab, long tgt_vocab, uint64_t seed) {
  lab::Rng rng(seed);
  lab::Batch b;
  b.B = static_cast<long>(src_len.size());
  b.S = *std::max_element(src_len.begin(), src_len.end());
  b.T = *std::max_element(tgt_len.begin(), tgt_len.end());
  b.src.assign(b.B * b.S, 0);
  b.tgt_in.assign(b.B * b.T, 0);
  b.tgt_out.assign(b.B * b.T, 0);
  for (long i = 0; i < b.B; ++i) {
    b.src_len.push_back(src_len[i]);
    for (int s = 0; s < src_len[i]; ++s) b.src[i * b.S + s] = 1 + rng.below(src_vocab - 1);
    b.tgt_in[i * b.T] = 1;
    for (int t = 0; t + 1 < tgt_len[i]; ++t) {
      const int32_t id = static_cast<int32_t>(3 + rng.below(tgt_vocab - 3));
      b.tgt_out[i * b.T + t] = id;
      b.tgt_in[i * b.T + t + 1] = id;
    }
    b.tgt_out[i * b.T + tgt_len[i] - 1] = 2;
  }
  return b;
}

}  // namespace s2stest
