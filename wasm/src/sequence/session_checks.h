// What every training session (rnn/session.cpp, transformer/session.cpp, gpt/session.cpp)
// shares: the divergence test of a training step, the seed mix of the batch sampler and the
// float32 check of a positive setting.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <string>

#include "format.h"
#include "optim.h"   // NonFiniteError
#include "tensor.h"  // InputError, OverflowError

namespace lab::session_common {

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

}  // namespace lab::session_common
