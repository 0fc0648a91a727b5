// The JS handle of one recurrent translator's session (session_handle.h). Its Api is
// seq2seq_bindings.cpp's; model files (saveSeq2Seq, loadSeq2Seq) take the handle in
// seq2seq_file_bindings.cpp and the interventions, attribution and timeline in
// seq2seq_why_bindings.cpp, so that a module can leave them out (CMakeLists.txt: the seq2seq
// module).
#pragma once

#include "rnn/session.h"
#include "session_handle.h"

namespace labjs {

struct Seq2SeqSessionApi;
using Seq2SeqHandle = SessionHandle<lab::Seq2SeqSession, Seq2SeqSessionApi>;

}  // namespace labjs
