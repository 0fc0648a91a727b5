// Attribution (seq2seq/attribution.h) against PyTorch autograd (shared/reference/attribution.json
// from tests/reference/gen_attribution.py), its gradient against central finite differences,
// integrated gradients' completeness, Spearman's ρ, and its bad input.
#include <gtest/gtest.h>

#include <cmath>

#include "attribution_reference.h"
#include "expect_input_error.h"
#include "seq2seq/attribution.h"
#include "test_seq2seq_util.h"

namespace {

using nlohmann::json;

const json& reference() {
  static const json j = attrtest::load("attribution.json");
  return j;
}

lab::Seq2SeqModel model_from_case(const json& c) {
  lab::Seq2SeqModel model(s2stest::config_from_json(c.at("config")));
  size_t loaded = 0;
  for (const auto& [name, t] : c.at("params").items()) {
    model.set_param(name, t.at("data").get<std::vector<float>>());
    ++loaded;
  }
  EXPECT_EQ(loaded, model.param_table().size());
  return model;
}

class AttributionReference : public ::testing::TestWithParam<int> {};

TEST_P(AttributionReference, MatchesPyTorchAutograd) {
  const json& c = reference().at("cases").at(GetParam());
  SCOPED_TRACE(c.at("name").get<std::string>());
  lab::Seq2SeqModel model = model_from_case(c);
  attrtest::expect_matches_reference(c, [&](const lab::AttributionOptions& o) {
    return lab::attribute(model, c.at("src"), c.at("target"), o);
  });
}

INSTANTIATE_TEST_SUITE_P(Cases, AttributionReference, ::testing::Range(0, 4));

// The gradient attribution reads (the core's backward into the source embeddings) against
// central differences of the same loss, in float64 arithmetic on float32 perturbations.
TEST(Attribution, SourceEmbeddingGradientMatchesFiniteDifferences) {
  for (int i = 0; i < 4; ++i) {
    const json& c = reference().at("cases").at(i);
    SCOPED_TRACE(c.at("name").get<std::string>());
    lab::Seq2SeqModel model = model_from_case(c);
    attrtest::expect_source_gradient_matches_finite_differences(model, c.at("src"));
  }
}

// Σ_s a[t, s] → f_t(x) − f_t(0) as n grows (the midpoint rule's error falls as 1/n²).
TEST(Attribution, IntegratedGradientsAreComplete) {
  const json& c = reference().at("cases").at(2);  // LSTM, additive score, tanh layer
  lab::Seq2SeqModel model = model_from_case(c);
  lab::AttributionOptions o;
  o.method = lab::AttributionMethod::kIntegratedGradients;
  double previous_error = 0.0;
  for (long n : {4L, 64L}) {
    o.steps = n;
    const lab::AttributionResult r = lab::attribute(model, c.at("src"), c.at("target"), o);
    const double worst = attrtest::completeness_error(r);
    if (n == 64) {
      EXPECT_LT(worst, 1e-3) << "relative completeness error at n = 64";
      EXPECT_LT(worst, previous_error) << "more steps, closer to complete";
    }
    previous_error = worst;
  }
}

TEST(Attribution, LeavesTrainingGradientsAlone) {
  const json& c = reference().at("cases").at(0);
  lab::Seq2SeqModel model = model_from_case(c);
  const lab::Batch b = s2stest::make_batch({4, 3}, {3, 2}, 7, 8, 5);
  model.forward_backward(b);
  const std::vector<float> grads = model.grads();
  lab::attribute(model, c.at("src"), c.at("target"), {});
  EXPECT_EQ(model.grads(), grads);
  model.adam_step(1e-2f);  // still a valid step
}

TEST(Attribution, Spearman) {
  EXPECT_NEAR(*lab::spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0, 1e-12);
  EXPECT_NEAR(*lab::spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0, 1e-12);
  // ranks (1.5, 1.5, 3) and (1, 2, 3): ρ = 0.866…
  EXPECT_NEAR(*lab::spearman({5, 5, 7}, {1, 2, 3}), std::sqrt(3.0) / 2.0, 1e-12);
  EXPECT_FALSE(lab::spearman({1, 1, 1}, {1, 2, 3}).has_value());
  EXPECT_FALSE(lab::spearman({1}, {1}).has_value());
}

TEST(Attribution, BadInput) {
  const json& c = reference().at("cases").at(0);
  lab::Seq2SeqModel model = model_from_case(c);
  lab::AttributionOptions o;
  o.method = lab::AttributionMethod::kIntegratedGradients;
  o.steps = 0;
  EXPECT_INPUT_ERROR(lab::attribute(model, {1, 2}, {3}, o), "steps must be in [1, 1024] (got 0)");
  o.steps = 1000000;
  EXPECT_INPUT_ERROR(lab::attribute(model, {1, 2}, {3}, o), "(got 1000000)");
  EXPECT_INPUT_ERROR(lab::attribute(model, {1, 2}, {}, {}), "no output word");
  EXPECT_INPUT_ERROR(lab::attribute(model, {1, 2}, {3, 99}, {}), "output word 1 has id 99");
  EXPECT_INPUT_ERROR(lab::attribute(model, {1, 70}, {3}, {}), "source id 70 at position 1");
  EXPECT_INPUT_ERROR(lab::parse_attribution_method("saliency"), "'saliency' is unknown");
}

}  // namespace
