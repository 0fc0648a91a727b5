// Native side of `npm run bench`: times the same kernels bench/bench.mjs times in wasm and prints
// one JSON object per measurement on stdout (the script builds the side-by-side table).
//   bench_native [N ...]            attention (default N = 16 64 256 1024): scaled dot-product and
//                                   multi-head (4 heads), forward and forward + backward
//   bench_native seq2seq [scale] [note|dates]   Seq2Seq training (bench_seq2seq.cpp)
//   bench_native scaling [scale]                training time vs hidden size and length
//   bench_native to-target <limit_s> <every>    dates: training seconds to 98% exact match
//   bench_native task-data <task> <count> <out> the task's data as JSON for the peers' scripts
//   bench_native transformer <recipes.json> [scale]   Transformer training steps
//   (bench_transformer.cpp)
//   bench_native gpt <recipes.json> [scale]           GPT training steps, and
//   bench_native gpt-data <recipes.json> <steps> <out> their batches for PyTorch (bench_gpt.cpp)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "attention/attention.h"

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

// bench_seq2seq.cpp
int bench_seq2seq(double scale, const char* only);
int bench_scaling(double scale);
int bench_to_target(double limit_s, long every);
int dump_task_data(const char* task, long count, const char* path);
// bench_transformer.cpp
int bench_transformer(const char* recipes_path, double scale);
// bench_gpt.cpp
int bench_gpt(const char* recipes_path, double scale);
int dump_gpt_data(const char* recipes_path, long steps, const char* out_path);

void print_row(const char* measure, long N, long D, double med, double lo, double hi) {
  std::printf(
      "{\"measure\":\"%s\",\"N\":%ld,\"D\":%ld,\"median_s\":%.9g,\"min_s\":%.9g,"
      "\"max_s\":%.9g}\n",
      measure, N, D, med, lo, hi);
  std::fflush(stdout);
}

constexpr long kHeads = 4;  // multi-head: D = 64 split into 4 heads of 16

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "seq2seq") == 0) {
    return bench_seq2seq(argc > 2 ? std::atof(argv[2]) : 1.0, argc > 3 ? argv[3] : nullptr);
  }
  if (argc > 1 && std::strcmp(argv[1], "scaling") == 0) {
    return bench_scaling(argc > 2 ? std::atof(argv[2]) : 1.0);
  }
  if (argc > 3 && std::strcmp(argv[1], "to-target") == 0) {
    return bench_to_target(std::atof(argv[2]), std::atol(argv[3]));
  }
  if (argc > 2 && std::strcmp(argv[1], "transformer") == 0) {
    return bench_transformer(argv[2], argc > 3 ? std::atof(argv[3]) : 1.0);
  }
  if (argc > 2 && std::strcmp(argv[1], "gpt") == 0) {
    return bench_gpt(argv[2], argc > 3 ? std::atof(argv[3]) : 1.0);
  }
  if (argc > 4 && std::strcmp(argv[1], "gpt-data") == 0) {
    return dump_gpt_data(argv[2], std::atol(argv[3]), argv[4]);
  }
  if (argc > 4 && std::strcmp(argv[1], "task-data") == 0) {
    return dump_task_data(argv[2], std::atol(argv[3]), argv[4]);
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
    lab::AttentionConfig cfg;  // scaled dot-product, the output only (as the wasm column asks)
    cfg.keep_scores = cfg.keep_scaled = false;
    lab::Tensor dout = random_tensor({1, N, D}, rng);
    double med, lo, hi;
    // buffers and workspace reused across calls, as in a training loop
    lab::AttentionForward f;
    lab::AttentionWorkspace ws;
    lab::AttentionGradTensors g(in, cfg.score);
    time_it([&] { lab::attention_forward(f, ws, in, cfg); }, &med, &lo, &hi);
    print_row("scaled_forward", N, D, med, lo, hi);
    time_it(
        [&] {
          lab::attention_forward(f, ws, in, cfg);
          lab::attention_backward(g.views(), ws, in, cfg, f, dout);
        },
        &med, &lo, &hi);
    print_row("scaled_forward_backward", N, D, med, lo, hi);

    // Multi-head self-attention of x = query. Weights N(0, 1/D), the scale of nn.Linear's init:
    // N(0, 1) weights saturate the softmax, and its underflowing exponentials and gradients
    // (denormals) slow every side down by up to 20×, which is not what a trained model sees.
    lab::ProjectionParams p;
    const float scale = 1.0f / std::sqrt(static_cast<float>(D));
    for (lab::Tensor* w : {&p.wq, &p.wk, &p.wv, &p.wo}) *w = random_tensor({D, D}, rng);
    for (lab::Tensor* b : {&p.bq, &p.bk, &p.bv, &p.bo}) *b = random_tensor({D}, rng);
    for (lab::Tensor* t : {&p.wq, &p.wk, &p.wv, &p.wo, &p.bq, &p.bk, &p.bv, &p.bo}) {
      for (float& v : t->data) v *= scale;
    }
    const lab::AttentionMask no_mask;
    time_it([&] { lab::multi_head_forward(in.query, p, kHeads, no_mask); }, &med, &lo, &hi);
    print_row("mha_forward", N, D, med, lo, hi);
    time_it(
        [&] {
          lab::SelfAttentionForward mf = lab::multi_head_forward(in.query, p, kHeads, no_mask);
          lab::ProjectionGrads mg = lab::zero_projection_grads(in.query, true);
          lab::multi_head_backward(mg, in.query, p, mf, dout);
        },
        &med, &lo, &hi);
    print_row("mha_forward_backward", N, D, med, lo, hi);
  }
  return 0;
}
