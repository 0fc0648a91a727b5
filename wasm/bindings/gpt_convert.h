// JS ⇄ C++ conversion that the GPT's bindings share (gpt_bindings.cpp: the bare model;
// gpt_session_bindings.cpp: the session): generation options and a generation's steps.
#pragma once

#include <emscripten/val.h>

#include <string>
#include <vector>

#include "gpt/generate.h"
#include "gpt/heads.h"
#include "gpt/model.h"

namespace labjs {

// zeroHeads: [[layer, head], …] (absent: none); the core checks the ranges, naming zeroHeads[i].
std::vector<lab::GptHeadRef> zero_heads_from_js(const emscripten::val& obj);

// {layers, heads, queries: {detector: n}, previous, lineBack, lineStart, induction: (L, H)
// tensors}: gpt/heads.h's scores.
emscripten::val head_scores_to_js(const lab::GptHeadScores& s);

// {maxNewTokens?, greedy?, temperature?, topK?, topP?, seed?, topCandidates?, zeroHeads?} and the
// caller's
// `extra_keys`; unknown keys are refused, naming `what`.
lab::GenerateOptions generate_options_from_js(const emscripten::val& options,
                                              const std::vector<std::string>& extra_keys,
                                              const std::string& what);

// [{token, position, prob, keys, top: [{id, prob, sampleProb}], attention (L, H, keys)}]; with
// `chars` (the vocabulary, id → character), each step and candidate also has its `char`.
emscripten::val generation_steps_to_js(const lab::Generation& g, const lab::GptConfig& c,
                                       const std::vector<std::string>* chars = nullptr);

}  // namespace labjs
