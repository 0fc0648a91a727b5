// Bad input to the GPT: a clear InputError naming the setting, id or tensor, and the model (its
// weights, gradients and Adam state) unchanged.
#include <gtest/gtest.h>

#include "expect_input_error.h"
#include "gpt/generate.h"
#include "gpt/interchange.h"
#include "test_gpt_util.h"

namespace {

TEST(GptInputs, ConfigurationsThatCannotBeBuilt) {
  lab::GptConfig c = gpttest::tiny_config(2, 3, 8);
  EXPECT_INPUT_ERROR(lab::GptModel{c}, "number of heads (3) must divide the width d_model (8)");
  c = gpttest::tiny_config(0, 2);
  EXPECT_INPUT_ERROR(lab::GptModel{c}, "number of layers");
  c = gpttest::tiny_config(2, 2, 8, 8, 1);
  EXPECT_INPUT_ERROR(lab::GptModel{c}, "vocabulary size");
  c = gpttest::tiny_config(2, 2, 8, 0);
  EXPECT_INPUT_ERROR(lab::GptModel{c}, "block size");
}

// A model with gradients and an Adam step taken, and a way to check nothing moved since.
struct Snapshot {
  std::vector<float> params, grads, m;
  long step;
  explicit Snapshot(const lab::GptModel& model)
      : params(model.params()),
        grads(model.grads()),
        m(model.adam_state().exp_avg),
        step(model.adam_state().step) {}
  void expect_same(const lab::GptModel& model) const {
    EXPECT_EQ(model.params(), params);
    EXPECT_EQ(model.grads(), grads);
    EXPECT_EQ(model.adam_state().exp_avg, m);
    EXPECT_EQ(model.adam_state().step, step);
  }
};

lab::GptModel trained_model() {
  lab::GptModel model(gpttest::tiny_config(2, 2, 8, 8, 11, 3));
  model.forward_backward(gpttest::random_batch(2, 5, 11, 1));
  model.adam_step(lab::AdamOptions{});
  model.forward_backward(gpttest::random_batch(2, 5, 11, 2));
  return model;
}

TEST(GptInputs, BatchesTheModelCannotRead) {
  lab::GptModel model = trained_model();
  const Snapshot before(model);
  lab::GptBatch long_context = gpttest::random_batch(1, 9, 11, 3);
  EXPECT_INPUT_ERROR(model.forward_backward(long_context),
                     "9 positions, more than the model's block size (8 rows of transformer.wpe)");
  lab::GptBatch bad_id = gpttest::random_batch(2, 4, 11, 3);
  bad_id.idx[6] = 11;
  EXPECT_INPUT_ERROR(model.forward_backward(bad_id),
                     "token id 11 at row 1, position 2 is outside the vocabulary [0, 11)");
  bad_id.idx[6] = -3;
  EXPECT_INPUT_ERROR(model.forward(bad_id), "token id -3 at row 1, position 2");
  lab::GptBatch bad_target = gpttest::random_batch(2, 4, 11, 3);
  bad_target.targets[1] = 12;
  EXPECT_INPUT_ERROR(model.loss_only(bad_target), "target id 12 at row 0, position 1");
  lab::GptBatch no_target = gpttest::random_batch(1, 4, 11, 3);
  no_target.targets.assign(4, lab::kGptIgnoreTarget);
  EXPECT_INPUT_ERROR(model.forward_backward(no_target), "no targets");
  lab::GptBatch short_idx = gpttest::random_batch(2, 4, 11, 3);
  short_idx.idx.pop_back();
  EXPECT_INPUT_ERROR(model.forward_backward(short_idx), "idx has 7 ids, not B·T = 8");
  before.expect_same(model);
  // the gradients are still those of the last good batch: a step may follow
  model.adam_step(lab::AdamOptions{});
}

TEST(GptInputs, GenerationSettingsAndPrompts) {
  lab::GptModel model = trained_model();
  const Snapshot before(model);
  lab::GenerateOptions o;
  o.sampling.temperature = 0.0f;
  EXPECT_INPUT_ERROR(lab::generate(model, {1}, o), "temperature must be a finite number > 0");
  o.sampling.temperature = -1.0f;
  EXPECT_INPUT_ERROR(lab::generate(model, {1}, o), "temperature must be a finite number > 0");
  o = {};
  for (float p : {0.0f, -0.1f, 1.5f}) {
    o.sampling.top_p = p;
    EXPECT_INPUT_ERROR(lab::generate(model, {1}, o), "topP must be in (0, 1]");
  }
  o = {};
  o.sampling.top_k = -1;
  EXPECT_INPUT_ERROR(lab::generate(model, {1}, o), "topK must be >= 0");
  o = {};
  o.max_new_tokens = 0;
  EXPECT_INPUT_ERROR(lab::generate(model, {1}, o), "max_new_tokens");
  o = {};
  EXPECT_INPUT_ERROR(lab::generate(model, {}, o), "prompt is empty");
  EXPECT_INPUT_ERROR(lab::generate(model, std::vector<int32_t>(9, 1), o),
                     "the prompt has 9 tokens, more than the model's block size (8)");
  EXPECT_INPUT_ERROR(lab::generate(model, {1, 11}, o),
                     "token id 11 at prompt position 1 is outside the vocabulary [0, 11)");
  before.expect_same(model);
}

TEST(GptInputs, StateDictsWithWrongNamesOrShapes) {
  lab::GptModel source(gpttest::tiny_config(2, 2, 8, 8, 11, 9));
  const std::vector<uint8_t> good = lab::write_gpt_safetensors(source);
  const lab::SafetensorsFile file = lab::read_safetensors(good.data(), good.size());
  lab::GptModel model = trained_model();
  const Snapshot before(model);

  auto edited = [&](auto edit) {
    lab::SafetensorsFile f = file;
    edit(f);
    const std::vector<uint8_t> bytes = lab::write_safetensors(f.tensors, f.metadata);
    return lab::read_safetensors(bytes.data(), bytes.size());
  };
  auto find = [](lab::SafetensorsFile& f, const std::string& name) -> lab::SafetensorsTensor& {
    for (auto& t : f.tensors) {
      if (t.name == name) return t;
    }
    throw std::runtime_error(name);
  };
  // A missing tensor (the last one, so every earlier one could have been copied).
  EXPECT_INPUT_ERROR(
      lab::load_gpt_weights(model, edited([](lab::SafetensorsFile& f) {
                              f.tensors.erase(f.tensors.begin() + f.tensors.size() - 2);
                            })),
      "the file has no tensor transformer.ln_f.bias");
  // A renamed one (PyTorch's nn.Transformer name instead of nanoGPT's).
  EXPECT_INPUT_ERROR(lab::load_gpt_weights(model, edited([&](lab::SafetensorsFile& f) {
                                             find(f, "transformer.h.1.attn.c_attn.weight").name =
                                                 "transformer.h.1.attn.in_proj_weight";
                                           })),
                     "no tensor transformer.h.1.attn.c_attn.weight");
  // An extra one.
  EXPECT_INPUT_ERROR(
      lab::load_gpt_weights(model, edited([&](lab::SafetensorsFile& f) {
                              f.tensors.push_back(find(f, "transformer.h.1.ln_1.bias"));
                              f.tensors.back().name = "transformer.h.2.ln_1.bias";
                            })),
      "a tensor transformer.h.2.ln_1.bias that this GPT does not have");
  // A wrong shape.
  EXPECT_INPUT_ERROR(lab::load_gpt_weights(model, edited([&](lab::SafetensorsFile& f) {
                                             lab::Tensor& t =
                                                 find(f, "transformer.h.0.mlp.c_fc.weight").tensor;
                                             t.shape = {8, 32};
                                           })),
                     "transformer.h.0.mlp.c_fc.weight has shape [8, 32], the model needs [32, 8]");
  // An output layer that is not the embedding.
  EXPECT_INPUT_ERROR(lab::load_gpt_weights(model, edited([&](lab::SafetensorsFile& f) {
                                             find(f, "lm_head.weight").tensor.data[0] += 1.0f;
                                           })),
                     "lm_head.weight differs from transformer.wte.weight");
  before.expect_same(model);
  // Without heads in the metadata, the caller must give them.
  EXPECT_INPUT_ERROR(
      lab::gpt_config_of(edited([](lab::SafetensorsFile& f) { f.metadata.clear(); })),
      "number of heads is not in the file");
  EXPECT_INPUT_ERROR(lab::gpt_config_of(edited([&](lab::SafetensorsFile& f) {
                       find(f, "transformer.wte.weight").name = "wte";
                     })),
                     "the file has no transformer.wte.weight");
  // The good file loads.
  lab::load_gpt_weights(model, file);
  EXPECT_EQ(model.params(), source.params());
}

}  // namespace
