// Native side of the Transformer part of `npm run bench` (bench_native transformer <recipes.json>
// [scale]): seconds per training step of TransformerSession::train, the loop the JS API's
// train(n) runs (sample a batch from the task, forward + backward, gradient clipping, Adam), so
// bench/lib/transformer.mjs can put native, wasm and PyTorch side by side on the same recipes.
// recipes.json: a list of {name, task, layers, heads, dModel, dFF, normFirst, batchSize}.
// Prints one JSON object per recipe on stdout.
#include <nlohmann/json.hpp>
#include <string>

#include "bench_steps.h"
#include "transformer/session.h"

namespace {

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
  for (const nlohmann::json& r : bench::read_recipes(recipes_path)) {
    lab::TransformerSession session(config_of(r));
    const bench::StepTimes t =
        bench::time_steps([&](long steps) { return session.train(steps).losses; }, scale);
    bench::print_step_times("transformer_step", r.at("name").get<std::string>(), t);
  }
  return 0;
}
