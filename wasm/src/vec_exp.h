// In-place exp over a buffer, vectorised: the softmax's exp costs as much as a GEMM otherwise.
// Eigen 3.4 vectorises exp for SSE/AVX but has no WebAssembly SIMD packet math, so the wasm
// build gets a hand-written wasm_simd128 version of the same Cephes polynomial Eigen uses.
#pragma once

namespace lab {

// x[i] = exp(x[i]) for i < n. Relative error ~2 ulp; inputs below −87.3 give ~1e-38, not 0.
void exp_inplace(float* x, long n);

}  // namespace lab
