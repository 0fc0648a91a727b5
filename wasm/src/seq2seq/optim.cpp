#include "seq2seq/optim.h"

#include <cmath>
#include <string>

namespace lab {

namespace {

void require(bool ok, const std::string& what, float value) {
  if (!ok) throw InputError("Adam " + what + " (got " + std::to_string(value) + ")");
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
}

void adam_update(std::vector<float>& params, AdamState& state, const std::vector<float>& grads,
                 const AdamOptions& opt, std::vector<float>& scratch) {
  opt.validate();
  const size_t P = params.size();
  if (state.exp_avg.size() != P) state.reset(static_cast<long>(P));
  // scratch (3, P): candidate p, m, v; committed only if all are finite
  scratch.resize(3 * P);
  float* new_p = scratch.data();
  float* new_m = new_p + P;
  float* new_v = new_m + P;

  const long step = state.step + 1;
  // Bias corrections in double, as PyTorch computes them in Python floats.
  const double bias_correction1 = 1.0 - std::pow(static_cast<double>(opt.beta1), step);
  const double bias_correction2 = 1.0 - std::pow(static_cast<double>(opt.beta2), step);
  const float step_size = static_cast<float>(opt.lr / bias_correction1);
  const float bias_correction2_sqrt = static_cast<float>(std::sqrt(bias_correction2));
  const float one_minus_beta1 = static_cast<float>(1.0 - opt.beta1);
  const float one_minus_beta2 = static_cast<float>(1.0 - opt.beta2);

  bool finite = true;
  for (size_t i = 0; i < P; ++i) {
    // g ← g + λ p
    const float g = opt.weight_decay != 0.0f ? grads[i] + opt.weight_decay * params[i] : grads[i];
    // m ← β1 m + (1 − β1) g
    const float m = state.exp_avg[i] * opt.beta1 + one_minus_beta1 * g;
    // v ← β2 v + (1 − β2) g²
    const float v = state.exp_avg_sq[i] * opt.beta2 + one_minus_beta2 * (g * g);
    // p ← p − lr / (1 − β1ᵗ) · m / (√v / √(1 − β2ᵗ) + ε)
    const float denom = std::sqrt(v) / bias_correction2_sqrt + opt.eps;
    const float p = params[i] - step_size * (m / denom);
    new_p[i] = p;
    new_m[i] = m;
    new_v[i] = v;
    finite = finite && std::isfinite(p) && std::isfinite(m) && std::isfinite(v);
  }
  if (!finite) {
    throw NonFiniteError(
        "Adam step " + std::to_string(step) +
        " would make a weight NaN or infinite; the step was not applied (lower the learning "
        "rate or clip the gradients)");
  }
  std::copy(new_p, new_p + P, params.begin());
  std::copy(new_m, new_m + P, state.exp_avg.begin());
  std::copy(new_v, new_v + P, state.exp_avg_sq.begin());
  state.step = step;
}

double grad_l2_norm(const std::vector<float>& grads) {
  double sum = 0.0;
  for (float g : grads) sum += static_cast<double>(g) * g;
  return std::sqrt(sum);
}

float clip_grad_norm(std::vector<float>& grads, float max_norm) {
  if (!(std::isfinite(max_norm) && max_norm > 0.0f)) {
    throw InputError("gradient clipping max_norm must be a positive finite number (got " +
                     std::to_string(max_norm) + ")");
  }
  const double norm = grad_l2_norm(grads);
  if (!std::isfinite(norm)) {
    throw NonFiniteError("the gradient norm is " + std::to_string(norm) +
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
