// LAB_VECTORIZE before a loop: vectorise it even when its file is compiled at -O1, the size build
// of the Seq2Seq widget module (CMakeLists.txt). At -O1 clang runs its loop vectoriser only on the
// loops that ask for it, so the few hot loops get f32x4 code and the rest of the file stays small.
// At -O2/-O3 (and in g++) it changes nothing: those loops are vectorised anyway.
#pragma once

#if defined(__clang__)
#define LAB_VECTORIZE _Pragma("clang loop vectorize(enable)")
#else
#define LAB_VECTORIZE
#endif
