// The JS handle of one Transformer session: a lab::TransformerSession and nothing else, with the
// same method names as Seq2SeqHandle (seq2seq_handle.h). Its methods are bound in
// transformer_session_bindings.cpp; model files take the handle in transformer_file_bindings.cpp,
// so a module can leave them out (CMakeLists.txt: the transformer module).
#pragma once

#include <emscripten/val.h>

#include <utility>

#include "transformer/session.h"

namespace labjs {

class TransformerHandle {
 public:
  explicit TransformerHandle(lab::TransformerSession session) : session_(std::move(session)) {}

  emscripten::val train(emscripten::val steps);
  emscripten::val evaluate(emscripten::val options);
  emscripten::val translate(emscripten::val text_js, emscripten::val options);
  emscripten::val info();
  emscripten::val sourceVocabulary();
  emscripten::val targetVocabulary();

  const lab::TransformerSession& session() const { return session_; }
  lab::TransformerSession& session() { return session_; }

 private:
  lab::TransformerSession session_;
};

}  // namespace labjs
