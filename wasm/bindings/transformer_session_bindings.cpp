// embind surface of lab::TransformerSession (wasm/src/transformer/session.h): the Transformer
// trained on a task, with the same methods and result fields as the Seq2Seq session
// (seq2seq_bindings.cpp), so that wasm/js/seq2seq.mjs wraps both in one class; JS reaches it
// through lab.createSeq2Seq({arch: 'transformer', ...}) and lab.loadSeq2Seq(bytes).
//
// Conversion only: JS objects → the core's option structs, results → plain JS objects (copies).
// Every range check and message is the core's. Errors come back as {error} (guarded).
// A translation's steps carry, besides the Seq2Seq fields (token, prob, top, attention = the
// rollout onto the source), every layer's and head's attention: `cross` (L, H, S), `self`
// (L, H, t + 1), `rolloutTarget` (t + 1); the result's `encoder` has `self` (L, H, S, S) and
// `rollout` (S, S). Field names match shared/types/seq2seq.d.ts.
//
// Model files (saveTransformer, loadTransformer, the .safetensors export) are in
// transformer_file_bindings.cpp, so that the Transformer widget module can leave the file formats
// out (CMakeLists.txt's module table). The handle is owned by the JS wrapper, which calls
// .delete() exactly once.
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
#ifndef LAB_NO_INTERVENTIONS
#include "why_convert.h"
#endif

using emscripten::val;
using labjs::guarded;

namespace {

lab::TransformerSessionConfig config_from_js(const val& js) {
  if (labjs::is_absent(js)) {
    throw lab::InputError(
        "createSeq2Seq({arch: 'transformer'}) needs a config object {task, layers, heads, "
        "dModel, ...}");
  }
  labjs::check_keys(
      js,
      {"arch", "task", "layers", "heads", "dModel", "dFF", "normFirst", "warmup", "seed",
       "batchSize", "learningRate", "clipNorm", "taskOptions", "pairs", "tokenize", "heldOut"},
      "config");
  // Every setting not given takes the session's default for the task.
  lab::TransformerSessionConfig c =
      lab::transformer_session_defaults(labjs::js_string(js, "task", "", "config.task"));
  labjs::transformer_sizes_from_js(js, c);
  c.warmup = labjs::js_whole(js, "warmup", "config.warmup").value_or(c.warmup);
  labjs::session_training_from_js(js, c);
  return c;
}

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
#ifndef LAB_NO_BEAM  // the widgets' Transformer module has no beam search (session.cpp)
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

val TransformerHandle::evaluate(val options) {
  return guarded([&] {
    return labjs::eval_result_to_js(session_.evaluate(labjs::eval_options_from_js(options)));
  });
}

val TransformerHandle::translate(val text_js, val options) {
  return guarded([&] {
    const std::string text = labjs::js_text(text_js, "text");
#ifdef LAB_NO_INTERVENTIONS
    // The widgets' Transformer module (CMakeLists.txt) leaves interventions out.
    const lab::TransformerTranslateResult r =
        session_.translate(text, labjs::plain_translate_options_from_js(options, "transformer"));
#else
    const lab::TransformerTranslateResult r =
        session_.translate(text, labjs::translate_options_with_interventions_from_js(options));
#endif
    const labjs::TokenName token = labjs::token_names(session_.task().target_vocab());
    const long L = session_.config().layers, H = session_.config().heads;
    val out = labjs::transformer_translation_to_js(token, r, L, H);
#ifndef LAB_NO_INTERVENTIONS
    if (r.intervention && r.beam_width == 0) {
      // What an intervention adds (types: seq2seq.d.ts): per step which word or head was forced
      // and each layer's cross-attention context; the plain translation and the value rows.
      const lab::TransformerGreedyResult& g = r.greedy;
      val steps = out["steps"];
      for (size_t i = 0; i < g.result.steps.size(); ++i) {
        val step = steps[i];
        labjs::set_step_flags(step, g.result.steps[i]);
        const std::vector<float>& context = g.traces[i].cross_context;  // (L, Dm)
        step.set("crossContext", labjs::tensor_to_js(lab::Tensor(
                                     {L, static_cast<long>(context.size()) / L}, context)));
      }
      val iv = labjs::intervention_to_js(token, *r.intervention, g.encoder.S);
      std::vector<float> values;  // (L, S, Dm)
      for (const std::vector<float>& v : g.encoder.cross_v) {
        values.insert(values.end(), v.begin(), v.end());
      }
      iv.set("crossValues",
             labjs::tensor_to_js(lab::Tensor({L, g.encoder.S, session_.config().d_model}, values)));
      out.set("intervention", iv);
    }
#endif
    return out;
  });
}

val TransformerHandle::info() {
  return guarded([&] {
    const lab::TransformerSessionConfig& c = session_.config();
    const lab::Task& task = session_.task();
    val out = val::object();
    out.set("arch", val(std::string("transformer")));
    out.set("task", val(c.task));
    out.set("taskOptions", labjs::task_options_to_js(c.task_options, task));
    out.set("layers", number(c.layers));
    out.set("heads", number(c.heads));
    out.set("dModel", number(c.d_model));
    out.set("dFF", number(c.d_ff));
    out.set("normFirst", val(c.norm_first));
    out.set("warmup", number(c.warmup));
    labjs::set_pairs_info(out, c.task_options, task);
    labjs::set_training_info(out, c.seed, c.batch_size, c.learning_rate, c.clip_norm, task,
                             session_.model().num_params(), session_.step());
    return out;
  });
}

}  // namespace labjs

namespace {

using labjs::TransformerHandle;

val create_transformer_session_js(val config) {
  return guarded(
      [&] { return val(TransformerHandle(lab::TransformerSession(config_from_js(config)))); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_transformer_session) {
  labjs::register_session_handle<TransformerHandle>("TransformerSession");
  emscripten::function("createTransformerSession", &create_transformer_session_js);
}
