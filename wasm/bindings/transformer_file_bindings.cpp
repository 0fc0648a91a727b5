// embind surface of Transformer model files (.atlb, wasm/src/transformer/session_io.cpp): save a
// session, load one (session_handle.h), tell a Transformer file from a Seq2Seq one, and export the
// session as a .safetensors state dict (wasm/src/transformer/interchange.h). Kept apart from
// transformer_session_bindings.cpp because the file format pulls in the JSON header code and CRC
// checks, which the transformer module for widgets (train, evaluate, translate) leaves out.
// Errors come back as {error} (guarded), which wasm/js/seq2seq.mjs rethrows as a JS Error.
#include <emscripten/bind.h>

#include <cstdint>
#include <vector>

#include "convert.h"
#include "transformer/interchange.h"
#include "transformer_handle.h"

using emscripten::val;
using labjs::guarded;
using labjs::TransformerHandle;

namespace {

// The session as a .safetensors state dict for the reference module (transformer/interchange.h).
val export_transformer_safetensors_js(TransformerHandle& handle) {
  return guarded([&] {
    return labjs::bytes_to_js(lab::TransformerInterchange::from_session(handle.session()).write());
  });
}

// true / false, or {error} for bytes that are no model file (the Seq2Seq loader then names it).
val is_transformer_file_js(val bytes) {
  return guarded([&] {
    const std::vector<uint8_t> data = labjs::bytes_from_js(bytes, "loadSeq2Seq()");
    return val(lab::TransformerSession::is_session_file(data.data(), data.size()));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_transformer_files) {
  emscripten::function("saveTransformer", &labjs::save_session_js<TransformerHandle>);
  emscripten::function("exportTransformerSafetensors", &export_transformer_safetensors_js);
  emscripten::function("loadTransformer", &labjs::load_session_js<TransformerHandle>);
  emscripten::function("isTransformerFile", &is_transformer_file_js);
}
