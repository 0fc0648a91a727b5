// Generation from a GptModel with a key/value cache: each new token runs the blocks on its own
// row only, its query attending over the keys and values every earlier position left in the
// cache, so a step costs O(T·C) attention instead of recomputing the whole prefix (the numbers
// are the same as GptModel::forward on the prefix, up to rounding:
// tests/native/test_gpt_generate.cpp).
//
//   step(token at position t):  x = wte[token] + wpe[t]
//     per block: q, k_t, v_t = c_attn(ln_1(x));  cache k_t, v_t at row t
//                att_h = softmax(q_h [k_0 … k_t]_hᵀ / √Dh)  (H, t + 1);  x += c_proj(att v)
//                x += mlp(ln_2(x))
//     logits = ln_f(x) wteᵀ                                         (V)
//
// The context is at most the block size Tmax: a prompt longer than that is refused; once the
// text outgrows it, each step re-reads its last Tmax − 1 tokens into an empty cache (nanoGPT's
// generate crops the same way), so positions restart from 0 and the attention of such a step
// covers those tokens only.
#pragma once

#include <cstdint>
#include <vector>

#include "gpt/heads.h"
#include "gpt/model.h"
#include "sampling.h"

namespace lab {

// The keys and values of every layer for up to Tmax positions, and one step's scratch.
class GptCache {
 public:
  // zero_heads (L, H): 1 = that head's output is 0 before c_proj (gpt/heads.h); empty: none.
  explicit GptCache(const GptModel& model, std::vector<uint8_t> zero_heads = {});

  long length() const { return len_; }  // positions cached
  void clear() { len_ = 0; }
  // Runs `token` at position length() and caches its keys and values; logits (V) and, per
  // layer, the attention att[l] (H, length() before the step + 1) are kept until the next step.
  // Throws InputError for a token outside the vocabulary or a full cache.
  const std::vector<float>& step(int32_t token);
  const std::vector<float>& logits() const { return logits_; }
  const std::vector<float>& attention(long l) const { return att_[l]; }

 private:
  const GptModel& model_;
  std::vector<uint8_t> zero_heads_;
  long len_ = 0;
  std::vector<std::vector<float>> k_, v_;  // L × (Tmax, C)
  std::vector<std::vector<float>> att_;    // L × (H, len)
  std::vector<float> x_, ln_, qkv_, q_, ctx_, proj_, fc_, gelu_, mean_, rstd_;
  std::vector<float> logits_;
};

struct GenerateOptions {
  long max_new_tokens = 32;  // ≥ 1
  SamplingOptions sampling;
  uint64_t seed = 0;        // the sampler's Rng: same seed, same tokens
  long top_candidates = 5;  // candidates kept per step (≥ 0, at most V)
  bool keep_attention = true;
  std::vector<GptHeadRef> zero_heads;  // heads whose output is zeroed (checked by generate)

  void validate() const;  // InputError naming the setting
};

struct TokenCandidate {
  int32_t id = 0;
  float prob = 0.0f;         // softmax(logits): the model's probability
  float sample_prob = 0.0f;  // in the distribution drawn from (temperature, top-k, top-p)
};

struct GenerationStep {
  int32_t token = 0;                // the chosen id
  long position = 0;                // its predecessor's position in the cache
  float prob = 0.0f;                // the chosen token's model probability
  std::vector<TokenCandidate> top;  // by decreasing model probability
  std::vector<float> attention;     // (L, H, M): the predecessor's query over M cached keys
  long keys = 0;                    // M
};

struct Generation {
  std::vector<int32_t> ids;  // prompt + generated
  std::vector<GenerationStep> steps;
};

// Generates options.max_new_tokens tokens after `prompt` (1 … Tmax ids). Throws InputError for
// bad options or ids; the model is only read.
Generation generate(const GptModel& model, const std::vector<int32_t>& prompt,
                    const GenerateOptions& options);

}  // namespace lab
