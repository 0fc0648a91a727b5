// Optimiser and gradient clipping on ONE flat parameter buffer and its same-layout gradient
// buffer: Adam is a single loop over every weight of the model.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tensor.h"

namespace lab {

// A loss, gradient norm or updated weight that is NaN or infinite: the run diverged (or was given
// a NaN/huge learning rate). Derives from InputError because the cure is a different setting
// (smaller learning rate, clipping), and so the bindings report it like any other bad input.
struct NonFiniteError : InputError {
  using InputError::InputError;
};

// Throws NonFiniteError when a training loss is NaN or infinite (the gradients then mean nothing).
inline void check_loss_finite(float loss) {
  if (!std::isfinite(loss)) {
    throw NonFiniteError("the loss is " + std::string(std::isnan(loss) ? "NaN" : "infinite") +
                         ": training diverged (lower the learning rate or clip the gradients)");
  }
}

struct AdamOptions {
  float lr = 1e-3f;
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float eps = 1e-8f;
  // λ: with decoupled false, L2 added to the gradient (torch.optim.Adam's weight_decay); with
  // decoupled true, AdamW's decay of the weights themselves (torch.optim.AdamW), p ← p (1 − lr λ)
  // before the step, the gradient and moments untouched.
  float weight_decay = 0.0f;
  bool decoupled = false;

  void validate() const;  // throws InputError naming a NaN/negative/out-of-range setting
};

// torch.optim.Adam's per-parameter state, flattened.
struct AdamState {
  std::vector<float> exp_avg;     // (P) first moment m
  std::vector<float> exp_avg_sq;  // (P) second moment v
  long step = 0;
  // max |m| and max v, kept by every update (reset: 0); negative = not known (a state assigned
  // from outside, e.g. a model file): the next update then takes the checked path and learns them.
  float max_abs_exp_avg = -1.0f;
  float max_exp_avg_sq = -1.0f;

  void reset(long num_params);
};

// Adam's candidate weights and moments (each P) for the checked path, allocated the first time it
// runs and kept. After a committed checked step they hold the previous values (swapped).
struct AdamScratch {
  std::vector<float> params, exp_avg, exp_avg_sq;
};

// One Adam step as torch.optim.Adam (PyTorch 1.13, single-tensor path):
//   g ← g + λ p;  m ← β1 m + (1 − β1) g;  v ← β2 v + (1 − β2) g²
//   p ← p − lr / (1 − β1ᵗ) · m / (√v / √(1 − β2ᵗ) + ε)
// or, with opt.decoupled, as torch.optim.AdamW: g unchanged, and p ← p (1 − lr λ) before the last
// line.
// (kernels/adam.cpp computes the last line with one division instead of two: the same up to
// rounding, which the PyTorch reference tests' tolerances cover).
// All-or-nothing: if any new weight or moment would be NaN or ±Inf, a NonFiniteError is thrown
// with params and state untouched. Usually in place, in one pass: one read of the gradients
// first checks they are finite and bounds them, and with the kept bounds on the moments that
// proves every result finite before anything is written. When it cannot (non-finite or huge
// gradients, an absurd learning rate, unknown bounds) the checked path computes the candidates
// into `scratch` and swaps them in only if all are finite; pointers into `params` taken before
// such a step then point at the old weights.
void adam_update(std::vector<float>& params, AdamState& state, const std::vector<float>& grads,
                 const AdamOptions& opt, AdamScratch& scratch);

// adam_update, then g ← 0 (optimizer.zero_grad()) in the same pass when the step runs in place.
// Returns whether g is now all zeros; the checked path leaves g as it was (and so does a refused
// step).
bool adam_update_zeroing_grads(std::vector<float>& params, AdamState& state,
                               std::vector<float>& grads, const AdamOptions& opt,
                               AdamScratch& scratch);

// ‖g‖₂ over the whole flat buffer (accumulated in double).
double grad_l2_norm(const std::vector<float>& grads);

// torch.nn.utils.clip_grad_norm_: if ‖g‖ > max_norm, g ← g · max_norm / (‖g‖ + 1e-6).
// Returns ‖g‖ before clipping. Throws NonFiniteError (grads untouched) when ‖g‖ is NaN/Inf and
// InputError when max_norm is not a positive finite number.
float clip_grad_norm(std::vector<float>& grads, float max_norm);

}  // namespace lab
