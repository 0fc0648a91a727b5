// Training behaviour of the Seq2Seq model: determinism, configuration and batch checks, gradient
// clipping, and refusal to apply a step that would make the weights NaN/Inf.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "expect_input_error.h"
#include "test_seq2seq_util.h"

namespace {

// Hidden 8, vocabularies 9 and 10, dot-product attention.
lab::Seq2SeqConfig small_config(lab::CellKind cell, uint64_t seed) {
  return s2stest::model_config(cell, 8, 9, 10, true, lab::Score::kDot, false, seed);
}

std::vector<float> train_losses(const lab::Seq2SeqConfig& config, int steps) {
  lab::Seq2SeqModel model(config);
  const lab::Batch batch = s2stest::make_batch({5, 3, 4}, {4, 2, 5}, 9, 10, 1);
  std::vector<float> losses;
  for (int i = 0; i < steps; ++i) {
    losses.push_back(model.forward_backward(batch));
    model.clip_grad_norm(5.0f);
    model.adam_step(1e-2f);
  }
  return losses;
}

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const lab::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Seq2SeqTraining, SameSeedGivesIdenticalRuns) {
  for (lab::CellKind cell : {lab::CellKind::kRnn, lab::CellKind::kGru, lab::CellKind::kLstm}) {
    const std::vector<float> a = train_losses(small_config(cell, 42), 30);
    const std::vector<float> b = train_losses(small_config(cell, 42), 30);
    const std::vector<float> other = train_losses(small_config(cell, 43), 30);
    EXPECT_EQ(a, b) << lab::cell_name(cell);  // bitwise
    EXPECT_NE(a, other) << lab::cell_name(cell);
    EXPECT_LT(a.back(), 0.7f * a.front()) << lab::cell_name(cell) << ": training should learn";
  }
}

TEST(Seq2SeqTraining, ConsumingTheGradientsTrainsTheSameWeights) {
  // A training loop's step zeroes the gradients in Adam's pass, and the next backward then skips
  // clearing them: the same weights as adam_step + a backward that clears, bit for bit.
  for (lab::CellKind cell : {lab::CellKind::kRnn, lab::CellKind::kGru, lab::CellKind::kLstm}) {
    lab::Seq2SeqModel kept(small_config(cell, 8)), spent(small_config(cell, 8));
    const lab::Batch batch = s2stest::make_batch({5, 3, 4}, {4, 2, 5}, 9, 10, 1);
    lab::AdamOptions o;
    o.lr = 1e-2f;
    for (int i = 0; i < 6; ++i) {
      ASSERT_EQ(kept.forward_backward(batch), spent.forward_backward(batch));
      ASSERT_EQ(kept.grads(), spent.grads());
      kept.adam_step(o);
      spent.adam_step_consuming_grads(o);
      ASSERT_EQ(kept.params(), spent.params());
      EXPECT_EQ(spent.grads(), std::vector<float>(spent.grads().size(), 0.0f));
    }
    EXPECT_INPUT_ERROR(spent.adam_step_consuming_grads(o),
                       "adam_step needs the gradients of a forward_backward with a finite loss");
  }
}

TEST(Seq2SeqTraining, InitFollowsPyTorchDefaults) {
  lab::Seq2SeqConfig c = small_config(lab::CellKind::kGru, 1);
  c.hidden = 64;
  c.src_vocab = 500;
  lab::Seq2SeqModel model(c);
  auto stats = [&](const std::string& name) {
    const lab::ParamView& v = model.param(name);
    double sum = 0, sq = 0, mx = 0;
    for (long i = 0; i < v.size; ++i) {
      const double x = model.params()[v.offset + i];
      sum += x, sq += x * x, mx = std::max(mx, std::abs(x));
    }
    return std::make_tuple(sum / v.size, std::sqrt(sq / v.size), mx);
  };
  // Embedding ~ N(0, 1)
  auto [emb_mean, emb_rms, emb_max] = stats("encoder.embedding.weight");
  EXPECT_NEAR(emb_mean, 0.0, 0.02);
  EXPECT_NEAR(emb_rms, 1.0, 0.02);
  // Cell weights ~ U(±1/√64 = ±0.125): rms = bound/√3
  auto [w_mean, w_rms, w_max] = stats("decoder.rnn.weight_hh_l0");
  EXPECT_LE(w_max, 0.125);
  EXPECT_GT(w_max, 0.124);
  EXPECT_NEAR(w_rms, 0.125 / std::sqrt(3.0), 0.002);
  // out: Linear(2·64, V) ~ U(±1/√128)
  auto [o_mean, o_rms, o_max] = stats("out.weight");
  EXPECT_LE(o_max, 1.0 / std::sqrt(128.0));
  EXPECT_GT(o_max, 0.95 / std::sqrt(128.0));
  (void)emb_max, (void)w_mean, (void)o_mean, (void)o_rms;
}

TEST(Seq2SeqTraining, NanOrInfiniteLearningRateIsRefusedAndKeepsWeights) {
  lab::Seq2SeqModel model(small_config(lab::CellKind::kLstm, 3));
  const lab::Batch batch = s2stest::make_batch({3, 2}, {3, 3}, 9, 10, 2);
  model.forward_backward(batch);
  const std::vector<float> before = model.params();
  for (float lr :
       {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), -1e-3f}) {
    EXPECT_NE(error_of([&] { model.adam_step(lr); }).find("learning rate"), std::string::npos);
    EXPECT_EQ(model.params(), before);
    EXPECT_EQ(model.adam_state().step, 0);
  }
  EXPECT_NE(error_of([&] { model.adam_step(1e-3f, 1.0f); }).find("beta1"), std::string::npos);
  model.adam_step(1e-3f);  // a valid step still works afterwards
  EXPECT_NE(model.params(), before);
}

TEST(Seq2SeqTraining, DivergingRunRaisesAndKeepsLastGoodWeights) {
  lab::Seq2SeqModel model(small_config(lab::CellKind::kRnn, 4));
  const lab::Batch batch = s2stest::make_batch({3, 2}, {3, 3}, 9, 10, 2);
  bool raised = false;
  for (int step = 0; step < 10 && !raised; ++step) {
    const std::vector<float> good = model.params();
    try {
      model.forward_backward(batch);
      model.adam_step(3e38f);  // every update is ±3e38: the second overflows to ±inf
    } catch (const lab::NonFiniteError& e) {
      raised = true;
      EXPECT_EQ(model.params(), good) << "a failed step must not touch the weights";
      EXPECT_NE(std::string(e.what()).find("not applied"), std::string::npos) << e.what();
    }
  }
  ASSERT_TRUE(raised);
  for (float x : model.params()) ASSERT_TRUE(std::isfinite(x));
}

TEST(Seq2SeqTraining, NanLossRaisesAndBlocksTheStep) {
  lab::Seq2SeqModel model(small_config(lab::CellKind::kGru, 5));
  const lab::Batch batch = s2stest::make_batch({3, 2}, {3, 3}, 9, 10, 2);
  model.params()[model.param("out.bias").offset] = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> before = model.params();
  EXPECT_THROW(model.forward_backward(batch), lab::NonFiniteError);
  // no valid gradients to apply
  EXPECT_INPUT_ERROR(model.adam_step(1e-3f),
                     "adam_step needs the gradients of a forward_backward with a finite loss");
  EXPECT_INPUT_ERROR(model.clip_grad_norm(1.0f),
                     "clip_grad_norm needs the gradients of a successful forward_backward");
  for (size_t i = 0; i < before.size(); ++i) {
    ASSERT_TRUE(model.params()[i] == before[i] || std::isnan(before[i]));
  }
}

TEST(Seq2SeqTraining, ClipGradNormMatchesTorchSemantics) {
  lab::Seq2SeqModel model(small_config(lab::CellKind::kLstm, 6));
  const lab::Batch batch = s2stest::make_batch({4, 2}, {3, 4}, 9, 10, 3);
  model.forward_backward(batch);
  const double norm = lab::grad_l2_norm(model.grads());
  ASSERT_GT(norm, 0.1);
  // Above the norm: nothing changes, the norm is returned.
  const std::vector<float> g = model.grads();
  EXPECT_FLOAT_EQ(model.clip_grad_norm(static_cast<float>(norm * 2)), static_cast<float>(norm));
  EXPECT_EQ(model.grads(), g);
  // Below: scaled by max_norm / (norm + 1e-6), direction kept.
  EXPECT_FLOAT_EQ(model.clip_grad_norm(0.1f), static_cast<float>(norm));
  EXPECT_NEAR(lab::grad_l2_norm(model.grads()), 0.1, 1e-5);
  const size_t big = std::max_element(g.begin(), g.end()) - g.begin();
  EXPECT_NEAR(model.grads()[big] / g[big], 0.1 / norm, 1e-5);
  EXPECT_INPUT_ERROR(model.clip_grad_norm(0.0f),
                     "gradient clipping max_norm must be a positive finite number (got 0)");
}

TEST(Seq2SeqTraining, ConfigValidationRejectsAbsurdValues) {
  auto with = [](auto edit) {
    lab::Seq2SeqConfig c = small_config(lab::CellKind::kRnn, 0);
    edit(c);
    return error_of([&] { lab::Seq2SeqModel m(c); });
  };
  EXPECT_NE(with([](auto& c) { c.hidden = 0; }).find("hidden size"), std::string::npos);
  EXPECT_NE(with([](auto& c) { c.hidden = 5000; }).find("hidden size"), std::string::npos);
  EXPECT_NE(with([](auto& c) { c.embedding = -1; }).find("embedding"), std::string::npos);
  EXPECT_NE(with([](auto& c) { c.src_vocab = 0; }).find("source vocabulary"), std::string::npos);
  EXPECT_NE(with([](auto& c) { c.tgt_vocab = 200000; }).find("target vocabulary"),
            std::string::npos);
  EXPECT_NE(with([](auto& c) {
              c.attention = false, c.attentional_tanh = true;
            }).find("attentional_tanh needs attention"),
            std::string::npos);
  EXPECT_NE(with([](auto& c) { c.hidden = 4096, c.tgt_vocab = 100000; }).find("parameters"),
            std::string::npos);
  EXPECT_EQ(with([](auto&) {}), "(no error)");
}

TEST(Seq2SeqTraining, BatchValidationNamesTheProblem) {
  lab::Seq2SeqModel model(small_config(lab::CellKind::kRnn, 0));
  lab::Batch b = s2stest::make_batch({3, 2}, {3, 3}, 9, 10, 2);
  lab::Batch bad = b;
  bad.src_len[1] = 0;
  EXPECT_NE(error_of([&] { model.loss_only(bad); }).find("src_len[1]"), std::string::npos);
  bad = b;
  bad.tgt_out[4] = 10;
  EXPECT_NE(error_of([&] { model.loss_only(bad); }).find("tgt_out id 10 at (1, 1)"),
            std::string::npos);
  bad = b;
  bad.src.pop_back();
  EXPECT_NE(error_of([&] { model.loss_only(bad); }).find("batch.src has 5 ids"), std::string::npos);
  EXPECT_NE(error_of([&] { model.set_param("out.weight", {1.0f}); }).find("shape"),
            std::string::npos);
  EXPECT_NE(error_of([&] { model.param("decoder.rnn.weight_ih"); }).find("no parameter"),
            std::string::npos);
}

}  // namespace
