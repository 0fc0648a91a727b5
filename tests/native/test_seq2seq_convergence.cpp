// Convergence on the dates task (the issue "Seq2Seq translators … with and without attention"):
// the TensorFlow.js date-conversion-attention example's architecture must reach ≥ 98 % exact
// match on the 2000 held-out dates (greedy decoding, the whole ISO string) for two seeds.
//
//   embedding 64, LSTM 64 encoder and decoder, dot attention, concat → tanh dense 64
//   (attentional_tanh) → softmax; Adam, batch 128.
//
// The peer trains with Adam 1e-3. Held-out exact match against steps (native, seeds 1 / 2 / 3):
//
//   lr 1e-3, no clipping:   300: 91 % (s2)         450: 98.6 % (s2)    500: 98.2 / 99.4
//   lr 3e-3, clip 1:        250: 98.3 / 99.1       300: 98.8 / 99.2
//   lr 1e-2, clip 1:        200: 99.2 / 98.3 / 99.1  250: 99.1 / 99.2 / 99.2  300: 99.3 / 98.8
//   / 99.2 lr 5e-3, clip 1 (used): 200: 97.5 / 98.2 / 98.6  250: 98.8 / 98.5 / 99.4
//                           300: 99.4 / 99.6 / 99.35  350: 99.5 / 99.3 / 99.6  400: 99.8 / 99.8
//
// so this test uses lr 5e-3 with the gradient norm clipped to 1 and 300 steps: the same
// architecture, ~2× fewer steps than 1e-3 needs (~600 for a margin), and a steadier margin
// than 1e-2 (whose late steps oscillate: a rebuild of the core moved its 250-step wasm result
// to 98.65 %). ~20 s per seed in a Release build on an idle core; the wasm build gives the same
// 99.4 / 99.6 %.
//
// Deterministic: the session's seed drives the weights, the data and the batches, and the same
// config through the JS API (tests/wasm/convergence.test.mjs) gives the same losses up to float
// rounding. Only the ≥ 98 % bar is asserted, not the losses: a different float summation order
// (another compiler, -march, Eigen version) may move the result by a few examples.
//
// Not for sanitizer builds: scripts/test-sanitize.sh filters Seq2SeqConvergence out (minutes
// under ASan, and it exercises nothing the other tests do not).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "rnn/session.h"

namespace lab {
namespace {

constexpr long kSteps = 300;
constexpr double kLearningRate = 5e-3;
constexpr double kClipNorm = 1.0;
constexpr double kBar = 0.98;

SessionConfig dates_config(uint64_t seed) {
  SessionConfig c;
  c.task = "dates";
  c.task_options.seed = seed;  // as the JS API: the task's data follows the config's seed
  c.cell = CellKind::kLstm;
  c.hidden = 64;
  c.embedding = 64;
  c.attention = true;
  c.score = Score::kDot;
  c.attentional_tanh = true;
  c.seed = seed;
  c.batch_size = 128;
  c.learning_rate = kLearningRate;
  c.clip_norm = kClipNorm;
  return c;
}

void expect_dates_converge(uint64_t seed) {
  Seq2SeqSession session(dates_config(seed));
  ASSERT_EQ(session.task().held_out().size(), 2000u);
  ASSERT_FALSE(session.task().held_out_is_training_data());

  const auto t0 = std::chrono::steady_clock::now();
  const TrainResult r = session.train(kSteps);
  const auto t1 = std::chrono::steady_clock::now();
  const EvalResult e = session.evaluate();
  const auto t2 = std::chrono::steady_clock::now();

  ASSERT_EQ(static_cast<long>(r.losses.size()), kSteps);
  std::printf(
      "dates seed %llu: losses %.6f %.6f %.6f … %.6f; exact match %.4f, token accuracy "
      "%.4f; train %.1f s, evaluate %.1f s\n",
      static_cast<unsigned long long>(seed), r.losses[0], r.losses[1], r.losses[2], r.losses.back(),
      e.exact_match, e.token_accuracy, std::chrono::duration<double>(t1 - t0).count(),
      std::chrono::duration<double>(t2 - t1).count());
  EXPECT_EQ(e.examples, 2000);
  EXPECT_GE(e.exact_match, kBar) << "seed " << seed << ": exact match on the 2000 held-out dates "
                                 << "after " << kSteps << " steps";
  EXPECT_LT(r.losses.back(), 0.05f * r.losses.front());
}

// One test per seed, so `ctest -j2` runs them side by side.
TEST(Seq2SeqConvergence, DatesSeed1ReachesNinetyEightPercentExactMatch) {
  expect_dates_converge(1);
}
TEST(Seq2SeqConvergence, DatesSeed2ReachesNinetyEightPercentExactMatch) {
  expect_dates_converge(2);
}

}  // namespace
}  // namespace lab
