// What the heads learned (gpt/heads.h) against PyTorch (shared/reference/gpt_heads.json from
// tests/reference/gen_gpt.py): the four detectors' scores per layer × head, with and without heads
// zeroed, and the logits and a greedy continuation with heads zeroed; a hand-made attention
// pattern per detector; a head index out of range refused with the model kept.
#include <gtest/gtest.h>

#include "expect_input_error.h"
#include "gpt/generate.h"
#include "gpt/heads.h"
#include "test_gpt_util.h"

namespace {

using nlohmann::json;

constexpr double kRtol = 1e-4;  // as the other GPT goldens

const json& heads_reference() {
  static const json j = labtest::load_reference("gpt_heads.json").at("heads");
  return j;
}

lab::GptModel reference_model() {
  const json& h = heads_reference();
  lab::GptModel model(gpttest::config_from_json(h.at("config")));
  labtest::load_reference_params(model, h.at("params"));
  return model;
}

lab::GptHeadProbe reference_probe() {
  const json& p = heads_reference().at("probe");
  return {p.at("text").get<std::vector<int32_t>>(), p.at("lineEnd").get<std::vector<int32_t>>(),
          p.at("random").get<std::vector<int32_t>>()};
}

std::vector<lab::GptHeadRef> reference_zeroed() {
  std::vector<lab::GptHeadRef> out;
  for (const json& pair : heads_reference().at("zeroHeads")) out.push_back({pair[0], pair[1]});
  return out;
}

void expect_scores(const lab::GptHeadScores& s, const json& expected) {
  const long LH = s.layers * s.heads;
  for (long d = 0; d < lab::kGptDetectors; ++d) {
    labtest::expect_close(s.scores.data() + d * LH,
                          labtest::doubles(expected.at(lab::kGptDetectorNames[d])), kRtol,
                          lab::kGptDetectorNames[d]);
  }
}

TEST(GptHeads, ScoresMatchPyTorch) {
  lab::GptModel model = reference_model();
  const lab::GptHeadScores s = lab::gpt_head_scores(model, reference_probe());
  expect_scores(s, heads_reference().at("scores"));
  for (long d = 0; d < lab::kGptDetectors; ++d) {
    EXPECT_EQ(s.queries[d], heads_reference().at("queries").at(lab::kGptDetectorNames[d]));
  }
  expect_scores(lab::gpt_head_scores(model, reference_probe(), reference_zeroed()),
                heads_reference().at("zeroedScores"));
}

TEST(GptHeads, ZeroedHeadsLogitsAndGenerationMatchPyTorch) {
  const json& h = heads_reference();
  lab::GptModel model = reference_model();
  lab::GptBatch batch;
  batch.B = 1;
  batch.T = h.at("batch").at("T");
  batch.idx = h.at("batch").at("idx").get<std::vector<int32_t>>();
  const std::vector<uint8_t> mask = lab::gpt_head_mask(model.config(), reference_zeroed());
  labtest::expect_close(model.forward(batch, mask).data(), labtest::doubles(h.at("zeroedLogits")),
                        kRtol, "logits with heads zeroed");
  labtest::expect_close(model.forward(batch).data(), labtest::doubles(h.at("logits")), kRtol,
                        "logits");
  lab::GenerateOptions g;
  g.sampling.greedy = true;
  g.zero_heads = reference_zeroed();
  const std::vector<int32_t> prompt = h.at("zeroedGreedy").at("prompt").get<std::vector<int32_t>>();
  const std::vector<int32_t> expected = h.at("zeroedGreedy").at("ids").get<std::vector<int32_t>>();
  g.max_new_tokens = static_cast<long>(expected.size() - prompt.size());
  EXPECT_EQ(lab::generate(model, prompt, g).ids, expected);
}

// With every query and key projection 0, every score is 0 and each head spreads its weight evenly
// over the positions it may see: every head's score is then the even spread's, computed apart.
TEST(GptHeads, AHeadThatLooksNowhereScoresTheEvenSpread) {
  lab::GptModel model = reference_model();
  const long C = model.config().d_model;
  for (long l = 0; l < model.config().layers; ++l) {
    const std::string name = "transformer.h." + std::to_string(l) + ".attn.c_attn.";
    // the q and k row blocks of c_attn (q; k; v), weight and bias
    float* p = model.params().data();
    std::fill_n(p + model.param(name + "weight").offset, 2 * C * C, 0.0f);
    std::fill_n(p + model.param(name + "bias").offset, 2 * C, 0.0f);
  }
  const lab::GptHeadScores s = lab::gpt_head_scores(model, reference_probe());
  const long LH = s.layers * s.heads;
  for (long d = 0; d < lab::kGptDetectors; ++d) {
    SCOPED_TRACE(lab::kGptDetectorNames[d]);
    EXPECT_GT(s.even[d], 0.0f);
    for (long i = 0; i < LH; ++i) EXPECT_NEAR(s.scores[d * LH + i], s.even[d], 1e-6);
  }
  // and a trained-looking model's even spread is the same: it depends on the probe alone
  const lab::GptHeadScores r = [] {
    lab::GptModel m = reference_model();
    return lab::gpt_head_scores(m, reference_probe());
  }();
  for (long d = 0; d < lab::kGptDetectors; ++d) EXPECT_EQ(r.even[d], s.even[d]);
}

// A pure previous-character pattern: every query puts weight 1 on the character before it.
TEST(GptHeads, PreviousCharacterPatternScoresOneOnItsDetectorOnly) {
  const lab::GptHeadProbe probe = reference_probe();
  const long T = 16, n = static_cast<long>(probe.random.size());
  std::vector<float> att(T * T, 0.0f);
  for (long i = 0; i < T; ++i) att[i * T + (i == 0 ? 0 : i - 1)] = 1.0f;
  const auto mean = [&](const std::vector<lab::GptHeadQuery>& q) {
    double sum = 0;
    lab::gpt_accumulate_scores(&sum, att.data(), 1, T, q);
    return sum / static_cast<double>(q.size());
  };
  for (long start : {0L, 16L}) {
    SCOPED_TRACE(start);
    const auto q = [&](lab::GptDetector d) {
      return lab::gpt_text_queries(d, probe.text, probe.line_end, start, T);
    };
    EXPECT_EQ(mean(q(lab::kPreviousChar)), 1.0);
    EXPECT_EQ(mean(q(lab::kLineBack)), 0.0);
    EXPECT_EQ(mean(q(lab::kLineStart)), 0.0);
  }
  EXPECT_EQ(mean(lab::gpt_induction_queries(n)), 0.0);
  // And an induction pattern (query n + j → j + 1) scores 1 on induction, 0 on previous.
  std::fill(att.begin(), att.end(), 0.0f);
  for (long j = 0; j + 2 <= n; ++j) att[(n + j) * T + j + 1] = 1.0f;
  EXPECT_EQ(mean(lab::gpt_induction_queries(n)), 1.0);
}

// The targets on a text with two lines "ab，cd。" (ids: a b , c d .).
TEST(GptHeads, TargetsFollowTheLines) {
  const std::vector<int32_t> text = {2, 3, 0, 4, 5, 1};
  const std::vector<int32_t> ends = {0, 1};
  const auto back = lab::gpt_text_queries(lab::kLineBack, text, ends, 0, 6);
  // c (column 0 of line 2) → a; d (column 1) → b; 。 (column 2) → ，
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[0].query, 3);
  EXPECT_EQ(back[0].targets, std::vector<long>{0});
  EXPECT_EQ(back[1].targets, std::vector<long>{1});
  EXPECT_EQ(back[2].targets, std::vector<long>{2});
  const auto start = lab::gpt_text_queries(lab::kLineStart, text, ends, 0, 6);
  // ， (column 2 of line 1) → a; 。 (column 2 of line 2) → c and the ， before it
  ASSERT_EQ(start.size(), 2u);
  EXPECT_EQ(start[0].targets, std::vector<long>{0});
  EXPECT_EQ(start[1].targets, (std::vector<long>{3, 2}));
}

TEST(GptHeads, HeadOutOfRangeIsRefusedWithTheKeyAndTheModelKept) {
  lab::GptModel model = reference_model();
  const std::vector<float> before = model.params();
  EXPECT_INPUT_ERROR(lab::gpt_head_scores(model, reference_probe(), {{0, 1}, {0, 4}}),
                     "zeroHeads[1]: head 4 is outside [0, 4)");
  EXPECT_INPUT_ERROR(lab::gpt_head_scores(model, reference_probe(), {{2, 0}}),
                     "zeroHeads[0]: layer 2 is outside [0, 2)");
  lab::GenerateOptions g;
  g.zero_heads = {{-1, 0}};
  EXPECT_INPUT_ERROR(lab::generate(model, {1, 2}, g), "zeroHeads[0]: layer -1");
  EXPECT_EQ(model.params(), before);
}

}  // namespace
