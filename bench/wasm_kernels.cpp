// The wasm kernels alone, without the JS API: the peak of a pure register-blocked f32x4 loop on
// this machine (multiplies and adds on registers only, no memory traffic, the shape of the GEMM
// micro-kernel's inner loop) and the GEMM kernels (wasm/src/kernels/gemm.cpp) at the shapes the
// attention and the Seq2Seq recipes use. Built and run by bench/lib/kernels.mjs (emcc -O3
// -msimd128, Node); prints one JSON object per line. GFLOP/s count a multiply and an add as 2.
#include <emscripten/emscripten.h>
#include <wasm_simd128.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "kernels/gemm.h"

namespace {

// The micro-kernel's inner loop without its loads: 8 accumulators c ← c + s · b (8 multiplies and
// 8 adds, 64 flops per iteration) with s ← s + d once per iteration (4 more flops) so that the
// products cannot be hoisted; the only loop-carried chains are adds, as in the GEMM block.
__attribute__((noinline)) v128_t peak_loop(long iters, float mf, float af) {
  const v128_t d = wasm_f32x4_splat(af);
  v128_t s = wasm_f32x4_splat(mf);
  v128_t b[8], c[8];
  for (int j = 0; j < 8; ++j) {
    b[j] = wasm_f32x4_splat(mf * static_cast<float>(j + 1));
    c[j] = wasm_f32x4_splat(0.0f);
  }
  for (long i = 0; i < iters; ++i) {
#pragma clang loop unroll(full)
    for (int j = 0; j < 8; ++j) c[j] = wasm_f32x4_add(c[j], wasm_f32x4_mul(s, b[j]));
    s = wasm_f32x4_add(s, d);
  }
  v128_t sum = c[0];
  for (int j = 1; j < 8; ++j) sum = wasm_f32x4_add(sum, c[j]);
  return sum;
}

template <typename F>
double median_seconds(F&& f, double flops) {
  f();
  long inner = 1;
  for (;;) {  // batches of at least 20 ms
    const double t0 = emscripten_get_now();
    for (long i = 0; i < inner; ++i) f();
    if (emscripten_get_now() - t0 >= 20.0) break;
    inner *= 2;
  }
  std::vector<double> samples;
  for (int r = 0; r < 7; ++r) {
    const double t0 = emscripten_get_now();
    for (long i = 0; i < inner; ++i) f();
    samples.push_back((emscripten_get_now() - t0) / 1000.0 / inner);
  }
  std::sort(samples.begin(), samples.end());
  (void)flops;
  return samples[samples.size() / 2];
}

void report(const char* name, long M, long N, long K, double seconds, double flops) {
  std::printf(
      "{\"kernel\": \"%s\", \"M\": %ld, \"N\": %ld, \"K\": %ld, \"median_s\": %.9g, \"gflops\": "
      "%.4g}\n",
      name, M, N, K, seconds, flops / seconds / 1e9);
}

}  // namespace

int main() {
  volatile float sink = 0.0f;
  volatile long iters_at_run_time = 1 << 22;
  volatile float m_at_run_time = 0.999f, a_at_run_time = 1e-3f;
  const long iters = iters_at_run_time;
  const double peak_flops = 68.0 * iters;
  const double s = median_seconds(
      [&] {
        sink = sink + wasm_f32x4_extract_lane(peak_loop(iters, m_at_run_time, a_at_run_time), 0);
      },
      peak_flops);
  report("peak_register_loop", 0, 0, 0, s, peak_flops);

  struct Shape {
    const char* op;
    long M, N, K;
  };
  // attention N = 1024, D = 64: QKᵀ (nt), weights·V (nn), dV = weightsᵀ dO (tn);
  // Seq2Seq: the dates recurrence (128 × 256 × 64) and batch-1 matrix-vector products (1 × 512 ×
  // 128)
  const Shape shapes[] = {{"nt", 1024, 1024, 64}, {"nn", 1024, 64, 1024}, {"tn", 1024, 64, 1024},
                          {"nt", 256, 256, 64},   {"nt", 128, 256, 64},   {"nn", 128, 64, 256},
                          {"tn", 256, 64, 3328},  {"nt", 1, 512, 128},    {"nn", 1, 128, 512},
                          {"tn", 512, 128, 1}};
  for (const Shape& sh : shapes) {
    const long M = sh.M, N = sh.N, K = sh.K;
    std::vector<float> A(M * K, 0.5f), B(K * N, 0.25f), C(M * N, 0.0f);
    const bool tn = sh.op[0] == 't', nt = sh.op[1] == 't';
    const long lda = tn ? M : K, ldb = nt ? K : N;
    auto gemm = tn ? &lab::kernels::gemm_tn : nt ? &lab::kernels::gemm_nt : &lab::kernels::gemm_nn;
    const double flops = 2.0 * M * N * K;
    const double t = median_seconds(
        [&] { gemm(C.data(), N, A.data(), lda, B.data(), ldb, M, N, K, false, nullptr); }, flops);
    char name[16];
    std::snprintf(name, sizeof name, "gemm_%s", sh.op);
    report(name, M, N, K, t, flops);
  }
  return sink == 12345.0f;
}
