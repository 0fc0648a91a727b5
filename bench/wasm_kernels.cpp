// The wasm kernels alone, without the JS API: the peak of a pure register-blocked f32x4 loop on
// this machine (the GEMM micro-kernel's inner loop on L1-resident panels, and nothing else) and
// the GEMM kernels (wasm/src/kernels/gemm.cpp) at the shapes the attention and the Seq2Seq
// recipes use. Built and run by bench/lib/kernels.mjs twice (emcc -O3 -msimd128; and clang-16 with
// relaxed SIMD, the FMA build's kernels), in Node; prints one JSON object per line. GFLOP/s count a
// multiply and an add as 2.
#include <emscripten/emscripten.h>
#include <wasm_simd128.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "kernels/gemm.h"
#include "kernels/simd_math.h"  // madd: one relaxed_madd in the FMA build

namespace {

// The peak: the GEMM micro-kernel's inner loop (a 4 × 8 block of C in 8 accumulators, c += a · b)
// over packed panels small enough to stay in L1 (K = 64: 1 KiB of A, 2 KiB of B), run over and
// over, with nothing else: no packing, no edges, no stores of C, no cache misses. Each step loads
// b(k, 0..7) and splats a(0..3, k) from memory, so no product can be hoisted and no register is
// spent on keeping the inputs varying. (A loop on registers alone needs 18 live vectors for the
// same 8 independent chains; V8 has 15 for SIMD on x64 and spills two accumulators to the stack,
// which puts a store-to-load round trip in the chain and halves the rate.)
constexpr long kPeakK = 64;
__attribute__((noinline)) v128_t peak_loop(const float* a_panel, const float* b_panel, long reps) {
  v128_t c00 = wasm_f32x4_splat(0.0f), c01 = c00, c10 = c00, c11 = c00;
  v128_t c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  for (long r = 0; r < reps; ++r) {
    const float* ap = a_panel;  // (K, 4)
    const float* bp = b_panel;  // (K, 8)
    for (long k = 0; k < kPeakK; ++k, ap += 4, bp += 8) {
      const v128_t b0 = wasm_v128_load(bp), b1 = wasm_v128_load(bp + 4);
      const v128_t a0 = wasm_v128_load32_splat(ap), a1 = wasm_v128_load32_splat(ap + 1);
      const v128_t a2 = wasm_v128_load32_splat(ap + 2), a3 = wasm_v128_load32_splat(ap + 3);
      c00 = lab::kernels::madd(a0, b0, c00);
      c01 = lab::kernels::madd(a0, b1, c01);
      c10 = lab::kernels::madd(a1, b0, c10);
      c11 = lab::kernels::madd(a1, b1, c11);
      c20 = lab::kernels::madd(a2, b0, c20);
      c21 = lab::kernels::madd(a2, b1, c21);
      c30 = lab::kernels::madd(a3, b0, c30);
      c31 = lab::kernels::madd(a3, b1, c31);
    }
  }
  const v128_t s0 = wasm_f32x4_add(wasm_f32x4_add(c00, c01), wasm_f32x4_add(c10, c11));
  const v128_t s1 = wasm_f32x4_add(wasm_f32x4_add(c20, c21), wasm_f32x4_add(c30, c31));
  return wasm_f32x4_add(s0, s1);
}

struct Timing {
  double median_s, best_s;
};

// Seconds per call of f: 7 batches of calls, each batch at least 20 ms long.
template <typename F>
Timing time_calls(F&& f) {
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
  return {samples[samples.size() / 2], samples.front()};
}

// One JSON line; `statistic` names the time reported ("median" or "best" of the batches).
void report(const char* name, long M, long N, long K, const char* statistic, double seconds,
            double flops) {
  std::printf(
      "{\"kernel\": \"%s\", \"M\": %ld, \"N\": %ld, \"K\": %ld, \"%s_s\": %.9g, \"gflops\": "
      "%.4g}\n",
      name, M, N, K, statistic, seconds, flops / seconds / 1e9);
}

// C (M, N) = op(A) · op(B), op "nn", "nt" or "tn", through that kernels/gemm.h entry point, every
// matrix at its natural row stride: the fixed shapes below and a replayed step both call this.
void run_gemm(const char* op, float* C, const float* A, const float* B, long M, long N, long K) {
  const bool tn = op[0] == 't', nt = op[1] == 't';
  auto gemm = tn ? &lab::kernels::gemm_tn : nt ? &lab::kernels::gemm_nt : &lab::kernels::gemm_nn;
  gemm(C, N, A, tn ? M : K, B, nt ? K : N, M, N, K, false, nullptr);
}

// A training step's products alone, as the native benchmark recorded them (bench_steps.h), read
// from kReplayFile (a line "steps S", then "op M N K count" per shape, written by
// bench/lib/kernels.mjs): each run count times on zero-filled operands of its shape, the whole list
// 7 times after one run to warm up. One JSON line: seconds per step (best and median run), what the
// step would take if everything but its products were free. (A file in the working folder, not
// an argument: clang 16 names a main that takes arguments __main_argc_argv, which emcc 3.1.6's
// start-up never calls, so the FMA build's main takes none.)
constexpr const char* kReplayFile = "replay-shapes.txt";
int replay(FILE* in) {
  long steps = 0;
  if (std::fscanf(in, "steps %ld", &steps) != 1 || steps <= 0) return 2;
  struct Call {
    char op[3];
    long M, N, K, count;
  };
  std::vector<Call> calls;
  Call c{};
  long largest = 1;
  while (std::fscanf(in, " %2s %ld %ld %ld %ld", c.op, &c.M, &c.N, &c.K, &c.count) == 5) {
    calls.push_back(c);
    largest = std::max({largest, c.M * c.K, c.K * c.N, c.M * c.N});
  }
  std::fclose(in);
  std::vector<float> A(largest, 0.0f), B(largest, 0.0f), C(largest, 0.0f);
  double flops = 0;
  for (const Call& k : calls) flops += 2.0 * k.M * k.N * k.K * k.count;
  const auto run = [&] {
    for (const Call& k : calls) {
      for (long i = 0; i < k.count; ++i)
        run_gemm(k.op, C.data(), A.data(), B.data(), k.M, k.N, k.K);
    }
  };
  run();
  std::vector<double> s;
  for (int r = 0; r < 7; ++r) {
    const double t0 = emscripten_get_now();
    run();
    s.push_back((emscripten_get_now() - t0) / 1000.0);
  }
  std::sort(s.begin(), s.end());
  std::printf("{\"replay_steps\": %ld, \"best_s\": %.9g, \"median_s\": %.9g, \"gflops\": %.4g}\n",
              steps, s.front() / steps, s[s.size() / 2] / steps, flops / s.front() / 1e9);
  return 0;
}

}  // namespace

int main() {
  // run in a folder that holds kReplayFile: the replay alone
  if (FILE* shapes = std::fopen(kReplayFile, "r")) return replay(shapes);
  volatile float sink = 0.0f;
  volatile long reps_at_run_time = 1 << 14;
  const long reps = reps_at_run_time;
  // small values that neither overflow nor underflow over the run
  std::vector<float> a_panel(4 * kPeakK), b_panel(8 * kPeakK);
  for (size_t i = 0; i < a_panel.size(); ++i) a_panel[i] = 0.5f + 1e-4f * static_cast<float>(i);
  for (size_t i = 0; i < b_panel.size(); ++i) b_panel[i] = 0.25f - 1e-4f * static_cast<float>(i);
  const double peak_flops = 2.0 * 4 * 8 * kPeakK * reps;
  // The peak is the best batch, not the median: on a shared machine the other batches measure
  // the machine's other jobs too, and a peak below the kernels it bounds would mean nothing.
  const double s =
      time_calls([&] {
        sink = sink + wasm_f32x4_extract_lane(peak_loop(a_panel.data(), b_panel.data(), reps), 0);
      }).best_s;
  report("peak_register_loop", 0, 0, 0, "best", s, peak_flops);

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
    const double flops = 2.0 * M * N * K;
    const double t =
        time_calls([&] { run_gemm(sh.op, C.data(), A.data(), B.data(), M, N, K); }).median_s;
    char name[16];
    std::snprintf(name, sizeof name, "gemm_%s", sh.op);
    report(name, M, N, K, "median", t, flops);
  }
  return sink == 12345.0f;
}
