// The PyTorch interchange (interchange.h): the recurrent model read from and written to a file
// (state-dict names, shapes checked before allocation), and decoding with ids that are the file's
// own. The contract every translator file shares (metadata, vocabularies, the tensor checks) is
// interchange_contract.cpp's.
#include "rnn/interchange.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>

#include "io/safetensors.h"
#include "rnn/decode.h"

namespace lab {

using json = nlohmann::json;

namespace {

using namespace interchange;

// The file's name of a core parameter under `names`.
std::string file_name(const std::string& core_name, StateDictNames names) {
  if (names == StateDictNames::kBook && core_name.rfind("out.", 0) == 0) {
    return "decoder." + core_name;
  }
  return core_name;
}

std::string describe(const InterchangeConfig& c) {
  std::string s = std::string("cell ") + cell_name(c.cell) + ", hidden " +
                  std::to_string(c.hidden) + ", embedding " +
                  std::to_string(c.embedding ? c.embedding : c.hidden);
  if (!c.attention) return s + ", no attention";
  s += std::string(", ") + score_name(c.score) + " attention";
  return c.attentional_tanh ? s + " with the tanh layer" : s;
}

// The model's parameter table (model_params.cpp, build_table) for a config, without allocating
// the model: a small file must not make the reader allocate a large model before its tensors
// have been checked against it. Seq2SeqModel's own table is compared with this after loading.
std::vector<ExpectedTensor> expected_tensors(const Seq2SeqConfig& c, StateDictNames names) {
  const long E = c.embedding_size(), Hd = c.hidden, GH = cell_gate_count(c.cell) * Hd;
  std::vector<ExpectedTensor> t;
  for (const char* side : {"encoder", "decoder"}) {
    const std::string p = side;
    t.push_back({p + ".embedding.weight", {p == "encoder" ? c.src_vocab : c.tgt_vocab, E}});
    t.push_back({p + ".rnn.weight_ih_l0", {GH, E}});
    t.push_back({p + ".rnn.weight_hh_l0", {GH, Hd}});
    t.push_back({p + ".rnn.bias_ih_l0", {GH}});
    t.push_back({p + ".rnn.bias_hh_l0", {GH}});
  }
  if (c.attention && c.score == Score::kGeneral) t.push_back({"attention.w", {Hd, Hd}});
  if (c.attention && c.score == Score::kAdditive) {
    t.push_back({"attention.w1", {Hd, Hd}});
    t.push_back({"attention.w2", {Hd, Hd}});
    t.push_back({"attention.b", {Hd}});
    t.push_back({"attention.v", {Hd}});
  }
  if (c.attentional_tanh) {
    t.push_back({"attn_dense.weight", {Hd, 2 * Hd}});
    t.push_back({"attn_dense.bias", {Hd}});
  }
  const long F = c.attention && !c.attentional_tanh ? 2 * Hd : Hd;  // [dec_out; context] or one
  t.push_back({"out.weight", {c.tgt_vocab, F}});
  t.push_back({"out.bias", {c.tgt_vocab}});
  for (ExpectedTensor& e : t) e.file_name = file_name(e.name, names);
  return t;
}

}  // namespace

// ---- config (interchange_contract.h reads the metadata every translator file shares)

InterchangeConfig InterchangeConfig::from_json_text(const std::string& text) {
  const json j = parse_config(
      text,
      {"arch", "cell", "hidden", "embedding", "attention", "score", "attentionalTanh", "tokenizer"},
      "expected arch, cell, hidden, embedding, attention, score, "
      "attentionalTanh, tokenizer");
  auto string_of = [&](const char* key, const char* fallback) {
    return config_string(j, key, fallback);
  };
  const std::string arch = string_of("arch", nullptr);
  // arch "transformer" is transformer/interchange.h's: a front end asks
  // is_transformer_interchange() first and hands such a file there.
  if (arch != "seq2seq") {
    throw InputError("__metadata__ config arch '" + arch.substr(0, 64) +
                     "' is unknown to the recurrent reader (expected seq2seq; transformer files "
                     "are read by the Transformer's)");
  }
  InterchangeConfig c;
  c.cell = parse_cell(string_of("cell", nullptr).c_str());
  c.hidden = config_whole(j, "hidden", std::nullopt);
  c.embedding = config_whole(j, "embedding", 0L);
  c.attention = config_bool(j, "attention", std::nullopt);
  c.score = parse_score(string_of("score", "dot"));
  c.attentional_tanh = config_bool(j, "attentionalTanh", false);
  c.tokenizer = parse_tokenizer(string_of("tokenizer", "words"));
  // The sizes, and tanh without attention (vocabularies: the smallest; the file's are read later)
  seq2seq_config(c, 2, 2).validate();
  return c;
}

std::string InterchangeConfig::to_json_text() const {
  json j = {{"arch", "seq2seq"},
            {"cell", cell_name(cell)},
            {"hidden", hidden},
            {"embedding", embedding ? embedding : hidden},
            {"attention", attention},
            {"score", score_name(score)},
            {"attentionalTanh", attentional_tanh},
            {"tokenizer", tokenizer_name(tokenizer)}};
  return j.dump();
}

StateDictNames parse_state_dict_names(const std::string& name) {
  if (name == "project") return StateDictNames::kProject;
  if (name == "book") return StateDictNames::kBook;
  throw InputError("unknown state-dict names '" + name +
                   "' (expected project: out.weight, or book: decoder.out.weight)");
}

const char* state_dict_names_name(StateDictNames names) {
  return names == StateDictNames::kBook ? "book" : "project";
}

// ---- the model

InterchangeModel::InterchangeModel(InterchangeConfig config, FileVocab src, FileVocab tgt)
    : InterchangeTranslator(config, std::move(src), std::move(tgt),
                            seq2seq_config<InterchangeConfig>) {
  if (tgt_.sos() < 0 || tgt_.eos() < 0) {
    throw InputError(std::string("tgt_vocab has no '") + (tgt_.sos() < 0 ? "<sos>" : "<eos>") +
                     "' token: decoding starts with <sos> and stops at <eos>");
  }
}

InterchangeModel InterchangeModel::read(const uint8_t* data, size_t size) {
  return read(read_safetensors(data, size));
}

InterchangeModel InterchangeModel::read(const SafetensorsFile& file) {
  const InterchangeFile contract(file);
  const InterchangeConfig config = InterchangeConfig::from_json_text(contract.config_text());
  auto [src, tgt] = contract.read_vocabularies(config.tokenizer);
  const Seq2SeqConfig model_cfg = seq2seq_config(config, src.size(), tgt.size());
  model_cfg.validate();

  const bool book = file.find("decoder.out.weight") || file.find("decoder.out.bias");
  if (book && (file.find("out.weight") || file.find("out.bias"))) {
    throw InputError("the file has both out.* and decoder.out.* tensors: one output layer only");
  }
  const StateDictNames names = book ? StateDictNames::kBook : StateDictNames::kProject;
  const std::vector<ExpectedTensor> expected = expected_tensors(model_cfg, names);
  std::string list;
  for (const ExpectedTensor& e : expected) list += (list.empty() ? "" : ", ") + e.file_name;
  contract.check_tensors(
      expected, describe(config), list, src.size(), tgt.size(), [](const ExpectedTensor& e) {
        return e.name.find("embedding") != std::string::npos || e.name.rfind("out.", 0) == 0;
      });

  // Every tensor is now known to be there with its shape: the model is as large as the file.
  InterchangeModel m(config, std::move(src), std::move(tgt));
  m.names_ = names;
  m.load_file(contract, expected);
  return m;
}

InterchangeConfig InterchangeModel::file_config(const Seq2SeqSession& session) {
  const SessionConfig& s = session.config();
  InterchangeConfig c;
  c.cell = s.cell;
  c.hidden = s.hidden;
  c.embedding = session.model().config().embedding_size();
  c.attention = s.attention;
  c.score = s.score;
  c.attentional_tanh = s.attentional_tanh;
  return c;
}

std::vector<uint8_t> InterchangeModel::write(StateDictNames names) const {
  return write_file([names](const std::string& name) { return file_name(name, names); });
}

TeacherForced InterchangeModel::teacher_forced(const std::string& source,
                                               const std::string& target) {
  TeacherForced r = teacher_forced_ids(src_, tgt_, source, target);
  const long T = static_cast<long>(r.target_in.size()), Vt = tgt_.size(),
             S = static_cast<long>(r.source_ids.size());
  r.logits = Tensor({T, Vt});
  if (config_.attention) r.attention = Tensor({T, S});
  // The decoder's real step, fed the reference tokens: the same numbers as one teacher-forced
  // PyTorch forward over <sos> + target.
  DecoderState state = model_.encode(r.source_ids);
  for (long t = 0; t < T; ++t) {
    DecoderStepResult step = model_.decoder_step(state, r.target_in[static_cast<size_t>(t)]);
    std::copy(step.logits.begin(), step.logits.end(), r.logits.ptr() + t * Vt);
    if (config_.attention) {
      std::copy(step.attention.begin(), step.attention.end(), r.attention.ptr() + t * S);
    }
    state = std::move(step.state);
  }
  return r;
}

std::vector<uint8_t> export_safetensors(const Seq2SeqSession& session, StateDictNames names) {
  return InterchangeModel::from_session(session).write(names);
}

}  // namespace lab
