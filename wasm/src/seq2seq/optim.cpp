#include "seq2seq/optim.h"

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "format.h"
#include "vectorize.h"

namespace lab {

namespace {

void require(bool ok, const std::string& what, float value) {
  if (!ok) throw InputError("Adam " + what + " (got " + format_number(value) + ")");
}

// One branch-free pass over every parameter, which the compiler vectorises (AVX, wasm SIMD): at
// batch 1 it costs more than the whole forward and backward. sqrt and / are IEEE-exact in vector
// form too, so the results are bit-identical to a scalar loop. (g++ needs -fno-math-errno, set in
// CMakeLists.txt, or its errno check on sqrt keeps the loop scalar.) Returns false if any result is
// NaN or ±Inf (x − x is 0 only for finite x), without a branch in the loop.
template <bool kWeightDecay>
bool adam_pass(long n, const float* __restrict p_old, const float* __restrict grad,
               const float* __restrict m_old, const float* __restrict v_old,
               float* __restrict p_new, float* __restrict m_new, float* __restrict v_new,
               const AdamOptions& opt, float step_size, float bias_correction2_sqrt,
               float one_minus_beta1, float one_minus_beta2) {
  const float beta1 = opt.beta1, beta2 = opt.beta2, eps = opt.eps, wd = opt.weight_decay;
  int nonfinite = 0;
  LAB_VECTORIZE
  for (long i = 0; i < n; ++i) {
    // g ← g + λ p
    const float g = kWeightDecay ? grad[i] + wd * p_old[i] : grad[i];
    // m ← β1 m + (1 − β1) g
    const float m = m_old[i] * beta1 + one_minus_beta1 * g;
    // v ← β2 v + (1 − β2) g²
    const float v = v_old[i] * beta2 + one_minus_beta2 * (g * g);
    // p ← p − lr / (1 − β1ᵗ) · m / (√v / √(1 − β2ᵗ) + ε)
    const float denom = std::sqrt(v) / bias_correction2_sqrt + eps;
    const float p = p_old[i] - step_size * (m / denom);
    p_new[i] = p;
    m_new[i] = m;
    v_new[i] = v;
    const float zero_if_finite = (p - p) + (m - m) + (v - v);
    nonfinite |= zero_if_finite != zero_if_finite;
  }
  return nonfinite == 0;
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
                 const AdamOptions& opt, AdamScratch& scratch) {
  opt.validate();
  const size_t P = params.size();
  if (state.exp_avg.size() != P) state.reset(static_cast<long>(P));
  // candidate p, m, v (each P); committed only if all are finite
  scratch.params.resize(P);
  scratch.exp_avg.resize(P);
  scratch.exp_avg_sq.resize(P);
  float* new_p = scratch.params.data();
  float* new_m = scratch.exp_avg.data();
  float* new_v = scratch.exp_avg_sq.data();

  const long step = state.step + 1;
  // Bias corrections in double, as PyTorch computes them in Python floats.
  const double bias_correction1 = 1.0 - std::pow(static_cast<double>(opt.beta1), step);
  const double bias_correction2 = 1.0 - std::pow(static_cast<double>(opt.beta2), step);
  const float step_size = static_cast<float>(opt.lr / bias_correction1);
  const float bias_correction2_sqrt = static_cast<float>(std::sqrt(bias_correction2));
  const float one_minus_beta1 = static_cast<float>(1.0 - opt.beta1);
  const float one_minus_beta2 = static_cast<float>(1.0 - opt.beta2);

  const bool finite =
      opt.weight_decay != 0.0f
          ? adam_pass<true>(static_cast<long>(P), params.data(), grads.data(), state.exp_avg.data(),
                            state.exp_avg_sq.data(), new_p, new_m, new_v, opt, step_size,
                            bias_correction2_sqrt, one_minus_beta1, one_minus_beta2)
          : adam_pass<false>(static_cast<long>(P), params.data(), grads.data(),
                             state.exp_avg.data(), state.exp_avg_sq.data(), new_p, new_m, new_v,
                             opt, step_size, bias_correction2_sqrt, one_minus_beta1,
                             one_minus_beta2);
  if (!finite) {
    throw NonFiniteError(
        "Adam step " + std::to_string(step) +
        " would make a weight NaN or infinite; the step was not applied (lower the learning "
        "rate or clip the gradients)");
  }
  params.swap(scratch.params);
  state.exp_avg.swap(scratch.exp_avg);
  state.exp_avg_sq.swap(scratch.exp_avg_sq);
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
