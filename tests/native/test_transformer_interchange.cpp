// The Transformer's PyTorch interchange (transformer/interchange.h): a model trained in wasm and
// exported gives, in PyTorch's TransformerSeq2Seq (load_state_dict strict), the logits the core
// gives (shared/reference/transformer_note.safetensors and safetensors.json["transformer"],
// tests/reference/gen_safetensors.py); a session round-trips through the format with the same
// translations and bytes; wrong shapes, names, dtypes and metadata are named.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "case_runner.h"
#include "expect_input_error.h"
#include "io/safetensors.h"
#include "session_util.h"
#include "transformer/interchange.h"

namespace {

using lab::TransformerInterchange;
using nlohmann::json;

TransformerInterchange load(const std::vector<uint8_t>& bytes) {
  return TransformerInterchange::read(lab::read_safetensors(bytes.data(), bytes.size()));
}

const json& reference() {
  static const json j = labtest::load_reference("safetensors.json").at("transformer");
  return j;
}

TEST(TransformerInterchange, AModelTrainedHereGivesPyTorchsLogits) {
  const std::vector<uint8_t> bytes = labtest::reference_bytes(reference().at("file"));
  EXPECT_TRUE(lab::is_transformer_interchange(lab::read_safetensors(bytes.data(), bytes.size())));
  TransformerInterchange m = load(bytes);
  ASSERT_EQ(reference().at("cases").size(), 5u);
  double worst = 0;
  for (const json& c : reference().at("cases")) {
    const std::string source = c.at("source"), target = c.at("target");
    const lab::TeacherForced tf = m.teacher_forced(source, target);
    const lab::Tensor e = labtest::tensor_from_json(c.at("logits"));
    ASSERT_EQ(tf.logits.shape, e.shape) << source;
    for (long i = 0; i < e.size(); ++i) {
      worst = std::max(worst, std::fabs(static_cast<double>(tf.logits.data[i]) - e.data[i]));
    }
    EXPECT_EQ(m.translate(source, {}).text, c.at("greedy").get<std::string>()) << source;
  }
  EXPECT_LE(worst, 1e-5);
  std::cout << "transformer: largest |logit - PyTorch| " << worst << "\n";
  EXPECT_EQ(m.write(), bytes);  // read → write gives the file back, byte for byte
}

lab::TransformerSession small_session() {
  lab::TransformerSession s(sessiontest::transformer_session("note", {1, 2, 8, 12}, 5, 0));
  s.train(30);
  return s;
}

TEST(TransformerInterchange, ASessionRoundTripsWithItsTranslations) {
  lab::TransformerSession s = small_session();
  const std::vector<uint8_t> bytes = TransformerInterchange::from_session(s).write();
  TransformerInterchange m = load(bytes);
  EXPECT_EQ(m.config().to_json_text(),
            R"({"arch":"transformer","dFF":12,"dModel":8,"heads":2,"layers":1,"normFirst":false,)"
            R"("tokenizer":"words"})");
  EXPECT_EQ(m.model().params(), s.model().params());
  for (const char* source : {"咖哥 喜欢 小冰", "我 爱 学习 人工智能"}) {
    const lab::TransformerTranslateResult a = s.translate(source), b = m.translate(source, {});
    EXPECT_EQ(a.text, b.text);
    ASSERT_EQ(a.greedy.traces.size(), b.greedy.traces.size());
    for (size_t i = 0; i < a.greedy.traces.size(); ++i) {
      EXPECT_EQ(a.greedy.traces[i].cross, b.greedy.traces[i].cross);
    }
    lab::TranslateOptions beam;
    beam.beam = 3;
    EXPECT_EQ(s.translate(source, beam).hypothesis_texts,
              m.translate(source, beam).hypothesis_texts);
  }
  ASSERT_EQ(m.extra_metadata().size(), 1u);
  EXPECT_EQ(m.extra_metadata()[0].second, "note");
  EXPECT_EQ(m.write(), bytes);
}

std::vector<uint8_t> edited(void (*edit)(lab::SafetensorsFile&)) {
  const std::vector<uint8_t> bytes = TransformerInterchange::from_session(small_session()).write();
  lab::SafetensorsFile f = lab::read_safetensors(bytes.data(), bytes.size());
  edit(f);
  return lab::write_safetensors(f.tensors, f.metadata);
}

lab::SafetensorsTensor* find(lab::SafetensorsFile& f, const std::string& name) {
  for (lab::SafetensorsTensor& t : f.tensors) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

TEST(TransformerInterchange, WrongShapesNamesAndMetadataAreNamed) {
  EXPECT_INPUT_ERROR(
      load(edited([](lab::SafetensorsFile& f) {
        find(f, "transformer.encoder.layers.0.linear1.weight")->tensor.shape = {8, 12};
      })),
      "tensor 'transformer.encoder.layers.0.linear1.weight' has shape [8, 12], but "
      "the config (transformer, 1 layers, 2 heads, dModel 8, dFF 12; src_vocab has 22 "
      "tokens, tgt_vocab 22) needs [12, 8]");
  EXPECT_INPUT_ERROR(
      load(edited([](lab::SafetensorsFile& f) { find(f, "out.bias")->name = "generator.bias"; })),
      "tensor 'generator.bias' is not a parameter of this model (transformer, 1 "
      "layers, 2 heads, dModel 8, dFF 12)");
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) {
                       f.tensors.erase(f.tensors.begin() + static_cast<long>(f.tensors.size()) - 3);
                     })),
                     "the file has no tensor 'transformer.decoder.norm.bias', which this model");
  EXPECT_INPUT_ERROR(
      load(edited([](lab::SafetensorsFile& f) {
        f.metadata["config"] = R"({"arch":"transformer","layers":2,"heads":2,"dModel":8,"dFF":12})";
      })),
      "the file has no tensor 'transformer.encoder.layers.1.self_attn.in_proj_weight'");
  EXPECT_INPUT_ERROR(
      load(edited([](lab::SafetensorsFile& f) {
        f.metadata["config"] =
            R"({"arch":"transformer","layers":1,"heads":2,"dModel":16,"dFF":12})";
      })),
      "tensor 'src_embedding.weight' has shape [22, 8], but the config (transformer, "
      "1 layers, 2 heads, dModel 16");
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) {
                       f.metadata["config"] =
                           R"({"arch":"transformer","layers":1,"heads":3,"dModel":8,"dFF":12})";
                     })),
                     "the number of heads (3) must divide the model size dModel (8)");
  EXPECT_INPUT_ERROR(
      load(edited([](lab::SafetensorsFile& f) {
        f.metadata["config"] =
            R"({"arch":"transformer","layers":1,"heads":2,"dModel":8,"dFF":12,"cell":"rnn"})";
      })),
      "__metadata__ config has an unknown key 'cell'");
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) {
                       f.metadata["config"] = R"({"arch":"transformer","layers":1,"heads":2})";
                     })),
                     "__metadata__ config has no 'dModel'");
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) {
                       std::string& v = f.metadata["src_vocab"];
                       v.replace(v.find("<pad>"), 5, "<nil>");
                     })),
                     "src_vocab must have <pad> at id 0: a Transformer's padding masks are id 0");
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) {
                       std::string& v = f.metadata["tgt_vocab"];
                       v.replace(v.find("<eos>"), 5, "<end>");
                     })),
                     "tgt_vocab has no '<eos>' token");
  EXPECT_INPUT_ERROR(
      load(edited([](lab::SafetensorsFile& f) {
        std::string& v = f.metadata["tgt_vocab"];
        v.replace(v.rfind(']'), 1, ",\"extra\"]");
      })),
      "tensor 'tgt_embedding.weight' has shape [22, 8], but the config (transformer, "
      "1 layers, 2 heads, dModel 8, dFF 12; src_vocab has 22 tokens, tgt_vocab 23) "
      "needs [23, 8]");
}

}  // namespace
