// Attribution of both translators, the recurrent one (sequence/attribution.h) and the Transformer
// (transformer/attribution.h), against PyTorch autograd (shared/reference/attribution.json from
// tests/reference/gen_attribution.py, transformer_attribution.json from
// gen_transformer_attribution.py); its source-embedding gradient against central finite
// differences, integrated gradients' completeness, Spearman's ρ, and bad input. Each check is
// written once, as a typed test over the two models; what differs between them is in their
// traits (Recurrent, Transformer).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "attribution_reference.h"
#include "expect_input_error.h"
#include "rnn/attribution.h"
#include "test_seq2seq_util.h"
#include "test_transformer_util.h"
#include "transformer/attribution.h"

namespace {

using nlohmann::json;

struct Recurrent {
  using Model = lab::Seq2SeqModel;
  static constexpr const char* kName = "Recurrent";
  static constexpr const char* kReferenceFile = "attribution.json";
  static constexpr int kCases = 4;
  static lab::Seq2SeqConfig config(const json& c) { return s2stest::config_from_json(c); }
  // Completeness: case 2 (LSTM, additive score, tanh layer). The integrand is smooth, so the
  // midpoint rule's error falls as 1/n².
  static std::vector<int> completeness_cases() { return {2}; }
  static std::vector<long> completeness_steps() { return {4, 64}; }
  static constexpr double kCompletenessBound = 1e-3;  // at the last n
};

struct Transformer {
  using Model = lab::TransformerModel;
  static constexpr const char* kName = "Transformer";
  static constexpr const char* kReferenceFile = "transformer_attribution.json";
  static constexpr int kCases = 3;
  static lab::TransformerConfig config(const json& c) { return tftest::config_from_json(c); }
  // Completeness: every case. Slower than for the recurrent translators: the feed-forward ReLUs
  // make the gradient jump along the path, and the error falls about as 1/n (worst relative error
  // of the three cases: 35–54% at n = 4, 0.8–6.4% at 64, 0.03–0.06% at 1024).
  static std::vector<int> completeness_cases() { return {0, 1, 2}; }
  static std::vector<long> completeness_steps() { return {4, 64, 1024}; }
  static constexpr double kCompletenessBound = 2e-3;  // at the last n
};

template <class Kind>
const json& reference() {
  static const json j = labtest::load_reference(Kind::kReferenceFile);
  return j;
}

// The model of reference case i, every parameter PyTorch's.
template <class Kind>
typename Kind::Model model_of_case(int i) {
  const json& c = reference<Kind>().at("cases").at(i);
  typename Kind::Model model(Kind::config(c.at("config")));
  labtest::load_reference_params(model, c.at("params"));
  return model;
}

template <class Kind>
void expect_case_matches_pytorch(int i) {
  const json& c = reference<Kind>().at("cases").at(i);
  SCOPED_TRACE(c.at("name").get<std::string>());
  typename Kind::Model model = model_of_case<Kind>(i);
  attrtest::expect_matches_reference(c, [&](const lab::AttributionOptions& o) {
    return lab::attribute(model, c.at("src"), c.at("target"), o);
  });
}

// One test per reference case (value-parameterised; GoogleTest has no typed value-parameterised
// tests, hence a suite for each model around the one check).
class RecurrentAttributionReference : public ::testing::TestWithParam<int> {};
TEST_P(RecurrentAttributionReference, MatchesPyTorchAutograd) {
  expect_case_matches_pytorch<Recurrent>(GetParam());
}
INSTANTIATE_TEST_SUITE_P(Cases, RecurrentAttributionReference,
                         ::testing::Range(0, Recurrent::kCases));

class TransformerAttributionReference : public ::testing::TestWithParam<int> {};
TEST_P(TransformerAttributionReference, MatchesPyTorchAutograd) {
  expect_case_matches_pytorch<Transformer>(GetParam());
}
INSTANTIATE_TEST_SUITE_P(Cases, TransformerAttributionReference,
                         ::testing::Range(0, Transformer::kCases));

TEST(AttributionReference, HasACaseForEachTest) {
  EXPECT_EQ(reference<Recurrent>().at("cases").size(), static_cast<size_t>(Recurrent::kCases));
  EXPECT_EQ(reference<Transformer>().at("cases").size(), static_cast<size_t>(Transformer::kCases));
}

template <class Kind>
class Attribution : public ::testing::Test {};

struct KindName {
  template <class Kind>
  static std::string GetName(int) {
    return Kind::kName;
  }
};

using Kinds = ::testing::Types<Recurrent, Transformer>;
TYPED_TEST_SUITE(Attribution, Kinds, KindName);

// The gradient attribution reads (the core's backward into the source embeddings) against
// central differences of the same loss, in float64 arithmetic on float32 perturbations.
TYPED_TEST(Attribution, SourceEmbeddingGradientMatchesFiniteDifferences) {
  for (int i = 0; i < TypeParam::kCases; ++i) {
    const json& c = reference<TypeParam>().at("cases").at(i);
    SCOPED_TRACE(c.at("name").get<std::string>());
    typename TypeParam::Model model = model_of_case<TypeParam>(i);
    attrtest::expect_source_gradient_matches_finite_differences(model, c.at("src"));
  }
}

// Σ_s a[t, s] → f_t(x) − f_t(0) as n grows: the error falls with every larger n, and is within
// the model's bound at the last (the rate each model's traits say).
TYPED_TEST(Attribution, IntegratedGradientsAreComplete) {
  const std::vector<long> steps = TypeParam::completeness_steps();
  for (int i : TypeParam::completeness_cases()) {
    const json& c = reference<TypeParam>().at("cases").at(i);
    SCOPED_TRACE(c.at("name").get<std::string>());
    typename TypeParam::Model model = model_of_case<TypeParam>(i);
    lab::AttributionOptions o;
    o.method = lab::AttributionMethod::kIntegratedGradients;
    double previous_error = 0.0;
    for (long n : steps) {
      o.steps = n;
      const lab::AttributionResult r = lab::attribute(model, c.at("src"), c.at("target"), o);
      const double worst = attrtest::completeness_error(r);
      if (n != steps.front()) {
        EXPECT_LT(worst, previous_error) << "more steps, closer to complete: n = " << n;
      }
      if (n == steps.back()) {
        EXPECT_LT(worst, TypeParam::kCompletenessBound)
            << "relative completeness error at n = " << n;
      }
      previous_error = worst;
    }
  }
}

TYPED_TEST(Attribution, LeavesTrainingGradientsAlone) {
  const json& c = reference<TypeParam>().at("cases").at(0);
  typename TypeParam::Model model = model_of_case<TypeParam>(0);
  const lab::Batch b = s2stest::make_batch({4, 3}, {3, 2}, 7, 8, 5);
  model.forward_backward(b);
  const std::vector<float> grads = model.grads();
  lab::attribute(model, c.at("src"), c.at("target"), {});
  EXPECT_EQ(model.grads(), grads);
  lab::AdamOptions adam;
  adam.lr = 1e-2f;
  model.adam_step(adam);  // still a valid step
}

// Case 0 of both files: source vocabulary 9, target vocabulary 8.
TYPED_TEST(Attribution, BadInput) {
  typename TypeParam::Model model = model_of_case<TypeParam>(0);
  lab::AttributionOptions o;
  o.method = lab::AttributionMethod::kIntegratedGradients;
  o.steps = 0;
  EXPECT_INPUT_ERROR(lab::attribute(model, {1, 2}, {3}, o), "steps must be in [1, 1024] (got 0)");
  o.steps = 1000000;
  EXPECT_INPUT_ERROR(lab::attribute(model, {1, 2}, {3}, o), "(got 1000000)");
  EXPECT_INPUT_ERROR(lab::attribute(model, {1, 2}, {}, {}), "no output word");
  EXPECT_INPUT_ERROR(lab::attribute(model, {1, 2}, {3, 99}, {}), "output word 1 has id 99");
  EXPECT_INPUT_ERROR(lab::attribute(model, {1, 70}, {3}, {}), "source id 70 at position 1");
}

TEST(TransformerAttribution, RefusesAnEmptySource) {
  lab::TransformerModel model = model_of_case<Transformer>(0);
  EXPECT_INPUT_ERROR(lab::attribute(model, {}, {3}, {}), "the source must have 1 to 256 tokens");
}

TEST(Attribution, RefusesAnUnknownMethod) {
  EXPECT_INPUT_ERROR(lab::parse_attribution_method("saliency"), "'saliency' is unknown");
}

TEST(Attribution, Spearman) {
  EXPECT_NEAR(*lab::spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0, 1e-12);
  EXPECT_NEAR(*lab::spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0, 1e-12);
  // ranks (1.5, 1.5, 3) and (1, 2, 3): ρ = 0.866…
  EXPECT_NEAR(*lab::spearman({5, 5, 7}, {1, 2, 3}), std::sqrt(3.0) / 2.0, 1e-12);
  EXPECT_FALSE(lab::spearman({1, 1, 1}, {1, 2, 3}).has_value());
  EXPECT_FALSE(lab::spearman({1}, {1}).has_value());
}

}  // namespace
