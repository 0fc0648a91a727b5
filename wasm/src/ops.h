// Building blocks: each a _forward/_backward pair on raw row-major buffers (dimension letters in
// tensor.h). Backward functions ACCUMULATE into their gradient buffers (+=), as in llm.c, so a
// weight used at several time steps or by several layers sums its gradients; callers zero them
// once. Any gradient pointer may be null when that gradient is not wanted.
//
// Nothing here validates user input beyond what would otherwise be undefined behaviour (ids out of
// range, fully masked softmax rows): the layers above check shapes and values and name the
// argument in their errors.
#pragma once

#include <cstdint>

namespace lab {

namespace kernels {
struct SoftmaxStatus;
struct RowSet;
}  // namespace kernels

// y = x Wᵀ + b          x (R, I), W (O, I), b (O) or null, y (R, O)
// rows: null, or the rows of x and y that are read (kernels::RowSet; the others are left finite)
void linear_forward(float* y, const float* x, const float* w, const float* b, long R, long I,
                    long O, const kernels::RowSet* rows = nullptr);
// Whether a backward op adds the gradient of its input to what the buffer holds (kAdd: the
// buffer gathers the gradients of several uses) or writes it (kSet: the buffer need not be
// zeroed first, which on the GPT's 2,578-column logits was a 5 MB memset a step).
enum class Grad { kAdd, kSet };

// dx += dy W (kSet: dx = dy W),  dW += dyᵀ x,  db += Σ_r dy
// rows: null, or the rows where dy may be nonzero (the others' dy must be 0): the rows of dx
// that are computed (the others are left finite), and the rows dW and db sum (adding the others'
// zeros would give the same bits).
void linear_backward(float* dx, float* dw, float* db, const float* dy, const float* x,
                     const float* w, long R, long I, long O, Grad into = Grad::kAdd,
                     const kernels::RowSet* rows = nullptr);

// y[t] = table[ids[t]]  ids (T), table (V, C), y (T, C). Throws InputError for an id outside [0,
// V).
void embedding_forward(float* y, const int32_t* ids, const float* table, long T, long V, long C);
// dtable[ids[t]] += dy[t]
void embedding_backward(float* dtable, const float* dy, const int32_t* ids, long T, long C);

// y = a + b (the residual connection; its backward is "dy flows to both", done by the callers'
// accumulation)                                 a, b, y (n)
void residual_forward(float* y, const float* a, const float* b, long n);

// y = tanh(x)           x, y (n)
void tanh_forward(float* y, const float* x, long n);
// dx += dy ⊙ (1 − y²)    uses the forward's output, not its input
void tanh_backward(float* dx, const float* dy, const float* y, long n);

// GELU, tanh approximation (nn.GELU(approximate='tanh'), GPT-2's):
//   y = ½ x (1 + tanh(u)),  u = √(2/π) (x + 0.044715 x³)          x, y (n)
// t (n) or null: tanh u kept for gelu_backward.
void gelu_forward(float* y, const float* x, long n, float* t = nullptr);
// dx += dy ⊙ (½ (1 + tanh u) + ½ x (1 − tanh² u) √(2/π) (1 + 3 · 0.044715 x²))   from the input x
// and, when not null, gelu_forward's tanh u of it
void gelu_backward(float* dx, const float* dy, const float* x, long n, const float* t = nullptr,
                   Grad into = Grad::kAdd);

// LayerNorm's ε (nn.LayerNorm and nn.Transformer's default layer_norm_eps).
constexpr float kLayerNormEps = 1e-5f;

// A LayerNorm's weight and bias (C) each, as nn.LayerNorm(C).
template <class P>
struct LayerNormP {
  P w, b;
};
// y = (x − mean) / √(var + ε) ⊙ w + b per row (biased variance, as nn.LayerNorm)
// x, y (R, C), w, b (C); mean, rstd (R) kept for backward (rstd = 1 / √(var + ε)).
// rows: null, or the rows that are read (kernels::RowSet); the others get y, mean, rstd = 0.
void layernorm_forward(float* y, float* mean, float* rstd, const float* x, const float* w,
                       const float* b, long R, long C, const kernels::RowSet* rows = nullptr);
// x̂ = (x − mean)·rstd, g = dy ⊙ w:
// dx += rstd · (g − mean_c(g) − x̂ · mean_c(g ⊙ x̂)) (kSet: dx = that),  dw += Σ_r dy ⊙ x̂,
// db += Σ_r dy
// rows: null, or the forward's rows, where dy may be nonzero: the other rows add nothing to dw and
// db, and their dx is left (kAdd) or 0 (kSet).
void layernorm_backward(float* dx, float* dw, float* db, const float* dy, const float* x,
                        const float* mean, const float* rstd, const float* w, long R, long C,
                        Grad into = Grad::kAdd, const kernels::RowSet* rows = nullptr);

// y = softmax(x) over the last axis of (R, C), numerically stable (row max subtracted first).
// keep (R, C) or null: entries with keep == 0 get weight exactly 0. A row with nothing kept
// throws InputError (an all-masked row has no distribution; silently returning NaN would hide it);
// a non-finite input, OverflowError. With `scale`: y = softmax(scale · x) (scale > 0).
void softmax_forward(float* y, const float* x, const uint8_t* keep, long R, long C,
                     float scale = 1.0f);
// Throws what softmax_forward throws for what kernels::softmax_forward reported.
void check_softmax_status(const kernels::SoftmaxStatus& status);
// dx += y ⊙ (dy − Σ_c dy ⊙ y)    per row
void softmax_backward(float* dx, const float* dy, const float* y, long R, long C);

// loss = mean over rows with targets[r] != ignore_index of −log softmax(logits[r])[targets[r]].
// logits, probs (R, V); probs keeps the softmax for backward. Returns 0 when every row is ignored,
// NaN when a logit is not finite (the callers report that as divergence).
// Throws InputError for a target outside [0, V) that is not ignore_index.
// −log p = log Σ exp(logits) − logit at the target (log-sum-exp, not log(probs): a tiny probability
// would underflow to 0 and give inf); LogSumExp says how the log Σ exp is had:
// - kFloat: the softmax's own float row sums (no second pass over the logits: the Transformer and
//   the GPT, whose 2,578-character rows made the second pass in double a sixth of a step);
// - kDouble: summed again in double (the Seq2Seq models and the crossEntropy op, whose losses the
//   article's recipes and their references were measured with).
enum class LogSumExp { kFloat, kDouble };
// Which rows get their probs: every row (the crossEntropy op, whose probs are a result), or the
// rows with a target only (the models, which read no others: an ignored row's probs are left as
// they were and its logits unread, so they need not be computed).
enum class ProbsFor { kEveryRow, kTargetRows };
float cross_entropy_forward(float* probs, const float* logits, const int32_t* targets,
                            int32_t ignore_index, long R, long V, LogSumExp log_sum_exp,
                            ProbsFor probs_for = ProbsFor::kEveryRow);
// The two above in one pass over the logits, for a training step that needs no probs: returns
// cross_entropy_forward's loss (kFloat) and writes what cross_entropy_backward (kSet) would,
// bit for bit: dlogits = dloss · (softmax(logits) − onehot(target)) / count, ignored rows 0.
// hits (or null): the number of rows with a target whose first largest logit is at the target
// (the token accuracy's count, from the softmax's row maxima instead of another pass).
// A loss that is not finite: NaN, dlogits unspecified.
float cross_entropy_forward_backward(float* dlogits, const float* logits, const int32_t* targets,
                                     int32_t ignore_index, long R, long V, float dloss, long* hits);
// dlogits += dloss · (probs − onehot(target)) / count, ignored rows get nothing (kSet: dlogits =
// that, ignored rows 0)
void cross_entropy_backward(float* dlogits, const float* probs, const int32_t* targets,
                            int32_t ignore_index, long R, long V, float dloss,
                            Grad into = Grad::kAdd);

}  // namespace lab
