// The GPT against PyTorch (shared/reference/gpt.json and gpt_interchange.safetensors from
// tests/reference/gen_gpt.py): logits, every layer's attention, loss, every parameter gradient,
// 10 Adam and 10 AdamW steps and a greedy continuation, for 1–4 layers, 1/2/4 heads and contexts
// of 5 to 20 positions, and a batch whose rows end in targets of -1 that the loss ignores; and a
// model trained in PyTorch read from its state-dict file, matched and trained on here, written back
// under the same names; and a model trained in wasm that PyTorch loaded and trained on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "gpt/generate.h"
#include "gpt/interchange.h"
#include "test_gpt_util.h"

namespace {

using nlohmann::json;

constexpr double kRtol = 1e-4;

class GptReference : public ::testing::TestWithParam<int> {};

TEST_P(GptReference, MatchesPyTorch) {
  const json& c = labtest::reference_case("gpt.json", GetParam());
  SCOPED_TRACE(c.at("name").get<std::string>());
  lab::GptModel model(gpttest::config_from_json(c.at("config")));
  labtest::load_reference_params(model, c.at("params"));
  const lab::GptBatch batch = gpttest::batch_from_json(c.at("batch"));

  double worst = labtest::expect_loss_and_grads(model, batch, c, kRtol);
  EXPECT_EQ(c.at("grads").size(), model.param_views().size());

  const std::vector<float> logits = model.forward(batch);
  labtest::expect_close(logits.data(), labtest::doubles(c.at("logits")), kRtol, "logits");
  worst = std::max(worst, labtest::worst_ratio(logits.data(), labtest::doubles(c.at("logits"))));
  for (long l = 0; l < model.config().layers; ++l) {
    const json& a = c.at("attention").at(l);
    ASSERT_EQ(static_cast<long>(model.attention(l).size()),
              lab::shape_numel(a.at("shape").get<std::vector<long>>(), "att"));
    labtest::expect_close(model.attention(l).data(), labtest::doubles(a), kRtol,
                          "attention layer " + std::to_string(l));
    worst = std::max(worst, labtest::worst_ratio(model.attention(l).data(), labtest::doubles(a)));
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", worst);
  RecordProperty("max_relative_error", text);
  std::printf("[ gpt %s ] max relative error (logits, attention, gradients): %s\n",
              c.at("name").get<std::string>().c_str(), text);

  // Greedy continuation with the cache = PyTorch's, recomputing the prefix at every step.
  lab::GenerateOptions g;
  g.sampling.greedy = true;
  const std::vector<int32_t> prompt = c.at("greedy").at("prompt").get<std::vector<int32_t>>();
  const std::vector<int32_t> expected = c.at("greedy").at("ids").get<std::vector<int32_t>>();
  g.max_new_tokens = static_cast<long>(expected.size() - prompt.size());
  EXPECT_EQ(lab::generate(model, prompt, g).ids, expected);

  // 10 Adam steps, then 10 AdamW steps, each from the reference weights and a fresh optimiser.
  // The losses must fall by 0.05 at least, or matching them proves nothing.
  labtest::expect_adam_losses(model, batch, c.at("adam"), kRtol, false, 0.05);
  lab::GptModel fresh(model.config());
  labtest::load_reference_params(fresh, c.at("params"));
  labtest::expect_adam_losses(fresh, batch, c.at("adamw"), kRtol, true, 0.05);
}

INSTANTIATE_TEST_SUITE_P(Gpt, GptReference, labtest::reference_cases("gpt.json"),
                         labtest::ReferenceCaseName{"gpt.json"});

// The reference keeps a case whose targets end rows in -1 (one row in several), as training
// windows do after their poem, so that the parameterised test above checks the ignored targets
// against PyTorch's ignore_index=-1.
TEST(GptReference, HasACaseWithIgnoredTargets) {
  long rows_with_several = 0, ignored = 0;
  for (const json& c : labtest::reference("gpt.json").at("cases")) {
    const lab::GptBatch b = gpttest::batch_from_json(c.at("batch"));
    for (long r = 0; r < b.B; ++r) {
      long n = 0;
      for (long t = 0; t < b.T; ++t) n += b.targets[r * b.T + t] == lab::kGptIgnoreTarget;
      ignored += n;
      rows_with_several += n >= 2;
    }
  }
  EXPECT_GE(ignored, 3);
  EXPECT_GE(rows_with_several, 1);
}

// The model of the file `r.file` gives PyTorch's logits and loss for r's batch, and 5 AdamW steps
// from it give the losses of PyTorch's 5 steps from the same file. heads 0: from the file.
void expect_continues(const json& r, long heads) {
  const std::vector<uint8_t> bytes = labtest::reference_bytes(r.at("file"));
  ASSERT_FALSE(bytes.empty());
  const lab::SafetensorsFile file = lab::read_safetensors(bytes.data(), bytes.size());
  const lab::GptConfig config = lab::gpt_config_of(file, heads);
  EXPECT_EQ(config.vocab, r.at("config").at("vocab"));
  EXPECT_EQ(config.block_size, r.at("config").at("block_size"));
  EXPECT_EQ(config.layers, r.at("config").at("layers"));
  EXPECT_EQ(config.heads, r.at("config").at("heads"));
  EXPECT_EQ(config.d_model, r.at("config").at("d_model"));
  lab::GptModel model(config);
  lab::load_gpt_weights(model, file);
  const lab::GptBatch batch = gpttest::batch_from_json(r.at("batch"));
  const std::vector<float> logits = model.forward(batch);
  labtest::expect_close(logits.data(), labtest::doubles(r.at("logits")), kRtol, "logits");
  EXPECT_NEAR(model.loss_only(batch), r.at("loss").get<double>(),
              kRtol * r.at("loss").get<double>());
  const std::vector<double> losses = r.at("adamw").at("losses").get<std::vector<double>>();
  const lab::AdamOptions o = labtest::adam_from_json(r.at("adamw"), true);
  for (size_t i = 0; i < losses.size(); ++i) {
    EXPECT_NEAR(model.forward_backward(batch), losses[i], kRtol * losses[i]) << "step " << i;
    model.adam_step(o);
  }
}

// PyTorch → here: the state dict PyTorch saved after 20 AdamW steps (its head count given: the
// file has no config metadata).
TEST(GptInterchange, ContinuesAModelTrainedInPyTorch) {
  const json& r = labtest::reference("gpt.json").at("interchange");
  expect_continues(r, r.at("config").at("heads"));
}

// Here → PyTorch: a GPT trained in wasm and saved (tests/reference/export_core_models.mjs), which
// PyTorch loaded with load_state_dict(strict=True) and trained on.
TEST(GptInterchange, PyTorchContinuesAModelTrainedHere) {
  expect_continues(labtest::reference("gpt.json").at("core"), 0);
}

// And any model written here holds exactly the names, shapes and dtype of the file
// PyTorch wrote (so GPT.load_state_dict(strict=True) takes it), with the weights bit for bit,
// and reads back into the same model.
TEST(GptInterchange, WritesTheStateDictPyTorchLoads) {
  const json& r = labtest::reference("gpt.json").at("interchange");
  const std::vector<uint8_t> bytes = labtest::reference_bytes(r.at("file"));
  const lab::SafetensorsFile theirs = lab::read_safetensors(bytes.data(), bytes.size());
  lab::GptModel model(lab::gpt_config_of(theirs, r.at("config").at("heads")));
  lab::load_gpt_weights(model, theirs);
  const lab::GptBatch batch = gpttest::batch_from_json(r.at("batch"));
  model.forward_backward(batch);
  model.adam_step(labtest::adam_from_json(r.at("adamw"), true));  // trained here too

  const std::vector<uint8_t> written = lab::write_gpt_safetensors(model);
  const lab::SafetensorsFile ours = lab::read_safetensors(written.data(), written.size());
  std::vector<std::string> names;
  for (const lab::SafetensorsTensor& t : ours.tensors) {
    names.push_back(t.name);
    const lab::SafetensorsTensor* other = theirs.find(t.name);
    ASSERT_NE(other, nullptr) << t.name;
    EXPECT_EQ(t.tensor.shape, other->tensor.shape) << t.name;
    EXPECT_EQ(t.dtype, "F32");
  }
  std::vector<std::string> expected = r.at("names").get<std::vector<std::string>>();
  std::sort(names.begin(), names.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(names, expected);
  EXPECT_EQ(ours.find("lm_head.weight")->tensor.data,
            ours.find("transformer.wte.weight")->tensor.data);

  // The heads come back from the metadata; the weights bit for bit.
  const lab::GptConfig back = lab::gpt_config_of(ours);
  EXPECT_EQ(back.heads, model.config().heads);
  lab::GptModel again(back);
  lab::load_gpt_weights(again, ours);
  EXPECT_EQ(again.params(), model.params());
}

}  // namespace
