// Generation: the key/value cache gives the numbers of a full recomputation (logits and every
// layer's attention, to 1e-6), past the block size too (nanoGPT's cropping); the sampler's
// temperature, top-k and top-p keep and weigh the tokens they should; a seed reproduces a run;
// each step keeps its candidates and attention.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "expect_input_error.h"
#include "gpt/generate.h"
#include "sampling.h"
#include "test_gpt_util.h"

namespace {

// The last row of a full forward of ids[from, to) (logits (V)), and its attention.
std::vector<float> last_logits(lab::GptModel& model, const std::vector<int32_t>& ids, long from,
                               long to) {
  lab::GptBatch b;
  b.B = 1;
  b.T = to - from;
  b.idx.assign(ids.begin() + from, ids.begin() + to);
  const std::vector<float>& all = model.forward(b);
  const long V = model.config().vocab;
  return {all.end() - V, all.end()};
}

// (layers, heads, d_model, block size)
using CacheCase = std::tuple<long, long, long, long>;
class GptCacheMatches : public ::testing::TestWithParam<CacheCase> {};

TEST_P(GptCacheMatches, CachedStepsEqualTheRecomputedPrefix) {
  const auto [layers, heads, C, block] = GetParam();
  lab::GptModel model(gpttest::tiny_config(layers, heads, C, block, 13, 2));
  gpttest::perturb(model, 8);
  const lab::GptBatch ids = gpttest::random_batch(1, block, 13, 9);
  lab::GptCache cache(model);
  // worst_logit: max |cached − full| / max |full| over a step's logits (float32 sums in another
  // order differ by a few ulp of the largest logit); attention weights are within [0, 1].
  double worst_logit = 0.0, worst_att = 0.0;
  for (long t = 0; t < block; ++t) {
    const std::vector<float> cached = cache.step(ids.idx[t]);
    const std::vector<float> full = last_logits(model, ids.idx, 0, t + 1);
    double scale = 0.0, diff = 0.0;
    for (size_t i = 0; i < full.size(); ++i) {
      scale = std::max(scale, double(std::abs(full[i])));
      diff = std::max(diff, double(std::abs(cached[i] - full[i])));
    }
    worst_logit = std::max(worst_logit, diff / scale);
    for (long l = 0; l < layers; ++l) {
      const std::vector<float>& a = cache.attention(l);  // (H, t + 1)
      ASSERT_EQ(static_cast<long>(a.size()), heads * (t + 1));
      const std::vector<float>& f = model.attention(l);  // (1, H, t + 1, t + 1): row t
      for (long h = 0; h < heads; ++h) {
        for (long m = 0; m <= t; ++m) {
          const float e = f[(h * (t + 1) + t) * (t + 1) + m];
          worst_att = std::max(worst_att, double(std::abs(a[h * (t + 1) + m] - e)));
        }
      }
    }
  }
  std::printf(
      "[ gpt cache l%ld h%ld ] max |cached − recomputed|: logits %.3g (relative to the "
      "largest), attention %.3g\n",
      layers, heads, worst_logit, worst_att);
  EXPECT_LE(worst_logit, 1e-6);
  EXPECT_LE(worst_att, 1e-6);
  EXPECT_EQ(cache.length(), block);
  EXPECT_INPUT_ERROR(cache.step(0), "cache is full");
}

INSTANTIATE_TEST_SUITE_P(Gpt, GptCacheMatches,
                         ::testing::Values(CacheCase{1, 1, 8, 6}, CacheCase{2, 2, 8, 12},
                                           CacheCase{3, 4, 16, 10}, CacheCase{4, 2, 8, 16},
                                           CacheCase{1, 2, 8, 40}));

// Past the block size each token is the argmax of a full forward of the last Tmax tokens.
TEST(GptGenerate, PastTheBlockSizeTheContextIsTheLastBlock) {
  lab::GptModel model(gpttest::tiny_config(2, 2, 8, 6, 13, 4));
  gpttest::perturb(model, 5);
  lab::GenerateOptions o;
  o.sampling.greedy = true;
  o.max_new_tokens = 15;
  const lab::Generation g = lab::generate(model, {3, 1, 4}, o);
  ASSERT_EQ(g.ids.size(), 18u);
  for (long n = 3; n < 18; ++n) {
    const long from = std::max(0L, n - 6);
    const std::vector<float> logits = last_logits(model, g.ids, from, n);
    const long best = std::max_element(logits.begin(), logits.end()) - logits.begin();
    EXPECT_EQ(g.ids[n], best) << "token " << n;
    EXPECT_EQ(g.steps[n - 3].keys, n - from);  // the attention covers the context only
  }
}

TEST(GptGenerate, ASeedReproducesARunAndStepsKeepCandidatesAndAttention) {
  lab::GptModel model(gpttest::tiny_config(2, 2, 8, 16, 13, 4));
  gpttest::perturb(model, 6);
  lab::GenerateOptions o;
  o.max_new_tokens = 12;
  o.seed = 42;
  o.sampling.temperature = 1.5f;
  const lab::Generation a = lab::generate(model, {1, 2}, o);
  const lab::Generation b = lab::generate(model, {1, 2}, o);
  EXPECT_EQ(a.ids, b.ids);
  o.seed = 43;
  EXPECT_NE(lab::generate(model, {1, 2}, o).ids, a.ids);
  ASSERT_EQ(a.steps.size(), 12u);
  for (size_t s = 0; s < a.steps.size(); ++s) {
    const lab::GenerationStep& st = a.steps[s];
    EXPECT_EQ(st.token, a.ids[s + 2]);
    EXPECT_EQ(st.position, static_cast<long>(s + 1));
    ASSERT_EQ(st.top.size(), 5u);
    for (size_t i = 1; i < st.top.size(); ++i) EXPECT_GE(st.top[i - 1].prob, st.top[i].prob);
    EXPECT_GT(st.prob, 0.0f);
    // The attention of every layer and head: (L, H, M), rows of probabilities.
    ASSERT_EQ(st.keys, st.position + 1);
    ASSERT_EQ(static_cast<long>(st.attention.size()), 2 * 2 * st.keys);
    for (long row = 0; row < 4; ++row) {
      double sum = 0.0;
      for (long m = 0; m < st.keys; ++m) sum += st.attention[row * st.keys + m];
      EXPECT_NEAR(sum, 1.0, 1e-5);
    }
  }
}

// Probabilities 0.5, 0.3, 0.15, 0.05 (logits their logs).
std::vector<float> four_logits() {
  return {std::log(0.5f), std::log(0.3f), std::log(0.15f), std::log(0.05f)};
}

std::vector<float> dist_of(const lab::SamplingOptions& o, const std::vector<float>& logits) {
  lab::Rng rng(1);
  lab::SamplerScratch s;
  std::vector<float> dist(logits.size());
  lab::sample_token(dist.data(), s, logits.data(), static_cast<long>(logits.size()), o, rng);
  return dist;
}

void expect_dist(const std::vector<float>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-6) << i;
}

TEST(Sampling, TopKKeepsTheKMostLikely) {
  lab::SamplingOptions o;
  o.top_k = 2;
  expect_dist(dist_of(o, four_logits()), {0.625, 0.375, 0, 0});
  o.top_k = 1;
  expect_dist(dist_of(o, four_logits()), {1, 0, 0, 0});
  o.top_k = 10;  // more than V: every token
  expect_dist(dist_of(o, four_logits()), {0.5, 0.3, 0.15, 0.05});
}

TEST(Sampling, TopPKeepsTheShortestPrefixReachingP) {
  lab::SamplingOptions o;
  o.top_p = 0.7f;  // 0.5 < 0.7 ≤ 0.8
  expect_dist(dist_of(o, four_logits()), {0.625, 0.375, 0, 0});
  o.top_p = 0.5f;  // the first token alone reaches it
  expect_dist(dist_of(o, four_logits()), {1, 0, 0, 0});
  o.top_p = 0.9f;
  expect_dist(dist_of(o, four_logits()), {0.5 / 0.95, 0.3 / 0.95, 0.15 / 0.95, 0});
  o.top_p = 0.6f;  // after top-k 2 the first holds 0.625 of the kept mass: it alone
  o.top_k = 2;
  expect_dist(dist_of(o, four_logits()), {1, 0, 0, 0});
}

TEST(Sampling, TemperatureScalesTheLogits) {
  lab::SamplingOptions o;
  o.temperature = 0.5f;  // q ∝ p², normalised
  const double z = 0.25 + 0.09 + 0.0225 + 0.0025;
  expect_dist(dist_of(o, four_logits()), {0.25 / z, 0.09 / z, 0.0225 / z, 0.0025 / z});
  o.greedy = true;
  expect_dist(dist_of(o, four_logits()), {1, 0, 0, 0});
}

TEST(Sampling, DrawsFollowTheDistribution) {
  lab::SamplingOptions o;
  o.top_k = 3;
  const std::vector<float> logits = four_logits();
  lab::Rng rng(7);
  lab::SamplerScratch s;
  std::vector<float> dist(4);
  std::map<int, int> count;
  const int n = 40000;
  for (int i = 0; i < n; ++i) ++count[lab::sample_token(dist.data(), s, logits.data(), 4, o, rng)];
  EXPECT_EQ(count[3], 0);  // cut by top-k
  EXPECT_NEAR(count[0] / double(n), 0.5 / 0.95, 0.01);
  EXPECT_NEAR(count[1] / double(n), 0.3 / 0.95, 0.01);
  EXPECT_NEAR(count[2] / double(n), 0.15 / 0.95, 0.01);
}

}  // namespace
