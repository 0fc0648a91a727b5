// What every training session (rnn/session.cpp, transformer/session.cpp, gpt/session.cpp)
// shares: what train() returns and throws, the training loop and the divergence test of its steps,
// the count of a step's right next tokens, the seed mix of the batch sampler and the float32 check
// of a positive setting.
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "format.h"
#include "kernels/softmax.h"  // max_of
#include "optim.h"            // NonFiniteError
#include "rng.h"
#include "tensor.h"  // InputError, OverflowError, check_range

namespace lab {

// What a session's train(steps) returns: the figures of each step of the call.
struct TrainResult {
  std::vector<float> losses;          // one per completed step of this call
  std::vector<float> token_accuracy;  // per step: teacher-forced argmax = target, over the batch
  long step = 0;                      // steps trained in total
};

// Training diverged (a NaN/Inf loss, gradient or weight). The session keeps the weights,
// optimiser state and Rng of the last good step; `completed` has the steps of this call that
// did complete before it.
struct TrainingDiverged : NonFiniteError {
  TrainingDiverged(const std::string& message, TrainResult completed)
      : NonFiniteError(message), completed(std::move(completed)) {}
  TrainResult completed;
};

}  // namespace lab

namespace lab::session_common {

struct TokenCount {
  long correct = 0, total = 0;
};

// The rows of logits (rows, V) whose maximum is at their target (the first maximum, as argmax),
// over the rows whose target is not `ignore`: a step's teacher-forced token accuracy.
inline TokenCount count_argmax_hits(const float* logits, const int32_t* targets, long rows, long V,
                                    int32_t ignore) {
  TokenCount count;
  for (long i = 0; i < rows; ++i) {
    const long t = targets[i];
    if (t == ignore) continue;
    const float* row = logits + i * V;
    // the first maximum is at t: every logit before it is smaller and none after it larger
    // (std::max_element's answer, without its scalar compare and branch per logit)
    count.correct +=
        kernels::max_of(row, t) < row[t] && kernels::max_of(row + t + 1, V - t - 1) <= row[t];
    ++count.total;
  }
  return count;
}

// A training loss above this many times that of a uniform guess (ln Vt nats per token) means the
// model puts its probability mass on wrong tokens with logit gaps in the thousands: the run has
// diverged even though every number is still finite (Adam at lr 1e6 gives losses near 1e7).
// Sound runs stay far below: at lr 1, the note, dates and reverse tasks peak under 30 ln Vt.
inline constexpr double kDivergedLossFactor = 1000.0;
// Mixed into the seed so that the batch sampler's stream differs from the weight init's.
inline constexpr uint64_t kSamplerSeedMix = 0x5EED5EED5EED5EEDULL;

// A positive (or, with allow_zero, non-negative) value that stays finite as a float32.
inline void check_float32(double value, bool allow_zero, const std::string& what) {
  const bool ok =
      std::isfinite(value) && value <= FLT_MAX && (value > 0 || (allow_zero && value == 0));
  if (!ok) {
    throw InputError(what +
                     (allow_zero ? " must be 0 or a positive finite float32"
                                 : " must be a positive finite float32") +
                     " (got " + format_number(value) + ")");
  }
}

// Whether an error raised during a training step is the run diverging: a NaN/Inf loss, gradient,
// state or weight (NonFiniteError; check_loss_not_diverged raises one too) or a computed value
// that overflowed float32 (OverflowError: the batch and the weights were finite, so the weights
// drove it there). Any other error is a bug or bad input of its own and keeps its own message.
inline bool is_divergence(const InputError& e) {
  return dynamic_cast<const NonFiniteError*>(&e) != nullptr ||
         dynamic_cast<const OverflowError*>(&e) != nullptr;
}

// Throws NonFiniteError when a finite training loss is past kDivergedLossFactor uniform guesses.
inline void check_loss_not_diverged(float loss, long Vt) {
  const double diverged_loss = kDivergedLossFactor * std::log(static_cast<double>(Vt));
  if (loss > diverged_loss) {
    throw NonFiniteError("the loss " + format_number(loss, 3) + " is over " +
                         std::to_string(static_cast<long>(kDivergedLossFactor)) +
                         " times that of a uniform guess");
  }
}

// What train_loop runs after each good step by default: nothing.
struct NoAfterStep {
  void operator()() const {}
};

// The training loop of every session: `steps` steps, in [1, max_steps]. Each step draws its batch
// with sample(rng), then run(batch, result) trains on it: the model's forward and backward, the
// divergence test, the update, and the step's figures appended to `result` (a Result with
// `losses` and `step`). after_step() follows each good step (a translator's timeline records
// there). `step` counts the steps trained in total. A step whose error is the run diverging
// (is_divergence) throws Diverged(message ending with `advice`, this call's completed steps) with
// the Rng rewound to before its batch, so the session is exactly as after the last good step
// (run() must update the weights only once nothing more can fail: Adam's update is
// all-or-nothing) and a save() now equals one taken right after that step. Any other error keeps
// its own type and message.
template <class Diverged, class Result, class Sample, class Run, class AfterStep = NoAfterStep>
Result train_loop(long steps, long max_steps, Rng& rng, long& step, const Sample& sample,
                  const Run& run, const std::string& advice,
                  const AfterStep& after_step = AfterStep()) {
  check_range(steps, 1, max_steps, "train: steps");
  Result result;
  result.losses.reserve(static_cast<size_t>(steps));
  for (long i = 0; i < steps; ++i) {
    const Rng before = rng;
    const auto batch = sample(rng);
    try {
      run(batch, result);
      result.step = ++step;
    } catch (const InputError& e) {
      rng = before;
      if (!is_divergence(e)) throw;
      result.step = step;
      throw Diverged("training diverged at step " + std::to_string(step + 1) + " (" + e.what() +
                         "); the weights after step " + std::to_string(step) +
                         " are kept: " + advice,
                     std::move(result));
    }
    after_step();
  }
  return result;
}

}  // namespace lab::session_common
