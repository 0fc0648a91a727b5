// Finite-difference checks of every parameter group's gradient (post- and pre-norm, 1 and 2
// layers, 1/2/4 heads) on a tiny padded batch, and the masks the gradients rely on: padding is
// invisible, the decoder is causal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "rng.h"
#include "test_transformer_util.h"

namespace {

// (layers, heads, norm_first)
using TransformerShape = std::tuple<long, long, bool>;

class TransformerGradCheck : public ::testing::TestWithParam<TransformerShape> {};

// LayerNorm gains 1 and biases 0 (PyTorch's init) would leave some gradients degenerate (the
// attention biases' key part is exactly 0 under softmax's shift invariance, nothing to check);
// draw every weight away from its init so each group's gradient is generic.
void perturb_gains_and_biases(lab::TransformerModel& model, uint64_t seed) {
  lab::Rng rng(seed);
  for (const lab::ParamView& v : model.param_views()) {
    const bool norm = v.name.find("norm") != std::string::npos;
    const bool gain = norm && v.name.find(".weight") != std::string::npos;
    const bool bias = v.shape.size() == 1;
    for (long i = 0; i < v.size; ++i) {
      float& x = model.params()[v.offset + i];
      if (gain)
        x = 1.0f + 0.3f * rng.normal();
      else if (bias)
        x = 0.2f * rng.normal();
    }
  }
}

TEST_P(TransformerGradCheck, EveryParameterGroupMatchesCentralDifferences) {
  const auto [layers, heads, norm_first] = GetParam();
  lab::TransformerModel model(tftest::tiny_config(layers, heads, norm_first, 5));
  perturb_gains_and_biases(model, 17);
  // Sources of 4 and 2 tokens (padding in row 1), targets of 3 and 2 (a padded decoder input).
  const lab::Batch batch = s2stest::make_batch({4, 2}, {3, 2}, 7, 9, 23);
  model.forward_backward(batch);
  const std::vector<float> analytic = model.grads();
  lab::Rng pick(99);
  // Rows of the embeddings that no token uses have zero gradient; every other group carries one.
  const double worst = labtest::expect_gradients_match_central_differences(
      model, batch, analytic, pick, labtest::CentralDifferences{},
      [](const lab::ParamView& v) { return v.name.find("embedding") == std::string::npos; });
  RecordProperty("worst_error_over_tolerance", std::to_string(worst));
}

INSTANTIATE_TEST_SUITE_P(
    Transformer, TransformerGradCheck,
    ::testing::Values(TransformerShape{1, 1, false}, TransformerShape{1, 2, true},
                      TransformerShape{2, 2, false}, TransformerShape{2, 4, true},
                      TransformerShape{2, 1, true}, TransformerShape{1, 4, false}),
    [](const ::testing::TestParamInfo<TransformerShape>& info) {
      return std::string(std::get<2>(info.param) ? "pre" : "post") + "_l" +
             std::to_string(std::get<0>(info.param)) + "_h" +
             std::to_string(std::get<1>(info.param));
    });

lab::Batch row(const lab::Batch& both, long b, long S, long T) {
  lab::Batch one;
  one.B = 1;
  one.S = S;
  one.T = T;
  one.src.assign(both.src.begin() + b * both.S, both.src.begin() + b * both.S + S);
  one.src_len = {static_cast<int32_t>(S)};
  one.tgt_in.assign(both.tgt_in.begin() + b * both.T, both.tgt_in.begin() + b * both.T + T);
  one.tgt_out.assign(both.tgt_out.begin() + b * both.T, both.tgt_out.begin() + b * both.T + T);
  return one;
}

// Padding is invisible: every real position's logits equal those of the sequence run on its
// own, unpadded and trimmed to its lengths (source key padding, memory key padding, target key
// padding), and garbage in the padded source positions changes nothing.
TEST(TransformerMasks, PaddedBatchEqualsSequencesOnTheirOwn) {
  for (bool norm_first : {false, true}) {
    lab::TransformerModel model(tftest::tiny_config(2, 2, norm_first, 3));
    perturb_gains_and_biases(model, 4);
    lab::Batch both = s2stest::make_batch({5, 2, 3}, {2, 4, 3}, 7, 9, 8);
    const lab::TransformerOutputs joint = model.evaluate(both);
    const long Vt = 9;
    const int tgt_len[] = {2, 4, 3};
    for (long b = 0; b < 3; ++b) {
      const lab::TransformerOutputs alone =
          model.evaluate(row(both, b, both.src_len[b], tgt_len[b]));
      for (long t = 0; t < tgt_len[b]; ++t) {
        for (long v = 0; v < Vt; ++v) {
          EXPECT_NEAR(alone.logits.data[t * Vt + v], joint.logits.data[(b * both.T + t) * Vt + v],
                      1e-5)
              << "row " << b << " step " << t << (norm_first ? " pre" : " post");
        }
      }
    }
    // Garbage ids in row 1's padded source positions.
    lab::Batch garbage = both;
    garbage.src[1 * both.S + 3] = 6;
    garbage.src[1 * both.S + 4] = 5;
    EXPECT_EQ(model.evaluate(garbage).logits.data, joint.logits.data);
    // A padded key gets exactly zero attention, in the encoder and in the cross-attention.
    for (long l = 0; l < 2; ++l) {
      const lab::Tensor& e = joint.attention.encoder_self[l];  // (B, H, S, S)
      const lab::Tensor& c = joint.attention.cross[l];         // (B, H, T, S)
      for (long h = 0; h < 2; ++h) {
        for (long q = 0; q < 5; ++q) EXPECT_EQ(e.data[((1 * 2 + h) * 5 + q) * 5 + 3], 0.0f);
        for (long q = 0; q < both.T; ++q)
          EXPECT_EQ(c.data[((1 * 2 + h) * both.T + q) * 5 + 2], 0.0f);
      }
    }
  }
}

// The decoder is causal: changing the input at step t changes no logits before t, and the
// decoder self-attention puts exactly zero weight above the diagonal.
TEST(TransformerMasks, DecoderIsCausal) {
  lab::TransformerModel model(tftest::tiny_config(2, 4, false, 6));
  lab::Batch batch = s2stest::make_batch({4}, {5}, 7, 9, 2);
  const lab::TransformerOutputs before = model.evaluate(batch);
  batch.tgt_in[3] = batch.tgt_in[3] == 4 ? 5 : 4;
  const lab::TransformerOutputs after = model.evaluate(batch);
  const long Vt = 9;
  for (long i = 0; i < 3 * Vt; ++i) EXPECT_EQ(after.logits.data[i], before.logits.data[i]) << i;
  double changed = 0.0;
  for (long i = 3 * Vt; i < 4 * Vt; ++i)
    changed += std::abs(after.logits.data[i] - before.logits.data[i]);
  EXPECT_GT(changed, 1e-4);
  for (const lab::Tensor& a : before.attention.decoder_self) {
    for (long h = 0; h < 4; ++h) {
      for (long q = 0; q < 5; ++q) {
        for (long k = q + 1; k < 5; ++k) EXPECT_EQ(a.data[(h * 5 + q) * 5 + k], 0.0f);
      }
    }
  }
}

}  // namespace
