// Native side of `npm run bench`: times the same kernels bench/bench.mjs times in wasm and prints
// one JSON object per measurement on stdout (the script builds the side-by-side table).
//   bench_native [N ...]            attention (default N = 16 64 256 1024)
//   bench_native seq2seq [scale] [note|dates]   Seq2Seq training (bench_seq2seq.cpp)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "attention.h"

namespace {

lab::Tensor random_tensor(std::vector<long> shape, std::mt19937& rng) {
  lab::Tensor t(std::move(shape));
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (float& v : t.data) v = normal(rng);
  return t;
}

// Median and spread (min, max) of `reps` timings of fn, each long enough to time reliably, after
// a warm-up.
template <class F>
void time_it(F fn, double* median_s, double* min_s, double* max_s) {
  using clock = std::chrono::steady_clock;
  auto once = [&] {
    auto t0 = clock::now();
    fn();
    return std::chrono::duration<double>(clock::now() - t0).count();
  };
  double first = once();
  int inner = std::max(1, static_cast<int>(0.02 / std::max(first, 1e-7)));
  for (int i = 0; i < inner; ++i) fn();  // warm-up
  std::vector<double> samples;
  for (int r = 0; r < 9; ++r) {
    auto t0 = clock::now();
    for (int i = 0; i < inner; ++i) fn();
    samples.push_back(std::chrono::duration<double>(clock::now() - t0).count() / inner);
  }
  std::sort(samples.begin(), samples.end());
  *median_s = samples[samples.size() / 2];
  *min_s = samples.front();
  *max_s = samples.back();
}

}  // namespace

int bench_seq2seq(double scale, const char* only);  // bench_seq2seq.cpp

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "seq2seq") == 0) {
    return bench_seq2seq(argc > 2 ? std::atof(argv[2]) : 1.0, argc > 3 ? argv[3] : nullptr);
  }
  std::vector<long> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atol(argv[i]));
  if (sizes.empty()) sizes = {16, 64, 256, 1024};
  const long D = 64;
  std::mt19937 rng(42);
  for (long N : sizes) {
    lab::AttentionInputs in;
    in.query = random_tensor({1, N, D}, rng);
    in.key = random_tensor({1, N, D}, rng);
    in.value = random_tensor({1, N, D}, rng);
    lab::AttentionConfig cfg;  // scaled dot-product
    lab::Tensor dout = random_tensor({1, N, D}, rng);
    double med, lo, hi;
    time_it([&] { lab::attention_forward(in, cfg); }, &med, &lo, &hi);
    std::printf(
        "{\"measure\":\"scaled_forward\",\"N\":%ld,\"D\":%ld,\"median_s\":%.9g,\"min_s\":%.9g,"
        "\"max_s\":%.9g}\n",
        N, D, med, lo, hi);
    lab::AttentionForward fwd = lab::attention_forward(in, cfg);
    time_it(
        [&] {
          lab::AttentionForward f = lab::attention_forward(in, cfg);
          lab::attention_backward(in, cfg, f, dout);
        },
        &med, &lo, &hi);
    std::printf(
        "{\"measure\":\"scaled_forward_backward\",\"N\":%ld,\"D\":%ld,\"median_s\":%.9g,"
        "\"min_s\":%.9g,\"max_s\":%.9g}\n",
        N, D, med, lo, hi);
    (void)fwd;
  }
  return 0;
}
