// The embind functions of asking a session why, the same for every model's session handle
// (session_handle.h) and registered by each model's why bindings under its own names
// (seq2seq_why_bindings.cpp: seq2seq*, transformer_why_bindings.cpp: transformer*): translate with
// interventions (through the handle's intervened_translate), the attribution of a translation's
// words and the training timeline. The widgets' modules link neither file, nor why_convert.cpp,
// and so carry none of it (nor the core code only these calls reach). Conversion only; errors
// come back as {error} (guarded), which wasm/js/seq2seq.mjs rethrows as JS Errors.
#pragma once

#include <emscripten/bind.h>

#include <string>

#include "convert.h"
#include "seq2seq_convert.h"
#include "why_convert.h"

namespace labjs {

// translate(text, {interventions, …}) of the handle's session, its result as `to_js` converts an
// intervened translation. Not guarded: the handle's translate, which calls it, is.
template <class Handle, auto to_js>
emscripten::val translate_intervened_js(typename Handle::SessionType& session,
                                        const std::string& text, const emscripten::val& options) {
  return to_js(
      token_names(session.task().target_vocab()),
      session.translate_intervened(text, translate_options_with_interventions_from_js(options)),
      session);
}

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

// Inside an EMSCRIPTEN_BINDINGS block: the handle's translate takes interventions (converted by
// `to_js`), and <prefix>Attribution, <prefix>RecordTimeline, <prefix>StopTimeline and
// <prefix>Timeline are bound (embind copies the names).
template <class Handle, auto to_js>
void register_why(const std::string& prefix) {
  Handle::intervened_translate = &translate_intervened_js<Handle, to_js>;
  emscripten::function((prefix + "Attribution").c_str(), &attribution_js<Handle>);
  emscripten::function((prefix + "RecordTimeline").c_str(), &record_timeline_js<Handle>);
  emscripten::function((prefix + "StopTimeline").c_str(), &stop_timeline_js<Handle>);
  emscripten::function((prefix + "Timeline").c_str(), &timeline_js<Handle>);
}

}  // namespace labjs
