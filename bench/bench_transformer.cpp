// Native side of the Transformer part of `npm run bench` (bench_native transformer <recipes.json>
// [scale]): seconds per training step of TransformerSession::train, the loop the JS API's
// train(n) runs (sample a batch from the task, forward + backward, gradient clipping, Adam), so
// bench/lib/transformer.mjs can put native, wasm and PyTorch side by side on the same recipes.
// recipes.json: a list of {name, task, layers, heads, dModel, dFF, normFirst, batchSize}.
// Prints one JSON object per recipe on stdout.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kernels/gemm.h"
#include "transformer/session.h"

namespace {

using Clock = std::chrono::steady_clock;

// The process's CPU time in seconds: on a shared machine, what the step itself costs.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

lab::TransformerSessionConfig config_of(const nlohmann::json& r) {
  lab::TransformerSessionConfig c = lab::transformer_session_defaults(r.at("task"));
  c.layers = r.at("layers");
  c.heads = r.at("heads");
  c.d_model = r.at("dModel");
  c.d_ff = r.at("dFF");
  c.norm_first = r.at("normFirst");
  c.batch_size = r.at("batchSize");
  c.seed = 1;
  c.task_options.seed = 1;
  return c;
}

}  // namespace

// bench_native.cpp's main calls this.
int bench_transformer(const char* recipes_path, double scale) {
  std::ifstream in(recipes_path);
  const nlohmann::json recipes = nlohmann::json::parse(in);
  auto n = [&](long x) { return std::max(1L, static_cast<long>(x * scale)); };
  for (const nlohmann::json& r : recipes) {
    lab::TransformerSession session(config_of(r));
    session.train(n(10));  // warm-up: the workspace reaches its largest batch shape
    std::vector<double> samples, cpu;
    float loss = 0;
#ifdef LAB_COUNT_FLOPS
    const double flops0 = lab::kernels::gemm_flops();
#endif
    for (int i = 0; i < 7; ++i) {
      const auto t0 = Clock::now();
      const double c0 = cpu_seconds();
      loss = session.train(n(20)).losses.back();
      samples.push_back(std::chrono::duration<double>(Clock::now() - t0).count() /
                        static_cast<double>(n(20)));
      cpu.push_back((cpu_seconds() - c0) / static_cast<double>(n(20)));
    }
    std::sort(samples.begin(), samples.end());
    std::sort(cpu.begin(), cpu.end());
    std::printf(
        "{\"measure\":\"transformer_step\",\"recipe\":\"%s\",\"steps_per_sample\":%ld,"
        "\"median_s\":%.9g,\"min_s\":%.9g,\"max_s\":%.9g,\"cpu_s\":%.9g,\"final_loss\":%.6g",
        r.at("name").get<std::string>().c_str(), n(20), samples[samples.size() / 2],
        samples.front(), samples.back(), cpu[cpu.size() / 2], loss);
#ifdef LAB_COUNT_FLOPS
    // the GEMM flops of a step (the same kernel calls as the wasm step's)
    std::printf(",\"gemm_flops_per_step\":%.9g",
                (lab::kernels::gemm_flops() - flops0) / static_cast<double>(7 * n(20)));
#endif
    std::printf("}\n");
    std::fflush(stdout);
  }
  return 0;
}
