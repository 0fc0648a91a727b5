// embind surface of the Transformer's session (wasm/src/transformer/session.h): what its handle
// (session_handle.h) does its own way, with the same methods and result fields as the recurrent
// translator's (seq2seq_bindings.cpp), so that wasm/js/seq2seq.mjs wraps both in one class; JS
// reaches it through lab.createSeq2Seq({arch: 'transformer', ...}) and lab.loadSeq2Seq(bytes).
//
// Conversion only: JS objects → the core's option structs, results → plain JS objects (copies).
// Every range check and message is the core's. Errors come back as {error} (guarded).
// A translation's steps carry, besides the Seq2Seq fields (token, prob, top, attention = the
// rollout onto the source), every layer's and head's attention: `cross` (L, H, S), `self`
// (L, H, t + 1), `rolloutTarget` (t + 1); the result's `encoder` has `self` (L, H, S, S) and
// `rollout` (S, S). Field names match wasm/js/types/seq2seq.d.ts.
//
// Model files (saveTransformer, loadTransformer, the .safetensors export) are in
// transformer_file_bindings.cpp and interventions in transformer_why_bindings.cpp, so that the
// Transformer widget module can leave them out (CMakeLists.txt's module table). The handle is
// owned by the JS wrapper, which calls .delete() exactly once.
#include <emscripten/bind.h>

#include <string>
#include <utility>
#include <vector>

#include "convert.h"
#include "seq2seq_convert.h"
#include "sequence/vocab.h"
#include "transformer/session.h"
#include "transformer_handle.h"
#include "transformer_trace.h"

using emscripten::val;
using labjs::guarded;

namespace {

val tensor_js(std::vector<long> shape, const std::vector<float>& data) {
  return labjs::tensor_to_js(lab::Tensor(std::move(shape), data));
}

// L × (H, …) per-layer maps → one (L, H, …) tensor.
val stack_layers(const std::vector<std::vector<float>>& layers, std::vector<long> inner) {
  std::vector<float> data;
  for (const std::vector<float>& l : layers) data.insert(data.end(), l.begin(), l.end());
  inner.insert(inner.begin(), static_cast<long>(layers.size()));
  return tensor_js(std::move(inner), data);
}

// The Transformer's side of a step: every layer's and head's attention, and the rollout.
void set_trace(val& step, const lab::TransformerStepTrace& t, long L, long H, long S) {
  const long prefix = static_cast<long>(t.rollout_target.size());  // t + 1
  step.set("cross", tensor_js({L, H, S}, t.cross));
  step.set("self", tensor_js({L, H, prefix}, t.self));
  step.set("rolloutTarget", labjs::float_array_to_js(t.rollout_target));
}

val encoder_to_js(const lab::TransformerEncoderTrace& e, long H) {
  val out = val::object();
  out.set("self", stack_layers(e.self_att, {H, e.S, e.S}));
  out.set("rollout", tensor_js({e.S, e.S}, e.rollout));
  return out;
}

}  // namespace

namespace labjs {

val transformer_translation_to_js(const TokenName& token, const lab::TransformerTranslateResult& r,
                                  long L, long H) {
  val out = translation_to_js(token, r.source, r.output, r.text, r.finished);
  if (r.beam_width == 0) {
    const lab::TransformerGreedyResult& g = r.greedy;
    out.set("steps", greedy_steps_to_js(token, g.result.steps, [&](val& step, size_t i, size_t) {
              set_trace(step, g.traces[i], L, H, g.encoder.S);
            }));
    out.set("encoder", encoder_to_js(g.encoder, H));
  } else {
#ifndef LAB_NO_BEAM  // the widgets' Transformer module has no beam search (search.cpp)
    const lab::TransformerBeamResult& b = r.beam;
    out.set("beams", beam_trace_to_js(token, b.result, r.hypothesis_texts, r.beam_width,
                                      [&](val& node, size_t t, size_t n) {
                                        set_trace(node, b.traces[t][n], L, H, b.encoder.S);
                                      }));
    out.set("encoder", encoder_to_js(b.encoder, H));
#endif
  }
  return out;
}

struct TransformerSessionApi {
  static constexpr const char* kArch = "transformer";
  static constexpr const char* kModule = "transformer";
  static constexpr bool kAlignment = false;

  static lab::TransformerSessionConfig config_from_js(const val& js) {
    check_config_object(js,
                        "createSeq2Seq({arch: 'transformer'}) needs a config object {task, layers, "
                        "heads, dModel, ...}",
                        session_config_keys({"arch", "task", "layers", "heads", "dModel", "dFF",
                                             "normFirst", "warmup"}));
    // Every setting not given takes the session's default for the task.
    lab::TransformerSessionConfig c =
        lab::transformer_session_defaults(js_string(js, "task", "", "config.task"));
    transformer_sizes_from_js(js, c);
    c.warmup = js_whole(js, "warmup", "config.warmup").value_or(c.warmup);
    session_training_from_js(js, c);
    return c;
  }

  static void architecture_to_js(val& out, const lab::TransformerSession& session) {
    const lab::TransformerSessionConfig& c = session.config();
    out.set("layers", number(c.layers));
    out.set("heads", number(c.heads));
    out.set("dModel", number(c.d_model));
    out.set("dFF", number(c.d_ff));
    out.set("normFirst", val(c.norm_first));
    out.set("warmup", number(c.warmup));
  }

  static val translation_to_js(const TokenName& token, const lab::TransformerTranslateResult& r,
                               const lab::TransformerSession& session) {
    return transformer_translation_to_js(token, r, session.config().layers, session.config().heads);
  }
};

}  // namespace labjs

EMSCRIPTEN_BINDINGS(attention_lab_transformer_session) {
  labjs::TransformerHandle::register_class("TransformerSession", "createTransformerSession");
}
