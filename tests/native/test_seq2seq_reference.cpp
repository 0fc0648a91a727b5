// The Seq2Seq model against PyTorch (shared/reference/seq2seq.json from
// tests/reference/gen_seq2seq.py): logits, attention, loss, every parameter gradient, and the
// losses of 10 Adam steps, for RNN / GRU / LSTM × (plain, dot, general+tanh, additive+tanh). Each
// case's encoder projects its inputs through the vocabulary and its decoder row by row.
#include <gtest/gtest.h>

#include "test_seq2seq_util.h"

namespace {

using nlohmann::json;

lab::Seq2SeqModel model_from_case(const json& c) {
  lab::Seq2SeqModel model(s2stest::config_from_json(c.at("config")));
  labtest::load_reference_params(model, c.at("params"));
  return model;
}

class Seq2SeqReference : public ::testing::TestWithParam<int> {};

TEST_P(Seq2SeqReference, MatchesPyTorch) {
  const json& c = labtest::reference_case("seq2seq.json", GetParam());
  SCOPED_TRACE(c.at("name").get<std::string>());
  lab::Seq2SeqModel model = model_from_case(c);
  const lab::Batch batch = s2stest::batch_from_json(c.at("batch"));
  const double rtol = 1e-4;

  labtest::expect_loss_and_grads(model, batch, c, rtol);

  const lab::Seq2SeqOutputs out = model.evaluate(batch);
  EXPECT_EQ(out.logits.shape, c.at("logits").at("shape").get<std::vector<long>>());
  labtest::expect_close(out.logits.ptr(), labtest::doubles(c.at("logits")), rtol, "logits");
  if (c.at("attention").is_null()) {
    EXPECT_TRUE(out.attention.data.empty());
  } else {
    ASSERT_EQ(out.attention.shape, c.at("attention").at("shape").get<std::vector<long>>());
    labtest::expect_close(out.attention.ptr(), labtest::doubles(c.at("attention")), rtol,
                          "attention");
  }

  // 10 Adam steps from the same weights: the optimiser matches torch.optim.Adam.
  labtest::expect_adam_losses(model, batch, c.at("adam"), rtol);
}

// The model projects a cell's embedded input through the vocabulary or row by row, whichever is
// cheaper for the batch (model.h): PyTorch's numbers must check both.
TEST(Seq2SeqReferenceCoverage, CasesTakeBothInputProjections) {
  for (const json& c : labtest::reference("seq2seq.json").at("cases")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    EXPECT_EQ(s2stest::input_projection_paths(s2stest::config_from_json(c.at("config")),
                                              s2stest::batch_from_json(c.at("batch"))),
              3);
  }
}

INSTANTIATE_TEST_SUITE_P(Seq2Seq, Seq2SeqReference, labtest::reference_cases("seq2seq.json"),
                         labtest::ReferenceCaseName{"seq2seq.json"});

}  // namespace
