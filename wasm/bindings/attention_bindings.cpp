// embind surface of the attention core. Each function takes plain JS objects, returns plain JS
// objects (copies), and, when the caller passes gradOutput, the gradients of every input and weight
// too. Errors come back as {error}; wasm/js/attention-lab.mjs rethrows them as JS Errors.
// The names of fields here match wasm/js/types/attention-lab.d.ts exactly.
#include <emscripten/bind.h>

#include <cstdint>
#include <iterator>
#include <string>

#include "attention/attention.h"
#include "convert.h"
#include "kernels/gemm.h"
#include "ops.h"

using emscripten::val;
using labjs::guarded;
using labjs::optional_tensor;
using labjs::tensor_from_js;
using labjs::tensor_to_js;

namespace {

lab::AttentionMask mask_from_js(const val& options) {
  lab::AttentionMask mask;
  val m = options.isUndefined() || options.isNull() ? val::undefined() : options["mask"];
  labjs::check_keys(m, {"keyPadding", "causal"}, "mask");
  mask.key_padding = optional_tensor(m, "keyPadding", "mask.keyPadding");
  mask.causal = labjs::js_bool(m, "causal", false, "mask.causal");
  return mask;
}

bool has(const val& obj, const char* key) {
  return !(obj.isUndefined() || obj.isNull() || obj[key].isUndefined() || obj[key].isNull());
}

// The forward results lab.attention can return; `outputs` picks some (default: all of them).
constexpr const char* kAttentionOutputs[] = {"score", "scores", "scaled", "weights", "output"};

// outputs: undefined (everything) or an array of names from kAttentionOutputs; bit i = name i.
unsigned attention_outputs_from_js(const val& args) {
  if (!has(args, "outputs")) return (1u << std::size(kAttentionOutputs)) - 1;
  val outputs = args["outputs"];
  std::string expected;
  for (const char* name : kAttentionOutputs)
    expected += (expected.empty() ? "" : ", ") + std::string(name);
  if (!val::global("Array").call<bool>("isArray", outputs)) {
    throw lab::InputError("outputs must be an array of names (" + expected + ")");
  }
  unsigned mask = 0;
  const unsigned n = outputs["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    val item = outputs[i];
    const std::string name = item.isString() ? item.as<std::string>() : std::string();
    unsigned bit = 0;
    while (bit < std::size(kAttentionOutputs) && name != kAttentionOutputs[bit]) ++bit;
    if (!item.isString() || bit == std::size(kAttentionOutputs)) {
      const std::string shown =
          item.isString() ? "'" + name + "'" : "a " + item.typeOf().as<std::string>();
      throw lab::InputError("outputs[" + std::to_string(i) + "] is " + shown +
                            ", not an output of attention (expected " + expected + ")");
    }
    mask |= 1u << bit;
  }
  return mask;
}

val attention_js(val args) {
  return guarded([&] {
    if (args.isUndefined() || args.isNull())
      throw lab::InputError("attention() needs {query, key, value}");
    // A misspelt option (scores: 'dot') would otherwise silently fall back to its default.
    labjs::check_keys(args,
                      {"query", "key", "value", "score", "temperature", "mask", "params",
                       "gradOutput", "outputs"},
                      "attention() arguments");
    const unsigned outputs = attention_outputs_from_js(args);
    auto wants = [&](const char* name) {
      unsigned bit = 0;
      while (std::string(kAttentionOutputs[bit]) != name) ++bit;
      return (outputs >> bit) & 1u;
    };
    lab::AttentionInputs in;
    in.query = tensor_from_js(args["query"], "query");
    in.key = tensor_from_js(args["key"], "key");
    in.value = tensor_from_js(args["value"], "value");
    val p = args["params"];
    labjs::check_keys(p, {"w", "w1", "w2", "b", "v"}, "params");
    in.params.w = optional_tensor(p, "w", "params.w");
    in.params.w1 = optional_tensor(p, "w1", "params.w1");
    in.params.w2 = optional_tensor(p, "w2", "params.w2");
    in.params.b = optional_tensor(p, "b", "params.b");
    in.params.v = optional_tensor(p, "v", "params.v");
    lab::AttentionConfig cfg;
    cfg.score = lab::parse_score(labjs::js_string(args, "score", "scaled", "score"));
    cfg.temperature = static_cast<float>(labjs::js_number(args, "temperature", 1.0, "temperature"));
    cfg.mask = mask_from_js(args);
    // Only what is asked for is computed (the raw and scaled scores) and copied out.
    cfg.keep_scores = wants("scores");
    cfg.keep_scaled = wants("scaled");

    lab::AttentionForward fwd = lab::attention_forward(in, cfg);
    val out = val::object();
    if (wants("score")) out.set("score", val(std::string(lab::score_name(cfg.score))));
    if (wants("scores")) out.set("scores", tensor_to_js(fwd.scores));
    if (wants("scaled")) out.set("scaled", tensor_to_js(fwd.scaled));
    if (wants("weights")) out.set("weights", tensor_to_js(fwd.weights));
    if (wants("output")) out.set("output", tensor_to_js(fwd.output));
    if (has(args, "gradOutput")) {
      lab::AttentionGradTensors g(in, cfg.score);
      lab::AttentionWorkspace ws;
      lab::attention_backward(g.views(), ws, in, cfg, fwd,
                              tensor_from_js(args["gradOutput"], "gradOutput"));
      val grads = val::object();
      grads.set("query", tensor_to_js(g.query));
      grads.set("key", tensor_to_js(g.key));
      grads.set("value", tensor_to_js(g.value));
      val pg = val::object();
      for (auto [name, t] : {std::pair{"w", &g.params.w},
                             {"w1", &g.params.w1},
                             {"w2", &g.params.w2},
                             {"b", &g.params.b},
                             {"v", &g.params.v}}) {
        if (!t->empty()) pg.set(name, tensor_to_js(*t));
      }
      grads.set("params", pg);
      out.set("grads", grads);
    }
    return out;
  });
}

// The staged path of attention() for small calls, without the embind conversion of the argument
// object (for a 16 × 16 call, reading query/key/value property by property through embind took
// most of the call's time): wasm/js/staged-attention.mjs writes query, key and value straight into
// these buffers (HEAPF32), runs the call, and copies out of the result buffers only the outputs
// asked for. One set of buffers per module instance, reused while the shapes repeat; calls larger
// than kStagedMaxFloats per buffer take the object path, so the set stays small.
constexpr long kStagedMaxFloats = 1 << 16;

struct StagedAttention {
  lab::AttentionInputs in;  // query (B, N, D), key (B, M, Dk), value (B, M, Dv)
  lab::AttentionForward fwd;
  lab::AttentionWorkspace ws;
  // The data addresses the JS side reads: the inputs after attentionStage, the outputs (scores,
  // scaled, weights, output) after attentionRunStaged.
  uint32_t inputs[3] = {0, 0, 0};
  uint32_t outputs[4] = {0, 0, 0, 0};
};

StagedAttention& staged_attention() {
  static StagedAttention staged;
  return staged;
}

uint32_t address_of(const lab::Tensor& t) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(t.data.data()));
}

// Sizes the staged query (B, N, D), key (B, M, Dk) and value (B, M, Dv); returns the address of
// the 3 data addresses to write them at, or 0 when a size is out of the staged path's range (the
// caller then takes the object path).
uint32_t attention_stage_js(int B, int N, int M, int D, int Dk, int Dv) {
  const long b = B, n = N, m = M;
  for (long size : {b * n * D, b * m * Dk, b * m * Dv, b * n * m}) {
    if (size < 1 || size > kStagedMaxFloats) return 0;
  }
  StagedAttention& s = staged_attention();
  lab::Tensor* inputs[] = {&s.in.query, &s.in.key, &s.in.value};
  const long shapes[3][3] = {{b, n, D}, {b, m, Dk}, {b, m, Dv}};
  for (int i = 0; i < 3; ++i) {
    inputs[i]->shape.assign(shapes[i], shapes[i] + 3);
    inputs[i]->data.resize(shapes[i][0] * shapes[i][1] * shapes[i][2]);
    s.inputs[i] = address_of(*inputs[i]);
  }
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(s.inputs));
}

// Runs attention on the staged inputs with a score that needs no weights ('scaled', 'dot',
// 'cosine'). outputs: bits of kAttentionOutputs. Returns the address of the 4 output data
// addresses (scores, scaled, weights, output; scores and scaled only when asked for), or {error}.
val attention_run_staged_js(std::string score, double temperature, bool causal, unsigned outputs) {
  return guarded([&] {
    StagedAttention& s = staged_attention();
    lab::AttentionConfig cfg;
    cfg.score = lab::parse_score(score);
    if (cfg.score == lab::Score::kGeneral || cfg.score == lab::Score::kAdditive) {
      throw lab::InputError("the staged path has no score weights: use attention()");
    }
    cfg.temperature = static_cast<float>(temperature);
    cfg.mask.causal = causal;
    cfg.keep_scores = (outputs >> 1) & 1u;
    cfg.keep_scaled = (outputs >> 2) & 1u;
    lab::attention_forward(s.fwd, s.ws, s.in, cfg);
    const lab::Tensor* results[] = {&s.fwd.scores, &s.fwd.scaled, &s.fwd.weights, &s.fwd.output};
    for (int i = 0; i < 4; ++i) s.outputs[i] = address_of(*results[i]);
    return val(static_cast<double>(reinterpret_cast<uintptr_t>(s.outputs)));
  });
}

lab::ProjectionParams projections_from_js(const val& p, bool with_output) {
  if (p.isUndefined() || p.isNull()) throw lab::InputError("params is missing");
  lab::ProjectionParams out;
  out.wq = tensor_from_js(p["wq"], "params.wq");
  out.bq = tensor_from_js(p["bq"], "params.bq");
  out.wk = tensor_from_js(p["wk"], "params.wk");
  out.bk = tensor_from_js(p["bk"], "params.bk");
  out.wv = tensor_from_js(p["wv"], "params.wv");
  out.bv = tensor_from_js(p["bv"], "params.bv");
  if (with_output) {
    out.wo = tensor_from_js(p["wo"], "params.wo");
    out.bo = tensor_from_js(p["bo"], "params.bo");
  }
  return out;
}

val projection_grads_to_js(const lab::ProjectionGrads& g) {
  val grads = val::object();
  grads.set("x", tensor_to_js(g.x));
  val p = val::object();
  const lab::ProjectionParams& gp = g.params;
  for (auto [name, t] : {std::pair{"wq", &gp.wq},
                         {"bq", &gp.bq},
                         {"wk", &gp.wk},
                         {"bk", &gp.bk},
                         {"wv", &gp.wv},
                         {"bv", &gp.bv},
                         {"wo", &gp.wo},
                         {"bo", &gp.bo}}) {
    if (!t->empty()) p.set(name, tensor_to_js(*t));
  }
  grads.set("params", p);
  return grads;
}

val self_attention_js(val x_js, val params, val options) {
  return guarded([&] {
    lab::Tensor x = tensor_from_js(x_js, "x");
    labjs::check_keys(options, {"mask", "gradOutput"}, "options");
    lab::ProjectionParams p = projections_from_js(params, false);
    lab::AttentionMask mask = mask_from_js(options);
    lab::SelfAttentionForward fwd = lab::self_attention_forward(x, p, mask);
    val out = val::object();
    out.set("q", tensor_to_js(fwd.qkv.query));
    out.set("k", tensor_to_js(fwd.qkv.key));
    out.set("v", tensor_to_js(fwd.qkv.value));
    out.set("scores", tensor_to_js(fwd.attn.scores));
    out.set("scaled", tensor_to_js(fwd.attn.scaled));
    out.set("weights", tensor_to_js(fwd.attn.weights));
    out.set("output", tensor_to_js(fwd.output));
    if (has(options, "gradOutput")) {
      lab::Tensor dout = tensor_from_js(options["gradOutput"], "gradOutput");
      lab::ProjectionGrads g = lab::zero_projection_grads(x, false);
      lab::self_attention_backward(g, x, p, fwd, dout);
      out.set("grads", projection_grads_to_js(g));
    }
    return out;
  });
}

// (B·H, ...) → (B, H, ...): the core keeps heads on the batch axis; views want them separate.
lab::Tensor per_head(lab::Tensor t, long B, long H) {
  t.shape[0] = H;
  t.shape.insert(t.shape.begin(), B);
  return t;
}

val multi_head_js(val x_js, val params, double num_heads, val options) {
  return guarded([&] {
    lab::Tensor x = tensor_from_js(x_js, "x");
    if (!(num_heads >= 1 && num_heads <= lab::kMaxDim &&
          num_heads == static_cast<long>(num_heads))) {
      throw lab::InputError("numHeads must be a whole number >= 1");
    }
    const long H = static_cast<long>(num_heads);
    labjs::check_keys(options, {"mask", "gradOutput"}, "options");
    lab::ProjectionParams p = projections_from_js(params, true);
    lab::AttentionMask mask = mask_from_js(options);
    lab::SelfAttentionForward fwd = lab::multi_head_forward(x, p, H, mask);
    const long B = x.dim(0);
    val out = val::object();
    out.set("numHeads", val(static_cast<double>(H)));
    out.set("q", tensor_to_js(per_head(fwd.qkv.query, B, H)));
    out.set("k", tensor_to_js(per_head(fwd.qkv.key, B, H)));
    out.set("v", tensor_to_js(per_head(fwd.qkv.value, B, H)));
    out.set("scores", tensor_to_js(per_head(fwd.attn.scores, B, H)));
    out.set("scaled", tensor_to_js(per_head(fwd.attn.scaled, B, H)));
    out.set("weights", tensor_to_js(per_head(fwd.attn.weights, B, H)));
    out.set("headOutputs", tensor_to_js(per_head(fwd.attn.output, B, H)));
    out.set("context", tensor_to_js(fwd.context));
    out.set("output", tensor_to_js(fwd.output));
    if (has(options, "gradOutput")) {
      lab::Tensor dout = tensor_from_js(options["gradOutput"], "gradOutput");
      lab::ProjectionGrads g = lab::zero_projection_grads(x, true);
      lab::multi_head_backward(g, x, p, fwd, dout);
      out.set("grads", projection_grads_to_js(g));
    }
    return out;
  });
}

// For tests/wasm/kernels.test.mjs, which checks the wasm SIMD kernels against naive loops: one
// kernels/gemm.h product ('nn', 'nt' or 'tn') on copies of the arrays; returns C. Not part of the
// package API (no wrapper in attention-lab.mjs); sizes are trusted, as in the kernels.
val kernel_gemm_js(std::string op, int M, int N, int K, int lda, int ldb, int ldc, bool accumulate,
                   val a, val b, val c, val bias) {
  std::vector<float> A = emscripten::convertJSArrayToNumberVector<float>(a);
  std::vector<float> B = emscripten::convertJSArrayToNumberVector<float>(b);
  std::vector<float> C = emscripten::convertJSArrayToNumberVector<float>(c);
  std::vector<float> bv =
      bias.isNull() ? std::vector<float>() : emscripten::convertJSArrayToNumberVector<float>(bias);
  const float* bp = bias.isNull() ? nullptr : bv.data();
  auto gemm = op == "nn"   ? &lab::kernels::gemm_nn
              : op == "nt" ? &lab::kernels::gemm_nt
                           : &lab::kernels::gemm_tn;
  gemm(C.data(), ldc, A.data(), lda, B.data(), ldb, M, N, K, accumulate, bp);
  return val(emscripten::typed_memory_view(C.size(), C.data())).call<val>("slice");
}

// The same for gemm_tn_rows: C (+)= Aᵀ B summed over the listed rows of K (ascending).
val kernel_gemm_tn_rows_js(int M, int N, int K, int lda, int ldb, int ldc, bool accumulate, val a,
                           val b, val c, val rows) {
  std::vector<float> A = emscripten::convertJSArrayToNumberVector<float>(a);
  std::vector<float> B = emscripten::convertJSArrayToNumberVector<float>(b);
  std::vector<float> C = emscripten::convertJSArrayToNumberVector<float>(c);
  std::vector<int32_t> index = emscripten::convertJSArrayToNumberVector<int32_t>(rows);
  const lab::kernels::RowSet ks{index.data(), static_cast<long>(index.size())};
  lab::kernels::gemm_tn_rows(C.data(), ldc, A.data(), lda, B.data(), ldb, M, N, K, accumulate, &ks);
  return val(emscripten::typed_memory_view(C.size(), C.data())).call<val>("slice");
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_attention) {
  emscripten::function("kernelGemm", &kernel_gemm_js);
  emscripten::function("kernelGemmTnRows", &kernel_gemm_tn_rows_js);
  emscripten::function("attention", &attention_js);
  emscripten::function("attentionStage", &attention_stage_js);
  emscripten::function("attentionRunStaged", &attention_run_staged_js);
  emscripten::function("selfAttention", &self_attention_js);
  emscripten::function("multiHeadAttention", &multi_head_js);
}
