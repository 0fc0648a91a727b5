// What the JS handles of the two trained translators share (Seq2SeqHandle, seq2seq_handle.h;
// TransformerHandle, transformer_handle.h): the session each owns and nothing else, the methods
// whose conversion is the same for both (train, sourceVocabulary, targetVocabulary), and the
// registration of the methods every session has under one set of JS names, so that
// wasm/js/seq2seq.mjs wraps both in one class. Each handle adds evaluate, translate and info.
// Conversion only, as every binding: the checks and their messages are the core's.
#pragma once

#include <emscripten/bind.h>

#include <utility>

#include "convert.h"
#include "seq2seq_convert.h"

namespace labjs {

template <class Session>
class SessionHandle {
 public:
  explicit SessionHandle(Session session) : session_(std::move(session)) {}

  emscripten::val train(emscripten::val steps) {
    return guarded([&] { return train_to_js(steps, [&](long n) { return session_.train(n); }); });
  }

  emscripten::val sourceVocabulary() {
    return guarded([&] { return strings_to_js(session_.source_vocabulary()); });
  }

  emscripten::val targetVocabulary() {
    return guarded([&] { return strings_to_js(session_.target_vocabulary()); });
  }

  const Session& session() const { return session_; }
  Session& session() { return session_; }

 protected:
  Session session_;
};

// Registers `Handle` (a SessionHandle with its own evaluate, translate and info) under `name`,
// inside an EMSCRIPTEN_BINDINGS block; the class is returned so that a binding file can add the
// handle's own methods. The shared methods are bound as members of Handle (embind calls them on
// the registered class).
template <class Handle>
emscripten::class_<Handle> register_session_handle(const char* name) {
  using emscripten::val;
  return emscripten::class_<Handle>(name)
      .function("train", static_cast<val (Handle::*)(val)>(&Handle::train))
      .function("evaluate", &Handle::evaluate)
      .function("translate", &Handle::translate)
      .function("info", &Handle::info)
      .function("sourceVocabulary", static_cast<val (Handle::*)()>(&Handle::sourceVocabulary))
      .function("targetVocabulary", static_cast<val (Handle::*)()>(&Handle::targetVocabulary));
}

}  // namespace labjs
