// embind surface of asking a Transformer session why (why_bindings.h): its translation with
// interventions, the attribution of a translation's words and the training timeline, under
// transformer* names. Kept apart from transformer_session_bindings.cpp so that the transformer
// module for widgets, which links neither this file nor why_convert.cpp, carries none of it.
#include <emscripten/bind.h>

#include <vector>

#include "convert.h"
#include "seq2seq_convert.h"
#include "transformer_handle.h"
#include "transformer_trace.h"
#include "why_bindings.h"
#include "why_convert.h"

using emscripten::val;

namespace {

// A translation with interventions (types: seq2seq.d.ts): per step which word or head was forced
// and each layer's cross-attention context; the plain translation and the value rows.
val intervened_to_js(const labjs::TokenName& token, const lab::TransformerTranslateResult& r,
                     const lab::TransformerSession& session) {
  const long L = session.config().layers, H = session.config().heads;
  val out = labjs::transformer_translation_to_js(token, r, L, H);
  const lab::TransformerGreedyResult& g = r.greedy;
  val steps = out["steps"];
  for (size_t i = 0; i < g.result.steps.size(); ++i) {
    val step = steps[i];
    labjs::set_step_flags(step, g.result.steps[i]);
    const std::vector<float>& context = g.traces[i].cross_context;  // (L, Dm)
    step.set("crossContext",
             labjs::tensor_to_js(lab::Tensor({L, static_cast<long>(context.size()) / L}, context)));
  }
  val iv = labjs::intervention_to_js(token, *r.intervention, g.encoder.S);
  std::vector<float> values;  // (L, S, Dm)
  for (const std::vector<float>& v : g.encoder.cross_v)
    values.insert(values.end(), v.begin(), v.end());
  iv.set("crossValues",
         labjs::tensor_to_js(lab::Tensor({L, g.encoder.S, session.config().d_model}, values)));
  out.set("intervention", iv);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_transformer_why) {
  labjs::register_why<labjs::TransformerHandle, &intervened_to_js>("transformer");
}
