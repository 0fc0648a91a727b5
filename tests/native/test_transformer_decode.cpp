// Incremental decoding against full recomputation, greedy = beam width 1, attention traces and
// rollout on hand-checkable cases, decoding errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "expect_input_error.h"
#include "rng.h"
#include "test_transformer_util.h"
#include "transformer/decode.h"

namespace {

// Non-default weights so that attention is far from uniform and every block matters; the
// embeddings N(0, 4), as large as nn.Embedding's N(0, 1) init doubled (the model's own init is
// N(0, 1/Dm)).
void perturb(lab::TransformerModel& model, uint64_t seed) {
  labtest::redraw_params(model, seed, [](const lab::ParamView& v, float x, lab::Rng& rng) {
    const bool gain =
        v.name.find("norm") != std::string::npos && v.name.find(".weight") != std::string::npos;
    if (gain) return 1.0f + 0.3f * rng.normal();
    if (v.shape.size() == 1) return 0.2f * rng.normal();
    if (v.name.find("embedding") != std::string::npos) return 2.0f * rng.normal();
    return x * 2.0f;
  });
}

// (layers, heads, norm_first)
using DecodeCase = std::tuple<long, long, bool>;
class TransformerIncremental : public ::testing::TestWithParam<DecodeCase> {};

// Feeding tokens one at a time against the KV cache gives the logits and attention maps of a
// teacher-forced forward pass over the same prefix.
TEST_P(TransformerIncremental, CachedStepsEqualFullRecomputation) {
  const auto [layers, heads, norm_first] = GetParam();
  lab::TransformerModel model(tftest::tiny_config(layers, heads, norm_first, 11));
  perturb(model, 3);
  const std::vector<int32_t> src = {3, 1, 6, 2, 5};
  const long S = 5, T = 7, Vt = 9, H = heads, L = layers;
  auto memory = lab::transformer_encode(model, src);
  lab::TransformerDecoderState state = lab::transformer_decoder_start(model, memory);
  std::vector<int32_t> inputs = {1};
  std::vector<lab::TransformerStepResult> steps;
  for (long t = 0; t < T; ++t) {
    steps.push_back(lab::transformer_decoder_step(model, state, inputs.back()));
    state = steps.back().state;
    const std::vector<float>& lg = steps.back().logits;
    // greedy choice among real tokens (avoid feeding <pad>)
    inputs.push_back(static_cast<int32_t>(std::max_element(lg.begin() + 1, lg.end()) - lg.begin()));
  }
  lab::Batch full;
  full.B = 1;
  full.S = S;
  full.T = T;
  full.src = src;
  full.src_len = {static_cast<int32_t>(S)};
  full.tgt_in.assign(inputs.begin(), inputs.begin() + T);
  full.tgt_out.assign(T, 0);
  const lab::TransformerOutputs ref = model.evaluate(full);
  // The weights are compared a little more loosely than the logits: one row against the cache is
  // a matrix-vector product, the full pass a matrix-matrix product, summed in another order, and
  // softmax passes the float32 rounding of the scores (up to ~10 here) straight on.
  const double kAttTol = 1e-5;
  double worst = 0.0;
  for (long t = 0; t < T; ++t) {
    for (long v = 0; v < Vt; ++v) {
      const double e = ref.logits.data[t * Vt + v], a = steps[t].logits[v];
      worst = std::max(worst, std::abs(a - e) / (1.0 + std::abs(e)));
      EXPECT_NEAR(a, e, 1e-6 * (1.0 + std::abs(e))) << "step " << t << " token " << v;
    }
    for (long l = 0; l < L; ++l) {
      for (long h = 0; h < H; ++h) {
        for (long j = 0; j <= t; ++j) {
          EXPECT_NEAR(steps[t].trace.self[(l * H + h) * (t + 1) + j],
                      ref.attention.decoder_self[l].data[(h * T + t) * T + j], kAttTol);
        }
        for (long s = 0; s < S; ++s) {
          EXPECT_NEAR(steps[t].trace.cross[(l * H + h) * S + s],
                      ref.attention.cross[l].data[(h * T + t) * S + s], kAttTol);
        }
      }
    }
  }
  for (long l = 0; l < L; ++l) {
    for (long i = 0; i < H * S * S; ++i) {
      EXPECT_NEAR(memory->self_att[l][i], ref.attention.encoder_self[l].data[i], kAttTol);
    }
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", worst);
  RecordProperty("max_logit_relative_difference", text);

  // greedy_decode picks the same tokens (when no real token ties with <pad>'s logit)
  lab::DecodeOptions o;
  o.max_length = T;
  o.eos_id = 0;  // never produced above: every step runs
  const lab::TransformerGreedyResult g = lab::greedy_decode(model, src, o);
  ASSERT_EQ(g.traces.size(), g.result.steps.size());
  for (size_t t = 0; t < g.result.steps.size(); ++t) {
    const std::vector<float>& lg = steps[t].logits;
    EXPECT_EQ(g.result.steps[t].token, std::max_element(lg.begin(), lg.end()) - lg.begin());
    EXPECT_EQ(g.result.steps[t].attention, g.traces[t].rollout_source);
  }
}

INSTANTIATE_TEST_SUITE_P(Transformer, TransformerIncremental,
                         ::testing::Values(DecodeCase{1, 1, false}, DecodeCase{2, 2, false},
                                           DecodeCase{2, 4, true}, DecodeCase{3, 2, true}),
                         [](const ::testing::TestParamInfo<DecodeCase>& info) {
                           return std::string(std::get<2>(info.param) ? "pre" : "post") + "_l" +
                                  std::to_string(std::get<0>(info.param)) + "_h" +
                                  std::to_string(std::get<1>(info.param));
                         });

TEST(TransformerDecode, BeamWidthOneIsGreedyAndWiderBeamsScoreNoWorse) {
  lab::TransformerModel model(tftest::tiny_config(2, 2, true, 21));
  perturb(model, 5);
  const std::vector<int32_t> src = {4, 2, 6};
  lab::DecodeOptions o;
  o.max_length = 6;
  o.length_alpha = 0.0;
  o.beam_width = 1;
  const lab::TransformerGreedyResult g = lab::greedy_decode(model, src, o);
  const lab::TransformerBeamResult b1 = lab::beam_search(model, src, o);
  EXPECT_EQ(b1.result.tokens, g.result.tokens);
  ASSERT_EQ(b1.result.steps.size(), g.result.steps.size());
  for (size_t t = 0; t < g.result.steps.size(); ++t) {
    EXPECT_EQ(b1.result.steps[t][0].token, g.result.steps[t].token);
    EXPECT_EQ(b1.traces[t][0].cross, g.traces[t].cross);
  }
  o.beam_width = 4;
  const lab::TransformerBeamResult b4 = lab::beam_search(model, src, o);
  ASSERT_EQ(b4.traces.size(), b4.result.steps.size());
  for (size_t t = 0; t < b4.traces.size(); ++t) {
    EXPECT_EQ(b4.traces[t].size(), b4.result.steps[t].size());
  }
  // With α = 0 both rank by log-probability: the wider search finds a hypothesis at least as
  // likely when both finish.
  if (g.result.finished && b4.result.hypotheses.front().finished) {
    EXPECT_GE(b4.result.score, b1.result.score - 1e-9);
  }
}

// One layer: the encoder rollout is 0.5·Ā + 0.5·I, and a decoder step's rollout is
// 0.25·Ā_self + 0.25·e_t on the target tokens and 0.5·C̄·R_enc on the source; rows sum to 1.
TEST(TransformerRollout, OneLayerIsHalfAttentionHalfIdentity) {
  lab::TransformerModel model(tftest::tiny_config(1, 2, false, 8));
  perturb(model, 9);
  const std::vector<int32_t> src = {2, 5, 3, 6};
  const long S = 4, H = 2;
  auto mem = lab::transformer_encode(model, src);
  for (long i = 0; i < S; ++i) {
    double sum = 0.0;
    for (long j = 0; j < S; ++j) {
      const double mean = 0.5 * (mem->self_att[0][i * S + j] + mem->self_att[0][(S + i) * S + j]);
      const double expected = 0.5 * mean + (i == j ? 0.5 : 0.0);
      EXPECT_NEAR(mem->rollout[i * S + j], expected, 1e-6);
      sum += mem->rollout[i * S + j];
    }
    EXPECT_NEAR(sum, 1.0, 1e-6);
  }
  lab::TransformerDecoderState st = lab::transformer_decoder_start(model, mem);
  for (int32_t token : {1, 4, 7}) {
    const lab::TransformerStepResult r = lab::transformer_decoder_step(model, st, token);
    const long t = st.t;
    double sum = 0.0;
    for (long j = 0; j <= t; ++j) {
      const double mean = 0.5 * (r.trace.self[j] + r.trace.self[(t + 1) + j]);
      EXPECT_NEAR(r.trace.rollout_target[j], 0.25 * mean + (j == t ? 0.25 : 0.0), 1e-6);
      sum += r.trace.rollout_target[j];
    }
    for (long s = 0; s < S; ++s) {
      double expected = 0.0;
      for (long k = 0; k < S; ++k) {
        const double c = 0.5 * (r.trace.cross[k] + r.trace.cross[S + k]);
        expected += 0.5 * c * mem->rollout[k * S + s];
      }
      EXPECT_NEAR(r.trace.rollout_source[s], expected, 1e-6);
      sum += r.trace.rollout_source[s];
    }
    EXPECT_NEAR(sum, 1.0, 1e-6);
    st = r.state;
  }
  (void)H;
}

// Three layers: the encoder rollout is the product of the layers' Â, every decoder rollout row
// is a distribution.
TEST(TransformerRollout, DeeperRolloutsMultiplyLayersAndStayDistributions) {
  lab::TransformerModel model(tftest::tiny_config(3, 4, true, 12));
  perturb(model, 13);
  const std::vector<int32_t> src = {2, 5, 3};
  const long S = 3, H = 4;
  auto mem = lab::transformer_encode(model, src);
  std::vector<double> R(S * S, 0.0);
  for (long i = 0; i < S; ++i) R[i * S + i] = 1.0;
  for (long l = 0; l < 3; ++l) {
    std::vector<double> hat(S * S), next(S * S, 0.0);
    for (long i = 0; i < S * S; ++i) {
      double mean = 0.0;
      for (long h = 0; h < H; ++h) mean += mem->self_att[l][h * S * S + i] / H;
      hat[i] = 0.5 * mean + (i / S == i % S ? 0.5 : 0.0);
    }
    for (long i = 0; i < S; ++i)
      for (long j = 0; j < S; ++j)
        for (long k = 0; k < S; ++k) next[i * S + j] += hat[i * S + k] * R[k * S + j];
    R = next;
  }
  for (long i = 0; i < S * S; ++i) EXPECT_NEAR(mem->rollout[i], R[i], 1e-6);
  lab::DecodeOptions o;
  o.max_length = 5;
  o.eos_id = 0;
  const lab::TransformerGreedyResult g = lab::greedy_decode(model, src, o);
  for (const lab::TransformerStepTrace& tr : g.traces) {
    double sum = 0.0;
    for (float x : tr.rollout_target) {
      EXPECT_GE(x, 0.0f);
      sum += x;
    }
    for (float x : tr.rollout_source) {
      EXPECT_GE(x, 0.0f);
      sum += x;
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
  }
}

TEST(TransformerDecode, BadInputsNameTheProblem) {
  lab::TransformerModel model(tftest::tiny_config(1, 2, false));
  lab::DecodeOptions o;
  EXPECT_INPUT_ERROR(lab::greedy_decode(model, {}, o), "the source must have 1 to 256");
  EXPECT_INPUT_ERROR(lab::greedy_decode(model, {1, 7}, o), "outside the vocabulary of 7");
  o.max_length = 300;
  EXPECT_INPUT_ERROR(lab::beam_search(model, {1, 2}, o), "maxLength must be at most 256");
  o.max_length = 5;
  o.beam_width = 0;
  EXPECT_INPUT_ERROR(lab::beam_search(model, {1, 2}, o), "beam must be in [1, 64]");
}

}  // namespace
