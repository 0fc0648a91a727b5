// Seq2SeqModel: configuration and batch checks, the flat parameter layout, PyTorch-style init.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "rng.h"
#include "rnn/model.h"
#include "rnn/model_workspace.h"

namespace lab {

namespace {

constexpr long kMaxHidden = 4096;

// Parameter count of a config, in double so absurd sizes cannot overflow before being rejected.
double count_params(const Seq2SeqConfig& c) {
  const double Hd = c.hidden, E = c.embedding_size(), G = cell_gate_count(c.cell);
  const double cell = G * Hd * (E + Hd) + 2 * G * Hd;
  double n = c.src_vocab * E + c.tgt_vocab * E + 2 * cell;
  if (c.attention && c.score == Score::kGeneral) n += Hd * Hd;
  if (c.attention && c.score == Score::kAdditive) n += 2 * Hd * Hd + 2 * Hd;
  if (c.attentional_tanh) n += 2 * Hd * Hd + Hd;
  const double F = static_cast<double>(output_features(c));
  return n + c.tgt_vocab * F + c.tgt_vocab;
}

}  // namespace

long output_features(const Seq2SeqConfig& config) {
  return config.attention && !config.attentional_tanh ? 2 * config.hidden : config.hidden;
}

void Seq2SeqConfig::validate() const {
  if (cell != CellKind::kRnn && cell != CellKind::kGru && cell != CellKind::kLstm) {
    throw InputError("cell must be rnn, gru or lstm");
  }
  check_range(hidden, 1, kMaxHidden, "hidden size");
  check_range(embedding, 0, kMaxHidden, "embedding size (0 = same as hidden)");
  check_vocab_sizes(src_vocab, tgt_vocab);
  if (score != Score::kDot && score != Score::kScaled && score != Score::kGeneral &&
      score != Score::kAdditive && score != Score::kCosine) {
    throw InputError("unknown attention score");
  }
  if (attentional_tanh && !attention) {
    throw InputError(
        "attentional_tanh needs attention: it combines the decoder output with the "
        "attention context");
  }
  check_param_count(count_params(*this), "use a smaller hidden size or vocabulary");
}

void validate_batch(const Batch& batch, const Seq2SeqConfig& config) {
  check_batch_sizes(batch, kMaxDim, "");
  const long B = batch.B, S = batch.S, T = batch.T;
  // The largest buffers: (B, S, ·) and (B, T, Vt) logits.
  shape_numel({B, S, std::max(config.hidden, config.embedding_size()) * 4}, "source batch");
  shape_numel({B, T, std::max(config.tgt_vocab, 4 * config.hidden)}, "target batch");
  check_batch_arrays(batch, config.src_vocab, config.tgt_vocab);
}

void Seq2SeqModel::Workspace::resize(const Seq2SeqConfig& c, long b, long s, long t) {
  if (b == B && s == S && t == T) return;
  B = b, S = s, T = t;
  const long E = c.embedding_size(), Hd = c.hidden, Vt = c.tgt_vocab, F = output_features(c);
  enc_emb.resize(B * S * E);
  dec_emb.resize(B * T * E);
  dec_len.assign(B, static_cast<int32_t>(T));
  enc.resize({c.cell, B, S, E, Hd});
  dec.resize({c.cell, B, T, E, Hd});
  enc_scratch.resize(enc.shape);
  dec_scratch.resize(dec.shape);
  if (c.attention) {
    keep.resize(B * T * S);
    reshape_in_place(attn_weights, {B, T, S});
    context.resize(B * T * Hd);
    score_acts.resize(c.score, B, T, S, Hd, additive_size(c));
    concat.resize(B * T * 2 * Hd);
    dconcat.resize(B * T * 2 * Hd);
    dcontext.resize(B * T * Hd);
  }
  if (c.attentional_tanh) {
    dense.resize(B * T * Hd);
    ddense_pre.resize(B * T * Hd);
  }
  logits.resize(B * T * Vt);
  probs.resize(B * T * Vt);
  dlogits.resize(B * T * Vt);
  dfeature.resize(B * T * F);
  ddec_out.resize(B * T * Hd);
  denc_out.resize(B * S * Hd);
  ddec_emb.resize(B * T * E);
  denc_emb.resize(B * S * E);
  dh0.resize(B * Hd);
  dc0.resize(B * Hd);
}

Seq2SeqModel::Seq2SeqModel(const Seq2SeqConfig& config) : ParamStore("model"), config_(config) {
  config_.validate();
  build_table();
  allocate_params();
  ws_ = std::make_shared<Workspace>();
  step_ws_ = std::make_shared<Workspace>();
  reset_parameters();
}

void Seq2SeqModel::build_table() {
  const long E = config_.embedding_size(), Hd = config_.hidden,
             GH = cell_gate_count(config_.cell) * Hd;
  auto add = [&](const std::string& name, std::vector<long> shape) {
    add_param(name, std::move(shape));
    return static_cast<int>(param_views().size() - 1);
  };
  ix_.enc_emb = add("encoder.embedding.weight", {config_.src_vocab, E});
  ix_.enc_w_ih = add("encoder.rnn.weight_ih_l0", {GH, E});
  ix_.enc_w_hh = add("encoder.rnn.weight_hh_l0", {GH, Hd});
  ix_.enc_b_ih = add("encoder.rnn.bias_ih_l0", {GH});
  ix_.enc_b_hh = add("encoder.rnn.bias_hh_l0", {GH});
  ix_.dec_emb = add("decoder.embedding.weight", {config_.tgt_vocab, E});
  ix_.dec_w_ih = add("decoder.rnn.weight_ih_l0", {GH, E});
  ix_.dec_w_hh = add("decoder.rnn.weight_hh_l0", {GH, Hd});
  ix_.dec_b_ih = add("decoder.rnn.bias_ih_l0", {GH});
  ix_.dec_b_hh = add("decoder.rnn.bias_hh_l0", {GH});
  if (config_.attention && config_.score == Score::kGeneral) {
    ix_.att_w = add("attention.w", {Hd, Hd});  // s = qᵀ W k
  }
  if (config_.attention && config_.score == Score::kAdditive) {
    // s = vᵀ tanh(W1 q + W2 k + b), additive hidden size A = Hd
    ix_.att_w1 = add("attention.w1", {Hd, Hd});
    ix_.att_w2 = add("attention.w2", {Hd, Hd});
    ix_.att_b = add("attention.b", {Hd});
    ix_.att_v = add("attention.v", {Hd});
  }
  if (config_.attentional_tanh) {
    ix_.dense_w = add("attn_dense.weight", {Hd, 2 * Hd});
    ix_.dense_b = add("attn_dense.bias", {Hd});
  }
  ix_.out_w = add("out.weight", {config_.tgt_vocab, output_features(config_)});
  ix_.out_b = add("out.bias", {config_.tgt_vocab});
}

void Seq2SeqModel::reset_parameters() {
  Rng rng(config_.seed);
  // PyTorch defaults: nn.Embedding ~ N(0, 1); nn.RNN/GRU/LSTM ~ U(±1/√hidden) for every weight
  // and bias; nn.Linear weight and bias ~ U(±1/√in_features). The attention weights follow
  // nn.Linear(Hd, ·), so their bound is 1/√Hd as well.
  const float cell_bound = 1.0f / std::sqrt(static_cast<float>(config_.hidden));
  for (const ParamView& v : table_) {
    float* data = params_.data() + v.offset;
    const bool embedding = v.name.find("embedding") != std::string::npos;
    float bound = cell_bound;
    if (v.name.rfind("out.", 0) == 0) {
      bound = 1.0f / std::sqrt(static_cast<float>(output_features(config_)));
    } else if (v.name.rfind("attn_dense.", 0) == 0) {
      bound = 1.0f / std::sqrt(static_cast<float>(2 * config_.hidden));
    }
    for (long i = 0; i < v.size; ++i) {
      data[i] = embedding ? rng.normal() : rng.uniform(-bound, bound);
    }
  }
  reset_optimizer();
}

const std::vector<float>& Seq2SeqModel::last_logits() const {
  return ws_->logits;
}

void throw_if_diverged(const std::vector<float>& states) {
  for (float x : states) {
    if (!std::isfinite(x)) {
      throw NonFiniteError("the recurrent states are not finite: the weights have diverged");
    }
  }
}

// t takes this shape in the buffer it has. The recipes pad each batch to its own longest
// sentence, so S changes from step to step: a new Tensor would zero-fill (and allocate) megabytes
// per step, where resizing zero-fills only the part that grew. Every tensor passed here is
// overwritten by the forward or backward pass before it is read.
void reshape_in_place(Tensor& t, std::vector<long> shape) {
  t.data.resize(static_cast<size_t>(shape_numel(shape, "workspace tensor")));
  t.shape = std::move(shape);
}

void throw_if_overflowed(const kernels::SoftmaxStatus& status) {
  if (!status.finite) {
    throw InputError("the attention scores overflow float32: scale the inputs down");
  }
}

long additive_size(const Seq2SeqConfig& config) {
  return config.score == Score::kAdditive ? config.hidden : 0;
}

attn::ScoreWeights Seq2SeqModel::score_weights() const {
  attn::ScoreWeights sw;
  sw.score = config_.score;
  sw.A = additive_size(config_);
  sw.w = p(ix_.att_w);
  sw.w1 = p(ix_.att_w1);
  sw.w2 = p(ix_.att_w2);
  sw.b = p(ix_.att_b);
  sw.v = p(ix_.att_v);
  return sw;
}

}  // namespace lab
