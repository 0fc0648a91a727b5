// Native side of the GPT part of `npm run bench`:
//   bench_native gpt <recipes.json> [scale]   seconds per training step of GptSession::train, the
//     loop the JS API's train(n) runs (sample a batch of windows, forward + backward, Adam), so
//     bench/lib/gpt.mjs can put native, wasm and PyTorch side by side on the same recipes.
//   bench_native gpt-data <recipes.json> <steps> <out.json>   the first `steps` batches each
//     recipe's session draws, for bench/torch_gpt.py to train on the very same windows.
// recipes.json: a list of {name, corpus (a UTF-8 file), heldOut, blockSize, layers, heads, dModel,
// batchSize, learningRate, warmup}; every session has seed 1. Prints one JSON object per recipe.
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bench_steps.h"
#include "gpt/session.h"

namespace {

lab::GptSessionConfig config_of(const nlohmann::json& r) {
  lab::GptSessionConfig c = lab::gpt_poems_defaults();
  std::ifstream in(r.at("corpus").get<std::string>(), std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  c.text = text.str();
  c.held_out = r.at("heldOut");
  c.block_size = r.at("blockSize");
  c.layers = r.at("layers");
  c.heads = r.at("heads");
  c.d_model = r.at("dModel");
  c.batch_size = r.at("batchSize");
  c.learning_rate = r.at("learningRate");
  c.warmup = r.at("warmup");
  c.seed = 1;
  return c;
}

}  // namespace

// bench_native.cpp's main calls these.
int bench_gpt(const char* recipes_path, double scale) {
  for (const nlohmann::json& r : bench::read_recipes(recipes_path)) {
    lab::GptSession session(config_of(r));
    const bench::StepTimes t =
        bench::time_steps([&](long steps) { return session.train(steps).losses; }, scale);
    bench::print_step_times("gpt_step", r.at("name").get<std::string>(), t,
                            ",\"parameters\":" + std::to_string(session.model().num_params()));
  }
  return 0;
}

// The session's first batches (GptSession::first_batches): each written as B rows of T input ids
// and B rows of T targets (−1 where the loss ignores a position: past a poem window's end).
int dump_gpt_data(const char* recipes_path, long steps, const char* out_path) {
  nlohmann::json out = nlohmann::json::object();
  for (const nlohmann::json& r : bench::read_recipes(recipes_path)) {
    const lab::GptSession session(config_of(r));
    const lab::GptSessionConfig& c = session.config();
    nlohmann::json inputs = nlohmann::json::array(), targets = nlohmann::json::array();
    for (const lab::GptBatch& b : session.first_batches(steps)) {
      for (long row = 0; row < b.B; ++row) {
        const auto from = static_cast<std::ptrdiff_t>(row * b.T), to = from + b.T;
        inputs.push_back(std::vector<int32_t>(b.idx.begin() + from, b.idx.begin() + to));
        targets.push_back(std::vector<int32_t>(b.targets.begin() + from, b.targets.begin() + to));
      }
    }
    out[r.at("name").get<std::string>()] = {
        {"vocab", session.vocab().size()}, {"batch_size", c.batch_size},
        {"block_size", c.block_size},      {"steps", steps},
        {"inputs", std::move(inputs)},     {"targets", std::move(targets)}};
  }
  std::ofstream(out_path) << out.dump();
  return 0;
}
