// Interventions in greedy decoding (decode.h): their names, their checks, and the attention edit
// that one step's interventions make. The decoding loop that applies them is decode.cpp's.
#include <cmath>
#include <string>

#include "seq2seq/decode.h"
#include "seq2seq/vocab.h"

namespace lab {

namespace {

bool is_attention_kind(InterventionKind kind) {
  return kind != InterventionKind::kForceToken;
}

}  // namespace

std::string describe_intervention(size_t index, const Intervention& v) {
  return "intervention " + std::to_string(index) + " (" + intervention_kind_name(v.kind) +
         (v.step < 0 ? " at every step" : " at step " + std::to_string(v.step)) + ")";
}

void check_steps_reached(const std::vector<Intervention>& interventions, long taken) {
  for (size_t i = 0; i < interventions.size(); ++i) {
    if (interventions[i].step >= taken) {
      throw InputError(describe_intervention(i, interventions[i]) +
                       ": the step is beyond the translation, which ended after " +
                       std::to_string(taken) + " steps (0 … " + std::to_string(taken - 1) + ")");
    }
  }
}

const char* attention_site_name(AttentionSite site) {
  switch (site) {
    case AttentionSite::kCross:
      return "cross";
    case AttentionSite::kEncoderSelf:
      return "encoder-self";
    case AttentionSite::kDecoderSelf:
      return "decoder-self";
  }
  return "?";
}

AttentionSite parse_attention_site(const std::string& name) {
  for (AttentionSite a :
       {AttentionSite::kCross, AttentionSite::kEncoderSelf, AttentionSite::kDecoderSelf}) {
    if (name == attention_site_name(a)) return a;
  }
  throw InputError("attention '" + name + "' is unknown: use cross, encoder-self or decoder-self");
}

const char* intervention_kind_name(InterventionKind kind) {
  switch (kind) {
    case InterventionKind::kForceAttention:
      return "force-attention";
    case InterventionKind::kEditAttention:
      return "edit-attention";
    case InterventionKind::kMaskSource:
      return "mask-source";
    case InterventionKind::kForceToken:
      return "force-token";
    case InterventionKind::kZeroHead:
      return "zero-head";
  }
  return "?";
}

InterventionKind parse_intervention_kind(const std::string& name) {
  for (InterventionKind k : {InterventionKind::kForceAttention, InterventionKind::kEditAttention,
                             InterventionKind::kMaskSource, InterventionKind::kForceToken,
                             InterventionKind::kZeroHead}) {
    if (name == intervention_kind_name(k)) return k;
  }
  throw InputError("intervention kind '" + name +
                   "' is unknown: use force-attention, edit-attention, mask-source, force-token "
                   "or zero-head (the Transformer's)");
}

void check_attention_row(const std::string& what, const Intervention& v, long S) {
  const bool takes_source =
      v.kind == InterventionKind::kForceAttention || v.kind == InterventionKind::kMaskSource;
  if (takes_source && (v.source < 0 || v.source >= S)) {
    throw InputError(what + ": source token " + std::to_string(v.source) +
                     " is outside the sentence of " + std::to_string(S) + " tokens (0 … " +
                     std::to_string(S - 1) + ")");
  }
  if (v.kind == InterventionKind::kEditAttention) {
    if (static_cast<long>(v.weights.size()) != S) {
      throw InputError(what + ": the edited row has " + std::to_string(v.weights.size()) +
                       " weights but the sentence has " + std::to_string(S) + " tokens");
    }
    double sum = 0.0;
    for (size_t s = 0; s < v.weights.size(); ++s) {
      if (!std::isfinite(v.weights[s]) || v.weights[s] < 0.0f) {
        throw InputError(what + ": weight " + std::to_string(s) +
                         " must be a finite number >= 0 (got " + std::to_string(v.weights[s]) +
                         ")");
      }
      sum += v.weights[s];
    }
    if (!(sum > 0.0) || !std::isfinite(sum)) {
      throw InputError(what +
                       ": the edited row must sum to a positive number (it is renormalised)");
    }
  }
}

void validate_interventions(const std::vector<Intervention>& interventions,
                            const Seq2SeqConfig& config, long S, const DecodeOptions& options) {
  if (static_cast<long>(interventions.size()) > options.max_length * 8) {
    throw InputError("interventions: " + std::to_string(interventions.size()) +
                     " of them for at most " + std::to_string(options.max_length) +
                     " steps is too many");
  }
  for (size_t i = 0; i < interventions.size(); ++i) {
    const Intervention& v = interventions[i];
    const std::string what = describe_intervention(i, v);
    if (v.kind == InterventionKind::kZeroHead || v.layer >= 0 || v.head >= 0) {
      throw InputError(what + ": this translator has no heads or layers (the Transformer has)");
    }
    if (v.step < 0 || v.step >= options.max_length) {
      throw InputError(what + ": the step must be in [0, " + std::to_string(options.max_length) +
                       ") (decoding stops after max_length steps)");
    }
    if (is_attention_kind(v.kind) && !config.attention) {
      throw InputError(what + ": this model has no attention to intervene on");
    }
    check_attention_row(what, v, S);
    if (v.kind == InterventionKind::kForceToken &&
        (v.token < 0 || v.token >= config.tgt_vocab || v.token == kPadId ||
         v.token == options.sos_id)) {
      throw InputError(what + ": token " + std::to_string(v.token) +
                       " is not a word the model can write (the target vocabulary has " +
                       std::to_string(config.tgt_vocab) + " ids; <pad> and <sos> are not words)");
    }
    // At one step: one row replacement, one forced token; masks may be several.
    for (size_t j = 0; j < i; ++j) {
      const Intervention& u = interventions[j];
      if (u.step != v.step) continue;
      const bool both_rows = (u.kind == InterventionKind::kForceAttention ||
                              u.kind == InterventionKind::kEditAttention) &&
                             (v.kind == InterventionKind::kForceAttention ||
                              v.kind == InterventionKind::kEditAttention);
      const bool both_tokens =
          u.kind == InterventionKind::kForceToken && v.kind == InterventionKind::kForceToken;
      if (both_rows || both_tokens) {
        throw InputError(what + " conflicts with intervention " + std::to_string(j) + " (" +
                         intervention_kind_name(u.kind) + ") at the same step");
      }
    }
  }
}

// The edit of step t's attention row: a force or edit replaces it, then each mask removes its
// source token and the row is renormalised:  w'[s] = w[s] / Σ_r w[r]
AttentionEdit attention_edit(const std::vector<Intervention>& interventions, long t) {
  std::vector<const Intervention*> at;
  for (const Intervention& v : interventions) {
    if (v.step == t && is_attention_kind(v.kind)) at.push_back(&v);
  }
  if (at.empty()) return nullptr;
  return [at, t](std::vector<float>& w) {
    bool masked = false;
    for (const Intervention* v : at) {
      if (v->kind == InterventionKind::kForceAttention) {
        std::fill(w.begin(), w.end(), 0.0f);
        w[static_cast<size_t>(v->source)] = 1.0f;
      } else if (v->kind == InterventionKind::kEditAttention) {
        w = v->weights;
        masked = true;  // renormalise below
      }
    }
    for (const Intervention* v : at) {
      if (v->kind == InterventionKind::kMaskSource) {
        w[static_cast<size_t>(v->source)] = 0.0f;
        masked = true;
      }
    }
    if (!masked) return;
    double sum = 0.0;
    for (float x : w) sum += x;
    if (!(sum > 0.0)) {
      throw InputError("mask-source at step " + std::to_string(t) +
                       ": the masked tokens held all of the attention, so none is left to "
                       "renormalise");
    }
    for (float& x : w) x = static_cast<float>(x / sum);
  };
}

using namespace decoding;

GreedyResult greedy_decode(Seq2SeqModel& model, const std::vector<int32_t>& src,
                           const DecodeOptions& options,
                           const std::vector<Intervention>& interventions) {
  options.validate(model.config());
  validate_interventions(interventions, model.config(), static_cast<long>(src.size()), options);
  // greedy_decode's loop (decoding::run_greedy) with each step's interventions: the attention
  // edit of its step, and the reader's word instead of the argmax.
  GreedyResult result = run_greedy(
      model, src, options, [&](long t) { return attention_edit(interventions, t); },
      [&](long t, GreedyStep& step, const std::vector<double>& logp) {
        for (const Intervention& v : interventions) {
          if (v.step != t || v.kind != InterventionKind::kForceToken) continue;
          step.token = v.token;  // the reader's word instead of the argmax
          step.prob = static_cast<float>(std::exp(logp[static_cast<size_t>(v.token)]));
          step.forced_token = true;
        }
      });
  check_steps_reached(interventions, static_cast<long>(result.steps.size()));
  return result;
}

}  // namespace lab
