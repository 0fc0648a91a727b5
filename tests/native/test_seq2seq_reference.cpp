// The Seq2Seq model against PyTorch (shared/reference/seq2seq.json from
// tests/reference/gen_seq2seq.py): logits, attention, loss, every parameter gradient, and the
// losses of 10 Adam steps, for RNN / GRU / LSTM × (plain, dot, general+tanh, additive+tanh).
#include <gtest/gtest.h>

#include "test_seq2seq_util.h"

namespace {

using nlohmann::json;

std::vector<double> doubles(const json& t) {
  return t.at("data").get<std::vector<double>>();
}

lab::Seq2SeqModel model_from_case(const json& c) {
  lab::Seq2SeqModel model(s2stest::config_from_json(c.at("config")));
  size_t loaded = 0;
  for (const auto& [name, t] : c.at("params").items()) {
    EXPECT_EQ(model.param(name).shape, t.at("shape").get<std::vector<long>>()) << name;
    model.set_param(name, t.at("data").get<std::vector<float>>());
    ++loaded;
  }
  // Every C++ parameter must come from PyTorch: a leftover would keep its random init.
  EXPECT_EQ(loaded, model.param_table().size());
  return model;
}

class Seq2SeqReference : public ::testing::TestWithParam<int> {};

TEST_P(Seq2SeqReference, MatchesPyTorch) {
  const json& c = s2stest::seq2seq_reference().at("cases").at(GetParam());
  SCOPED_TRACE(c.at("name").get<std::string>());
  lab::Seq2SeqModel model = model_from_case(c);
  const lab::Batch batch = s2stest::batch_from_json(c.at("batch"));
  const double rtol = 1e-4;

  const float loss = model.forward_backward(batch);
  EXPECT_NEAR(loss, c.at("loss").get<double>(), rtol * c.at("loss").get<double>());
  for (const auto& [name, t] : c.at("grads").items()) {
    const lab::ParamView& v = model.param(name);
    s2stest::expect_close(model.grads().data() + v.offset, doubles(t), rtol, "grad " + name);
  }

  const lab::Seq2SeqOutputs out = model.evaluate(batch);
  EXPECT_EQ(out.logits.shape, c.at("logits").at("shape").get<std::vector<long>>());
  s2stest::expect_close(out.logits.ptr(), doubles(c.at("logits")), rtol, "logits");
  if (c.at("attention").is_null()) {
    EXPECT_TRUE(out.attention.data.empty());
  } else {
    ASSERT_EQ(out.attention.shape, c.at("attention").at("shape").get<std::vector<long>>());
    s2stest::expect_close(out.attention.ptr(), doubles(c.at("attention")), rtol, "attention");
  }

  // 10 Adam steps from the same weights: the optimiser matches torch.optim.Adam.
  const json& adam = c.at("adam");
  const std::vector<double> losses = adam.at("losses").get<std::vector<double>>();
  for (size_t i = 0; i < losses.size(); ++i) {
    const float l = model.forward_backward(batch);
    EXPECT_NEAR(l, losses[i], rtol * losses[i]) << "Adam step " << i;
    model.adam_step(adam.at("lr").get<float>(), adam.at("beta1").get<float>(),
                    adam.at("beta2").get<float>(), adam.at("eps").get<float>());
  }
  // The losses must actually move, or matching them would prove nothing about Adam.
  EXPECT_LT(losses.back(), losses.front() - 0.1);
}

INSTANTIATE_TEST_SUITE_P(
    Seq2Seq, Seq2SeqReference,
    ::testing::Range(0, static_cast<int>(s2stest::seq2seq_reference().at("cases").size())),
    [](const ::testing::TestParamInfo<int>& info) {
      return s2stest::seq2seq_reference().at("cases").at(info.param).at("name").get<std::string>();
    });

}  // namespace
