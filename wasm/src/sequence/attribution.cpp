// Gradient × input and integrated gradients of each output word's log-probability with respect to
// the source embeddings (attribution.h), and their rank correlation with the attention.
#include "sequence/attribution.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sequence/batch.h"
#include "tensor.h"  // InputError

namespace lab {

namespace {

// f_t = log softmax(logits[t, t])[y_t] for every row t of the batch's (T, T, Vt) logits.
std::vector<float> row_log_probs(const std::vector<float>& logits, const std::vector<int32_t>& y,
                                 long Vt) {
  const long T = static_cast<long>(y.size());
  std::vector<float> out(static_cast<size_t>(T));
  for (long t = 0; t < T; ++t) {
    const float* z = logits.data() + (t * T + t) * Vt;
    const double mx = *std::max_element(z, z + Vt);
    double sum = 0.0;
    for (long v = 0; v < Vt; ++v) sum += std::exp(z[v] - mx);
    out[static_cast<size_t>(t)] =
        static_cast<float>(z[y[static_cast<size_t>(t)]] - mx - std::log(sum));
  }
  return out;
}

// Average ranks (1-based) of a row: ties share the mean of the ranks they span.
std::vector<double> ranks(const std::vector<float>& x) {
  std::vector<size_t> order(x.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return x[a] < x[b]; });
  std::vector<double> r(x.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && x[order[j + 1]] == x[order[i]]) ++j;
    const double mean_rank = 0.5 * static_cast<double>(i + j) + 1.0;
    for (size_t k = i; k <= j; ++k) r[order[k]] = mean_rank;
    i = j + 1;
  }
  return r;
}

}  // namespace

const char* attribution_method_name(AttributionMethod method) {
  return method == AttributionMethod::kGradientInput ? "gradient-input" : "integrated-gradients";
}

AttributionMethod parse_attribution_method(const std::string& name) {
  if (name == "gradient-input") return AttributionMethod::kGradientInput;
  if (name == "integrated-gradients") return AttributionMethod::kIntegratedGradients;
  throw InputError("attribution method '" + name +
                   "' is unknown: use gradient-input or integrated-gradients");
}

Batch attribution_batch(const std::vector<int32_t>& src, const std::vector<int32_t>& target,
                        int32_t sos_id) {
  Batch b;
  b.B = static_cast<long>(target.size());
  b.S = static_cast<long>(src.size());
  b.T = static_cast<long>(target.size());
  for (long r = 0; r < b.B; ++r) {
    b.src.insert(b.src.end(), src.begin(), src.end());
    b.src_len.push_back(static_cast<int32_t>(b.S));
    for (long t = 0; t < b.T; ++t) {
      b.tgt_in.push_back(t == 0 ? sos_id : target[static_cast<size_t>(t - 1)]);
      b.tgt_out.push_back(t == r ? target[static_cast<size_t>(t)] : kPadId);
    }
  }
  return b;
}

void check_attributed_words(const std::vector<int32_t>& target, long Vt) {
  if (target.empty()) throw InputError("attribution: there is no output word to attribute");
  for (size_t t = 0; t < target.size(); ++t) {
    const int32_t y = target[t];
    if (y <= kPadId || y >= Vt) {
      throw InputError("attribution: output word " + std::to_string(t) + " has id " +
                       std::to_string(y) + ", outside the target vocabulary of " +
                       std::to_string(Vt) + " (or <pad>)");
    }
  }
}

void AttributionOptions::validate() const {
  if (steps < 1 || steps > kMaxAttributionSteps) {
    throw InputError("attribution: integrated gradients' steps must be in [1, " +
                     std::to_string(kMaxAttributionSteps) + "] (got " + std::to_string(steps) +
                     ")");
  }
}

std::optional<double> spearman(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size() || a.size() < 2) return std::nullopt;
  const std::vector<double> ra = ranks(a), rb = ranks(b);
  const double n = static_cast<double>(a.size()), mean = 0.5 * (n + 1.0);
  double cov = 0.0, va = 0.0, vb = 0.0;
  for (size_t i = 0; i < ra.size(); ++i) {
    cov += (ra[i] - mean) * (rb[i] - mean);
    va += (ra[i] - mean) * (ra[i] - mean);
    vb += (rb[i] - mean) * (rb[i] - mean);
  }
  if (va == 0.0 || vb == 0.0) return std::nullopt;
  // ρ = Pearson correlation of the ranks
  return cov / std::sqrt(va * vb);
}

AttributionResult attribute_embeddings(const std::vector<float>& x, long S, long E, long Vt,
                                       const std::vector<int32_t>& target,
                                       const AttributionOptions& options,
                                       const EmbeddingGradientFn& gradient) {
  const long T = static_cast<long>(target.size());
  // The T rows' embeddings α·x (T, S, E) and the mean gradient of f_t over the α's (T, S, E).
  std::vector<float> scaled(static_cast<size_t>(T * S * E));
  std::vector<float> mean_grad(scaled.size(), 0.0f);
  auto pass = [&](double alpha) {
    for (long r = 0; r < T; ++r) {
      for (long i = 0; i < S * E; ++i) scaled[r * S * E + i] = static_cast<float>(alpha * x[i]);
    }
    return gradient(scaled);
  };

  AttributionResult result;
  result.S = S;
  result.T = T;
  result.method = options.method;
  result.target = target;
  const bool ig = options.method == AttributionMethod::kIntegratedGradients;
  result.steps = ig ? options.steps : 1;
  {
    SourceEmbeddingGradient at_x = pass(1.0);  // f_t(x), and the gradient × input gradient
    result.log_prob = row_log_probs(at_x.logits, target, Vt);
    if (!ig) mean_grad = std::move(at_x.grad);
  }
  // The loss's gradient is −(1/T) ∂f_t/∂x per row (attribution_batch): the factor −T undoes it.
  double factor = -static_cast<double>(T);
  if (ig) {
    result.baseline_log_prob = row_log_probs(pass(0.0).logits, target, Vt);
    const long n = options.steps;
    for (long k = 1; k <= n; ++k) {
      const SourceEmbeddingGradient g = pass((static_cast<double>(k) - 0.5) / n);
      for (size_t i = 0; i < mean_grad.size(); ++i) mean_grad[i] += g.grad[i];
    }
    factor /= static_cast<double>(n);
  }
  // a[t, s] = Σ_e x[s, e] · factor · mean_grad[t, s, e]
  result.scores.assign(static_cast<size_t>(T * S), 0.0f);
  for (long t = 0; t < T; ++t) {
    for (long s = 0; s < S; ++s) {
      double sum = 0.0;
      for (long e = 0; e < E; ++e) sum += x[s * E + e] * mean_grad[(t * S + s) * E + e];
      result.scores[t * S + s] = static_cast<float>(factor * sum);
    }
  }
  return result;
}

void set_rank_correlation(AttributionResult& result) {
  const long S = result.S, T = result.T;
  result.rank_correlation.assign(static_cast<size_t>(T), std::nullopt);
  if (result.attention.empty()) return;
  for (long t = 0; t < T; ++t) {
    const auto row = [&](const std::vector<float>& m) {
      return std::vector<float>(m.begin() + t * S, m.begin() + (t + 1) * S);
    };
    result.rank_correlation[static_cast<size_t>(t)] =
        spearman(row(result.scores), row(result.attention));
  }
}

}  // namespace lab
