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

constexpr const char* kConfigKey = "config";
constexpr const char* kSrcVocabKey = "src_vocab";
constexpr const char* kTgtVocabKey = "tgt_vocab";

json parse_config(const std::string& text) {
  try {
    const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
    return json::parse(bytes, bytes + text.size());
  } catch (const json::exception&) {
    throw InputError("__metadata__ config is not valid JSON");
  }
}

TransformerConfig model_config(const TransformerInterchangeConfig& c, long src, long tgt) {
  TransformerConfig m;
  m.layers = c.layers;
  m.heads = c.heads;
  m.d_model = c.d_model;
  m.d_ff = c.d_ff;
  m.norm_first = c.norm_first;
  m.src_vocab = src;
  m.tgt_vocab = tgt;
  return m;
}

std::string describe(const TransformerInterchangeConfig& c) {
  return "transformer, " + std::to_string(c.layers) + " layers, " + std::to_string(c.heads) +
         " heads, dModel " + std::to_string(c.d_model) + ", dFF " + std::to_string(c.d_ff);
}

struct ExpectedTensor {
  std::string name;
  std::vector<long> shape;
};

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
  return t;
}

}  // namespace

// ---- config

TransformerInterchangeConfig TransformerInterchangeConfig::from_json_text(const std::string& text) {
  const json j = parse_config(text);
  if (!j.is_object()) throw InputError("__metadata__ config must be a JSON object");
  static const std::set<std::string> known = {"arch", "layers",    "heads",    "dModel",
                                              "dFF",  "normFirst", "tokenizer"};
  for (const auto& item : j.items()) {
    if (!known.count(item.key())) {
      throw InputError("__metadata__ config has an unknown key '" + item.key().substr(0, 64) +
                       "' (a Transformer's are arch, layers, heads, dModel, dFF, normFirst, "
                       "tokenizer)");
    }
  }
  if (!j.contains("arch") || !j["arch"].is_string() || j["arch"] != "transformer") {
    throw InputError("__metadata__ config arch must be 'transformer' for a Transformer file");
  }
  auto whole = [&](const char* key) -> long {
    if (!j.contains(key)) throw InputError(std::string("__metadata__ config has no '") + key + "'");
    if (!j[key].is_number_integer()) {
      throw InputError(std::string("__metadata__ config '") + key + "' must be a whole number");
    }
    const long long v = j[key].get<long long>();
    if (v < 0 || v > kMaxDim) {
      throw InputError(std::string("__metadata__ config '") + key + "' is out of range (" +
                       std::to_string(v) + ")");
    }
    return static_cast<long>(v);
  };
  TransformerInterchangeConfig c;
  c.layers = whole("layers");
  c.heads = whole("heads");
  c.d_model = whole("dModel");
  c.d_ff = whole("dFF");
  if (j.contains("normFirst")) {
    if (!j["normFirst"].is_boolean()) {
      throw InputError("__metadata__ config 'normFirst' must be true or false");
    }
    c.norm_first = j["normFirst"].get<bool>();
  }
  if (j.contains("tokenizer")) {
    if (!j["tokenizer"].is_string()) {
      throw InputError("__metadata__ config 'tokenizer' must be a string");
    }
    c.tokenizer = parse_tokenizer(j["tokenizer"].get<std::string>());
  }
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
    const json j = parse_config(it->second);
    return j.is_object() && j.contains("arch") && j["arch"] == "transformer";
  } catch (const InputError&) {
    return false;
  }
}

// ---- the model

TransformerInterchange::TransformerInterchange(TransformerInterchangeConfig config, FileVocab src,
                                               FileVocab tgt)
    : config_(config),
      src_(std::move(src)),
      tgt_(std::move(tgt)),
      model_(model_config(config_, src_.size(), tgt_.size())) {}

TransformerInterchange TransformerInterchange::read(const SafetensorsFile& file) {
  for (const char* key : {kConfigKey, kSrcVocabKey, kTgtVocabKey}) {
    if (!file.metadata.count(key)) {
      throw InputError(std::string("safetensors __metadata__ has no '") + key +
                       "': a translator file needs config, src_vocab and tgt_vocab "
                       "(see docs/safetensors.md)");
    }
  }
  const TransformerInterchangeConfig config =
      TransformerInterchangeConfig::from_json_text(file.metadata.at(kConfigKey));
  FileVocab src =
      FileVocab::from_json_text(config.tokenizer, file.metadata.at(kSrcVocabKey), kSrcVocabKey);
  FileVocab tgt =
      FileVocab::from_json_text(config.tokenizer, file.metadata.at(kTgtVocabKey), kTgtVocabKey);
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
  const TransformerConfig model_cfg = model_config(config, src.size(), tgt.size());
  model_cfg.validate();

  const std::vector<ExpectedTensor> expected = expected_tensors(model_cfg);
  std::set<std::string> names;
  for (const ExpectedTensor& e : expected) names.insert(e.name);
  for (const SafetensorsTensor& t : file.tensors) {
    if (!names.count(t.name)) {
      throw InputError("tensor '" + t.name + "' is not a parameter of this model (" +
                       describe(config) + "), whose tensors are " + expected.front().name + ", " +
                       expected[1].name + ", transformer.encoder.layers.0… and out.*");
    }
  }
  for (const ExpectedTensor& e : expected) {
    const SafetensorsTensor* t = file.find(e.name);
    if (!t) {
      throw InputError("the file has no tensor '" + e.name + "', which this model (" +
                       describe(config) + ") needs");
    }
    if (t->tensor.shape != e.shape) {
      throw InputError("tensor '" + e.name + "' has shape " + shape_str(t->tensor.shape) +
                       ", but the config (" + describe(config) + "; src_vocab has " +
                       std::to_string(src.size()) + " tokens, tgt_vocab " +
                       std::to_string(tgt.size()) + ") needs " + shape_str(e.shape));
    }
  }

  // Every tensor is there with its shape: the model is as large as the file.
  TransformerInterchange m(config, std::move(src), std::move(tgt));
  for (const auto& [key, value] : file.metadata) {
    if (key != kConfigKey && key != kSrcVocabKey && key != kTgtVocabKey) {
      m.extra_.push_back({key, value});
    }
  }
  const std::vector<ParamView>& table = m.model_.param_views();
  if (table.size() != expected.size()) {
    throw std::logic_error("transformer interchange: the expected tensors differ from the model's");
  }
  for (size_t i = 0; i < table.size(); ++i) {
    if (table[i].name != expected[i].name || table[i].shape != expected[i].shape) {
      throw std::logic_error(
          "transformer interchange: the expected tensors differ from the model's");
    }
    m.model_.set_param(table[i].name, file.find(table[i].name)->tensor.data);
  }
  return m;
}

TransformerInterchange TransformerInterchange::from_session(const TransformerSession& session) {
  const TransformerSessionConfig& s = session.config();
  TransformerInterchangeConfig c;
  c.layers = s.layers;
  c.heads = s.heads;
  c.d_model = s.d_model;
  c.d_ff = s.d_ff;
  c.norm_first = s.norm_first;
  c.tokenizer = session.task().tokenizer();
  TransformerInterchange m(
      c, FileVocab(c.tokenizer, session.task().source_vocab().tokens(), kSrcVocabKey),
      FileVocab(c.tokenizer, session.task().target_vocab().tokens(), kTgtVocabKey));
  m.model_.params() = session.model().params();
  m.extra_.push_back({"task", session.task().name()});
  return m;
}

std::vector<uint8_t> TransformerInterchange::write() const {
  std::vector<SafetensorsTensor> tensors;
  const std::vector<float>& params = model_.params();
  for (const ParamView& v : model_.param_views()) {
    SafetensorsTensor t;
    t.name = v.name;
    t.dtype = "F32";
    t.tensor = Tensor(
        v.shape, std::vector<float>(params.begin() + v.offset, params.begin() + v.offset + v.size));
    tensors.push_back(std::move(t));
  }
  std::map<std::string, std::string> metadata(extra_.begin(), extra_.end());
  metadata[kConfigKey] = config_.to_json_text();
  metadata[kSrcVocabKey] = src_.to_json_text();
  metadata[kTgtVocabKey] = tgt_.to_json_text();
  return write_safetensors(tensors, metadata);
}

TransformerTranslateResult TransformerInterchange::translate(const std::string& text,
                                                             const TranslateOptions& options) {
  TransformerTranslateResult result;
  result.source = src_.encode(text, "source");
  std::vector<int32_t> ids;
  for (const SourceToken& t : result.source) ids.push_back(t.id);
  DecodeOptions opt;
  opt.sos_id = tgt_.sos();
  opt.eos_id = tgt_.eos();
  opt.top_k = std::min<long>(opt.top_k, tgt_.size());
  if (options.max_length) opt.max_length = *options.max_length;
  if (options.top_k) opt.top_k = *options.top_k;
  if (options.beam) opt.beam_width = *options.beam;
  if (!options.beam) {
    result.greedy = transformer_greedy_decode(model_, ids, opt);
    result.output = result.greedy.result.tokens;
    result.finished = result.greedy.result.finished;
  } else {
    result.beam = transformer_beam_search(model_, ids, opt);
    result.beam_width = opt.beam_width;
    const BeamResult& beam = result.beam.result;
    result.output = beam.tokens;
    result.finished = !beam.hypotheses.empty() && beam.hypotheses.front().finished;
    for (const BeamHypothesis& h : beam.hypotheses) {
      result.hypothesis_texts.push_back(tgt_.decode_text(h.tokens));
    }
  }
  result.text = tgt_.decode_text(result.output);
  return result;
}

TeacherForced TransformerInterchange::teacher_forced(const std::string& source,
                                                     const std::string& target) {
  TeacherForced r;
  for (const SourceToken& t : src_.encode(source, "source")) r.source_ids.push_back(t.id);
  r.target_in.push_back(tgt_.sos());
  for (const SourceToken& t : tgt_.encode(target, "target")) {
    r.target_in.push_back(t.id);
    r.target_out.push_back(t.id);
  }
  r.target_out.push_back(tgt_.eos());
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
