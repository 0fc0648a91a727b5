// The JS handle of one Transformer session (session_handle.h), with the same methods as the
// recurrent translator's. Its Api is transformer_session_bindings.cpp's; model files take the
// handle in transformer_file_bindings.cpp and the interventions, attribution and timeline in
// transformer_why_bindings.cpp, so that a module can leave them out (CMakeLists.txt: the
// transformer module).
#pragma once

#include "session_handle.h"
#include "transformer/session.h"

namespace labjs {

struct TransformerSessionApi;
using TransformerHandle = SessionHandle<lab::TransformerSession, TransformerSessionApi>;

}  // namespace labjs
