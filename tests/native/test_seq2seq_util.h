// Helpers of the Seq2Seq tests (the Transformer's use its batches too): the reference's configs
// and batches, tiny models and batches. test_util.h has what every model's tests share.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "optim.h"
#include "rng.h"
#include "rnn/model.h"
#include "test_util.h"

namespace s2stest {

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

// A model of `cell` with `hidden` units, vocabularies `src_vocab` and `tgt_vocab`, and attention
// (`score`, with the tanh layer or not) or none, initialised from `seed`.
inline lab::Seq2SeqConfig model_config(lab::CellKind cell, long hidden, long src_vocab,
                                       long tgt_vocab, bool attention, lab::Score score, bool tanh,
                                       uint64_t seed) {
  lab::Seq2SeqConfig c;
  c.cell = cell;
  c.hidden = hidden;
  c.src_vocab = src_vocab;
  c.tgt_vocab = tgt_vocab;
  c.attention = attention;
  c.score = score;
  c.attentional_tanh = tanh;
  c.seed = seed;
  return c;
}

// The decoding tests' model (hidden 16, vocabularies 12 and 9), initialised from `seed`.
inline lab::Seq2SeqConfig decode_config(lab::CellKind cell, bool attention, lab::Score score,
                                        bool tanh, uint64_t seed) {
  return model_config(cell, 16, 12, 9, attention, score, tanh, seed);
}

// A model trained a little on one batch, so its distributions are not flat (ties would make the
// argmax comparisons fragile) but decoding still has real choices to make.
inline lab::Seq2SeqModel trained_a_little(const lab::Seq2SeqConfig& c) {
  lab::Seq2SeqModel model(c);
  const lab::Batch b = make_batch({5, 4, 6}, {5, 3, 6}, c.src_vocab, c.tgt_vocab, 8);
  for (int i = 0; i < 15; ++i) {
    model.forward_backward(b);
    model.adam_step(2e-2f);
  }
  return model;
}

// The source sentence the decoding tests translate (ids inside decode_config's vocabulary).
inline const std::vector<int32_t> kDecodeSource = {3, 7, 1, 9, 4};

// One sentence `src` teacher-forced on <sos>=1 + `prefix`: T = |prefix| + 1 decoder steps (the
// outputs are a filler id, 4: the tests compare the logits only).
inline lab::Batch prefix_batch(const std::vector<int32_t>& src,
                               const std::vector<int32_t>& prefix) {
  lab::Batch b;
  b.B = 1;
  b.S = static_cast<long>(src.size());
  b.T = static_cast<long>(prefix.size()) + 1;
  b.src = src;
  b.src_len = {static_cast<int32_t>(b.S)};
  b.tgt_in = {1};
  b.tgt_in.insert(b.tgt_in.end(), prefix.begin(), prefix.end());
  b.tgt_out.assign(static_cast<size_t>(b.T), 4);
  return b;
}

// Which ways a batch makes `config`'s model project its cells' embedded inputs (model.h's
// projects_by_vocabulary): bit 1 = through the vocabulary, bit 2 = row by row, for the encoder and
// the decoder together. A batch that goes through the vocabulary must also repeat an id there, so
// that its scatter sums more than one row into an entry.
inline int input_projection_paths(const lab::Seq2SeqConfig& config, const lab::Batch& batch) {
  auto path = [](long V, const std::vector<int32_t>& ids) {
    if (!lab::projects_by_vocabulary(V, static_cast<long>(ids.size()))) return 2;
    std::vector<int32_t> sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_NE(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end())
        << "a batch projected through the vocabulary repeats no id";
    return 1;
  };
  return path(config.src_vocab, batch.src) | path(config.tgt_vocab, batch.tgt_in);
}

}  // namespace s2stest
