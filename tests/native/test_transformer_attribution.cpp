// The Transformer's attribution (transformer/attribution.h) against PyTorch autograd
// (shared/reference/transformer_attribution.json from
// tests/reference/gen_transformer_attribution.py), its source-embedding gradient against central
// finite differences, integrated gradients' completeness, and its bad input.
#include <gtest/gtest.h>

#include <cmath>

#include "attribution_reference.h"
#include "expect_input_error.h"
#include "test_transformer_util.h"
#include "transformer/attribution.h"

namespace {

using nlohmann::json;

const json& reference() {
  static const json j = attrtest::load("transformer_attribution.json");
  return j;
}

lab::TransformerModel model_from_case(const json& c) {
  lab::TransformerModel model(tftest::config_from_json(c.at("config")));
  size_t loaded = 0;
  for (const auto& [name, t] : c.at("params").items()) {
    model.set_param(name, t.at("data").get<std::vector<float>>());
    ++loaded;
  }
  EXPECT_EQ(loaded, model.param_views().size());
  return model;
}

class TransformerAttributionReference : public ::testing::TestWithParam<int> {};

TEST_P(TransformerAttributionReference, MatchesPyTorchAutograd) {
  const json& c = reference().at("cases").at(GetParam());
  SCOPED_TRACE(c.at("name").get<std::string>());
  lab::TransformerModel model = model_from_case(c);
  attrtest::expect_matches_reference(c, [&](const lab::AttributionOptions& o) {
    return lab::attribute(model, c.at("src"), c.at("target"), o);
  });
}

INSTANTIATE_TEST_SUITE_P(Cases, TransformerAttributionReference, ::testing::Range(0, 3));

// The gradient attribution reads (the core's backward into the source token embeddings) against
// central differences of the same loss.
TEST(TransformerAttribution, SourceEmbeddingGradientMatchesFiniteDifferences) {
  for (int i = 0; i < 3; ++i) {
    const json& c = reference().at("cases").at(i);
    SCOPED_TRACE(c.at("name").get<std::string>());
    lab::TransformerModel model = model_from_case(c);
    attrtest::expect_source_gradient_matches_finite_differences(model, c.at("src"));
  }
}

// Σ_s a[t, s] → f_t(x) − f_t(0) as n grows. Slower than for the recurrent translators (whose
// smooth integrand gives the midpoint rule's 1/n²): the feed-forward ReLUs make the gradient jump
// along the path, and the error falls about as 1/n (worst relative error of the three cases: 35–54%
// at n = 4, 0.8–6.4% at 64, 0.03–0.06% at 1024).
TEST(TransformerAttribution, IntegratedGradientsAreComplete) {
  for (int i = 0; i < 3; ++i) {
    const json& c = reference().at("cases").at(i);
    SCOPED_TRACE(c.at("name").get<std::string>());
    lab::TransformerModel model = model_from_case(c);
    lab::AttributionOptions o;
    o.method = lab::AttributionMethod::kIntegratedGradients;
    double previous_error = 0.0;
    for (long n : {4L, 64L, 1024L}) {
      o.steps = n;
      const lab::AttributionResult r = lab::attribute(model, c.at("src"), c.at("target"), o);
      const double worst = attrtest::completeness_error(r);
      if (n > 4) EXPECT_LT(worst, previous_error) << "more steps, closer to complete: n = " << n;
      if (n == 1024) EXPECT_LT(worst, 2e-3) << "relative completeness error at n = 1024";
      previous_error = worst;
    }
  }
}

TEST(TransformerAttribution, LeavesTrainingGradientsAlone) {
  const json& c = reference().at("cases").at(0);
  lab::TransformerModel model = model_from_case(c);
  const lab::Batch b = s2stest::make_batch({4, 3}, {3, 2}, 7, 8, 5);
  model.forward_backward(b);
  const std::vector<float> grads = model.grads();
  lab::attribute(model, c.at("src"), c.at("target"), {});
  EXPECT_EQ(model.grads(), grads);
  lab::AdamOptions adam;
  model.adam_step(adam);  // still a valid step
}

TEST(TransformerAttribution, BadInput) {
  const json& c = reference().at("cases").at(0);  // Vs 9, Vt 8
  lab::TransformerModel model = model_from_case(c);
  lab::AttributionOptions o;
  o.method = lab::AttributionMethod::kIntegratedGradients;
  o.steps = 0;
  EXPECT_INPUT_ERROR(lab::attribute(model, {1, 2}, {3}, o), "steps must be in [1, 1024] (got 0)");
  o.steps = 1000000;
  EXPECT_INPUT_ERROR(lab::attribute(model, {1, 2}, {3}, o), "(got 1000000)");
  EXPECT_INPUT_ERROR(lab::attribute(model, {1, 2}, {}, {}), "no output word");
  EXPECT_INPUT_ERROR(lab::attribute(model, {1, 2}, {3, 99}, {}), "output word 1 has id 99");
  EXPECT_INPUT_ERROR(lab::attribute(model, {1, 70}, {3}, {}), "source id 70 at position 1");
  EXPECT_INPUT_ERROR(lab::attribute(model, {}, {3}, {}), "the source must have 1 to 256 tokens");
}

}  // namespace
