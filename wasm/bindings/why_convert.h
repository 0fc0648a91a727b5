// JS ⇄ core conversion for asking a translator why (sequence/decode.h's interventions,
// sequence/attribution.h), shared by the Seq2Seq, imported (.safetensors) and bare-model bindings.
// Field names match wasm/js/types/seq2seq.d.ts and seq2seq-model.d.ts. No maths and no range
// checks: those, and their messages, are the core's.
#pragma once

#include <emscripten/val.h>

#include <vector>

#include "rnn/session.h"
#include "seq2seq_convert.h"
#include "sequence/attribution.h"

namespace labjs {

using emscripten::val;

// translate options' interventions: [{step, kind, source?, weights?, token?}] (absent: none).
std::vector<lab::InterventionRequest> interventions_from_js(const val& list);
// translate(text, options) with its interventions → lab::TranslateOptions.
lab::TranslateOptions translate_options_with_interventions_from_js(const val& options);

// A greedy translation's steps, and with interventions its comparison with the plain one:
// out.steps gets {forcedToken, editedAttention, context} on each step, and out.intervention =
// {original: {output, text, finished, steps}, changed, firstChange, encoderOutputs}.
void set_greedy_translation_to_js(val& out, const TokenName& token, const lab::TranslateResult& r);
// The pieces: an intervened step's {forcedToken, editedAttention}, and the comparison object.
void set_step_flags(val& o, const lab::GreedyStep& s);
val intervention_to_js(const TokenName& token, const lab::InterventionComparison& cmp, long S);

// attribution options {method, steps, maxLength} (maxLength: the session's translation only).
lab::AttributionRequest attribution_request_from_js(const val& options, bool with_max_length);
// A bare model's attribution({src, target, method?, steps?}): src and target id arrays (target:
// the output words after <sos>, <eos> included if attributed), no padding.
struct ModelAttributionRequest {
  std::vector<int32_t> src, target;
  lab::AttributionOptions options;
};
ModelAttributionRequest model_attribution_request_from_js(const val& request);
// {method, steps, scores (T, S), attention (T, S) | null, logProb, baselineLogProb | null,
//  rankCorrelation: (number | null)[]}
val attribution_result_to_js(const lab::AttributionResult& r);
// A session's: the above plus {source, text, words}.
val session_attribution_to_js(const lab::SessionAttribution& a);

// recordTimeline options {every, capacity} (defaults 10 and 200).
void timeline_options_from_js(const val& options, long& every, long& capacity);
// {probe: SourceToken[], every, capacity, startStep, recording,
//  frames: [{step, output: string[], attention: {shape: [T, S], data} | null}]}
// (either session's timeline, with its probe's tokens)
val timeline_to_js(const TokenName& token, const lab::AttentionTimeline& timeline,
                   const std::vector<lab::SourceToken>& probe);

}  // namespace labjs
