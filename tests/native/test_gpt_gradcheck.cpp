// Finite-difference checks of every parameter group's gradient of the GPT (1–4 layers, 1/2/4
// heads, contexts shorter than and equal to the block size, and with targets of -1 that the loss
// ignores), and the causal mask the gradients rely on: no position's loss depends on a later
// token.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "test_gpt_util.h"

namespace {

// (layers, heads, d_model, block size, T)
using GptShape = std::tuple<long, long, long, long, long>;

// Every group's sampled entries carry a gradient (wte is used by the tied output layer in every
// row) but wpe's rows past T, which are unused; then wpe's rows < T, every one used (some row of
// the batch has a target at every position). Returns the worst error / tolerance.
double expect_gradients_match(lab::GptModel& model, const lab::GptBatch& batch, long T,
                              lab::Rng& pick) {
  model.forward_backward(batch);
  const std::vector<float> analytic = model.grads();
  const double worst = labtest::expect_gradients_match_central_differences(
      model, batch, analytic, pick, labtest::CentralDifferences{},
      [](const lab::ParamView& v) { return v.name != "transformer.wpe.weight"; });
  const lab::ParamView& wpe = model.param("transformer.wpe.weight");
  const labtest::GroupNorms used = labtest::compare_group(
      analytic, wpe.offset, T * model.config().d_model, 24, pick,
      [&](long i) { return labtest::central_difference(model, batch, i, 1e-3f); });
  EXPECT_GT(std::sqrt(used.num2), 1e-4);
  EXPECT_LT(std::sqrt(used.diff2), 1e-2 * std::sqrt(used.num2) + 1e-3) << "wpe rows < T";
  return worst;
}

class GptGradCheck : public ::testing::TestWithParam<GptShape> {};

TEST_P(GptGradCheck, EveryParameterGroupMatchesCentralDifferences) {
  const auto [layers, heads, C, block, T] = GetParam();
  lab::GptModel model(gpttest::tiny_config(layers, heads, C, block, 11, 5));
  gpttest::perturb(model, 17);
  const lab::GptBatch batch = gpttest::random_batch(2, T, 11, 23);
  lab::Rng pick(99);
  const double worst = expect_gradients_match(model, batch, T, pick);
  RecordProperty("worst_error_over_tolerance", std::to_string(worst));
}

INSTANTIATE_TEST_SUITE_P(Gpt, GptGradCheck,
                         ::testing::Values(GptShape{1, 1, 8, 8, 5}, GptShape{2, 2, 8, 6, 6},
                                           GptShape{3, 4, 8, 12, 7}, GptShape{4, 2, 8, 9, 4},
                                           // the causal heads' blocks of 16 queries (mha.cpp)
                                           GptShape{2, 2, 8, 48, 48}, GptShape{1, 2, 8, 40, 37}),
                         [](const ::testing::TestParamInfo<GptShape>& info) {
                           const GptShape& p = info.param;
                           return "l" + std::to_string(std::get<0>(p)) + "_h" +
                                  std::to_string(std::get<1>(p)) + "_t" +
                                  std::to_string(std::get<4>(p)) + "_block" +
                                  std::to_string(std::get<3>(p));
                         });

// Targets of -1 (a training window after its poem has ended) are left out of the mean: the
// gradients match central differences of that loss, and with the same number ignored at the end
// of every row the loss is that of the rows cut before them.
TEST(GptGradCheck, IgnoredTargetsMatchCentralDifferences) {
  const long T = 7, C = 8;
  lab::GptModel model(gpttest::tiny_config(2, 2, C, 8, 11, 5));
  gpttest::perturb(model, 31);
  lab::GptBatch batch = gpttest::random_batch(3, T, 11, 37);
  // row 0 ends in 1 ignored target, row 1 in 4, row 2 in none
  batch.targets[0 * T + 6] = lab::kGptIgnoreTarget;
  for (long t = 3; t < T; ++t) batch.targets[1 * T + t] = lab::kGptIgnoreTarget;
  lab::Rng pick(41);
  expect_gradients_match(model, batch, T, pick);  // row 2 has a target at every position

  // The last 3 targets of every row ignored = the rows cut to their first T − 3 positions.
  lab::GptBatch ignored = gpttest::random_batch(2, T, 11, 43);
  lab::GptBatch cut;
  cut.B = 2;
  cut.T = T - 3;
  for (long r = 0; r < 2; ++r) {
    for (long t = 0; t < T; ++t) {
      if (t < T - 3) {
        cut.idx.push_back(ignored.idx[r * T + t]);
        cut.targets.push_back(ignored.targets[r * T + t]);
      } else {
        ignored.targets[r * T + t] = lab::kGptIgnoreTarget;
      }
    }
  }
  EXPECT_NEAR(model.loss_only(ignored), model.loss_only(cut), 1e-5);
  EXPECT_NE(model.loss_only(ignored), model.loss_only(gpttest::random_batch(2, T, 11, 43)));
}

// Changing the last token changes no logit before it, and changes the last position's.
TEST(GptCausal, NoPositionSeesALaterToken) {
  lab::GptModel model(gpttest::tiny_config(2, 2));
  gpttest::perturb(model, 3);
  lab::GptBatch batch = gpttest::random_batch(1, 6, 11, 4);
  batch.targets.clear();
  const std::vector<float> before = model.forward(batch);
  batch.idx[5] = (batch.idx[5] + 1) % 11;
  const std::vector<float> after = model.forward(batch);
  const long V = 11;
  for (long i = 0; i < 5 * V; ++i) EXPECT_EQ(before[i], after[i]) << i;
  bool changed = false;
  for (long i = 5 * V; i < 6 * V; ++i) changed = changed || before[i] != after[i];
  EXPECT_TRUE(changed);
  // Attention above the diagonal is exactly 0; each row sums to 1.
  for (long l = 0; l < 2; ++l) {
    const std::vector<float>& a = model.attention(l);  // (1, H, T, T)
    for (long h = 0; h < 2; ++h) {
      for (long n = 0; n < 6; ++n) {
        double sum = 0.0;
        for (long m = 0; m < 6; ++m) {
          const float w = a[(h * 6 + n) * 6 + m];
          if (m > n) EXPECT_EQ(w, 0.0f);
          sum += w;
        }
        EXPECT_NEAR(sum, 1.0, 1e-6);
      }
    }
  }
}

}  // namespace
