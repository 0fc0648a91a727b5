// Shared by the training-step parts of bench_native (bench_transformer.cpp, bench_gpt.cpp): the
// timing scheme of their tables (a warm-up of 10 steps, then 7 blocks of 20, both × scale; the
// median and spread of wall-clock seconds per step, the median of CPU seconds per step) and the
// GEMM flops per step and the shapes of its products, which the build counts under
// LAB_COUNT_FLOPS.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernels/gemm.h"

namespace bench {

struct StepTimes {
  long steps_per_sample = 0;
  double median_s = 0, min_s = 0, max_s = 0, cpu_s = 0;
  float first_loss = 0, final_loss = 0;  // step 0's (in the warm-up), the last timed step's
  double gemm_flops_per_step = -1;       // -1: not counted in this build
  // every product shape of the timed steps (op, M, N, K, count): bench/wasm_kernels.cpp replays
  // them alone; empty where the build does not count
  std::string gemm_shapes_json;
};

// The shapes of the products since the last call, over `steps` steps, as JSON {steps, shapes:
// [[op, M, N, K, count], …]}; "" where the build does not count them.
inline std::string take_gemm_shapes_json(long steps) {
#ifdef LAB_COUNT_FLOPS
  nlohmann::json shapes = nlohmann::json::array();
  for (const lab::kernels::GemmShape& g : lab::kernels::take_gemm_shapes()) {
    shapes.push_back({g.op, g.M, g.N, g.K, g.count});
  }
  return nlohmann::json{{"steps", steps}, {"shapes", shapes}}.dump();
#else
  (void)steps;
  return "";
#endif
}

// The GEMM flops done so far (kernels::gemm_flops), or -1 where the build does not count them.
inline double gemm_flops_so_far() {
#ifdef LAB_COUNT_FLOPS
  return lab::kernels::gemm_flops();
#else
  return -1;
#endif
}

// A recipes file: a JSON list of recipe objects.
inline nlohmann::json read_recipes(const char* path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// The process's CPU time in seconds: on a shared machine, what the step itself costs.
inline double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// train(steps) trains that many steps and returns their losses (a session's train(n).losses).
template <class Train>
StepTimes time_steps(Train train, double scale) {
  using Clock = std::chrono::steady_clock;
  auto n = [&](long x) { return std::max(1L, static_cast<long>(x * scale)); };
  StepTimes t;
  t.steps_per_sample = n(20);
  t.first_loss = train(n(10)).front();  // warm-up: the workspace reaches its largest batch shape
  std::vector<double> samples, cpu;
  const double flops0 = gemm_flops_so_far();
  take_gemm_shapes_json(0);  // the warm-up's are not the timed steps
  const auto per_step = [&](double seconds) { return seconds / static_cast<double>(n(20)); };
  for (int i = 0; i < 7; ++i) {
    const auto t0 = Clock::now();
    const double c0 = cpu_seconds();
    t.final_loss = train(n(20)).back();
    samples.push_back(per_step(std::chrono::duration<double>(Clock::now() - t0).count()));
    cpu.push_back(per_step(cpu_seconds() - c0));
  }
  // the GEMM flops of a step (the same kernel calls as the wasm step's)
  if (flops0 >= 0) t.gemm_flops_per_step = per_step(gemm_flops_so_far() - flops0) / 7;
  t.gemm_shapes_json = take_gemm_shapes_json(7 * n(20));
  std::sort(samples.begin(), samples.end());
  std::sort(cpu.begin(), cpu.end());
  t.median_s = samples[samples.size() / 2];
  t.min_s = samples.front();
  t.max_s = samples.back();
  t.cpu_s = cpu[cpu.size() / 2];
  return t;
}

// One JSON line: {measure, recipe, steps_per_sample, median_s, min_s, max_s, cpu_s, first_loss,
// final_loss[, gemm_flops_per_step]} and `more` (further fields, each starting with a comma).
inline void print_step_times(const char* measure, const std::string& recipe, const StepTimes& t,
                             const std::string& more = "") {
  std::printf(
      "{\"measure\":\"%s\",\"recipe\":\"%s\",\"steps_per_sample\":%ld,\"median_s\":%.9g,"
      "\"min_s\":%.9g,\"max_s\":%.9g,\"cpu_s\":%.9g,\"first_loss\":%.6g,\"final_loss\":%.6g",
      measure, recipe.c_str(), t.steps_per_sample, t.median_s, t.min_s, t.max_s, t.cpu_s,
      t.first_loss, t.final_loss);
  if (t.gemm_flops_per_step >= 0)
    std::printf(",\"gemm_flops_per_step\":%.9g", t.gemm_flops_per_step);
  if (!t.gemm_shapes_json.empty()) std::printf(",\"gemm_shapes\":%s", t.gemm_shapes_json.c_str());
  std::printf("%s}\n", more.c_str());
  std::fflush(stdout);
}

}  // namespace bench
