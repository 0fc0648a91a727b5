// Bad Transformer configurations and batches: each an InputError naming the problem, and the
// model still works afterwards. Plus the warm-up schedule.
#include <gtest/gtest.h>

#include <cmath>

#include "expect_input_error.h"
#include "test_transformer_util.h"

namespace {

lab::TransformerConfig with(void (*edit)(lab::TransformerConfig&)) {
  lab::TransformerConfig c = tftest::tiny_config(1, 2, false);
  edit(c);
  return c;
}

TEST(TransformerInputs, BadConfigurationsNameTheProblem) {
  EXPECT_INPUT_ERROR(lab::TransformerModel(with([](auto& c) { c.heads = 3; })),
                     "must divide the model size dModel");
  EXPECT_INPUT_ERROR(lab::TransformerModel(with([](auto& c) { c.layers = 0; })),
                     "number of layers must be in [1, 6]");
  EXPECT_INPUT_ERROR(lab::TransformerModel(with([](auto& c) { c.layers = 7; })),
                     "number of layers must be in [1, 6]");
  EXPECT_INPUT_ERROR(lab::TransformerModel(with([](auto& c) { c.d_model = 4096; })),
                     "model size dModel");
  EXPECT_INPUT_ERROR(lab::TransformerModel(with([](auto& c) { c.d_ff = 1 << 20; })),
                     "feed-forward size dFF");
  EXPECT_INPUT_ERROR(lab::TransformerModel(with([](auto& c) { c.heads = 0; })), "number of heads");
  EXPECT_INPUT_ERROR(lab::TransformerModel(with([](auto& c) { c.src_vocab = 1; })),
                     "source vocabulary size");
  EXPECT_INPUT_ERROR(lab::TransformerModel(with([](auto& c) { c.tgt_vocab = 1000000; })),
                     "target vocabulary size");
  EXPECT_INPUT_ERROR(lab::TransformerModel(with([](auto& c) {
                       c.layers = 6;
                       c.d_model = 1024;
                       c.d_ff = 4096;
                     })),
                     "over the limit");
}

TEST(TransformerInputs, BadBatchesNameTheProblem) {
  lab::TransformerModel model(tftest::tiny_config(1, 2, false));
  const lab::Batch good = s2stest::make_batch({3, 2}, {3, 2}, 7, 9, 1);
  const float loss = model.loss_only(good);
  lab::Batch b = good;
  b.src_len[1] = 0;
  EXPECT_INPUT_ERROR(model.loss_only(b), "batch.src_len[1] = 0 must be in [1, S = 3]");
  b = good;
  b.tgt_in[1 * b.T] = 0;
  EXPECT_INPUT_ERROR(model.loss_only(b), "batch.tgt_in row 1 starts with padding");
  b = good;
  b.src[2] = 7;
  EXPECT_INPUT_ERROR(model.loss_only(b), "outside the source vocabulary of 7");
  b = good;
  b.tgt_out[0] = 9;
  EXPECT_INPUT_ERROR(model.loss_only(b), "outside the target vocabulary of 9");
  // Longer than the positional table.
  const lab::Batch too_long = s2stest::make_batch({257}, {3}, 7, 9, 1);
  EXPECT_INPUT_ERROR(model.loss_only(too_long), "source length S (the positional table's size)");
  const lab::Batch long_target = s2stest::make_batch({3}, {300}, 7, 9, 1);
  EXPECT_INPUT_ERROR(model.loss_only(long_target), "target length T");
  EXPECT_INPUT_ERROR(model.param("nope"), "has no parameter \"nope\"");
  EXPECT_INPUT_ERROR(model.set_param("out.bias", {1.0f}), "has shape [9]");
  EXPECT_INPUT_ERROR(model.clip_grad_norm(1.0f), "needs the gradients");
  // The model is unharmed.
  EXPECT_EQ(model.loss_only(good), loss);
}

TEST(TransformerSchedule, WarmupRisesLinearlyThenDecaysAsInverseSquareRoot) {
  EXPECT_FLOAT_EQ(lab::warmup_lr(1e-3f, 1, 0), 1e-3f);
  EXPECT_FLOAT_EQ(lab::warmup_lr(1e-3f, 1, 4), 0.25e-3f);
  EXPECT_FLOAT_EQ(lab::warmup_lr(1e-3f, 2, 4), 0.5e-3f);
  EXPECT_FLOAT_EQ(lab::warmup_lr(1e-3f, 4, 4), 1e-3f);
  EXPECT_FLOAT_EQ(lab::warmup_lr(1e-3f, 16, 4), 0.5e-3f);
  EXPECT_INPUT_ERROR(lab::warmup_lr(1e-3f, 0, 4), "counts steps from 1");
  // adam_step uses the schedule: the first warm-up step moves weights less than a plain step.
  lab::TransformerModel a(tftest::tiny_config(1, 2, true, 4)),
      b(tftest::tiny_config(1, 2, true, 4));
  const lab::Batch batch = s2stest::make_batch({3}, {3}, 7, 9, 2);
  const std::vector<float> w0 = a.params();
  lab::AdamOptions o;
  o.lr = 1e-2f;
  a.forward_backward(batch);
  a.adam_step(o);
  b.forward_backward(batch);
  b.adam_step(o, 10);
  double da = 0, db = 0;
  for (size_t i = 0; i < w0.size(); ++i) {
    da = std::max(da, std::abs(static_cast<double>(a.params()[i] - w0[i])));
    db = std::max(db, std::abs(static_cast<double>(b.params()[i] - w0[i])));
  }
  // Adam's first step moves each weight by about lr: 1e-2 without warm-up, 1e-3 at step 1 of 10.
  EXPECT_NEAR(da, 1e-2, 1e-4);
  EXPECT_NEAR(db, 1e-3, 1e-5);
}

}  // namespace
