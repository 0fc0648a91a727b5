// The JS handle of one Seq2Seq model: a lab::Seq2SeqSession and nothing else (session_handle.h).
// Its own methods are bound in seq2seq_bindings.cpp; model files (saveSeq2Seq, loadSeq2Seq) take
// the handle in seq2seq_file_bindings.cpp, so a module can leave them out (CMakeLists.txt: the
// seq2seq module).
#pragma once

#include <emscripten/val.h>

#include <string>

#include "rnn/session.h"
#include "session_handle.h"

namespace labjs {

class Seq2SeqHandle : public SessionHandle<lab::Seq2SeqSession> {
 public:
  using SessionHandle::SessionHandle;

  emscripten::val evaluate(emscripten::val options);
  emscripten::val translate(emscripten::val text_js, emscripten::val options);
  emscripten::val info();

  // translate(text, {interventions, …}): set by seq2seq_why_bindings.cpp in the modules that link
  // it (the full one); null elsewhere, where translate says the build has no interventions.
  static emscripten::val (*intervened_translate)(lab::Seq2SeqSession& session,
                                                 const std::string& text,
                                                 const emscripten::val& options);
};

}  // namespace labjs
