// The recurrent translator's interventions in greedy decoding (rnn/decode.h): their checks against
// the model, the attention edit that one step's interventions make, and the greedy loop that
// applies them. Their names and the checks every model shares are sequence/intervention.cpp's.
#include <cmath>
#include <string>

#include "rnn/decode.h"
#include "sequence/vocab.h"

namespace lab {

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
                       ") (decoding stops after maxLength steps)");
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

using namespace decoding;

GreedyResult greedy_decode(Seq2SeqModel& model, const std::vector<int32_t>& src,
                           const DecodeOptions& options,
                           const std::vector<Intervention>& interventions) {
  options.validate(model.config().tgt_vocab);
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

std::vector<float> attention_values(Seq2SeqModel& model, const std::vector<int32_t>& src) {
  if (!model.config().attention) return {};
  return model.encode(src).memory->outputs;
}

}  // namespace lab
