// A Transformer translation as the JS object Seq2Seq.translate returns
// (wasm/js/types/seq2seq.d.ts): the Seq2Seq fields plus every layer's and head's attention in each
// step and the encoder's. Defined in transformer_session_bindings.cpp; the safetensors bindings use
// it for imported Transformers.
#pragma once

#include <emscripten/val.h>

#include "seq2seq_convert.h"
#include "transformer/session.h"

namespace labjs {

emscripten::val transformer_translation_to_js(const TokenName& token,
                                              const lab::TransformerTranslateResult& r, long L,
                                              long H);

}  // namespace labjs
