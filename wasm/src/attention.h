// Attention mechanisms of the note (§3.1–3.6) and the survey's score functions, each a
// _forward/_backward pair on Tensors. Layering: ops → scores → attention → seq2seq → bindings.
//
//   attention:      weights = softmax(mask(score(Q, K))) over the key axis, output = weights V
//   self-attention: Q, K, V = x Wqᵀ + bq, x Wkᵀ + bk, x Wvᵀ + bv; scaled attention     (§3.5)
//   multi-head:     Q, K, V split into H heads of Dh = D / H, per-head scaled attention,
//                   heads combined, output = context Woᵀ + bo                            (§3.6)
//
// Forward results keep exactly what backward needs. Backward returns fresh gradients of every
// input and weight for a given dL/d(output).
#pragma once

#include <string>

#include "tensor.h"

namespace lab {

// The survey's alignment functions a(q, k). Scaled is the default, as in the Transformer.
enum class Score { kDot, kScaled, kGeneral, kAdditive, kCosine };

// Throws InputError naming the valid choices for an unknown name.
Score parse_score(const std::string& name);
const char* score_name(Score score);

// The score function's own weights; only the ones its score uses are set.
struct ScoreParams {
  Tensor w;   // general  qᵀ W k:               W (D, Dk)
  Tensor w1;  // additive vᵀ tanh(W1 q + W2 k + b): W1 (A, D)
  Tensor w2;  //                                     W2 (A, Dk)
  Tensor b;   //                                     b  (A)
  Tensor v;   //                                     v  (A)
};

struct AttentionMask {
  Tensor key_padding;   // (B, M): 1 marks a padding key no query may attend to, 0 a key; or empty
  bool causal = false;  // query n attends only to keys m <= n
};

struct AttentionConfig {
  Score score = Score::kScaled;
  float temperature = 1.0f;  // cosine: scaled = cos(q, k) / temperature
  AttentionMask mask;
  // Whether the forward keeps the raw and the scaled scores (B, N, M) besides the weights. Only
  // callers that show them need them (backward does not): without, attention_forward skips their
  // N·M passes and buffers and leaves AttentionForward::scores / scaled empty.
  bool keep_scores = true;
  bool keep_scaled = true;
};

struct AttentionInputs {
  Tensor query;  // (B, N, D)
  Tensor key;    // (B, M, Dk); Dk == D except for general and additive scores
  Tensor value;  // (B, M, Dv)
  ScoreParams params;
};

struct AttentionForward {
  Tensor scores;  // (B, N, M) alignment a(q_n, k_m), unmasked
  Tensor scaled;  // (B, N, M) what enters the softmax: scores / √D, scores / temperature, or scores
  Tensor weights;  // (B, N, M) softmax over keys; exactly 0 where masked
  Tensor output;   // (B, N, Dv) weights · V
  // Kept for backward only.
  Tensor key_proj;        // general: K Wᵀ (B, M, D)
  Tensor additive_tanh;   // additive: tanh(W1 q_n + W2 k_m + b) (B, N, M, A)
  Tensor q_hat, k_hat;    // cosine: normalised rows (B, N, D), (B, M, D)
  Tensor q_norm, k_norm;  // cosine: row norms (B, N), (B, M)
};

struct AttentionGrads {
  Tensor query, key, value;  // same shapes as the inputs
  ScoreParams params;        // same shapes as the score weights that were given
};

// Checks shapes, finiteness, the score's weights and the mask; throws InputError naming the
// problem (e.g. "key has 5 features but query has 4"). Called by attention_forward.
void validate_attention(const AttentionInputs& in, const AttentionConfig& cfg);
// Checks mask.key_padding is (B, M) and finite (fully masked rows are caught with the queries).
void validate_mask(const AttentionMask& mask, long B, long M);
AttentionForward attention_forward(const AttentionInputs& in, const AttentionConfig& cfg);
AttentionGrads attention_backward(const AttentionInputs& in, const AttentionConfig& cfg,
                                  const AttentionForward& fwd, const Tensor& doutput);

// Learned projections, nn.Linear layout: weight (out, in), bias (out).
struct ProjectionParams {
  Tensor wq, bq, wk, bk, wv, bv;  // (D, D), (D)
  Tensor wo, bo;                  // multi-head only: (D, D), (D)
};

struct SelfAttentionForward {
  // query, key, value = the projected Q, K, V: (B, N, D) for self-attention; for multi-head the
  // heads are split out, (B·H, N, Dh), the same memory as PyTorch's (B, H, N, Dh) after transpose.
  AttentionInputs qkv;
  AttentionForward attn;  // scores … output; multi-head: batch axis B·H, e.g. weights (B·H, N, N)
  Tensor context;         // multi-head: heads combined (B, N, D)
  Tensor output;  // (B, N, D): attn.output for self-attention, context Woᵀ + bo for multi-head
};

struct ProjectionGrads {
  Tensor x;
  ProjectionParams params;
};

// §3.5: scaled dot-product self-attention with learned Q, K, V; mask as in AttentionConfig.
SelfAttentionForward self_attention_forward(const Tensor& x, const ProjectionParams& p,
                                            const AttentionMask& mask);
ProjectionGrads self_attention_backward(const Tensor& x, const ProjectionParams& p,
                                        const AttentionMask& mask, const SelfAttentionForward& fwd,
                                        const Tensor& doutput);

// §3.6: multi-head attention, num_heads must divide D.
SelfAttentionForward multi_head_forward(const Tensor& x, const ProjectionParams& p, long num_heads,
                                        const AttentionMask& mask);
ProjectionGrads multi_head_backward(const Tensor& x, const ProjectionParams& p, long num_heads,
                                    const AttentionMask& mask, const SelfAttentionForward& fwd,
                                    const Tensor& doutput);

}  // namespace lab
