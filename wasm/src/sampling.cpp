#include "sampling.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "format.h"
#include "tensor.h"

namespace lab {

void SamplingOptions::validate() const {
  if (!(std::isfinite(temperature) && temperature > 0.0f)) {
    throw InputError("temperature must be a finite number > 0 (got " + format_number(temperature) +
                     "); use greedy decoding for the most likely token");
  }
  if (top_k < 0) {
    throw InputError("topK must be >= 0 (got " + std::to_string(top_k) + "); 0 keeps every token");
  }
  if (!(top_p > 0.0f && top_p <= 1.0f)) {
    throw InputError("topP must be in (0, 1] (got " + format_number(top_p) +
                     "); 1 keeps every token");
  }
}

int32_t sample_token(float* dist, SamplerScratch& s, const float* logits, long V,
                     const SamplingOptions& o, Rng& rng) {
  std::fill(dist, dist + V, 0.0f);
  if (o.greedy) {
    const int32_t best = static_cast<int32_t>(std::max_element(logits, logits + V) - logits);
    dist[best] = 1.0f;
    return best;
  }
  // q = softmax(logits / temperature), in double
  s.q.resize(V);
  s.order.resize(V);
  const double inv_t = 1.0 / o.temperature;
  const double top = *std::max_element(logits, logits + V);
  double sum = 0.0;
  for (long i = 0; i < V; ++i) sum += s.q[i] = std::exp((logits[i] - top) * inv_t);
  for (long i = 0; i < V; ++i) {
    s.q[i] /= sum;
    s.order[i] = static_cast<int32_t>(i);
  }
  // top-k: the k largest q, ties to the lower id (a stable sort of the ids by decreasing q)
  const long k = o.top_k == 0 ? V : std::min(o.top_k, V);
  std::stable_sort(s.order.begin(), s.order.end(),
                   [&](int32_t a, int32_t b) { return s.q[a] > s.q[b]; });
  double kept_mass = 0.0;
  for (long i = 0; i < k; ++i) kept_mass += s.q[s.order[i]];
  // top-p: the shortest prefix of the k whose renormalised mass reaches p
  long n = 0;
  double mass = 0.0;
  while (n < k) {
    mass += s.q[s.order[n++]] / kept_mass;
    if (mass >= o.top_p) break;
  }
  // dist = q on the n kept tokens, renormalised;  token ~ dist
  double kept = 0.0;
  for (long i = 0; i < n; ++i) kept += s.q[s.order[i]];
  const double u = rng.uniform01();
  double cum = 0.0;
  int32_t chosen = s.order[n - 1];
  bool drawn = false;
  for (long i = 0; i < n; ++i) {
    const int32_t id = s.order[i];
    const double p = s.q[id] / kept;
    dist[id] = static_cast<float>(p);
    cum += p;
    if (!drawn && u < cum) {
      chosen = id;
      drawn = true;
    }
  }
  return chosen;
}

}  // namespace lab
