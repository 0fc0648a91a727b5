// Finite-difference checks of every parameter group's gradient, for every cell × attention
// variant, on a tiny padded batch; plus the padding semantics the gradients rely on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>

#include "test_seq2seq_util.h"

namespace {

struct Variant {
  const char* name;
  bool attention;
  lab::Score score;
  bool tanh;
};

const Variant kVariants[] = {
    {"plain", false, lab::Score::kDot, false},
    {"dot", true, lab::Score::kDot, false},
    {"scaled", true, lab::Score::kScaled, false},
    {"general", true, lab::Score::kGeneral, false},
    {"additive", true, lab::Score::kAdditive, false},
    {"cosine", true, lab::Score::kCosine, false},
    {"dot_tanh", true, lab::Score::kDot, true},
    {"general_tanh", true, lab::Score::kGeneral, true},
    {"additive_tanh", true, lab::Score::kAdditive, true},
};

lab::Seq2SeqConfig tiny_config(lab::CellKind cell, const Variant& v, uint64_t seed) {
  lab::Seq2SeqConfig c;
  c.cell = cell;
  c.hidden = 4;
  c.embedding = 3;
  c.src_vocab = 5;
  c.tgt_vocab = 6;
  c.attention = v.attention;
  c.score = v.score;
  c.attentional_tanh = v.tanh;
  c.seed = seed;
  return c;
}

using CellCase = std::tuple<lab::CellKind, int>;

constexpr double kNoiseFloor = 2e-5;

class Seq2SeqGradCheck : public ::testing::TestWithParam<CellCase> {};

TEST_P(Seq2SeqGradCheck, EveryParameterGroupMatchesCentralDifferences) {
  const auto [cell, vi] = GetParam();
  lab::Seq2SeqModel model(tiny_config(cell, kVariants[vi], 7));
  // Weights 2× PyTorch's init: with hidden size 4 the default states are so small that the
  // attention is almost uniform and the score weights' gradients sink into float32 noise.
  for (float& x : model.params()) x *= 2.0f;
  // Source lengths 3 and 2 (one padded step), target lengths 3 and 2 (one ignored target).
  const lab::Batch batch = s2stest::make_batch({3, 2}, {3, 2}, 5, 6, 11);
  // the encoder's inputs projected through the vocabulary, the decoder's row by row (model.h)
  ASSERT_EQ(s2stest::input_projection_paths(model.config(), batch), 3);
  model.forward_backward(batch);
  const std::vector<float> analytic = model.grads();
  // Every entry of every group. ‖analytic − numeric‖ < 2e-2 ‖numeric‖, plus the float32 noise
  // floor of the central difference (loss rounding ~1e-7 / 2ε per element, ~1e-5 for a group):
  // a few groups, e.g. the query-side weights of the additive score, only act through a nearly
  // linear tanh and have gradients of that order. PyTorch checks them more tightly
  // (Seq2SeqReference). Every group must get a gradient on this batch.
  labtest::CentralDifferences how;
  how.eps = 1e-2f;
  how.entries = std::numeric_limits<long>::max();
  how.rtol = 2e-2;
  how.noise_floor = kNoiseFloor;
  how.min_gradient = 1e-5;
  lab::Rng pick(99);
  const double worst = labtest::expect_gradients_match_central_differences(
      model, batch, analytic, pick, how, [](const lab::ParamView&) { return true; });
  RecordProperty("worst_error_over_tolerance", std::to_string(worst));
}

INSTANTIATE_TEST_SUITE_P(
    Seq2Seq, Seq2SeqGradCheck,
    ::testing::Combine(::testing::Values(lab::CellKind::kRnn, lab::CellKind::kGru,
                                         lab::CellKind::kLstm),
                       ::testing::Range(0, static_cast<int>(std::size(kVariants)))),
    [](const ::testing::TestParamInfo<CellCase>& info) {
      return std::string(lab::cell_name(std::get<0>(info.param))) + "_" +
             kVariants[std::get<1>(info.param)].name;
    });

// Padding must be invisible: the loss of a padded batch is the token-weighted mean of the
// sequences' own losses, whatever ids sit in the padding.
TEST(Seq2SeqPadding, PaddedBatchEqualsSequencesOnTheirOwn) {
  for (lab::CellKind cell : {lab::CellKind::kRnn, lab::CellKind::kGru, lab::CellKind::kLstm}) {
    lab::Seq2SeqModel model(tiny_config(cell, kVariants[4], 3));
    lab::Batch both = s2stest::make_batch({4, 2}, {2, 4}, 5, 6, 5);
    const float joint = model.loss_only(both);
    double weighted = 0.0;
    for (long b = 0; b < 2; ++b) {
      lab::Batch one;
      one.B = 1;
      one.S = both.src_len[b];
      one.T = both.T;
      one.src.assign(both.src.begin() + b * both.S, both.src.begin() + b * both.S + one.S);
      one.src_len = {both.src_len[b]};
      one.tgt_in.assign(both.tgt_in.begin() + b * both.T, both.tgt_in.begin() + (b + 1) * both.T);
      one.tgt_out.assign(both.tgt_out.begin() + b * both.T,
                         both.tgt_out.begin() + (b + 1) * both.T);
      weighted += model.loss_only(one) * (b == 0 ? 2 : 4);
    }
    EXPECT_NEAR(joint, weighted / 6.0, 1e-5) << lab::cell_name(cell);
    // Garbage in the padded source positions changes nothing.
    both.src[1 * both.S + 3] = 4;
    EXPECT_EQ(model.loss_only(both), joint) << lab::cell_name(cell);
  }
}

}  // namespace
