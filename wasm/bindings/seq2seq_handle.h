// The JS handle of one Seq2Seq model: a lab::Seq2SeqSession and nothing else. Its methods are
// bound in seq2seq_bindings.cpp; model files (saveSeq2Seq, loadSeq2Seq) take the handle in
// seq2seq_file_bindings.cpp, so a module can leave them out (CMakeLists.txt: the seq2seq module).
#pragma once

#include <emscripten/val.h>

#include <string>
#include <utility>

#include "seq2seq/session.h"

namespace labjs {

class Seq2SeqHandle {
 public:
  explicit Seq2SeqHandle(lab::Seq2SeqSession session) : session_(std::move(session)) {}

  emscripten::val train(emscripten::val steps);
  emscripten::val evaluate(emscripten::val options);
  emscripten::val translate(emscripten::val text_js, emscripten::val options);
  emscripten::val info();
  emscripten::val sourceVocabulary();
  emscripten::val targetVocabulary();
  emscripten::val heldOut(emscripten::val count);

  const lab::Seq2SeqSession& session() const { return session_; }
  lab::Seq2SeqSession& session() { return session_; }

  // translate(text, {interventions, …}): set by seq2seq_why_bindings.cpp in the modules that link
  // it (the full one); null elsewhere, where translate says the build has no interventions.
  static emscripten::val (*intervened_translate)(lab::Seq2SeqSession& session,
                                                 const std::string& text,
                                                 const emscripten::val& options);

 private:
  lab::Seq2SeqSession session_;
};

}  // namespace labjs
