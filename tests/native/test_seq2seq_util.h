// Helpers shared by the Seq2Seq and Transformer tests: reference JSON loading, tiny models and
// batches, the PyTorch-reference steps both models' reference tests take, central differences.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "optim.h"
#include "rng.h"
#include "seq2seq/model.h"

namespace s2stest {

// A reference file of shared/reference (made by a generator in tests/reference), parsed.
inline nlohmann::json load_reference(const std::string& file) {
  std::ifstream f(std::string(LAB_REFERENCE_DIR) + "/" + file);
  if (!f) throw std::runtime_error("cannot open shared/reference/" + file);
  return nlohmann::json::parse(f);
}

inline const nlohmann::json& seq2seq_reference() {
  static const nlohmann::json j = load_reference("seq2seq.json");
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

// A reference tensor's values ({shape, data}).
inline std::vector<double> doubles(const nlohmann::json& t) {
  return t.at("data").get<std::vector<double>>();
}

// Sets every parameter of `model` from a reference case's "params" ({name: {shape, data}}).
// Every C++ parameter must come from PyTorch: a leftover would keep its random init.
template <class Model>
void load_reference_params(Model& model, const nlohmann::json& params,
                           const std::vector<lab::ParamView>& table) {
  size_t loaded = 0;
  for (const auto& [name, t] : params.items()) {
    EXPECT_EQ(model.param(name).shape, t.at("shape").template get<std::vector<long>>()) << name;
    model.set_param(name, t.at("data").template get<std::vector<float>>());
    ++loaded;
  }
  EXPECT_EQ(loaded, table.size());
}

// max over elements of |a − e| / (|e| + max|e|): the quantity expect_close bounds by rtol.
inline double worst_ratio(const float* actual, const std::vector<double>& expected) {
  double scale = 0.0, worst = 0.0;
  for (double e : expected) scale = std::max(scale, std::abs(e));
  for (size_t i = 0; i < expected.size(); ++i) {
    worst = std::max(worst, std::abs(actual[i] - expected[i]) / (std::abs(expected[i]) + scale));
  }
  return worst;
}

// forward_backward on `batch`: the loss and every gradient of the reference case `c` ("loss",
// "grads") within rtol of PyTorch's. Returns the gradients' worst_ratio, for the record.
template <class Model>
double expect_loss_and_grads(Model& model, const lab::Batch& batch, const nlohmann::json& c,
                             double rtol) {
  const float loss = model.forward_backward(batch);
  const double expected = c.at("loss").template get<double>();
  EXPECT_NEAR(loss, expected, rtol * expected);
  double worst = 0.0;
  for (const auto& [name, t] : c.at("grads").items()) {
    const float* grad = model.grads().data() + model.param(name).offset;
    expect_close(grad, doubles(t), rtol, "grad " + name);
    worst = std::max(worst, worst_ratio(grad, doubles(t)));
  }
  return worst;
}

// The reference case's Adam steps ({lr, beta1, beta2, eps, losses}) from the model's current
// weights: each step's loss must match torch.optim.Adam's within rtol.
template <class Model>
void expect_adam_losses(Model& model, const lab::Batch& batch, const nlohmann::json& adam,
                        double rtol) {
  const std::vector<double> losses = adam.at("losses").get<std::vector<double>>();
  lab::AdamOptions o;
  o.lr = adam.at("lr");
  o.beta1 = adam.at("beta1");
  o.beta2 = adam.at("beta2");
  o.eps = adam.at("eps");
  for (size_t i = 0; i < losses.size(); ++i) {
    const float l = model.forward_backward(batch);
    EXPECT_NEAR(l, losses[i], rtol * losses[i]) << "Adam step " << i;
    model.adam_step(o);
  }
  // The losses must actually move, or matching them would prove nothing about Adam.
  EXPECT_LT(losses.back(), losses.front() - 0.1);
}

// dL/dx ≈ (L(x + ε) − L(x − ε)) / 2ε for the weight x = model.params()[i] (restored after).
template <class Model>
double central_difference(Model& model, const lab::Batch& batch, long i, float eps) {
  float& x = model.params()[static_cast<size_t>(i)];
  const float saved = x;
  x = saved + eps;
  const double up = model.loss_only(batch);
  x = saved - eps;
  const double down = model.loss_only(batch);
  x = saved;
  return (up - down) / (2.0 * eps);
}

// Squared norms over a random subset of at most `n` entries (all of a smaller group) of the
// parameter group [offset, offset + size): of analytic − numeric, numeric and analytic, with
// numeric(i) the central difference of entry i of the flat buffer. `pick` draws the subset.
struct GroupNorms {
  double diff2 = 0.0, num2 = 0.0, ana2 = 0.0;
};
template <class Numeric>
GroupNorms compare_group(const std::vector<float>& analytic, long offset, long size, long n,
                         lab::Rng& pick, const Numeric& numeric) {
  std::vector<long> idx;
  for (long i = 0; i < size; ++i) idx.push_back(i);
  for (long i = size - 1; i > 0; --i) std::swap(idx[i], idx[pick.below(i + 1)]);
  idx.resize(std::min(size, n));
  GroupNorms g;
  for (long i : idx) {
    const double num = numeric(offset + i);
    const double a = analytic[offset + i];
    g.diff2 += (a - num) * (a - num);
    g.num2 += num * num;
    g.ana2 += a * a;
  }
  return g;
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
