// The JS handle of one Transformer session: a lab::TransformerSession and nothing else
// (session_handle.h), with the same method names as Seq2SeqHandle (seq2seq_handle.h). Its own
// methods are bound in transformer_session_bindings.cpp; model files take the handle in
// transformer_file_bindings.cpp, so a module can leave them out (CMakeLists.txt: the transformer
// module).
#pragma once

#include <emscripten/val.h>

#include "session_handle.h"
#include "transformer/session.h"

namespace labjs {

class TransformerHandle : public SessionHandle<lab::TransformerSession> {
 public:
  using SessionHandle::SessionHandle;

  emscripten::val evaluate(emscripten::val options);
  emscripten::val translate(emscripten::val text_js, emscripten::val options);
  emscripten::val info();
};

}  // namespace labjs
