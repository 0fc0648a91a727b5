// Incremental decoding of a TransformerModel: the encoder once per sentence, then one decoder
// position per step against cached self-attention keys/values; attention rollout alongside.
#include "transformer/decode.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "ops.h"
#include "tensor.h"

namespace lab {

namespace {

// y (Dm) = LayerNorm(x) for one row.
void ln_row(float* y, const float* x, const LayerNormP<const float*>& w, long Dm) {
  float mean, rstd;
  layernorm_forward(y, &mean, &rstd, x, w.w, w.b, 1, Dm);
}

// Head h of every layer l at step t: zeroed (1) or not, per attention; the cross-attention row's
// edit (force, edit or mask; nullptr: none), rnn/decode.h's attention_edit of the
// interventions that reach that head.
struct HeadEdits {
  std::vector<uint8_t> zero_self, zero_cross;  // (L, H)
  std::vector<AttentionEdit> cross;            // (L, H)
  // (L, H) the force / edit / mask interventions of each head at step t, which `cross` points
  // into (a moved vector keeps its buffer)
  std::vector<std::vector<Intervention>> rows;
};

bool reaches(const Intervention& v, long l, long h) {
  return (v.layer < 0 || v.layer == l) && (v.head < 0 || v.head == h);
}

HeadEdits head_edits(const std::vector<Intervention>& list, long t, long L, long H) {
  HeadEdits e{std::vector<uint8_t>(L * H, 0), std::vector<uint8_t>(L * H, 0),
              std::vector<AttentionEdit>(L * H), std::vector<std::vector<Intervention>>(L * H)};
  for (long l = 0; l < L; ++l) {
    for (long h = 0; h < H; ++h) {
      for (const Intervention& v : list) {
        if ((v.step >= 0 && v.step != t) || !reaches(v, l, h)) continue;
        if (v.kind == InterventionKind::kZeroHead) {
          if (v.attention == AttentionSite::kCross) e.zero_cross[l * H + h] = 1;
          if (v.attention == AttentionSite::kDecoderSelf) e.zero_self[l * H + h] = 1;
        } else if (v.kind != InterventionKind::kForceToken) {
          e.rows[l * H + h].push_back(v);
        }
      }
      if (!e.rows[l * H + h].empty()) e.cross[l * H + h] = attention_edit(e.rows[l * H + h], t);
    }
  }
  return e;
}

// The interventions on one query's heads: ctx (Dm) and att (H, M); V (M, Dm).
//   row edited (forced, edited, masked):  att[h] = w' (renormalised), ctx_h = Σ_m w'[m] V[m]_h
//     (forced onto j: exactly V[j]_h, as 1·v + Σ 0·v' = v in floating point)
//   zeroed:                               ctx_h = 0
void edit_heads(float* ctx, float* att, const float* V, const uint8_t* zero,
                const AttentionEdit* edit, long M, long Dm, long H) {
  const long Dh = Dm / H;
  for (long h = 0; h < H; ++h) {
    if (edit && edit[h]) {
      std::vector<float> w(att + h * M, att + (h + 1) * M);
      edit[h](w);
      std::copy(w.begin(), w.end(), att + h * M);
      std::fill_n(ctx + h * Dh, Dh, 0.0f);
      for (long m = 0; m < M; ++m) {
        // ctx_h += w'[m] · V[m]_h
        for (long i = 0; i < Dh; ++i) ctx[h * Dh + i] += w[m] * V[m * Dm + h * Dh + i];
      }
    }
    if (zero[h]) std::fill_n(ctx + h * Dh, Dh, 0.0f);
  }
}

// The decoder self-attention of position t: q from x, (k, v) of x appended to the cache, then
// attention over positions 0 … t (no mask needed: the cache holds only the prefix).
void self_attention_step(float* out, float* att, const float* x, const MhaW& w,
                         std::vector<float>& K, std::vector<float>& V, long t, long Dm, long H,
                         const uint8_t* zero) {
  std::vector<float> q(Dm), ctx(Dm);
  K.resize((t + 1) * Dm);
  V.resize((t + 1) * Dm);
  // q = x Wqᵀ + bq,  k_t = x Wkᵀ + bk,  v_t = x Wvᵀ + bv
  linear_forward(q.data(), x, w.in_w, w.in_b, 1, Dm, Dm);
  linear_forward(K.data() + t * Dm, x, w.in_w + Dm * Dm, w.in_b + Dm, 1, Dm, Dm);
  linear_forward(V.data() + t * Dm, x, w.in_w + 2 * Dm * Dm, w.in_b + 2 * Dm, 1, Dm, Dm);
  check_softmax_status(
      heads_forward(ctx.data(), att, q.data(), K.data(), V.data(), nullptr, 1, t + 1, Dm, H));
  edit_heads(ctx.data(), att, V.data(), zero, nullptr, t + 1, Dm, H);
  // out = ctx Woᵀ + bo
  linear_forward(out, ctx.data(), w.out_w, w.out_b, 1, Dm, Dm);
}

// The cross-attention of one query over the memory's precomputed keys and values.
// ctx (Dm): the heads' contexts, kept for the trace.
void cross_attention_step(float* out, float* att, float* ctx, const float* x, const MhaW& w,
                          const std::vector<float>& K, const std::vector<float>& V, long S, long Dm,
                          long H, const uint8_t* zero, const AttentionEdit* edit) {
  std::vector<float> q(Dm);
  linear_forward(q.data(), x, w.in_w, w.in_b, 1, Dm, Dm);
  check_softmax_status(heads_forward(ctx, att, q.data(), K.data(), V.data(), nullptr, 1, S, Dm, H));
  edit_heads(ctx, att, V.data(), zero, edit, S, Dm, H);
  linear_forward(out, ctx, w.out_w, w.out_b, 1, Dm, Dm);
}

// Ā = mean over heads of att (H, M) → (M)
std::vector<float> head_mean(const float* att, long H, long M) {
  std::vector<float> m(M, 0.0f);
  for (long h = 0; h < H; ++h) {
    for (long j = 0; j < M; ++j) m[j] += att[h * M + j] / static_cast<float>(H);
  }
  return m;
}

}  // namespace

std::vector<float> encoder_rollout(const std::vector<std::vector<float>>& self_att, long H,
                                   long S) {
  MatR R = MatR::Identity(S, S);
  for (const std::vector<float>& att : self_att) {
    MatR A = MatR::Zero(S, S);
    for (long h = 0; h < H; ++h) A += CMapR(att.data() + h * S * S, S, S) / static_cast<float>(H);
    // R ← (0.5·Ā + 0.5·I) R
    const MatR hat = 0.5f * A + 0.5f * MatR::Identity(S, S);
    R = hat * R;
  }
  return std::vector<float>(R.data(), R.data() + S * S);
}

std::shared_ptr<const TransformerMemory> transformer_encode(
    const TransformerModel& model, const std::vector<int32_t>& src,
    const std::vector<Intervention>& interventions) {
  const TransformerConfig& c = model.config();
  const long S = static_cast<long>(src.size()), Dm = c.d_model, H = c.heads;
  if (S < 1 || S > kTransformerMaxLen) {
    throw InputError("the source must have 1 to " + std::to_string(kTransformerMaxLen) +
                     " tokens (got " + std::to_string(S) + ")");
  }
  auto mem = std::make_shared<TransformerMemory>();
  mem->S = S;
  // x = src_embedding[src] · √Dm + pe[:S]   (embed_forward rejects ids outside the vocabulary)
  std::vector<float> x(S * Dm);
  embed_forward(x.data(), src.data(), model.src_embedding(), model.positional_table().data(), 1, S,
                c.src_vocab, Dm);
  const LayerDims d = model.dims();
  std::vector<EncoderLayerActs> acts(c.layers);
  // (L, H) encoder self-attention heads zeroed by interventions
  std::vector<uint8_t> zero(c.layers * H, 0);
  bool any_zero = false;
  for (const Intervention& v : interventions) {
    if (v.kind != InterventionKind::kZeroHead || v.attention != AttentionSite::kEncoderSelf)
      continue;
    for (long l = 0; l < c.layers; ++l) {
      for (long h = 0; h < H; ++h) {
        if ((v.layer < 0 || v.layer == l) && (v.head < 0 || v.head == h)) zero[l * H + h] = 1;
      }
    }
    any_zero = true;
  }
  const float* in = x.data();
  for (long l = 0; l < c.layers; ++l) {
    encoder_layer_forward(acts[l], model.encoder_layer(l), in, nullptr, 1, S, d,
                          any_zero ? zero.data() + l * H : nullptr);
    in = acts[l].out(d.norm_first);
    mem->self_att.emplace_back(acts[l].sa.att.begin(), acts[l].sa.att.begin() + H * S * S);
  }
  mem->memory.resize(S * Dm);
  std::vector<float> mean(S), rstd(S);
  const LayerNormP<const float*> n = model.enc_norm_w();
  layernorm_forward(mem->memory.data(), mean.data(), rstd.data(), in, n.w, n.b, S, Dm);
  mem->rollout = encoder_rollout(mem->self_att, H, S);
  for (long l = 0; l < c.layers; ++l) {
    const MhaW ca = model.decoder_layer(l).ca;
    std::vector<float> k(S * Dm), v(S * Dm);
    // k = memory Wkᵀ + bk, v = memory Wvᵀ + bv, once for every step and beam
    linear_forward(k.data(), mem->memory.data(), ca.in_w + Dm * Dm, ca.in_b + Dm, S, Dm, Dm);
    linear_forward(v.data(), mem->memory.data(), ca.in_w + 2 * Dm * Dm, ca.in_b + 2 * Dm, S, Dm,
                   Dm);
    mem->cross_k.push_back(std::move(k));
    mem->cross_v.push_back(std::move(v));
  }
  return mem;
}

TransformerDecoderState transformer_decoder_start(const TransformerModel& model,
                                                  std::shared_ptr<const TransformerMemory> memory) {
  TransformerDecoderState s;
  s.memory = std::move(memory);
  const long L = model.config().layers;
  s.self_k.resize(L);
  s.self_v.resize(L);
  s.rollout_rows.resize(L);
  return s;
}

TransformerStepResult transformer_decoder_step(const TransformerModel& model,
                                               const TransformerDecoderState& state, int32_t token,
                                               const std::vector<Intervention>& interventions) {
  const TransformerConfig& c = model.config();
  const long Dm = c.d_model, H = c.heads, L = c.layers, t = state.t, S = state.memory->S;
  const bool pre = c.norm_first;
  if (t >= kTransformerMaxLen) {
    throw InputError("the output reached the positional table's " +
                     std::to_string(kTransformerMaxLen) + " positions");
  }
  const TransformerMemory& mem = *state.memory;
  TransformerStepResult r;
  r.state = state;
  TransformerDecoderState& next = r.state;
  r.trace.self.resize(L * H * (t + 1));
  r.trace.cross.resize(L * H * S);
  r.trace.cross_context.resize(L * Dm);
  const HeadEdits edits = head_edits(interventions, t, L, H);

  // y = tgt_embedding[token] · √Dm + pe[t]
  std::vector<float> y(Dm);
  embedding_forward(y.data(), &token, model.tgt_embedding(), 1, c.tgt_vocab, Dm);
  const float scale = std::sqrt(static_cast<float>(Dm));
  for (long i = 0; i < Dm; ++i) y[i] = y[i] * scale + model.positional_table()[t * Dm + i];

  // rollout row entering layer 0: one-hot on this position's own token
  std::vector<float> row(t + 1 + S, 0.0f);
  row[t] = 1.0f;
  std::vector<float> a(Dm), n(Dm), h(c.d_ff), f(Dm);
  for (long l = 0; l < L; ++l) {
    const DecoderLayerW w = model.decoder_layer(l);
    float* self_att = r.trace.self.data() + l * H * (t + 1);
    float* cross_att = r.trace.cross.data() + l * H * S;
    float* cross_ctx = r.trace.cross_context.data() + l * Dm;
    const uint8_t* zero_self = edits.zero_self.data() + l * H;
    const uint8_t* zero_cross = edits.zero_cross.data() + l * H;
    const AttentionEdit* edit = edits.cross.data() + l * H;
    // the same sub-blocks as decoder_layer_forward, for one position
    if (pre) {
      // y1 = y + SA(LN1(y)),  y2 = y1 + CA(LN2(y1)),  out = y2 + FF(LN3(y2))
      ln_row(n.data(), y.data(), w.n1, Dm);
      self_attention_step(a.data(), self_att, n.data(), w.sa, next.self_k[l], next.self_v[l], t, Dm,
                          H, zero_self);
      residual_forward(y.data(), y.data(), a.data(), Dm);
      ln_row(n.data(), y.data(), w.n2, Dm);
      cross_attention_step(a.data(), cross_att, cross_ctx, n.data(), w.ca, mem.cross_k[l],
                           mem.cross_v[l], S, Dm, H, zero_cross, edit);
      residual_forward(y.data(), y.data(), a.data(), Dm);
      ln_row(n.data(), y.data(), w.n3, Dm);
      ffn_forward(h.data(), f.data(), n.data(), w.ff, 1, Dm, c.d_ff);
      residual_forward(y.data(), y.data(), f.data(), Dm);
    } else {
      // y1 = LN1(y + SA(y)),  y2 = LN2(y1 + CA(y1)),  out = LN3(y2 + FF(y2))
      self_attention_step(a.data(), self_att, y.data(), w.sa, next.self_k[l], next.self_v[l], t, Dm,
                          H, zero_self);
      residual_forward(n.data(), y.data(), a.data(), Dm);
      ln_row(y.data(), n.data(), w.n1, Dm);
      cross_attention_step(a.data(), cross_att, cross_ctx, y.data(), w.ca, mem.cross_k[l],
                           mem.cross_v[l], S, Dm, H, zero_cross, edit);
      residual_forward(n.data(), y.data(), a.data(), Dm);
      ln_row(y.data(), n.data(), w.n2, Dm);
      ffn_forward(h.data(), f.data(), y.data(), w.ff, 1, Dm, c.d_ff);
      residual_forward(n.data(), y.data(), f.data(), Dm);
      ln_row(y.data(), n.data(), w.n3, Dm);
    }

    // Rollout through the self-attention: row ← 0.5·Σ_j Ā[j]·row_j + 0.5·row
    next.rollout_rows[l].push_back(row);
    const std::vector<float> self_mean = head_mean(self_att, H, t + 1);
    std::vector<float> mixed(t + 1 + S, 0.0f);
    for (long j = 0; j <= t; ++j) {
      const std::vector<float>& rj = next.rollout_rows[l][j];  // (j + 1) target + S source
      for (long k = 0; k <= j; ++k) mixed[k] += 0.5f * self_mean[j] * rj[k];
      for (long s = 0; s < S; ++s) mixed[t + 1 + s] += 0.5f * self_mean[j] * rj[j + 1 + s];
    }
    for (long i = 0; i < t + 1 + S; ++i) mixed[i] += 0.5f * row[i];
    // Through the cross-attention: row ← 0.5·row + 0.5·[0; C̄ R_enc]
    const std::vector<float> cross_mean = head_mean(cross_att, H, S);
    for (long i = 0; i < t + 1 + S; ++i) row[i] = 0.5f * mixed[i];
    for (long s = 0; s < S; ++s) {
      for (long i = 0; i < S; ++i) row[t + 1 + i] += 0.5f * cross_mean[s] * mem.rollout[s * S + i];
    }
  }
  next.t = t + 1;
  r.trace.rollout_target.assign(row.begin(), row.begin() + t + 1);
  r.trace.rollout_source.assign(row.begin() + t + 1, row.end());

  // logits = decoder.norm(y) Woutᵀ + b_out
  ln_row(n.data(), y.data(), model.dec_norm_w(), Dm);
  r.logits.resize(c.tgt_vocab);
  linear_forward(r.logits.data(), n.data(), model.out_w(), model.out_b(), 1, Dm, c.tgt_vocab);
  for (float v : r.logits) {
    if (!std::isfinite(v)) throw NonFiniteError("the logits are not finite: the weights diverged");
  }
  return r;
}

}  // namespace lab
