// The Transformer's PyTorch interchange (interchange.h): the config metadata, the tensors checked
// against the config before the model is allocated, and decoding with the file's own ids.
#include "transformer/interchange.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "transformer/decode.h"

namespace lab {

namespace {

using json = nlohmann::json;
using namespace interchange;

std::string describe(const TransformerInterchangeConfig& c) {
  return "transformer, " + std::to_string(c.layers) + " layers, " + std::to_string(c.heads) +
         " heads, dModel " + std::to_string(c.d_model) + ", dFF " + std::to_string(c.d_ff);
}

// transformer/model_params.cpp's table for a config, without allocating the model (a small file
// must not make the reader allocate a large one); compared with the model's own after loading.
std::vector<ExpectedTensor> expected_tensors(const TransformerConfig& c) {
  const long D = c.d_model, F = c.d_ff;
  std::vector<ExpectedTensor> t;
  auto mha = [&](const std::string& pre) {
    t.push_back({pre + ".in_proj_weight", {3 * D, D}});
    t.push_back({pre + ".in_proj_bias", {3 * D}});
    t.push_back({pre + ".out_proj.weight", {D, D}});
    t.push_back({pre + ".out_proj.bias", {D}});
  };
  auto ffn = [&](const std::string& pre) {
    t.push_back({pre + ".linear1.weight", {F, D}});
    t.push_back({pre + ".linear1.bias", {F}});
    t.push_back({pre + ".linear2.weight", {D, F}});
    t.push_back({pre + ".linear2.bias", {D}});
  };
  auto norm = [&](const std::string& pre) {
    t.push_back({pre + ".weight", {D}});
    t.push_back({pre + ".bias", {D}});
  };
  t.push_back({"src_embedding.weight", {c.src_vocab, D}});
  t.push_back({"tgt_embedding.weight", {c.tgt_vocab, D}});
  for (long l = 0; l < c.layers; ++l) {
    const std::string pre = "transformer.encoder.layers." + std::to_string(l);
    mha(pre + ".self_attn");
    ffn(pre);
    norm(pre + ".norm1");
    norm(pre + ".norm2");
  }
  norm("transformer.encoder.norm");
  for (long l = 0; l < c.layers; ++l) {
    const std::string pre = "transformer.decoder.layers." + std::to_string(l);
    mha(pre + ".self_attn");
    mha(pre + ".multihead_attn");
    ffn(pre);
    norm(pre + ".norm1");
    norm(pre + ".norm2");
    norm(pre + ".norm3");
  }
  norm("transformer.decoder.norm");
  t.push_back({"out.weight", {c.tgt_vocab, D}});
  t.push_back({"out.bias", {c.tgt_vocab}});
  for (ExpectedTensor& e : t) e.file_name = e.name;  // PyTorch's names are the model's
  return t;
}

}  // namespace

// ---- config

TransformerInterchangeConfig TransformerInterchangeConfig::from_json_text(const std::string& text) {
  const json j =
      parse_config(text, {"arch", "layers", "heads", "dModel", "dFF", "normFirst", "tokenizer"},
                   "a Transformer's are arch, layers, heads, dModel, dFF, normFirst, "
                   "tokenizer");
  if (!j.contains("arch") || !j["arch"].is_string() || j["arch"] != "transformer") {
    throw InputError("__metadata__ config arch must be 'transformer' for a Transformer file");
  }
  TransformerInterchangeConfig c;
  c.layers = config_whole(j, "layers", std::nullopt);
  c.heads = config_whole(j, "heads", std::nullopt);
  c.d_model = config_whole(j, "dModel", std::nullopt);
  c.d_ff = config_whole(j, "dFF", std::nullopt);
  c.norm_first = config_bool(j, "normFirst", false);
  c.tokenizer = parse_tokenizer(config_string(j, "tokenizer", "words"));
  return c;
}

std::string TransformerInterchangeConfig::to_json_text() const {
  return json{{"arch", "transformer"},
              {"layers", layers},
              {"heads", heads},
              {"dModel", d_model},
              {"dFF", d_ff},
              {"normFirst", norm_first},
              {"tokenizer", tokenizer_name(tokenizer)}}
      .dump();
}

bool is_transformer_interchange(const SafetensorsFile& file) {
  auto it = file.metadata.find(kConfigKey);
  if (it == file.metadata.end()) return false;
  try {
    const json j = parse_json(it->second, kConfigKey);
    return j.is_object() && j.contains("arch") && j["arch"] == "transformer";
  } catch (const InputError&) {
    return false;
  }
}

// ---- the model

TransformerInterchange::TransformerInterchange(TransformerInterchangeConfig config, FileVocab src,
                                               FileVocab tgt)
    : InterchangeTranslator(config, std::move(src), std::move(tgt),
                            transformer_config<TransformerInterchangeConfig>) {}

TransformerInterchange TransformerInterchange::read(const SafetensorsFile& file) {
  const InterchangeFile contract(file);
  const TransformerInterchangeConfig config =
      TransformerInterchangeConfig::from_json_text(contract.config_text());
  auto [src, tgt] = contract.read_vocabularies(config.tokenizer);
  for (const FileVocab* v : {&src, &tgt}) {
    if (v->find("<pad>") != kPadId) {
      throw InputError(std::string(v == &src ? kSrcVocabKey : kTgtVocabKey) +
                       " must have <pad> at id 0: a Transformer's padding masks are id 0");
    }
  }
  if (tgt.sos() < 0 || tgt.eos() < 0) {
    throw InputError(std::string("tgt_vocab has no '") + (tgt.sos() < 0 ? "<sos>" : "<eos>") +
                     "' token: decoding starts with <sos> and stops at <eos>");
  }
  const TransformerConfig model_cfg = transformer_config(config, src.size(), tgt.size());
  model_cfg.validate();

  const std::vector<ExpectedTensor> expected = expected_tensors(model_cfg);
  contract.check_tensors(
      expected, describe(config),
      expected.front().name + ", " + expected[1].name + ", transformer.encoder.layers.0… and out.*",
      src.size(), tgt.size(), [](const ExpectedTensor&) { return true; });

  // Every tensor is there with its shape: the model is as large as the file.
  TransformerInterchange m(config, std::move(src), std::move(tgt));
  m.load_file(contract, expected);
  return m;
}

TransformerInterchangeConfig TransformerInterchange::file_config(
    const TransformerSession& session) {
  TransformerInterchangeConfig c;
  copy_transformer_sizes(c, session.config());
  return c;
}

std::vector<uint8_t> TransformerInterchange::write() const {
  return write_file([](const std::string& name) { return name; });
}

TeacherForced TransformerInterchange::teacher_forced(const std::string& source,
                                                     const std::string& target) {
  TeacherForced r = teacher_forced_ids(src_, tgt_, source, target);
  const long S = static_cast<long>(r.source_ids.size()), T = static_cast<long>(r.target_in.size());
  if (S > kTransformerMaxLen || T > kTransformerMaxLen) {
    throw InputError("the pair is longer than the Transformer's positional table (" +
                     std::to_string(kTransformerMaxLen) + " positions)");
  }
  Batch batch;
  batch.B = 1;
  batch.S = S;
  batch.T = T;
  batch.src = r.source_ids;
  batch.src_len = {static_cast<int32_t>(S)};
  batch.tgt_in = r.target_in;
  batch.tgt_out = r.target_out;
  TransformerOutputs out = model_.evaluate(batch);
  r.logits = Tensor({T, tgt_.size()}, std::move(out.logits.data));
  return r;
}

}  // namespace lab
