// Choosing the next token from a model's logits, for any autoregressive decoder (the GPT's
// generate, and a translator's decoder could use it too): greedy, or a draw at a temperature
// from the k most likely tokens (top-k) and/or the smallest set holding probability p (top-p,
// "nucleus"), applied in that order, as Hugging Face's generate() does.
//
//   q = softmax(logits / temperature)                          (V)
//   top-k: keep the k largest q (ties: the lower id first);    top-p: of those, in decreasing
//   order, keep the shortest prefix whose sum reaches p (at least one token)
//   dist = q on the kept tokens, renormalised to sum 1, 0 elsewhere;  token ~ dist
//
// The draw reads one number from the caller's Rng, so a seed gives the same tokens on every
// platform (the sums are in double).
#pragma once

#include <cstdint>
#include <vector>

#include "rng.h"

namespace lab {

struct SamplingOptions {
  bool greedy = false;       // the most likely token (the first of equals); no draw
  float temperature = 1.0f;  // > 0: below 1 sharpens the distribution, above 1 flattens it
  long top_k = 0;            // 0: every token; else the k most likely (k >= V: every token)
  float top_p = 1.0f;        // in (0, 1]: 1 keeps every token

  // Throws InputError naming the setting: temperature not a finite number > 0, top_k < 0,
  // top_p outside (0, 1].
  void validate() const;
};

struct SamplerScratch {
  std::vector<double> q;       // (V)
  std::vector<int32_t> order;  // (V) token ids by decreasing q
};

// The chosen token; dist (V) receives the distribution it was drawn from (greedy: one-hot).
// options must be valid (validate()); V >= 1.
int32_t sample_token(float* dist, SamplerScratch& scratch, const float* logits, long V,
                     const SamplingOptions& options, Rng& rng);

}  // namespace lab
