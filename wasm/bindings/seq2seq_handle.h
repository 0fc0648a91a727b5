// The JS handle of one Seq2Seq model: a lab::Seq2SeqSession and nothing else. Its methods are
// bound in seq2seq_bindings.cpp; model files (saveSeq2Seq, loadSeq2Seq) take the handle in
// seq2seq_file_bindings.cpp, so a module can leave them out (CMakeLists.txt: the seq2seq module).
#pragma once

#include <emscripten/val.h>

#include <utility>

#include "seq2seq/session.h"

namespace labjs {

class Seq2SeqHandle {
 public:
  explicit Seq2SeqHandle(lab::Seq2SeqSession session) : session_(std::move(session)) {}

  emscripten::val train(emscripten::val steps);
  emscripten::val evaluate(emscripten::val options);
  emscripten::val translate(emscripten::val text_js, emscripten::val options);
  emscripten::val attribution(emscripten::val text_js, emscripten::val options);
  emscripten::val recordTimeline(emscripten::val text_js, emscripten::val options);
  emscripten::val stopTimeline();
  emscripten::val timeline();
  emscripten::val info();
  emscripten::val sourceVocabulary();
  emscripten::val targetVocabulary();
  emscripten::val heldOut(emscripten::val count);

  const lab::Seq2SeqSession& session() const { return session_; }

 private:
  lab::Seq2SeqSession session_;
};

}  // namespace labjs
