// Helpers every model's tests share (the Seq2Seq translator's, the Transformer's, the GPT's):
// the reference JSON of a PyTorch generator (tests/reference/gen_*.py), comparisons with its
// numbers, its weights, gradients and Adam steps, and central differences. `Model` is any model
// with ParamStore's interface (params.h); `Batch` is its batch type.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "optim.h"
#include "params.h"
#include "rng.h"

namespace labtest {

// A reference file of shared/reference (made by a generator in tests/reference), parsed.
inline nlohmann::json load_reference(const std::string& file) {
  std::ifstream f(std::string(LAB_REFERENCE_DIR) + "/" + file);
  if (!f) throw std::runtime_error("cannot open shared/reference/" + file);
  return nlohmann::json::parse(f);
}

// The bytes of a reference file (a .safetensors one).
inline std::vector<uint8_t> reference_bytes(const std::string& file) {
  std::ifstream in(std::string(LAB_REFERENCE_DIR) + "/" + file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open shared/reference/" + file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// load_reference(file), parsed once per file: the tests of a generator's cases read it often.
inline const nlohmann::json& reference(const std::string& file) {
  static std::map<std::string, nlohmann::json> parsed;
  auto it = parsed.find(file);
  if (it == parsed.end()) it = parsed.emplace(file, load_reference(file)).first;
  return it->second;
}

// A test suite over the "cases" of a reference file, the parameter a case's index:
// INSTANTIATE_TEST_SUITE_P(Prefix, Suite, reference_cases(file), ReferenceCaseName{file}) names
// each test after its case's "name"; reference_case(file, GetParam()) is the case.
inline const nlohmann::json& reference_case(const std::string& file, int index) {
  return reference(file).at("cases").at(index);
}
inline auto reference_cases(const std::string& file) {
  return ::testing::Range(0, static_cast<int>(reference(file).at("cases").size()));
}
struct ReferenceCaseName {
  std::string file;
  std::string operator()(const ::testing::TestParamInfo<int>& info) const {
    return reference_case(file, info.param).at("name").get<std::string>();
  }
};

// Sets each whole-number field of a config from the key of a reference config `c` that names it
// (the generators write the C++ field names).
inline void read_whole_fields(const nlohmann::json& c,
                              std::initializer_list<std::pair<const char*, long*>> fields) {
  for (const auto& [key, field] : fields) *field = c.at(key).get<long>();
}

// A config of `layers` layers of `heads` heads on d_model features, and the same three read from a
// reference config: the names that the Transformer's and the GPT's configs share.
template <class Config>
Config sized_config(long layers, long heads, long d_model) {
  Config c;
  c.layers = layers;
  c.heads = heads;
  c.d_model = d_model;
  return c;
}
template <class Config>
Config sized_config(const nlohmann::json& c) {
  return sized_config<Config>(c.at("layers"), c.at("heads"), c.at("d_model"));
}

// Sets every parameter x of `model` to draw(view, x, rng), view by view in table order, drawing
// from an Rng of `seed`: the tests' weights far from the model's init.
template <class Model, class Draw>
void redraw_params(Model& model, uint64_t seed, const Draw& draw) {
  lab::Rng rng(seed);
  for (const lab::ParamView& v : model.param_views()) {
    for (long i = 0; i < v.size; ++i) {
      float& x = model.params()[v.offset + i];
      x = draw(v, x, rng);
    }
  }
}

// A reference tensor's values ({shape, data}).
inline std::vector<double> doubles(const nlohmann::json& t) {
  return t.at("data").get<std::vector<double>>();
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

// max over elements of |a − e| / (|e| + max|e|): the quantity expect_close bounds by rtol.
inline double worst_ratio(const float* actual, const std::vector<double>& expected) {
  double scale = 0.0, worst = 0.0;
  for (double e : expected) scale = std::max(scale, std::abs(e));
  for (size_t i = 0; i < expected.size(); ++i) {
    worst = std::max(worst, std::abs(actual[i] - expected[i]) / (std::abs(expected[i]) + scale));
  }
  return worst;
}

// Sets every parameter of `model` from a reference case's "params" ({name: {shape, data}}).
// Every C++ parameter must come from PyTorch: a leftover would keep its random init.
template <class Model>
void load_reference_params(Model& model, const nlohmann::json& params) {
  size_t loaded = 0;
  for (const auto& [name, t] : params.items()) {
    EXPECT_EQ(model.param(name).shape, t.at("shape").template get<std::vector<long>>()) << name;
    model.set_param(name, t.at("data").template get<std::vector<float>>());
    ++loaded;
  }
  EXPECT_EQ(loaded, model.param_views().size());
}

// forward_backward on `batch`: the loss and every gradient of the reference case `c` ("loss",
// "grads") within rtol of PyTorch's. Returns the gradients' worst_ratio, for the record.
template <class Model, class Batch>
double expect_loss_and_grads(Model& model, const Batch& batch, const nlohmann::json& c,
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

// A reference case's optimiser settings ({lr, beta1, beta2, eps[, weight_decay]}):
// torch.optim.Adam, or with `decoupled` torch.optim.AdamW.
inline lab::AdamOptions adam_from_json(const nlohmann::json& a, bool decoupled = false) {
  lab::AdamOptions o;
  o.lr = a.at("lr");
  o.beta1 = a.at("beta1");
  o.beta2 = a.at("beta2");
  o.eps = a.at("eps");
  o.weight_decay = a.value("weight_decay", 0.0f);
  o.decoupled = decoupled;
  return o;
}

// The reference case's optimiser steps ({lr, beta1, beta2, eps, losses}) from the model's current
// weights: each step's loss must match PyTorch's within rtol, and the losses must fall by at least
// `min_drop`, or matching them would prove nothing about the optimiser.
template <class Model, class Batch>
void expect_adam_losses(Model& model, const Batch& batch, const nlohmann::json& adam, double rtol,
                        bool decoupled = false, double min_drop = 0.1) {
  const std::vector<double> losses = adam.at("losses").get<std::vector<double>>();
  const lab::AdamOptions o = adam_from_json(adam, decoupled);
  for (size_t i = 0; i < losses.size(); ++i) {
    const float l = model.forward_backward(batch);
    EXPECT_NEAR(l, losses[i], rtol * losses[i]) << (decoupled ? "AdamW" : "Adam") << " step " << i;
    model.adam_step(o);
  }
  EXPECT_LT(losses.back(), losses.front() - min_drop);
}

// dL/dx ≈ (L(x + ε) − L(x − ε)) / 2ε for the weight x = model.params()[i] (restored after).
template <class Model, class Batch>
double central_difference(Model& model, const Batch& batch, long i, float eps) {
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

// How expect_gradients_match_central_differences compares: per parameter group,
//   ‖analytic − numeric‖ < rtol ‖numeric‖ + noise_floor
// (the floor: the float32 noise of the difference quotient, loss rounding ~1e-7 / 2ε per entry)
// over a random subset of at most `entries` entries (all of a smaller group), numeric being the
// central difference with step eps; and a group that must carry a gradient has
// ‖analytic‖ > min_gradient on those entries, or the comparison would be vacuous.
struct CentralDifferences {
  float eps = 1e-3f;
  long entries = 24;
  double rtol = 1e-2;
  double noise_floor = 1e-3;
  double min_gradient = 1e-4;
};

// `analytic`: the gradients of `batch`. needs_gradient(view) says whether a group must carry one
// (embedding rows no token uses have none). Returns the worst error / tolerance, for the record.
template <class Model, class Batch, class NeedsGradient>
double expect_gradients_match_central_differences(Model& model, const Batch& batch,
                                                  const std::vector<float>& analytic,
                                                  lab::Rng& pick, const CentralDifferences& how,
                                                  const NeedsGradient& needs_gradient) {
  double worst = 0.0;
  for (const lab::ParamView& v : model.param_views()) {
    const auto [diff2, num2, ana2] =
        compare_group(analytic, v.offset, v.size, how.entries, pick,
                      [&](long i) { return central_difference(model, batch, i, how.eps); });
    if (needs_gradient(v)) {
      EXPECT_GT(std::sqrt(ana2), how.min_gradient) << v.name << " has no gradient on this batch";
    }
    const double err = std::sqrt(diff2), tol = how.rtol * std::sqrt(num2) + how.noise_floor;
    worst = std::max(worst, err / tol);
    EXPECT_LT(err, tol) << v.name << ": ‖analytic − numeric‖ " << err << ", ‖numeric‖ "
                        << std::sqrt(num2);
  }
  return worst;
}

}  // namespace labtest
