// What the JS handles of the two trained translators share (Seq2SeqHandle, seq2seq_handle.h;
// TransformerHandle, transformer_handle.h): the session each owns and nothing else, the methods
// whose conversion is the same for both (train, sourceVocabulary, targetVocabulary, heldOut), and
// the registration of the methods every session has under one set of JS names, so that
// wasm/js/seq2seq.mjs wraps both in one class. Each handle adds evaluate, translate and info.
// Conversion only, as every binding: the checks and their messages are the core's.
#pragma once

#include <emscripten/bind.h>

#include <cstdint>
#include <utility>
#include <vector>

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

  // The first `count` held-out examples: {source, target, alignment} (each target token's aligned
  // source token indices).
  emscripten::val heldOut(emscripten::val count_js) {
    using emscripten::val;
    return guarded([&] {
      const std::vector<lab::Example>& all = session_.task().held_out();
      const long count = js_whole(count_js, "heldOut(count): count");
      if (count < 1) throw lab::InputError("heldOut(count): count must be at least 1");
      val out = val::array();
      for (size_t i = 0; i < all.size() && static_cast<long>(i) < count; ++i) {
        val alignment = val::array();
        for (const std::vector<int32_t>& aligned : all[i].alignment) {
          val row = val::array();
          for (int32_t s : aligned) row.call<void>("push", val(s));
          alignment.call<void>("push", row);
        }
        val o = val::object();
        o.set("source", val(all[i].source));
        o.set("target", val(all[i].target));
        o.set("alignment", alignment);
        out.call<void>("push", o);
      }
      return out;
    });
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
      .function("targetVocabulary", static_cast<val (Handle::*)()>(&Handle::targetVocabulary))
      .function("heldOut", static_cast<val (Handle::*)(val)>(&Handle::heldOut));
}

}  // namespace labjs
