#include "case_runner.h"

#include <fstream>
#include <stdexcept>
#include <vector>

#include "attention/attention.h"
#include "ops.h"

using lab::Tensor;
using nlohmann::json;

namespace labtest {

Tensor tensor_from_json(const json& j) {
  std::vector<long> shape = j.at("shape").get<std::vector<long>>();
  std::vector<float> data;
  for (const auto& v : j.at("data")) data.push_back(v.get<float>());
  return Tensor(shape, data);
}

std::string main_output(const std::string& kind) {
  if (kind == "linear" || kind == "embedding" || kind == "tanh" || kind == "softmax") return "y";
  if (kind == "cross_entropy") return "loss";
  return "output";
}

bool is_integer_input(const std::string& name) {
  return name == "ids" || name == "targets" || name == "key_padding";
}

namespace {

const Tensor& get(const Named& m, const std::string& k) {
  static const Tensor none;
  auto it = m.find(k);
  return it == m.end() ? none : it->second;
}

std::vector<int32_t> ints(const Tensor& t) {
  return std::vector<int32_t>(t.data.begin(), t.data.end());
}

lab::AttentionMask mask_of(const json& config, const Named& in) {
  lab::AttentionMask mask;
  mask.key_padding = get(in, "key_padding");
  mask.causal = config.value("causal", false);
  return mask;
}

lab::ProjectionParams projections(const Named& in) {
  lab::ProjectionParams p;
  p.wq = get(in, "wq"), p.bq = get(in, "bq"), p.wk = get(in, "wk"), p.bk = get(in, "bk");
  p.wv = get(in, "wv"), p.bv = get(in, "bv"), p.wo = get(in, "wo"), p.bo = get(in, "bo");
  return p;
}

void put_projection_grads(Named& g, const lab::ProjectionGrads& pg) {
  g["x"] = pg.x;
  const lab::ProjectionParams& p = pg.params;
  g["wq"] = p.wq, g["bq"] = p.bq, g["wk"] = p.wk, g["bk"] = p.bk, g["wv"] = p.wv, g["bv"] = p.bv;
  if (!p.wo.empty()) g["wo"] = p.wo, g["bo"] = p.bo;
}

Tensor reshape(Tensor t, std::vector<long> shape) {
  t.shape = std::move(shape);
  return t;
}

CaseResult run_attention(const json& config, const Named& in, const Tensor& dout, bool bwd) {
  lab::AttentionInputs ai;
  ai.query = get(in, "query"), ai.key = get(in, "key"), ai.value = get(in, "value");
  ai.params.w = get(in, "w"), ai.params.w1 = get(in, "w1"), ai.params.w2 = get(in, "w2");
  ai.params.b = get(in, "b"), ai.params.v = get(in, "v");
  lab::AttentionConfig cfg;
  cfg.score = lab::parse_score(config.at("score").get<std::string>());
  cfg.temperature = config.value("temperature", 1.0f);
  cfg.mask = mask_of(config, in);
  lab::AttentionForward f = lab::attention_forward(ai, cfg);
  CaseResult r;
  r.outputs = {
      {"scores", f.scores}, {"scaled", f.scaled}, {"weights", f.weights}, {"output", f.output}};
  if (!bwd) return r;
  lab::AttentionGradTensors g(ai, cfg.score);
  lab::AttentionWorkspace ws;
  lab::attention_backward(g.views(), ws, ai, cfg, f, dout);
  r.grads = {{"query", g.query}, {"key", g.key}, {"value", g.value}};
  for (auto [name, t] : {std::pair{"w", &g.params.w},
                         {"w1", &g.params.w1},
                         {"w2", &g.params.w2},
                         {"b", &g.params.b},
                         {"v", &g.params.v}}) {
    if (!t->empty()) r.grads[name] = *t;
  }
  return r;
}

CaseResult run_self(const json& config, const Named& in, const Tensor& dout, bool bwd) {
  const Tensor& x = get(in, "x");
  lab::ProjectionParams p = projections(in);
  lab::AttentionMask mask = mask_of(config, in);
  lab::SelfAttentionForward f = lab::self_attention_forward(x, p, mask);
  CaseResult r;
  r.outputs = {{"q", f.qkv.query},        {"k", f.qkv.key},          {"v", f.qkv.value},
               {"scores", f.attn.scores}, {"scaled", f.attn.scaled}, {"weights", f.attn.weights},
               {"output", f.output}};
  if (bwd) {
    lab::ProjectionGrads g = lab::zero_projection_grads(x, false);
    lab::self_attention_backward(g, x, p, f, dout);
    put_projection_grads(r.grads, g);
  }
  return r;
}

CaseResult run_multi_head(const json& config, const Named& in, const Tensor& dout, bool bwd) {
  const Tensor& x = get(in, "x");
  const long H = config.at("num_heads").get<long>();
  const long B = x.dim(0), N = x.dim(1), Dh = x.dim(2) / H;
  lab::ProjectionParams p = projections(in);
  lab::AttentionMask mask = mask_of(config, in);
  lab::SelfAttentionForward f = lab::multi_head_forward(x, p, H, mask);
  CaseResult r;
  r.outputs = {{"q", reshape(f.qkv.query, {B, H, N, Dh})},
               {"k", reshape(f.qkv.key, {B, H, N, Dh})},
               {"v", reshape(f.qkv.value, {B, H, N, Dh})},
               {"scores", reshape(f.attn.scores, {B, H, N, N})},
               {"scaled", reshape(f.attn.scaled, {B, H, N, N})},
               {"weights", reshape(f.attn.weights, {B, H, N, N})},
               {"context", f.context},
               {"output", f.output}};
  if (bwd) {
    lab::ProjectionGrads g = lab::zero_projection_grads(x, true);
    lab::multi_head_backward(g, x, p, f, dout);
    put_projection_grads(r.grads, g);
  }
  return r;
}

CaseResult run_op(const std::string& kind, const json& config, const Named& in, const Tensor& dout,
                  bool bwd) {
  CaseResult r;
  if (kind == "linear") {
    const Tensor &x = get(in, "x"), &w = get(in, "weight"), &b = get(in, "bias");
    const long R = x.dim(0), I = x.dim(1), O = w.dim(0);
    Tensor y({R, O});
    lab::linear_forward(y.ptr(), x.ptr(), w.ptr(), b.ptr(), R, I, O);
    r.outputs["y"] = y;
    if (bwd) {
      Tensor dx(x.shape), dw(w.shape), db(b.shape);
      lab::linear_backward(dx.ptr(), dw.ptr(), db.ptr(), dout.ptr(), x.ptr(), w.ptr(), R, I, O);
      r.grads = {{"x", dx}, {"weight", dw}, {"bias", db}};
    }
  } else if (kind == "embedding") {
    const Tensor& table = get(in, "table");
    std::vector<int32_t> ids = ints(get(in, "ids"));
    const long T = static_cast<long>(ids.size()), V = table.dim(0), C = table.dim(1);
    Tensor y({T, C});
    lab::embedding_forward(y.ptr(), ids.data(), table.ptr(), T, V, C);
    r.outputs["y"] = y;
    if (bwd) {
      Tensor dt(table.shape);
      lab::embedding_backward(dt.ptr(), dout.ptr(), ids.data(), T, C);
      r.grads["table"] = dt;
    }
  } else if (kind == "tanh" || kind == "softmax") {
    const Tensor& x = get(in, "x");
    const long R = x.dim(0), C = x.dim(1);
    Tensor y(x.shape), dx(x.shape);
    if (kind == "tanh") {
      lab::tanh_forward(y.ptr(), x.ptr(), x.size());
      if (bwd) lab::tanh_backward(dx.ptr(), dout.ptr(), y.ptr(), x.size());
    } else {
      lab::softmax_forward(y.ptr(), x.ptr(), nullptr, R, C);
      if (bwd) lab::softmax_backward(dx.ptr(), dout.ptr(), y.ptr(), R, C);
    }
    r.outputs["y"] = y;
    if (bwd) r.grads["x"] = dx;
  } else if (kind == "cross_entropy") {
    const Tensor& logits = get(in, "logits");
    std::vector<int32_t> targets = ints(get(in, "targets"));
    const int32_t ignore = config.at("ignore_index").get<int32_t>();
    const long R = logits.dim(0), V = logits.dim(1);
    Tensor probs(logits.shape);
    // kFloat, the Transformer's and the GPT's path (the crossEntropy op of the wasm reference test
    // takes kDouble against the same goldens)
    float loss = lab::cross_entropy_forward(probs.ptr(), logits.ptr(), targets.data(), ignore, R, V,
                                            lab::LogSumExp::kFloat);
    r.outputs = {{"loss", Tensor({}, {loss})}, {"probs", probs}};
    if (bwd) {
      Tensor dl(logits.shape);
      lab::cross_entropy_backward(dl.ptr(), probs.ptr(), targets.data(), ignore, R, V,
                                  dout.data.at(0));
      r.grads["logits"] = dl;
    }
  } else {
    throw std::runtime_error("unknown case kind " + kind);
  }
  return r;
}

}  // namespace

CaseResult run_case(const std::string& kind, const json& config, const Named& inputs,
                    const Tensor& grad_output, bool with_backward) {
  if (kind == "attention") return run_attention(config, inputs, grad_output, with_backward);
  if (kind == "self_attention") return run_self(config, inputs, grad_output, with_backward);
  if (kind == "multi_head") return run_multi_head(config, inputs, grad_output, with_backward);
  return run_op(kind, config, inputs, grad_output, with_backward);
}

}  // namespace labtest
