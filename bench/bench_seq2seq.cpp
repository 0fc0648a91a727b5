// Native side of the Seq2Seq part of `npm run bench` (bench_native seq2seq): the same training
// loop as the JS API's model.train(n) (wasm/bindings/seq2seq_bindings.cpp: sample a batch from the
// task, forward + backward, Adam), so bench/bench.mjs can put native and wasm side by side.
// Prints one JSON object per measurement on stdout.
//
//   note:  the note's recipe — RNN, hidden = embedding = 128, dot attention, batch 1, Adam 1e-3
//   dates: embedding 64, LSTM 64, dot attention + attentional tanh 64, batch 128, Adam 1e-3
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "seq2seq/model.h"
#include "seq2seq/rng.h"
#include "seq2seq/tasks.h"

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

void print(const char* measure, const Recipe& r, long steps_per_sample, const Stats& s,
           float loss) {
  std::printf(
      "{\"measure\":\"%s\",\"recipe\":\"%s\",\"batch\":%ld,\"steps_per_sample\":%ld,"
      "\"median_s\":%.9g,\"min_s\":%.9g,\"max_s\":%.9g,\"final_loss\":%.6g}\n",
      measure, r.name, r.batch, steps_per_sample, s.median, s.min, s.max, loss);
  std::fflush(stdout);
}

// Seconds per training step: `reps` blocks of `block` steps after a warm-up of `warmup` steps.
void per_step(const Recipe& r, long warmup, long block, int reps) {
  auto t = make_trainer(r);
  t->train(warmup);
  std::vector<double> samples;
  float loss = 0;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = Clock::now();
    loss = t->train(block);
    samples.push_back(seconds_since(t0) / static_cast<double>(block));
  }
  print("step", r, block, stats(samples), loss);
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
