// A small deterministic random number generator (splitmix64) for weight init and for picking
// training pairs. Same seed → same numbers on every platform: only integer arithmetic plus
// double-precision log/sqrt/cos rounded to float, so native and wasm builds draw identical weights.
#pragma once

#include <cmath>
#include <cstdint>

namespace lab {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  // The whole generator is this one word: saving it and restoring it with set_state() (or
  // Rng(state())) continues the exact same stream, which is what a resumed training run needs.
  uint64_t state() const { return state_; }
  void set_state(uint64_t state) { state_ = state; }

  uint64_t next_u64() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // Uniform in [lo, hi), as torch.nn.init.uniform_.
  float uniform(float lo, float hi) {
    return static_cast<float>(lo + (static_cast<double>(hi) - lo) * uniform01());
  }

  // Standard normal (Box–Muller, one value per pair of draws so the stream has no hidden state).
  float normal() {
    const double u1 = 1.0 - uniform01();  // (0, 1]: log(0) would be −inf
    const double u2 = uniform01();
    return static_cast<float>(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2));
  }

  // Uniform integer in [0, n), n > 0. The modulo bias is below 2⁻⁴⁰ for any n we use.
  long below(long n) { return static_cast<long>(next_u64() % static_cast<uint64_t>(n)); }

 private:
  uint64_t state_;
};

}  // namespace lab
