#include "optim.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "format.h"
#include "kernels/adam.h"

namespace lab {

namespace {

void require(bool ok, const std::string& what, float value) {
  if (!ok) throw InputError("Adam " + what + " (got " + format_number(value) + ")");
}

}  // namespace

void AdamOptions::validate() const {
  require(std::isfinite(lr) && lr >= 0.0f, "learning rate must be a finite number >= 0", lr);
  require(beta1 >= 0.0f && beta1 < 1.0f, "beta1 must be in [0, 1)", beta1);
  require(beta2 >= 0.0f && beta2 < 1.0f, "beta2 must be in [0, 1)", beta2);
  require(std::isfinite(eps) && eps >= 0.0f, "eps must be a finite number >= 0", eps);
  require(std::isfinite(weight_decay) && weight_decay >= 0.0f,
          "weight decay must be a finite number >= 0", weight_decay);
}

void AdamState::reset(long num_params) {
  exp_avg.assign(static_cast<size_t>(num_params), 0.0f);
  exp_avg_sq.assign(static_cast<size_t>(num_params), 0.0f);
  step = 0;
  max_abs_exp_avg = 0.0f;
  max_exp_avg_sq = 0.0f;
}

namespace {

// adam_update; with zero_grads (the same buffer as grads), g ← 0 in the in-place pass. Returns
// whether it did.
bool adam_update_impl(std::vector<float>& params, AdamState& state, const std::vector<float>& grads,
                      const AdamOptions& opt, AdamScratch& scratch, float* zero_grads) {
  opt.validate();
  const size_t P = params.size();
  const long n = static_cast<long>(P);
  if (state.exp_avg.size() != P) state.reset(n);

  const long step = state.step + 1;
  // Bias corrections in double, as PyTorch computes them in Python floats.
  const double bias_correction1 = 1.0 - std::pow(static_cast<double>(opt.beta1), step);
  const double bias_correction2 = 1.0 - std::pow(static_cast<double>(opt.beta2), step);
  kernels::AdamConstants k;
  k.beta1 = opt.beta1;
  k.beta2 = opt.beta2;
  k.eps = opt.eps;
  // Adam adds λ p to the gradient; AdamW scales p by 1 − lr λ instead (in double, as PyTorch's
  // Python float, then rounded once).
  k.weight_decay = opt.decoupled ? 0.0f : opt.weight_decay;
  k.param_scale = opt.decoupled
                      ? static_cast<float>(1.0 - static_cast<double>(opt.lr) * opt.weight_decay)
                      : 1.0f;
  k.step_size = static_cast<float>(opt.lr / bias_correction1);
  k.bias_correction2_sqrt = static_cast<float>(std::sqrt(bias_correction2));
  k.one_minus_beta1 = static_cast<float>(1.0 - opt.beta1);
  k.one_minus_beta2 = static_cast<float>(1.0 - opt.beta2);

  // Before anything is written: G = max |g + λp| (NaN/Inf if any gradient is not finite). With
  // |m_old| <= Mo and v_old <= Vo (kept by the previous step), m and v are convex combinations:
  // |m| <= max(Mo, G), v <= max(Vo, G²); the step |lr/(1−β1ᵗ) · m / (√v/√(1−β2ᵗ) + ε)| is at most
  // step_size · max(Mo, G) / ε (and m / denominator is at most max(Mo, G) / ε, which must be
  // finite itself). If the step is below 2^100, p − step rounds to a finite float for any
  // finite p (overflow needs a step of half an ulp of FLT_MAX, 2^103), so every result is finite
  // and the update may run in place. The bounds carry a factor 2 for rounding.
  const double G = kernels::adam_max_abs_grad(grads.data(), params.data(), n, k.weight_decay);
  const double Mo = state.max_abs_exp_avg, Vo = state.max_exp_avg_sq;
  const double M_new = 2.0 * std::max(Mo, G), V_new = 2.0 * std::max(Vo, G * G);
  // A decay factor |1 − lr λ| <= 1 keeps p · factor within p's magnitude; a larger one could
  // overflow, and takes the checked path.
  const bool provably_finite = std::isfinite(G) && Mo >= 0.0 && Vo >= 0.0 && opt.eps > 0.0f &&
                               std::abs(k.param_scale) <= 1.0f && M_new < 1e30 && V_new < 1e36 &&
                               M_new / opt.eps < 1e37 &&
                               static_cast<double>(k.step_size) * M_new / opt.eps < 0x1p100;
  if (provably_finite) {
    if (zero_grads) {
      kernels::adam_inplace_zeroing_grads(params.data(), state.exp_avg.data(),
                                          state.exp_avg_sq.data(), zero_grads, n, k,
                                          &state.max_abs_exp_avg, &state.max_exp_avg_sq);
    } else {
      kernels::adam_inplace(params.data(), state.exp_avg.data(), state.exp_avg_sq.data(),
                            grads.data(), n, k, &state.max_abs_exp_avg, &state.max_exp_avg_sq);
    }
    state.step = step;
    return zero_grads != nullptr;
  }
  // The checked path: candidates p, m, v (each P), committed only if all are finite.
  scratch.params.resize(P);
  scratch.exp_avg.resize(P);
  scratch.exp_avg_sq.resize(P);
  float max_m = 0.0f, max_v = 0.0f;
  const bool finite = kernels::adam_candidate(
      params.data(), state.exp_avg.data(), state.exp_avg_sq.data(), grads.data(), n, k,
      scratch.params.data(), scratch.exp_avg.data(), scratch.exp_avg_sq.data(), &max_m, &max_v);
  if (!finite) {
    throw NonFiniteError(
        "Adam step " + std::to_string(step) +
        " would make a weight NaN or infinite; the step was not applied (lower the learning "
        "rate or clip the gradients)");
  }
  params.swap(scratch.params);
  state.exp_avg.swap(scratch.exp_avg);
  state.exp_avg_sq.swap(scratch.exp_avg_sq);
  state.max_abs_exp_avg = max_m;
  state.max_exp_avg_sq = max_v;
  state.step = step;
  return false;
}

}  // namespace

void adam_update(std::vector<float>& params, AdamState& state, const std::vector<float>& grads,
                 const AdamOptions& opt, AdamScratch& scratch) {
  adam_update_impl(params, state, grads, opt, scratch, nullptr);
}

bool adam_update_zeroing_grads(std::vector<float>& params, AdamState& state,
                               std::vector<float>& grads, const AdamOptions& opt,
                               AdamScratch& scratch) {
  return adam_update_impl(params, state, grads, opt, scratch, grads.data());
}

double grad_l2_norm(const std::vector<float>& grads) {
  double sum = 0.0;
  for (float g : grads) sum += static_cast<double>(g) * g;
  return std::sqrt(sum);
}

float clip_grad_norm(std::vector<float>& grads, float max_norm) {
  if (!(std::isfinite(max_norm) && max_norm > 0.0f)) {
    throw InputError("gradient clipping max_norm must be a positive finite number (got " +
                     format_number(max_norm) + ")");
  }
  const double norm = grad_l2_norm(grads);
  if (!std::isfinite(norm)) {
    throw NonFiniteError("the gradient norm is " + format_number(norm) +
                         ": the loss diverged; the step was not applied");
  }
  // clip_coef = max_norm / (‖g‖ + 1e-6), applied only when it shrinks the gradient
  const double clip_coef = max_norm / (norm + 1e-6);
  if (clip_coef < 1.0) {
    const float c = static_cast<float>(clip_coef);
    for (float& g : grads) g *= c;
  }
  return static_cast<float>(norm);
}

}  // namespace lab
