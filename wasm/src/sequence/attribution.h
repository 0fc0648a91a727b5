// Attribution of a translation's output words to its source tokens by gradients, beside the
// attention (the "attention is not explanation" debate: Jain & Wallace 2019; Wiegreffe & Pinter
// 2019). Both methods differentiate f_t = log p(y_t | x, y_<t), the log-probability of output
// word t under teacher forcing, with respect to the source embeddings x (S, E), through the
// model's own backward pass (each model's source_embedding_gradient: rnn/attribution.h and
// transformer/attribution.h share everything here but the model):
//
//   gradient × input:      a[t, s] = Σ_e x[s, e] · ∂f_t/∂x[s, e]
//   integrated gradients:  a[t, s] = Σ_e x[s, e] · (1/n) Σ_{k=1..n} ∂f_t/∂x[s, e] at α_k·x,
//                          α_k = (k − ½)/n (midpoint rule), baseline the zero embedding, so
//                          Σ_s a[t, s] ≈ f_t(x) − f_t(0) (completeness; exact as n → ∞).
//
// Each is compared with the attention row of the same output word by Spearman's rank
// correlation (ties get their average rank).
//
// Dimension letters as in tensor.h: S source length, T output words, E embedding size.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sequence/batch.h"
#include "tensor.h"  // InputError

namespace lab {

// What attribution (below) differentiates: the batch's loss and its gradient with respect
// to the source embeddings, which are given instead of looked up.
struct SourceEmbeddingGradient {
  float loss = 0.0f;
  std::vector<float> logits;  // (B, T, Vt)
  std::vector<float> grad;    // (B, S, E) d loss / d source embeddings
};

enum class AttributionMethod { kGradientInput, kIntegratedGradients };

const char* attribution_method_name(AttributionMethod method);
AttributionMethod parse_attribution_method(const std::string& name);  // throws InputError

constexpr long kMaxAttributionSteps = 1024;  // integrated gradients' n: enough for any figure

struct AttributionOptions {
  AttributionMethod method = AttributionMethod::kGradientInput;
  long steps = 32;  // n of integrated gradients, in [1, kMaxAttributionSteps]
  int32_t sos_id = 1;
  void validate() const;  // throws InputError
};

struct AttributionResult {
  long S = 0, T = 0;
  AttributionMethod method = AttributionMethod::kGradientInput;
  long steps = 0;                        // n (integrated gradients), 1 for gradient × input
  std::vector<int32_t> target;           // (T) the output words attributed
  std::vector<float> scores;             // (T, S) a[t, s]
  std::vector<float> attention;          // (T, S) teacher-forced attention; empty without attention
  std::vector<float> log_prob;           // (T) f_t(x)
  std::vector<float> baseline_log_prob;  // (T) f_t(0): integrated gradients only, else empty
  // (T) Spearman's ρ between scores[t] and attention[t]; absent without attention, or when
  // either row is constant (one source token, or equal weights) and ρ is undefined.
  std::vector<std::optional<double>> rank_correlation;
};

// The teacher-forced batch of T rows that attributes every output word at once: each row is the
// same source and decoder input [<sos>, y_0 … y_{T−2}], and row t keeps only target y_t (the
// others are <pad>, which the loss skips). The loss is then (1/T) Σ_t −f_t, so row t's gradient
// is −(1/T) ∂f_t/∂x.
Batch attribution_batch(const std::vector<int32_t>& src, const std::vector<int32_t>& target,
                        int32_t sos_id);
// Throws InputError unless every output word is an id of the target vocabulary (Vt) other than
// <pad>, and there is at least one.
void check_attributed_words(const std::vector<int32_t>& target, long Vt);
// The model's loss of attribution_batch and its gradient with respect to the source embeddings
// (T, S, E) given in place of the looked-up ones.
using EmbeddingGradientFn =
    std::function<SourceEmbeddingGradient(const std::vector<float>& src_emb)>;
// Everything of AttributionResult but the attention and ρ: x (S, E) the source embeddings,
// Vt the target vocabulary, `gradient` the model's backward pass.
AttributionResult attribute_embeddings(const std::vector<float>& x, long S, long E, long Vt,
                                       const std::vector<int32_t>& target,
                                       const AttributionOptions& options,
                                       const EmbeddingGradientFn& gradient);
// rank_correlation (T) from scores and attention (each absent when attention is empty).
void set_rank_correlation(AttributionResult& result);

// attribute(model, src, target, options) of any model with source_embeddings(src) (S, E) and
// source_embedding_gradient(batch, src_emb): the options and the words checked (with
// max_tokens > 0, also a source of 1 to max_tokens tokens and an output of at most as many),
// attribute_embeddings on the model's backward pass, then attention(batch), the (T, S) attention
// each row is compared with (empty: none), and ρ.
template <class Model, class Attention>
AttributionResult attribute_model(Model& model, const std::vector<int32_t>& src,
                                  const std::vector<int32_t>& target,
                                  const AttributionOptions& options, long E, long max_tokens,
                                  const Attention& attention) {
  options.validate();
  const long Vt = model.config().tgt_vocab;
  check_attributed_words(target, Vt);
  const long S = static_cast<long>(src.size()), T = static_cast<long>(target.size());
  if (max_tokens > 0 && (S < 1 || S > max_tokens || T > max_tokens)) {
    throw InputError("attribution: the source must have 1 to " + std::to_string(max_tokens) +
                     " tokens and the output at most as many (got " + std::to_string(S) + " and " +
                     std::to_string(T) + ")");
  }
  const Batch batch = attribution_batch(src, target, options.sos_id);
  const std::vector<float> x = model.source_embeddings(src);  // (S, E)
  AttributionResult result =
      attribute_embeddings(x, S, E, Vt, target, options, [&](const std::vector<float>& src_emb) {
        return model.source_embedding_gradient(batch, src_emb);
      });
  result.attention = attention(batch);
  set_rank_correlation(result);
  return result;
}

// Spearman's ρ of two rows of equal length (average ranks for ties); absent if either is
// constant.
std::optional<double> spearman(const std::vector<float>& a, const std::vector<float>& b);

}  // namespace lab
