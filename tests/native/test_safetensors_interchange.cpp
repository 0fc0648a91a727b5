// The PyTorch interchange (rnn/interchange.h): the book's model trained in PyTorch loads and
// translates with PyTorch's logits; models trained in wasm and exported give, in PyTorch, the
// logits the core gives (shared/reference/safetensors.json, tests/reference/gen_safetensors.py);
// every architecture round-trips under both state-dict namings; bad metadata is named.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "case_runner.h"
#include "expect_input_error.h"
#include "io/safetensors.h"
#include "rnn/interchange.h"

namespace {

using lab::InterchangeModel;
using lab::StateDictNames;
using nlohmann::json;

InterchangeModel load(const std::vector<uint8_t>& bytes) {
  return InterchangeModel::read(bytes.data(), bytes.size());
}

// |a − e| ≤ 1e-5 for every value; returns the largest difference.
double expect_close(const lab::Tensor& actual, const json& expected, const std::string& what) {
  const lab::Tensor e = labtest::tensor_from_json(expected);
  EXPECT_EQ(actual.shape, e.shape) << what;
  double worst = 0;
  for (long i = 0; i < std::min(actual.size(), e.size()); ++i) {
    worst = std::max(worst, std::fabs(static_cast<double>(actual.data[i]) - e.data[i]));
  }
  EXPECT_LE(worst, 1e-5) << what;
  return worst;
}

void expect_matches_pytorch(InterchangeModel& m, const json& cases, const std::string& file) {
  ASSERT_EQ(cases.size(), 5u);
  double worst = 0;
  for (const json& c : cases) {
    const std::string source = c["source"], target = c["target"];
    const lab::TeacherForced tf = m.teacher_forced(source, target);
    worst = std::max(worst, expect_close(tf.logits, c["logits"], file + " logits: " + source));
    if (c.contains("attention")) expect_close(tf.attention, c["attention"], file + " attention");
    const lab::TranslateResult t = m.translate(source);
    EXPECT_EQ(t.text, c["greedy"].get<std::string>()) << file << ": " << source;
    EXPECT_TRUE(t.finished);
  }
  std::cout << file << ": largest |logit - PyTorch| " << worst << "\n";
}

TEST(SafetensorsInterchange, BookModelTrainedInPyTorchTranslatesWithItsLogits) {
  const json ref = labtest::load_reference("safetensors.json")["book"];
  InterchangeModel m = load(labtest::reference_bytes(ref["file"]));
  EXPECT_EQ(m.names(), StateDictNames::kBook);
  EXPECT_EQ(m.source_vocab().tokens(), ref["src_vocab"].get<std::vector<std::string>>());
  EXPECT_EQ(m.target_vocab().tokens(), ref["tgt_vocab"].get<std::vector<std::string>>());
  EXPECT_EQ(m.target_vocab().find("<pad>"), -1) << "the book's vocabulary has no <pad>";
  EXPECT_EQ(m.source_vocab().unk(), -1);
  EXPECT_NE(m.target_vocab().sos(), 1) << "the fixture must exercise a foreign layout";
  expect_matches_pytorch(m, ref["cases"], ref["file"]);
  for (const json& c : ref["cases"]) EXPECT_EQ(c["greedy"], c["target"]);
  // Beam search works with the file's <sos>/<eos> ids too.
  EXPECT_EQ(m.translate("咖哥 喜欢 小冰", {3, std::nullopt, std::nullopt}).text,
            "KaGe likes XiaoBing");
  // Without <unk>, an unknown word is an error, and so is a control token typed as text.
  EXPECT_INPUT_ERROR(m.translate("咖哥 喜欢 猫"),
                     "'猫' is not in the source vocabulary, which has no <unk> token");
  EXPECT_INPUT_ERROR(m.translate("<eos>"), "'<eos>' is not in the source vocabulary");
  EXPECT_INPUT_ERROR(m.teacher_forced("咖哥", "KaGe purrs"), "'purrs' is not in the target");
}

TEST(SafetensorsInterchange, ModelsTrainedHereGiveTheSameLogitsInPyTorch) {
  const json ref = labtest::load_reference("safetensors.json")["core"];
  ASSERT_GE(ref.size(), 3u) << "run tests/reference/export_core_models.mjs, then the generator";
  for (const json& core : ref) {
    InterchangeModel m = load(labtest::reference_bytes(core["file"]));
    EXPECT_EQ(m.config().to_json_text(),
              InterchangeModel::read(labtest::reference_bytes(core["file"]).data(),
                                     labtest::reference_bytes(core["file"]).size())
                  .config()
                  .to_json_text());
    expect_matches_pytorch(m, core["cases"], core["file"]);
  }
}

struct Arch {
  const char* cell;
  bool attention;
  lab::Score score;
  bool tanh;
};

TEST(SafetensorsInterchange, EveryArchitectureRoundTripsUnderBothNamings) {
  const Arch archs[] = {
      {"rnn", false, lab::Score::kDot, false},  {"rnn", true, lab::Score::kDot, false},
      {"gru", false, lab::Score::kDot, false},  {"gru", true, lab::Score::kGeneral, true},
      {"lstm", false, lab::Score::kDot, false}, {"lstm", true, lab::Score::kAdditive, false},
      {"lstm", true, lab::Score::kScaled, true}};
  for (const Arch& a : archs) {
    lab::SessionConfig c;
    c.task = "note";
    c.cell = lab::parse_cell(a.cell);
    c.hidden = 6;
    c.embedding = 5;
    c.attention = a.attention;
    c.score = a.score;
    c.attentional_tanh = a.tanh;
    c.batch_size = 1;
    lab::Seq2SeqSession session(c);
    session.train(3);
    const lab::TranslateResult expected = session.translate("咖哥 喜欢 小冰");
    for (StateDictNames names : {StateDictNames::kProject, StateDictNames::kBook}) {
      const std::vector<uint8_t> bytes = lab::export_safetensors(session, names);
      InterchangeModel m = load(bytes);
      SCOPED_TRACE(std::string(a.cell) + " " + m.config().to_json_text());
      EXPECT_EQ(m.names(), names);
      EXPECT_EQ(m.model().params(), session.model().params()) << "bit for bit";
      EXPECT_EQ(m.source_vocab().tokens(), session.task().source_vocab().tokens());
      EXPECT_EQ(m.extra_metadata().at(0).second, "note");
      const lab::TranslateResult t = m.translate("咖哥 喜欢 小冰");
      EXPECT_EQ(t.output, expected.output);
      ASSERT_EQ(t.greedy.steps.size(), expected.greedy.steps.size());
      for (size_t i = 0; i < t.greedy.steps.size(); ++i) {
        EXPECT_EQ(t.greedy.steps[i].prob, expected.greedy.steps[i].prob);
        EXPECT_EQ(t.greedy.steps[i].attention, expected.greedy.steps[i].attention);
      }
      // The project's vocabulary has <unk>: an unknown word is flagged, as in the session.
      const lab::TranslateResult u = m.translate("咖哥 喜欢 猫");
      EXPECT_TRUE(u.source[2].unknown);
      EXPECT_EQ(u.source[2].token, "<unk>");
      EXPECT_EQ(m.write(names), bytes) << "writing again gives the same bytes";
      const lab::SafetensorsFile f = lab::read_safetensors(bytes.data(), bytes.size());
      EXPECT_EQ(f.find("decoder.out.weight") != nullptr, names == StateDictNames::kBook);
    }
  }
}

TEST(SafetensorsInterchange, Bfloat16WeightsAreWidenedOnRead) {
  // The book's model with every weight truncated to bfloat16 (its top 16 bits), written by hand.
  const std::vector<uint8_t> bytes = labtest::reference_bytes("book_seq2seq.safetensors");
  const lab::SafetensorsFile f32 = lab::read_safetensors(bytes.data(), bytes.size());
  json header = {{"__metadata__", f32.metadata}};
  std::vector<uint8_t> data;
  for (const lab::SafetensorsTensor& t : f32.tensors) {
    header[t.name] = {{"dtype", "BF16"},
                      {"shape", t.tensor.shape},
                      {"data_offsets", {data.size(), data.size() + 2 * t.tensor.data.size()}}};
    for (float x : t.tensor.data) {
      uint32_t bits;
      std::memcpy(&bits, &x, sizeof bits);
      data.push_back(static_cast<uint8_t>(bits >> 16));
      data.push_back(static_cast<uint8_t>(bits >> 24));
    }
  }
  const std::string text = header.dump();
  std::vector<uint8_t> file;
  for (int i = 0; i < 8; ++i)
    file.push_back(static_cast<uint8_t>(uint64_t{text.size()} >> (8 * i)));
  file.insert(file.end(), text.begin(), text.end());
  file.insert(file.end(), data.begin(), data.end());

  InterchangeModel m = load(file);
  const lab::ParamView& emb = m.model().param("encoder.embedding.weight");
  const float first = f32.find("encoder.embedding.weight")->tensor.data[0];
  uint32_t bits;
  std::memcpy(&bits, &first, sizeof bits);
  EXPECT_EQ(m.model().params()[static_cast<size_t>(emb.offset)],
            lab::bf16_to_f32(static_cast<uint16_t>(bits >> 16)));
  EXPECT_NE(m.model().params()[static_cast<size_t>(emb.offset)], first) << "really truncated";
  // Three significant digits are enough for this model to translate every pair still.
  const json cases = labtest::load_reference("safetensors.json")["book"]["cases"];
  for (const json& c : cases) {
    EXPECT_EQ(m.translate(c["source"].get<std::string>()).text, c["target"].get<std::string>());
  }
}

// The book's file with its metadata or tensors changed, written again.
std::vector<uint8_t> edited(void (*edit)(lab::SafetensorsFile&)) {
  const std::vector<uint8_t> bytes = labtest::reference_bytes("book_seq2seq.safetensors");
  lab::SafetensorsFile f = lab::read_safetensors(bytes.data(), bytes.size());
  edit(f);
  return lab::write_safetensors(f.tensors, f.metadata);
}

TEST(SafetensorsInterchange, MetadataThatDisagreesWithTheTensorsIsNamed) {
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) { f.metadata.erase("config"); })),
                     "__metadata__ has no 'config'");
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) { f.metadata["config"] = "{"; })),
                     "config is not valid JSON");
  EXPECT_INPUT_ERROR(
      load(edited([](lab::SafetensorsFile& f) {
        f.metadata["config"] =
            R"({"arch":"seq2seq","cell":"rnn","hidden":32,"attention":true,"dropout":0})";
      })),
      "unknown key 'dropout'");
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) {
                       f.metadata["config"] = R"({"arch":"transformer","hidden":32})";
                     })),
                     "arch 'transformer'");
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) {
                       f.metadata["config"] =
                           R"({"arch":"seq2seq","cell":"rnn","hidden":16,"attention":true})";
                     })),
                     "tensor 'encoder.embedding.weight' has shape [18, 32], but the config (cell "
                     "rnn, hidden 16, embedding 16, dot attention; src_vocab has 18 tokens");
  EXPECT_INPUT_ERROR(
      load(edited([](lab::SafetensorsFile& f) {
        f.metadata["config"] = R"({"arch":"seq2seq","cell":"gru","hidden":32,"attention":true})";
      })),
      "tensor 'encoder.rnn.weight_ih_l0' has shape [32, 32], but the config (cell gru");
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) {
                       f.metadata["config"] =
                           R"({"arch":"seq2seq","cell":"rnn","hidden":32,"attention":false})";
                     })),
                     "tensor 'decoder.out.weight' has shape [20, 64], but the config");
  // A small file that claims a large model is refused before the model is allocated.
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) {
                       f.metadata["config"] =
                           R"({"arch":"seq2seq","cell":"rnn","hidden":1400,"attention":false})";
                     })),
                     "has shape [18, 32], but the config (cell rnn, hidden 1400");
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) {
                       f.metadata["config"] =
                           R"({"arch":"seq2seq","cell":"rnn","hidden":5000,"attention":true})";
                     })),
                     "hidden size must be in [1, 4096] (got 5000)");
  EXPECT_INPUT_ERROR(
      load(edited([](lab::SafetensorsFile& f) { f.metadata["src_vocab"] = R"(["咖哥","喜欢"])"; })),
      "src_vocab has 2 tokens");
  EXPECT_INPUT_ERROR(
      load(edited([](lab::SafetensorsFile& f) { f.metadata["tgt_vocab"] = R"(["a","a"])"; })),
      "tgt_vocab has 'a' twice");
  EXPECT_INPUT_ERROR(
      load(edited([](lab::SafetensorsFile& f) { f.metadata["src_vocab"] = R"(["咖 哥","b"])"; })),
      "src_vocab token 0 '咖 哥' is not one word");
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) {
                       std::string v = f.metadata["tgt_vocab"];
                       v.replace(v.find("<eos>"), 5, "<end>");
                       f.metadata["tgt_vocab"] = v;
                     })),
                     "tgt_vocab has no '<eos>' token");
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) { f.tensors.pop_back(); })),
                     "the file has no tensor");
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) {
                       f.tensors.push_back({"decoder.attention.w", "F32", lab::Tensor({1}, 0.0f)});
                     })),
                     "tensor 'decoder.attention.w' is not a parameter of this model (cell rnn");
  EXPECT_INPUT_ERROR(load(edited([](lab::SafetensorsFile& f) {
                       f.tensors.push_back({"out.bias", "F32", lab::Tensor({20}, 0.0f)});
                     })),
                     "both out.* and decoder.out.*");
}

}  // namespace
