// The attribution checks test_attribution.cpp runs on both kinds of model: a case of an
// attribution reference file (tests/reference/gen_attribution.py, gen_transformer_attribution.py)
// checked method by method, the source-embedding gradient against central differences, and
// integrated gradients' completeness error.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sequence/attribution.h"
#include "test_seq2seq_util.h"  // expect_close, doubles

namespace attrtest {

using labtest::doubles;

// Both methods of case c against the reference (rtol 1e-4 as expect_close; ρ to 1e-9), with
// `attribute` the model's attribute(src, target, options).
inline void expect_matches_reference(
    const nlohmann::json& c,
    const std::function<lab::AttributionResult(const lab::AttributionOptions&)>& attribute) {
  const std::vector<int32_t> src = c.at("src"), target = c.at("target");
  const double rtol = 1e-4;
  for (const char* method : {"gradient_input", "integrated_gradients"}) {
    SCOPED_TRACE(method);
    lab::AttributionOptions o;
    o.method = std::string(method) == "gradient_input"
                   ? lab::AttributionMethod::kGradientInput
                   : lab::AttributionMethod::kIntegratedGradients;
    o.steps = c.at("ig_steps");
    const lab::AttributionResult r = attribute(o);
    ASSERT_EQ(r.T, static_cast<long>(target.size()));
    ASSERT_EQ(r.S, static_cast<long>(src.size()));
    labtest::expect_close(r.scores.data(), doubles(c.at(method)), rtol, "scores");
    labtest::expect_close(r.log_prob.data(), c.at("log_prob").get<std::vector<double>>(), rtol,
                          "log p");
    if (o.method == lab::AttributionMethod::kIntegratedGradients) {
      labtest::expect_close(r.baseline_log_prob.data(),
                            c.at("baseline_log_prob").get<std::vector<double>>(), rtol,
                            "baseline log p");
    } else {
      EXPECT_TRUE(r.baseline_log_prob.empty());
    }
    if (c.at("attention").is_null()) {
      EXPECT_TRUE(r.attention.empty());
      for (const auto& rho : r.rank_correlation) EXPECT_FALSE(rho.has_value());
      continue;
    }
    labtest::expect_close(r.attention.data(), doubles(c.at("attention")), rtol, "attention");
    const nlohmann::json& rho = c.at("rank_correlation").at(method);
    for (long t = 0; t < r.T; ++t) {
      if (rho.at(t).is_null()) {
        EXPECT_FALSE(r.rank_correlation[t].has_value()) << t;
      } else {
        ASSERT_TRUE(r.rank_correlation[t].has_value()) << t;
        EXPECT_NEAR(*r.rank_correlation[t], rho.at(t).get<double>(), 1e-9) << t;
      }
    }
  }
}

// The gradient attribution reads (the model's backward into the source embeddings) against
// central differences of the same loss, on a 3-word teacher-forced batch of source `src`.
template <class Model>
void expect_source_gradient_matches_finite_differences(Model& model,
                                                       const std::vector<int32_t>& src) {
  lab::Batch b;
  b.B = 1;
  b.S = static_cast<long>(src.size());
  b.T = 3;
  b.src = src;
  b.src_len = {static_cast<int32_t>(b.S)};
  b.tgt_in = {1, 4, 6};
  b.tgt_out = {4, 6, 2};
  std::vector<float> x = model.source_embeddings(src);
  const lab::SourceEmbeddingGradient g = model.source_embedding_gradient(b, x);
  // The given embeddings are the looked-up ones: the loss is the model's own.
  EXPECT_FLOAT_EQ(g.loss, model.loss_only(b));
  const float h = 1e-2f;
  double largest = 0.0;
  for (size_t k = 0; k < x.size(); k += 3) {
    const float keep = x[k];
    x[k] = keep + h;
    const double up = model.source_embedding_gradient(b, x).loss;
    x[k] = keep - h;
    const double down = model.source_embedding_gradient(b, x).loss;
    x[k] = keep;
    const double fd = (up - down) / (2.0 * h);
    largest = std::max(largest, std::abs(fd));
    EXPECT_NEAR(g.grad[k], fd, 2e-3 * (1.0 + std::abs(fd))) << "element " << k;
  }
  EXPECT_GT(largest, 1e-3) << "the loss must depend on the source for the check to mean anything";
}

// max over words of |Σ_s a[t, s] − (f_t(x) − f_t(0))| / max(1e-3, |f_t(x) − f_t(0)|)
inline double completeness_error(const lab::AttributionResult& r) {
  double worst = 0.0;
  for (long t = 0; t < r.T; ++t) {
    double sum = 0.0;
    for (long s = 0; s < r.S; ++s) sum += r.scores[t * r.S + s];
    const double gap = r.log_prob[t] - r.baseline_log_prob[t];
    worst = std::max(worst, std::abs(sum - gap) / std::max(1e-3, std::abs(gap)));
  }
  return worst;
}

}  // namespace attrtest
