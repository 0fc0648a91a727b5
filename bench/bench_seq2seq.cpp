// Native side of the Seq2Seq part of `npm run bench` (bench_native seq2seq): the same training
// loop as the JS API's model.train(n) (wasm/bindings/seq2seq_bindings.cpp: sample a batch from the
// task, forward + backward, Adam), so bench/bench.mjs can put native and wasm side by side.
// Prints one JSON object per measurement on stdout. Also: the scaling sweeps, the dates run to
// 98% exact match, and the task data the PyTorch and TF.js scripts train on (all through
// Seq2SeqSession, the class the wasm API wraps, so both sides run the same code).
//
//   note:  the note's recipe — RNN, hidden = embedding = 128, dot attention, batch 1, Adam 1e-3
//   dates: embedding 64, LSTM 64, dot attention + attentional tanh 64, batch 128, Adam 1e-3
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "bench_steps.h"
#include "rng.h"
#include "rnn/model.h"
#include "rnn/session.h"
#include "sequence/tasks.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Stats {
  double median = 0, min = 0, max = 0;
};

Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

struct Recipe {
  const char* name;
  const char* task;
  lab::CellKind cell;
  long hidden, embedding, batch;
  bool attentional_tanh;
};

// What Seq2SeqSession holds: the task, the model and the batch sampler's Rng (same seeds).
struct Trainer {
  std::unique_ptr<lab::Task> task;
  lab::Seq2SeqModel model;
  lab::Rng rng;
  long batch;
  lab::AdamOptions adam;  // lr 1e-3

  static lab::Seq2SeqConfig config(const Recipe& r, const lab::Task& task) {
    lab::Seq2SeqConfig c;
    c.cell = r.cell;
    c.hidden = r.hidden;
    c.embedding = r.embedding;
    c.attention = true;
    c.score = lab::Score::kDot;
    c.attentional_tanh = r.attentional_tanh;
    c.seed = 1;
    c.src_vocab = task.source_vocab().size();
    c.tgt_vocab = task.target_vocab().size();
    return c;
  }
  Trainer(const Recipe& r, std::unique_ptr<lab::Task> t)
      : task(std::move(t)),
        model(config(r, *task)),
        rng(1 ^ 0x5EED5EED5EED5EEDULL),
        batch(r.batch) {}

  float train(long steps) {
    float loss = 0;
    for (long i = 0; i < steps; ++i) {
      const lab::Batch b = task->sample_batch(rng, batch);
      loss = model.forward_backward(b);
      model.adam_step(adam);
    }
    return loss;
  }
};

std::unique_ptr<Trainer> make_trainer(const Recipe& r) {
  lab::TaskOptions opts;
  opts.seed = 1;
  return std::make_unique<Trainer>(r, lab::make_task(r.task, opts));
}

// flops: the GEMM flops of a step (kernels::gemm_flops), or < 0 where the build does not count.
void print(const char* measure, const Recipe& r, long steps_per_sample, const Stats& s, float loss,
           double flops = -1) {
  std::printf(
      "{\"measure\":\"%s\",\"recipe\":\"%s\",\"batch\":%ld,\"steps_per_sample\":%ld,"
      "\"median_s\":%.9g,\"min_s\":%.9g,\"max_s\":%.9g,\"final_loss\":%.6g",
      measure, r.name, r.batch, steps_per_sample, s.median, s.min, s.max, loss);
  if (flops >= 0) std::printf(",\"gemm_flops_per_step\":%.9g", flops);
  std::printf("}\n");
  std::fflush(stdout);
}

// Seconds per training step: `reps` blocks of `block` steps after a warm-up of `warmup` steps.
void per_step(const Recipe& r, long warmup, long block, int reps) {
  auto t = make_trainer(r);
  t->train(warmup);
  std::vector<double> samples;
  float loss = 0;
  const double flops0 = bench::gemm_flops_so_far();
  for (int i = 0; i < reps; ++i) {
    const auto t0 = Clock::now();
    loss = t->train(block);
    samples.push_back(seconds_since(t0) / static_cast<double>(block));
  }
  const double flops =
      flops0 < 0 ? -1 : (bench::gemm_flops_so_far() - flops0) / static_cast<double>(reps * block);
  print("step", r, block, stats(samples), loss, flops);
}

// Seconds for `steps` steps of a fresh model (task and model construction not timed), `reps`
// times; one untimed run first as the warm-up.
void total(const Recipe& r, long steps, int reps) {
  std::vector<double> samples;
  float loss = 0;
  for (int i = 0; i <= reps; ++i) {
    auto t = make_trainer(r);
    const auto t0 = Clock::now();
    loss = t->train(steps);
    if (i > 0) samples.push_back(seconds_since(t0));
  }
  print("total", r, steps, stats(samples), loss);
}

}  // namespace

// bench_native.cpp's main calls this for `bench_native seq2seq [scale] [note|dates]`.
int bench_seq2seq(double scale, const char* only) {
  const Recipe note{"note", "note", lab::CellKind::kRnn, 128, 128, 1, false};
  const Recipe dates{"dates", "dates", lab::CellKind::kLstm, 64, 64, 128, true};
  auto n = [&](long x) { return std::max(1L, static_cast<long>(x * scale)); };
  const bool all = !only || !*only;
  if (all || std::strcmp(only, "note") == 0) {
    per_step(note, n(200), n(200), 9);
    total(note, 400, 5);
  }
  if (all || std::strcmp(only, "dates") == 0) per_step(dates, n(5), n(10), 7);
  return 0;
}

// ---- Scaling: training time per example against hidden size and sequence length. The reverse
// task (strings of exactly `length` symbols, reversed), LSTM, dot attention, batch 32, Adam 1e-3;
// bench/bench.mjs runs the same configurations through the JS API.
namespace {

lab::SessionConfig scaling_config(long hidden, long length) {
  lab::SessionConfig c;
  c.task = "reverse";
  c.task_options.seed = 1;
  c.task_options.min_len = length;
  c.task_options.max_len = length;
  c.task_options.train = 2000;
  c.task_options.held_out = 10;
  c.cell = lab::CellKind::kLstm;
  c.hidden = hidden;
  c.embedding = 64;
  c.attention = true;
  c.score = lab::Score::kDot;
  c.batch_size = 32;
  c.seed = 1;
  return c;
}

// Seconds per step: one warm-up step sizes the blocks (≥ `block_s` each), then 5 timed blocks.
Stats session_step_time(lab::Seq2SeqSession& session, double block_s) {
  auto t0 = Clock::now();
  session.train(1);
  const double first = seconds_since(t0);
  const long block = std::max(1L, static_cast<long>(block_s / std::max(first, 1e-6)));
  session.train(block);  // warm-up
  std::vector<double> samples;
  for (int r = 0; r < 5; ++r) {
    t0 = Clock::now();
    session.train(block);
    samples.push_back(seconds_since(t0) / static_cast<double>(block));
  }
  return stats(samples);
}

}  // namespace

int bench_scaling(double scale) {
  const long hiddens[] = {32, 64, 128, 256, 512};
  const long lengths[] = {5, 10, 20, 40, 60};
  auto run = [&](const char* sweep, long hidden, long length) {
    lab::Seq2SeqSession session(scaling_config(hidden, length));
    const Stats s = session_step_time(session, 0.1 * scale);
    std::printf(
        "{\"measure\":\"scaling\",\"sweep\":\"%s\",\"hidden\":%ld,\"length\":%ld,\"batch\":32,"
        "\"median_s\":%.9g,\"min_s\":%.9g,\"max_s\":%.9g}\n",
        sweep, hidden, length, s.median, s.min, s.max);
    std::fflush(stdout);
  };
  for (long h : hiddens) run("hidden", h, 20);
  for (long l : lengths) run("length", 128, l);
  return 0;
}

// ---- Dates to 98%: the dates recipe (LSTM 64, dot attention, tanh 64, Adam 1e-3, batch 128),
// trained `every` steps at a time; after each block the 2000 held-out dates are decoded greedily
// (not timed). Stops at ≥ 98% exact match or when the training time passes limit_s.
int bench_to_target(double limit_s, long every) {
  lab::SessionConfig c;
  c.task = "dates";
  c.task_options.seed = 1;
  c.cell = lab::CellKind::kLstm;
  c.hidden = 64;
  c.embedding = 64;
  c.attention = true;
  c.score = lab::Score::kDot;
  c.attentional_tanh = true;
  c.batch_size = 128;
  c.learning_rate = 1e-3;
  c.seed = 1;
  lab::Seq2SeqSession session(c);
  double train_s = 0;
  long steps = 0;
  double exact = 0;
  while (exact < 0.98 && train_s < limit_s) {
    const auto t0 = Clock::now();
    session.train(every);
    train_s += seconds_since(t0);
    steps += every;
    exact = session.evaluate().exact_match;
    std::printf(
        "{\"measure\":\"to_target_progress\",\"steps\":%ld,\"train_s\":%.6g,\"exact\":%.6g}\n",
        steps, train_s, exact);
    std::fflush(stdout);
  }
  std::printf(
      "{\"measure\":\"to_target\",\"recipe\":\"dates\",\"reached\":%s,\"steps\":%ld,"
      "\"train_s\":%.6g,\"exact\":%.6g,\"limit_s\":%.6g}\n",
      exact >= 0.98 ? "true" : "false", steps, train_s, exact, limit_s);
  return 0;
}

// ---- The task's data for bench/torch_seq2seq.py and bench/tfjs_dates.mjs: both vocabularies,
// the held-out examples, and `count` training examples drawn exactly as a session with seed 1
// draws them (the peers train on the very batches we train on, in the same order).
int dump_task_data(const char* task_name, long count, const char* path) {
  lab::TaskOptions opts;
  opts.seed = 1;
  const std::unique_ptr<lab::Task> task = lab::make_task(task_name, opts);
  lab::Rng rng(1 ^ 0x5EED5EED5EED5EEDULL);  // Seq2SeqSession's sampler for seed 1
  nlohmann::json out;
  out["task"] = task_name;
  out["source_vocab"] = task->source_vocab().tokens();
  out["target_vocab"] = task->target_vocab().tokens();
  out["max_target_tokens"] = task->max_target_tokens();
  auto pairs = [](const std::vector<lab::Example>& examples) {
    nlohmann::json src = nlohmann::json::array(), tgt = nlohmann::json::array();
    for (const lab::Example& e : examples) {
      src.push_back(e.source_ids);
      tgt.push_back(e.target_ids);
    }
    return nlohmann::json{{"src", src}, {"tgt", tgt}};
  };
  out["held_out"] = pairs(task->held_out());
  std::vector<lab::Example> train;
  for (long i = 0; i < count; ++i) train.push_back(task->sample_train(rng));
  out["train"] = pairs(train);
  std::ofstream(path) << out.dump();
  return 0;
}
