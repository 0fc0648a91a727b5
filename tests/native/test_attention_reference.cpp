// Every intermediate and gradient of shared/reference/attention.json (written by PyTorch, see
// tests/reference/gen_attention.py) against the core, and finite differences for every backward.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "attention/attention.h"
#include "case_runner.h"

using lab::Tensor;
using labtest::CaseResult;
using labtest::Named;
using nlohmann::json;

namespace {

const json& reference_cases() {
  static const json cases = labtest::load_reference("attention.json").at("cases");
  return cases;
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& c : reference_cases()) names.push_back(c.at("name"));
  return names;
}

const json& find_case(const std::string& name) {
  for (const auto& c : reference_cases())
    if (c.at("name") == name) return c;
  throw std::runtime_error("no case " + name);
}

Named inputs_of(const json& c) {
  Named in;
  for (const auto& [k, v] : c.at("inputs").items()) in[k] = labtest::tensor_from_json(v);
  return in;
}

// |a − e| <= rtol · (|e| + max|e|) + 1e-6: relative to each element and to the tensor's scale, so
// values that cancel to ~0 in float64 are judged against the magnitudes they were computed from.
// The 1e-6 floor is float32 rounding of O(1) intermediates; it matters only for gradients that are
// exactly zero in theory (the key bias of self-attention: softmax ignores a shift of all scores).
constexpr double kAbsFloor = 1e-6;

::testing::AssertionResult close_to(const Tensor& actual, const Tensor& expected, double rtol) {
  if (actual.shape != expected.shape) {
    return ::testing::AssertionFailure()
           << "shape " << lab::shape_str(actual.shape) << " vs " << lab::shape_str(expected.shape);
  }
  double scale = 0;
  for (float e : expected.data) scale = std::max(scale, std::fabs(double(e)));
  for (size_t i = 0; i < expected.data.size(); ++i) {
    double a = actual.data[i], e = expected.data[i];
    if (!(std::fabs(a - e) <= rtol * (std::fabs(e) + scale) + kAbsFloor)) {
      return ::testing::AssertionFailure() << "index " << i << ": got " << a << ", PyTorch " << e
                                           << " (rtol " << rtol << ", scale " << scale << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

class Reference : public ::testing::TestWithParam<std::string> {};

TEST_P(Reference, MatchesPyTorch) {
  const json& c = find_case(GetParam());
  const std::string kind = c.at("kind");
  const double rtol = c.at("rtol");
  CaseResult r = labtest::run_case(kind, c.at("config"), inputs_of(c),
                                   labtest::tensor_from_json(c.at("grad_output")));
  for (const auto& [name, expected] : c.at("outputs").items()) {
    ASSERT_TRUE(r.outputs.count(name)) << "core does not return " << name;
    EXPECT_TRUE(close_to(r.outputs[name], labtest::tensor_from_json(expected), rtol))
        << "output " << name;
  }
  for (const auto& [name, expected] : c.at("grads").items()) {
    ASSERT_TRUE(r.grads.count(name)) << "core does not return the gradient of " << name;
    EXPECT_TRUE(close_to(r.grads[name], labtest::tensor_from_json(expected), rtol))
        << "gradient of " << name;
  }
  EXPECT_EQ(r.grads.size(), c.at("grads").size()) << "core returns gradients PyTorch does not";
}

// L = Σ out ⊙ G in double, so the finite difference only suffers float32 rounding of `out`.
double loss_of(const std::string& kind, const json& c, const Named& in, const Tensor& g) {
  CaseResult r = labtest::run_case(kind, c.at("config"), in, g, false);
  const Tensor& out = r.outputs.at(labtest::main_output(kind));
  double s = 0;
  for (size_t i = 0; i < out.data.size(); ++i) s += double(out.data[i]) * g.data[i];
  return s;
}

TEST_P(Reference, BackwardMatchesFiniteDifferences) {
  const json& c = find_case(GetParam());
  const std::string kind = c.at("kind");
  // Saturated softmax (one-hot weights, scores ~2000 with float32 spacing 1e-4) makes central
  // differences meaningless; those cases are covered by the PyTorch gradients above.
  if (GetParam() == "large_magnitude_x50" || GetParam() == "large_offset_scores" ||
      GetParam() == "softmax_offset_2000") {
    GTEST_SKIP() << "ill-conditioned for float32 finite differences";
  }
  Named in = inputs_of(c);
  Tensor g = labtest::tensor_from_json(c.at("grad_output"));
  CaseResult r = labtest::run_case(kind, c.at("config"), in, g);
  const float eps = 1e-2f;
  for (auto& [name, grad] : r.grads) {
    Tensor& x = in.at(name);
    double num2 = 0, diff2 = 0;
    for (size_t i = 0; i < x.data.size(); ++i) {
      const float orig = x.data[i];
      x.data[i] = orig + eps;
      double plus = loss_of(kind, c, in, g);
      x.data[i] = orig - eps;
      double minus = loss_of(kind, c, in, g);
      x.data[i] = orig;
      double numeric = (plus - minus) / (2.0 * eps);
      num2 += numeric * numeric;
      diff2 += (numeric - grad.data[i]) * (numeric - grad.data[i]);
    }
    // ‖analytic − numeric‖ <= 1e-2 ‖numeric‖ + 1e-4 √n: float32 rounding of the loss divided by
    // 2·eps is ~1e-5 per element and O(eps²) truncation stays below 1e-2 relative, while a wrong
    // term in a backward pass is O(‖numeric‖), or O(1) where the true gradient is zero (the key
    // bias: softmax ignores a shift of every score in a row).
    double tolerance = 1e-2 * std::sqrt(num2) + 1e-4 * std::sqrt(double(x.data.size()));
    EXPECT_LE(std::sqrt(diff2), tolerance)
        << "gradient of " << name << " differs from finite differences";
  }
}

std::string printable(const ::testing::TestParamInfo<std::string>& info) {
  return info.param;
}

INSTANTIATE_TEST_SUITE_P(Attention, Reference, ::testing::ValuesIn(case_names()), printable);

}  // namespace

namespace {

TEST(AttentionErrors, OverflowingScoresAreAnErrorNotNaN) {
  lab::AttentionInputs in;
  in.query = lab::Tensor({1, 2, 2}, {3e38f, 3e38f, 1.0f, 1.0f});
  in.key = in.query;
  in.value = in.query;
  lab::AttentionConfig cfg;
  cfg.score = lab::Score::kDot;
  try {
    lab::attention_forward(in, cfg);
    FAIL() << "no error for overflowing scores";
  } catch (const lab::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("overflow float32"), std::string::npos) << e.what();
  }
}

TEST(AttentionErrors, ScoresOverflowingToMinusInfinityUnderAMaskAreAnError) {
  // the attention fuzzer's case: general score, causal mask, every kept q·Wk = −inf
  lab::AttentionInputs in;
  in.query = lab::Tensor({1, 2, 2}, {3e38f, 3e38f, 3e38f, 3e38f});
  in.key = lab::Tensor({1, 2, 2}, {-3e38f, -3e38f, -3e38f, -3e38f});
  in.value = in.key;
  in.params.w = lab::Tensor({2, 2}, {1, 0, 0, 1});
  lab::AttentionConfig cfg;
  cfg.score = lab::Score::kGeneral;
  cfg.mask.causal = true;
  try {
    lab::attention_forward(in, cfg);
    FAIL() << "no error for scores that overflowed to -inf";
  } catch (const lab::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("overflow float32"), std::string::npos) << e.what();
  }
}

}  // namespace
