// embind surface of the recurrent translator's model files (.atlb, wasm/src/sequence/model_file.h):
// save a session, load one (session_handle.h). Kept apart from seq2seq_bindings.cpp because the
// file format pulls in the JSON header code and CRC checks, which the seq2seq module for widgets
// (train, evaluate, translate) leaves out. Errors come back as {error} (guarded), which
// wasm/js/seq2seq.mjs rethrows as a JS Error.
#include <emscripten/bind.h>

#include "seq2seq_handle.h"

using labjs::Seq2SeqHandle;

EMSCRIPTEN_BINDINGS(attention_lab_seq2seq_files) {
  emscripten::function("saveSeq2Seq", &labjs::save_session_js<Seq2SeqHandle>);
  emscripten::function("loadSeq2Seq", &labjs::load_session_js<Seq2SeqHandle>);
}
