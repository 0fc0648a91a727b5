#include "gpt/generate.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "rng.h"

namespace lab {

namespace {

void check_token(int32_t token, long V, const std::string& where) {
  if (token < 0 || token >= V) {
    throw InputError("token id " + std::to_string(token) + " " + where +
                     " is outside the vocabulary [0, " + std::to_string(V) + ")");
  }
}

}  // namespace

GptCache::GptCache(const GptModel& model, std::vector<uint8_t> zero_heads)
    : model_(model), zero_heads_(std::move(zero_heads)) {
  const GptConfig& c = model.config();
  const long C = c.d_model, F = 4 * C;
  k_.assign(c.layers, std::vector<float>(c.block_size * C));
  v_.assign(c.layers, std::vector<float>(c.block_size * C));
  att_.resize(c.layers);
  for (auto* v : {&x_, &ln_, &q_, &ctx_, &proj_}) v->resize(C);
  qkv_.resize(3 * C);
  fc_.resize(F);
  gelu_.resize(F);
  mean_.resize(1);
  rstd_.resize(1);
  logits_.resize(c.vocab);
}

const std::vector<float>& GptCache::step(int32_t token) {
  const GptConfig& c = model_.config();
  const long C = c.d_model, H = c.heads, F = 4 * C, V = c.vocab, t = len_;
  check_token(token, V, "at position " + std::to_string(t));
  if (t >= c.block_size) {
    throw InputError("the key/value cache is full: the context is at most the block size (" +
                     std::to_string(c.block_size) + " positions)");
  }
  // x = wte[token] + wpe[t]
  for (long i = 0; i < C; ++i) x_[i] = model_.wte()[token * C + i] + model_.wpe()[t * C + i];
  for (long l = 0; l < c.layers; ++l) {
    const GptBlockP<const float*> w = model_.block_w(l);
    // q, k_t, v_t = c_attn(ln_1(x)); k_t, v_t into the cache's row t
    layernorm_forward(ln_.data(), mean_.data(), rstd_.data(), x_.data(), w.ln_1.w, w.ln_1.b, 1, C);
    linear_forward(qkv_.data(), ln_.data(), w.attn.in_w, w.attn.in_b, 1, C, 3 * C);
    std::copy(qkv_.begin() + C, qkv_.begin() + 2 * C, k_[l].begin() + t * C);
    std::copy(qkv_.begin() + 2 * C, qkv_.end(), v_[l].begin() + t * C);
    // att_h = softmax(q_h k_hᵀ / √Dh) over the t + 1 cached keys (all visible: they precede q)
    att_[l].resize(H * (t + 1));
    check_softmax_status(heads_forward(ctx_.data(), att_[l].data(), qkv_.data(), k_[l].data(),
                                       v_[l].data(), nullptr, 1, t + 1, C, H));
    if (!zero_heads_.empty()) {
      const long Dh = C / H;
      for (long h = 0; h < H; ++h) {
        if (zero_heads_[l * H + h]) std::fill_n(ctx_.begin() + h * Dh, Dh, 0.0f);
      }
    }
    // x += c_proj(ctx)
    linear_forward(proj_.data(), ctx_.data(), w.attn.out_w, w.attn.out_b, 1, C, C);
    for (long i = 0; i < C; ++i) x_[i] += proj_[i];
    // x += c_proj(gelu(c_fc(ln_2(x))))
    layernorm_forward(ln_.data(), mean_.data(), rstd_.data(), x_.data(), w.ln_2.w, w.ln_2.b, 1, C);
    linear_forward(fc_.data(), ln_.data(), w.fc_w, w.fc_b, 1, C, F);
    gelu_forward(gelu_.data(), fc_.data(), F);
    linear_forward(proj_.data(), gelu_.data(), w.proj_w, w.proj_b, 1, F, C);
    for (long i = 0; i < C; ++i) x_[i] += proj_[i];
  }
  // logits = ln_f(x) wteᵀ
  const LayerNormP<const float*> lnf = model_.ln_f_w();
  layernorm_forward(ln_.data(), mean_.data(), rstd_.data(), x_.data(), lnf.w, lnf.b, 1, C);
  linear_forward(logits_.data(), ln_.data(), model_.wte(), nullptr, 1, C, V);
  ++len_;
  return logits_;
}

void GenerateOptions::validate() const {
  if (max_new_tokens < 1 || max_new_tokens > kMaxDim) {
    throw InputError("max_new_tokens must be in [1, " + std::to_string(kMaxDim) + "] (got " +
                     std::to_string(max_new_tokens) + ")");
  }
  if (top_candidates < 0) {
    throw InputError("top_candidates must be >= 0 (got " + std::to_string(top_candidates) + ")");
  }
  sampling.validate();
}

namespace {

// The step's record: the model's probabilities, the top candidates, the attention.
GenerationStep record(const GptCache& cache, const std::vector<float>& dist, int32_t token,
                      const GptConfig& c, const GenerateOptions& o) {
  const std::vector<float>& logits = cache.logits();
  const long V = c.vocab;
  // prob = softmax(logits), in double
  std::vector<double> prob(V);
  const double top = *std::max_element(logits.begin(), logits.end());
  double sum = 0.0;
  for (long i = 0; i < V; ++i) sum += prob[i] = std::exp(logits[i] - top);
  for (double& p : prob) p /= sum;
  GenerationStep s;
  s.token = token;
  s.position = cache.length() - 1;
  s.prob = static_cast<float>(prob[token]);
  std::vector<int32_t> ids(V);
  for (long i = 0; i < V; ++i) ids[i] = static_cast<int32_t>(i);
  const long k = std::min(o.top_candidates, V);
  std::partial_sort(ids.begin(), ids.begin() + k, ids.end(), [&](int32_t a, int32_t b) {
    return prob[a] > prob[b] || (prob[a] == prob[b] && a < b);
  });
  for (long i = 0; i < k; ++i) {
    s.top.push_back({ids[i], static_cast<float>(prob[ids[i]]), dist[ids[i]]});
  }
  if (o.keep_attention) {
    s.keys = cache.length();
    for (long l = 0; l < c.layers; ++l) {
      const std::vector<float>& a = cache.attention(l);
      s.attention.insert(s.attention.end(), a.begin(), a.end());
    }
  }
  return s;
}

}  // namespace

Generation generate(const GptModel& model, const std::vector<int32_t>& prompt,
                    const GenerateOptions& o) {
  o.validate();
  const GptConfig& c = model.config();
  const long Tmax = c.block_size;
  if (prompt.empty()) throw InputError("the prompt is empty: give at least one token");
  if (static_cast<long>(prompt.size()) > Tmax) {
    throw InputError("the prompt has " + std::to_string(prompt.size()) +
                     " tokens, more than the model's block size (" + std::to_string(Tmax) + ")");
  }
  for (size_t i = 0; i < prompt.size(); ++i) {
    check_token(prompt[i], c.vocab, "at prompt position " + std::to_string(i));
  }
  Generation g;
  g.ids = prompt;
  GptCache cache(model,
                 o.zero_heads.empty() ? std::vector<uint8_t>{} : gpt_head_mask(c, o.zero_heads));
  Rng rng(o.seed);
  SamplerScratch scratch;
  std::vector<float> dist(c.vocab);
  for (size_t i = 0; i + 1 < prompt.size(); ++i) cache.step(prompt[i]);
  for (long i = 0; i < o.max_new_tokens; ++i) {
    if (cache.length() == Tmax) {
      // The context is the last Tmax tokens: re-read all but the newest from position 0.
      cache.clear();
      const long n = static_cast<long>(g.ids.size());
      for (long j = n - Tmax; j < n - 1; ++j) cache.step(g.ids[j]);
    }
    const std::vector<float>& logits = cache.step(g.ids.back());
    const int32_t token =
        sample_token(dist.data(), scratch, logits.data(), c.vocab, o.sampling, rng);
    g.steps.push_back(record(cache, dist, token, c, o));
    g.ids.push_back(token);
  }
  return g;
}

}  // namespace lab
