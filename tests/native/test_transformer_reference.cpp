// The Transformer against PyTorch (shared/reference/transformer.json from
// tests/reference/gen_transformer.py): logits, every layer's attention maps, loss, every
// parameter gradient and the losses of 10 Adam steps, for 1 and 2 layers, 1, 2 and 4 heads,
// post- and pre-norm, on a padded batch of 3.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "test_transformer_util.h"

namespace {

using nlohmann::json;

class TransformerReference : public ::testing::TestWithParam<int> {};

TEST_P(TransformerReference, MatchesPyTorch) {
  const json& c = labtest::reference_case("transformer.json", GetParam());
  SCOPED_TRACE(c.at("name").get<std::string>());
  lab::TransformerModel model(tftest::config_from_json(c.at("config")));
  labtest::load_reference_params(model, c.at("params"));
  const lab::Batch batch = s2stest::batch_from_json(c.at("batch"));
  const double rtol = 1e-4;

  // largest relative error of the gradients and logits, for the record
  double worst = labtest::expect_loss_and_grads(model, batch, c, rtol);

  const lab::TransformerOutputs out = model.evaluate(batch);
  EXPECT_EQ(out.logits.shape, c.at("logits").at("shape").get<std::vector<long>>());
  labtest::expect_close(out.logits.ptr(), labtest::doubles(c.at("logits")), rtol, "logits");
  worst = std::max(worst, labtest::worst_ratio(out.logits.ptr(), labtest::doubles(c.at("logits"))));
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", worst);
  RecordProperty("max_relative_error", text);
  const json& att = c.at("attention");
  const std::pair<const char*, const std::vector<lab::Tensor>*> maps[] = {
      {"encoder_self", &out.attention.encoder_self},
      {"decoder_self", &out.attention.decoder_self},
      {"cross", &out.attention.cross}};
  for (const auto& [key, tensors] : maps) {
    ASSERT_EQ(tensors->size(), att.at(key).size()) << key;
    for (size_t l = 0; l < tensors->size(); ++l) {
      const json& e = att.at(key).at(l);
      ASSERT_EQ((*tensors)[l].shape, e.at("shape").get<std::vector<long>>()) << key << l;
      labtest::expect_close((*tensors)[l].ptr(), labtest::doubles(e), rtol,
                            std::string(key) + " layer " + std::to_string(l));
    }
  }

  // 10 Adam steps from the same weights: the optimiser matches torch.optim.Adam.
  labtest::expect_adam_losses(model, batch, c.at("adam"), rtol);
}

INSTANTIATE_TEST_SUITE_P(Transformer, TransformerReference,
                         labtest::reference_cases("transformer.json"),
                         labtest::ReferenceCaseName{"transformer.json"});

// The positional table is the formula of the note's Transformer section, checked independently.
TEST(TransformerPositionalEncoding, SinAtEvenCosAtOddColumns) {
  lab::TransformerModel model(tftest::tiny_config(1, 2, false));
  const std::vector<float>& pe = model.positional_table();
  const long D = 8;
  for (long pos : {0L, 1L, 7L, 255L}) {
    for (long i = 0; i < D / 2; ++i) {
      const double angle = pos / std::pow(10000.0, 2.0 * i / D);
      EXPECT_NEAR(pe[pos * D + 2 * i], std::sin(angle), 1e-6) << pos << " " << i;
      EXPECT_NEAR(pe[pos * D + 2 * i + 1], std::cos(angle), 1e-6) << pos << " " << i;
    }
  }
}

}  // namespace
