// embind surface of Seq2Seq model files (.atlb, wasm/src/sequence/model_file.h): save a session,
// load one. Kept apart from seq2seq_bindings.cpp because the file format pulls in the JSON header
// code and CRC checks, which the seq2seq module for widgets (train, evaluate, translate) leaves
// out. Errors come back as {error} (guarded), which wasm/js/seq2seq.mjs rethrows as a JS Error.
#include <emscripten/bind.h>

#include "convert.h"
#include "seq2seq_handle.h"

using emscripten::val;
using labjs::guarded;
using labjs::Seq2SeqHandle;

namespace {

// The session as .atlb bytes (a copy out of wasm memory).
val save_seq2seq_js(Seq2SeqHandle& handle) {
  return guarded([&] { return labjs::bytes_to_js(handle.session().save()); });
}

// A new handle that JS owns (see seq2seq_bindings.cpp), or {error}.
val load_seq2seq_js(val bytes) {
  return guarded([&] {
    return val(
        Seq2SeqHandle(lab::Seq2SeqSession::load(labjs::bytes_from_js(bytes, "loadSeq2Seq()"))));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_seq2seq_files) {
  emscripten::function("saveSeq2Seq", &save_seq2seq_js);
  emscripten::function("loadSeq2Seq", &load_seq2seq_js);
}
