// The embind functions of asking a session why that both sessions' bindings register under their
// own names (seq2seq_why_bindings.cpp: seq2seq*, transformer_why_bindings.cpp: transformer*):
// attribution of a translation's words and the training timeline. `Handle` is Seq2SeqHandle or
// TransformerHandle, whose session() has attribution, record_timeline, stop_timeline, timeline
// and timeline_probe. Conversion only; errors come back as {error} (guarded), which
// wasm/js/seq2seq.mjs rethrows as JS Errors.
#pragma once

#include <emscripten/val.h>

#include <string>

#include "convert.h"
#include "seq2seq_convert.h"
#include "why_convert.h"

namespace labjs {

template <class Handle>
emscripten::val attribution_js(Handle& handle, emscripten::val text_js, emscripten::val options) {
  return guarded([&] {
    const std::string text = js_text(text_js, "text");
    return session_attribution_to_js(
        handle.session().attribution(text, attribution_request_from_js(options, true)));
  });
}

template <class Handle>
emscripten::val record_timeline_js(Handle& handle, emscripten::val text_js,
                                   emscripten::val options) {
  return guarded([&] {
    long every = 0, capacity = 0;
    timeline_options_from_js(options, every, capacity);
    handle.session().record_timeline(js_text(text_js, "probe"), every, capacity);
    return emscripten::val::undefined();
  });
}

template <class Handle>
emscripten::val stop_timeline_js(Handle& handle) {
  return guarded([&] {
    handle.session().stop_timeline();
    return emscripten::val::undefined();
  });
}

template <class Handle>
emscripten::val timeline_js(Handle& handle) {
  return guarded([&] {
    const auto& s = handle.session();
    return timeline_to_js(token_names(s.task().target_vocab()), s.timeline(), s.timeline_probe());
  });
}

}  // namespace labjs
