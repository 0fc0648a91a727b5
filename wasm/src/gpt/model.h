// A decoder-only Transformer language model in GPT-2's form, parameter for parameter nanoGPT's
// GPT (state-dict names below) and number for number tests/reference/gen_gpt.py's module:
//
//   x_0 = wte[idx] + wpe[0 … T−1]                                       (B, T, C)
//   per block l:  m_l = x_l + attn_l(ln_1(x_l))   causal multi-head self-attention
//                 x_{l+1} = m_l + mlp_l(ln_2(m_l))  mlp = c_proj(gelu_tanh(c_fc(·)))
//   logits = ln_f(x_L) wteᵀ                         lm_head tied to wte, no bias    (B, T, V)
//   loss = mean over positions with target ≠ −1 of −log softmax(logits)[target]
//
// No dropout. The attention is the project's one multi-head core (attention/mha.h) with its
// causal mask: c_attn is its in_proj (q; k; v row blocks, (3C, C)), c_proj its out_proj. Layer
// norm, linear layers, GELU and the cross-entropy are ops.h's.
//
// Dimension letters (besides tensor.h's): B batch rows, T positions (≤ Tmax, the block size),
// C width (d_model), H heads, Dh = C / H, F = 4C the MLP's width, V vocabulary, L layers,
// P parameters, R = B·T rows.
//
// Parameters (nanoGPT's names, one flat buffer):
//   transformer.wte.weight (V, C)   transformer.wpe.weight (Tmax, C)
//   transformer.h.<l>.ln_1.{weight,bias} (C)   .attn.c_attn.weight (3C, C)  .attn.c_attn.bias (3C)
//   .attn.c_proj.weight (C, C)  .attn.c_proj.bias (C)   .ln_2.{weight,bias} (C)
//   .mlp.c_fc.weight (F, C)  .mlp.c_fc.bias (F)  .mlp.c_proj.weight (C, F)  .mlp.c_proj.bias (C)
//   transformer.ln_f.{weight,bias} (C)
//   lm_head.weight: not a parameter of its own; a state dict (gpt/interchange.h) holds it as a
//   copy of wte, as GPT.state_dict() does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention/mha.h"
#include "ops.h"
#include "optim.h"
#include "params.h"

namespace lab {

constexpr long kGptMaxLayers = 12;
constexpr long kGptMaxBlockSize = 1024;
constexpr long kGptMaxWidth = 1024;

struct GptConfig {
  long vocab = 0;        // V
  long block_size = 64;  // Tmax: the positional table's rows, the longest context
  long layers = 2;       // L
  long heads = 2;        // H, must divide d_model
  long d_model = 32;     // C
  uint64_t seed = 0;

  // Throws InputError naming the setting, before anything is allocated.
  void validate() const;
};

// B rows of T ids and their next-token targets (−1: no loss at that position), row-major.
struct GptBatch {
  long B = 0, T = 0;
  std::vector<int32_t> idx;      // (B, T)
  std::vector<int32_t> targets;  // (B, T), or empty: logits only
};

constexpr int32_t kGptIgnoreTarget = -1;

// One block's weights (or gradients) as pointers into the flat buffer.
template <class P>
struct GptBlockP {
  LayerNormP<P> ln_1, ln_2;
  MhaP<P> attn;  // c_attn = in_proj, c_proj = out_proj
  P fc_w, fc_b, proj_w, proj_b;
};

class GptModel : public ParamStore {
 public:
  explicit GptModel(const GptConfig& config);

  const GptConfig& config() const { return config_; }

  // ---- parameters: ParamStore's flat buffer, gradients, named views and Adam state
  // nanoGPT's init from config().seed: every matrix and embedding N(0, 0.02²), the blocks'
  // mlp.c_proj / attn.c_proj weights N(0, (0.02/√(2L))²), biases 0, LayerNorms 1 and 0.
  // Resets Adam.
  void reset_parameters();

  // ---- training (model.cpp)
  // Throws InputError naming the array, position or size: B, T in [1, Tmax], ids and targets
  // in [0, V) (targets also −1), sizes B·T; the model is left as it was.
  void validate_batch(const GptBatch& batch) const;
  // The logits (B, T, V) of `batch` (targets not needed), and every layer's attention.
  const std::vector<float>& forward(const GptBatch& batch);
  // The logits of the last forward, (B, T, V); after forward_backward or loss_only, only the
  // rows with a target (the others are not computed).
  const std::vector<float>& last_logits() const { return logits_; }
  // The same with heads zeroed: zero_heads (L, H), 1 = that head's output is 0 before c_proj
  // (gpt/heads.h makes it from a list of heads, checked); empty: none.
  const std::vector<float>& forward(const GptBatch& batch, const std::vector<uint8_t>& zero_heads);
  // Zeroes the gradients, computes the loss and every parameter's gradient. Throws
  // NonFiniteError if the loss is NaN/Inf, InputError if no position has a target.
  float forward_backward(const GptBatch& batch);
  float loss_only(const GptBatch& batch);
  // Of the last forward_backward's positions with a target, how many the logits' first maximum
  // hits (the step's token accuracy, counted in the loss's pass over the logits).
  long last_hits() const { return last_hits_; }
  // One torch.optim.Adam or, with options.decoupled, torch.optim.AdamW step (optim.h) with the
  // gradients of the last forward_backward.
  void adam_step(const AdamOptions& options);
  // adam_step, after which the gradients are spent (ParamStore::step_adam_consuming_grads: a
  // training loop's step; the next forward_backward need not clear them).
  void adam_step_consuming_grads(const AdamOptions& options);

  // The last forward's attention of layer l: (B, H, T, T), 0 above the diagonal.
  const std::vector<float>& attention(long l) const { return blocks_[l].attn.att; }
  const std::vector<float>& logits() const { return logits_; }

  // ---- weights as pointers, for the cached decoder (gpt/generate.cpp)
  GptBlockP<const float*> block_w(long l) const;
  const float* wte() const { return params_.data() + off_.wte; }
  const float* wpe() const { return params_.data() + off_.wpe; }
  LayerNormP<const float*> ln_f_w() const {
    return {params_.data() + off_.ln_f.w, params_.data() + off_.ln_f.b};
  }

 private:
  // LayerNorm rows: y (R, C), mean and rstd (R).
  struct NormActs {
    std::vector<float> y, mean, rstd;
  };
  struct BlockActs {
    NormActs ln_1, ln_2;
    MhaActs attn;
    std::vector<float> mid;       // (R, C) m_l = x_l + attn
    std::vector<float> fc, gelu;  // (R, F) c_fc output, after the GELU
    std::vector<float> gelu_t;    // (R, F) the GELU's inner tanh, for the backward
    std::vector<float> mlp;       // (R, C) c_proj output
    std::vector<float> out;       // (R, C) x_{l+1}
  };
  void build_table();
  void select_rows(const GptBatch& batch);
  // The loss; with_dlogits: also dlogits_, the loss's gradient for backward (from the one pass
  // of cross_entropy_forward_backward), and last_hits_.
  float forward_loss(const GptBatch& batch, const uint8_t* zero_heads = nullptr,
                     bool with_dlogits = false);
  void backward(const GptBatch& batch);
  GptBlockP<float*> block_g(long l);

  GptConfig config_;

  // Offsets into params_ / grads_.
  struct Offsets {
    long wte = 0, wpe = 0;
    std::vector<GptBlockP<long>> blocks;
    LayerNormP<long> ln_f{};
  } off_;

  // Activations of the last forward (sized by the batch; vectors keep their capacity).
  long B_ = 0, T_ = 0;
  // For a loss (forward_backward, loss_only), the rows b·T + t up to each window's last target:
  // attention is causal, so a later position changes no loss, and its forward and backward are
  // skipped (kernels::RowSet: the rows computed get the numbers of the full batch). rows_ is
  // &loss_set_, or null: every row (forward).
  std::vector<int32_t> loss_rows_;
  kernels::RowSet loss_set_{};
  const kernels::RowSet* rows_ = nullptr;
  std::vector<float> x0_;  // (R, C)
  std::vector<BlockActs> blocks_;
  NormActs ln_f_;
  std::vector<float> logits_, probs_;  // (R, V)
  long last_hits_ = 0;
  // Backward scratch.
  std::vector<float> dlogits_, dx_, dmid_, dln_;  // (R, V), (R, C) × 3
  std::vector<float> dh_, dfc_;                   // (R, F)
};

}  // namespace lab
