// embind surface of asking a Transformer session why (wasm/src/transformer/session.h): the
// attribution of a translation's words and the training timeline, with the same functions
// (why_bindings.h) and results as seq2seq_why_bindings.cpp's under transformer* names
// (translate's interventions are the session bindings'). Kept apart from
// transformer_session_bindings.cpp so that the transformer module for widgets, which does not
// link this file, carries none of it (nor the core code only these calls reach).
#include <emscripten/bind.h>

#include "transformer_handle.h"
#include "why_bindings.h"

using labjs::TransformerHandle;

EMSCRIPTEN_BINDINGS(attention_lab_transformer_why) {
  emscripten::function("transformerAttribution", &labjs::attribution_js<TransformerHandle>);
  emscripten::function("transformerRecordTimeline", &labjs::record_timeline_js<TransformerHandle>);
  emscripten::function("transformerStopTimeline", &labjs::stop_timeline_js<TransformerHandle>);
  emscripten::function("transformerTimeline", &labjs::timeline_js<TransformerHandle>);
}
