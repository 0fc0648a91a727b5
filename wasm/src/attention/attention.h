// §3.1–3.6's attention API on Tensors: validates user tensors (shapes, finiteness, masks; an
// InputError naming the argument), then runs the attention core on them — attention/core.h for
// attention with any score, attention/mha.h for self- and multi-head attention — so the page,
// the bench and the Transformer run the same code. Layering: kernels → ops → attention → models
// → bindings. Dimension letters as in tensor.h.
//
//   attention:      weights = softmax(mask(score(Q, K))) over the key axis, output = weights V
//   self-attention: Q, K, V = x Wqᵀ + bq, x Wkᵀ + bk, x Wvᵀ + bv; scaled attention     (§3.5)
//   multi-head:     Q, K, V split into H heads of Dh = D / H, per-head scaled attention,
//                   heads combined, output = context Woᵀ + bo                            (§3.6)
//
// Forward results keep exactly what backward needs. Backward ACCUMULATES (+=) the gradients of
// every input and weight for a given dL/d(output) into buffers the caller owns (llm.c style).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention/core.h"
#include "attention/mha.h"
#include "tensor.h"

namespace lab {

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
  bool any() const { return causal || !key_padding.empty(); }
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
  Tensor weights;                    // (B, N, M) softmax over keys; exactly 0 where masked
  Tensor output;                     // (B, N, Dv) weights · V
  attn::ScoreActsBuffer score_acts;  // kept for backward only: the score's own activations
};

// Where attention_backward ACCUMULATES (+=) its gradients: buffers the caller owns and zeroes,
// shaped like the inputs — query (B, N, D), key (B, M, Dk), value (B, M, Dv) — and like the
// score's own weights (w for general; w1, w2, b, v for additive; the others are not touched and
// may be null). key and value may be the same buffer.
struct AttentionGrads {
  float* query = nullptr;
  float* key = nullptr;
  float* value = nullptr;
  attn::ScoreGrads score;
};

// Zeroed gradient tensors for one-off calls (the bindings, the tests): the inputs' shapes, and
// the shapes of the weights `score` uses.
struct AttentionGradTensors {
  Tensor query, key, value;
  ScoreParams params;
  AttentionGradTensors(const AttentionInputs& in, Score score);
  AttentionGrads views();
};

// Scratch of attention_forward / attention_backward: sized by the first call of a shape and
// reused by every later one (a training or decoding step allocates nothing).
struct AttentionWorkspace {
  std::vector<uint8_t> key_pad;  // (B, M) 1 = padding
  std::vector<uint8_t> keep;     // (B, N, M) 1 = may attend
  attn::AttentionScratch scratch;
};

// Checks mask.key_padding is (B, M) and finite (fully masked rows are caught with the queries).
void validate_mask(const AttentionMask& mask, long B, long M);
// ws.keep (B, N, M): 1 where query n of batch b may attend to key m; ws.key_pad (B, M) the key
// padding as bytes, 1 = padding, when the mask has one. Throws InputError naming a query with no
// key left: softmax over nothing has no meaning, and a NaN would poison everything after it.
void build_keep(AttentionWorkspace& ws, const AttentionMask& mask, long B, long N, long M);
// Validates the inputs (shapes, finiteness, the score's weights, the mask; InputError naming the
// problem, e.g. "key has 5 features but query has 4") and computes fwd, reusing its buffers and
// the workspace's when the shapes are those of the previous call.
void attention_forward(AttentionForward& fwd, AttentionWorkspace& ws, const AttentionInputs& in,
                       const AttentionConfig& cfg);
// The same for a one-off call: fresh result and workspace.
AttentionForward attention_forward(const AttentionInputs& in, const AttentionConfig& cfg);
// Accumulates dL/d(inputs) and dL/d(score weights) for a given dL/d(output) into g.
void attention_backward(const AttentionGrads& g, AttentionWorkspace& ws, const AttentionInputs& in,
                        const AttentionConfig& cfg, const AttentionForward& fwd,
                        const Tensor& doutput);

// Learned projections, nn.Linear layout: weight (out, in), bias (out).
struct ProjectionParams {
  Tensor wq, bq, wk, bk, wv, bv;  // (D, D), (D)
  Tensor wo, bo;                  // multi-head only: (D, D), (D)
};

struct SelfAttentionForward {
  // What the caller reads, copied out of `acts`. query, key, value = the projected Q, K, V:
  // (B, N, D) for self-attention; for multi-head the heads are split out, (B·H, N, Dh), the same
  // memory as PyTorch's (B, H, N, Dh) after transpose.
  AttentionInputs qkv;
  AttentionForward attn;  // scores … output; multi-head: batch axis B·H, e.g. weights (B·H, N, N)
  Tensor context;         // multi-head: heads combined (B, N, D)
  Tensor output;  // (B, N, D): attn.output for self-attention, context Woᵀ + bo for multi-head
  MhaActs acts;   // the core's activations, for backward
};

// Gradients of x and of every projection weight, owned by the caller; *_backward accumulate
// (+=) into them. zero_projection_grads sizes and zeroes a set.
struct ProjectionGrads {
  Tensor x;
  ProjectionParams params;
};
ProjectionGrads zero_projection_grads(const Tensor& x, bool with_output);

// §3.5: scaled dot-product self-attention with learned Q, K, V; mask as in AttentionConfig.
SelfAttentionForward self_attention_forward(const Tensor& x, const ProjectionParams& p,
                                            const AttentionMask& mask);
// fwd: the forward's result (its activations serve as the backward's scratch).
void self_attention_backward(ProjectionGrads& g, const Tensor& x, const ProjectionParams& p,
                             SelfAttentionForward& fwd, const Tensor& doutput);

// §3.6: multi-head attention, num_heads must divide D.
SelfAttentionForward multi_head_forward(const Tensor& x, const ProjectionParams& p, long num_heads,
                                        const AttentionMask& mask);
void multi_head_backward(ProjectionGrads& g, const Tensor& x, const ProjectionParams& p,
                         SelfAttentionForward& fwd, const Tensor& doutput);

}  // namespace lab
