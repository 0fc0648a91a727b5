// Interventions in greedy decoding (sequence/decode.h), the part every model shares: their names
// and the checks that do not depend on the model. Each model checks the rest and applies them
// (rnn/intervention.cpp, transformer/search.cpp).
#include <algorithm>
#include <cmath>
#include <string>

#include "sequence/decode.h"

namespace lab {

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

bool is_attention_kind(InterventionKind kind) {
  return kind != InterventionKind::kForceToken;
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

}  // namespace lab
