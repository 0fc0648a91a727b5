// Adam's element-wise passes over the flat parameter buffer (optim.cpp decides which
// runs; torch.optim.Adam's formulas are in optim.h).
#pragma once

namespace lab::kernels {

// The per-step constants of one Adam update.
struct AdamConstants {
  float beta1, beta2, eps, weight_decay;  // weight_decay: Adam's L2 term, λ in g + λ p
  float param_scale;                      // AdamW's decay 1 − lr λ of p (1: none)
  float step_size;                        // lr / (1 − β1ᵗ)
  float bias_correction2_sqrt;            // √(1 − β2ᵗ)
  float one_minus_beta1, one_minus_beta2;
};

// max |g + λ p| over n elements as a float (λ = weight_decay; p unread when λ = 0); +Inf or NaN
// when any gradient (or g + λ p) is not finite. One read of g: the check that runs BEFORE an
// in-place update.
float adam_max_abs_grad(const float* g, const float* p, long n, float weight_decay);

// One in-place pass: p, m, v ← Adam(p, g, m, v). Writes max |m| and max v after the update. The
// caller has proven the results finite (optim.cpp); nothing is checked here.
void adam_inplace(float* p, float* m, float* v, const float* g, long n, const AdamConstants& k,
                  float* max_abs_m, float* max_v);

// adam_inplace, and g ← 0 in the same pass (optimizer.zero_grad() after the step, without a
// second pass over the gradients: the loop is bound by its division and square root, so the
// extra store is free).
void adam_inplace_zeroing_grads(float* p, float* m, float* v, float* g, long n,
                                const AdamConstants& k, float* max_abs_m, float* max_v);

// The same update into separate buffers (p_new, m_new, v_new): returns false, with the old
// buffers untouched, when any result is NaN or ±Inf. Writes max |m_new| and max v_new.
bool adam_candidate(const float* p, const float* m, const float* v, const float* g, long n,
                    const AdamConstants& k, float* p_new, float* m_new, float* v_new,
                    float* max_abs_m, float* max_v);

}  // namespace lab::kernels
