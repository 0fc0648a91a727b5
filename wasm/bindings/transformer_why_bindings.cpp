// embind surface of asking a Transformer session why (wasm/src/transformer/session.h): the
// attribution of a translation's words and the training timeline, with the same names and
// results as seq2seq_why_bindings.cpp's (translate's interventions are the session bindings').
// Kept apart from transformer_session_bindings.cpp so that the transformer module for widgets,
// which does not link this file, carries none of it (nor the core code only these calls reach).
// Conversion only; errors come back as {error} (guarded), which wasm/js/seq2seq.mjs rethrows.
#include <emscripten/bind.h>

#include <string>

#include "convert.h"
#include "seq2seq_convert.h"
#include "transformer_handle.h"
#include "why_convert.h"

using emscripten::val;
using labjs::guarded;
using labjs::TransformerHandle;

namespace {

val attribution_js(TransformerHandle& handle, val text_js, val options) {
  return guarded([&] {
    const std::string text = labjs::js_text(text_js, "text");
    return labjs::session_attribution_to_js(
        handle.session().attribution(text, labjs::attribution_request_from_js(options, true)));
  });
}

val record_timeline_js(TransformerHandle& handle, val text_js, val options) {
  return guarded([&] {
    long every = 0, capacity = 0;
    labjs::timeline_options_from_js(options, every, capacity);
    handle.session().record_timeline(labjs::js_text(text_js, "probe"), every, capacity);
    return val::undefined();
  });
}

val stop_timeline_js(TransformerHandle& handle) {
  return guarded([&] {
    handle.session().stop_timeline();
    return val::undefined();
  });
}

val timeline_js(TransformerHandle& handle) {
  return guarded([&] {
    const lab::TransformerSession& s = handle.session();
    return labjs::timeline_to_js(labjs::token_names(s.task().target_vocab()), s.timeline(),
                                 s.timeline_probe());
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_transformer_why) {
  emscripten::function("transformerAttribution", &attribution_js);
  emscripten::function("transformerRecordTimeline", &record_timeline_js);
  emscripten::function("transformerStopTimeline", &stop_timeline_js);
  emscripten::function("transformerTimeline", &timeline_js);
}
