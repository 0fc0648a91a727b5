// JS ⇄ core conversion shared by the translator bindings (seq2seq_bindings.cpp,
// transformer_session_bindings.cpp, safetensors_bindings.cpp) and the bare-model bindings
// (seq2seq_model_bindings.cpp, transformer_model_bindings.cpp): one place for each option
// object, result object and batch, so that the Seq2Seq, Transformer and imported translators
// keep exactly the same JS fields (wasm/js/types/seq2seq.d.ts, seq2seq-model.d.ts). No maths and
// no range checks: those, and their messages, are the core's.
#pragma once

#include <emscripten/val.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "convert.h"
#include "optim.h"
#include "rnn/model.h"
#include "rnn/session.h"
#include "sequence/batch.h"
#include "sequence/decode.h"
#include "sequence/tasks.h"

namespace labjs {

using emscripten::val;

// A target id → its display token (lab::Vocab::token or lab::FileVocab::token).
using TokenName = std::function<const std::string&(int32_t)>;
template <class V>
TokenName token_names(const V& vocab) {
  return [&vocab](int32_t id) -> const std::string& { return vocab.token(id); };
}

// config.taskOptions → lab::TaskOptions (its seed defaults to the session's), and back (info()),
// with the counts the task resolved in place of 0 ("the default"): heldOut is the held-out set's
// size (0 for pairs, whose share is info().pairs.heldOut), train the training set's for the tasks
// that take a count (reverse, copy, zh-en) and 0 for the others.
lab::TaskOptions task_options_from_js(const val& obj, uint64_t default_seed);
val task_options_to_js(const lab::TaskOptions& o, const lab::Task& task);
// Config keys that a model's and a session's config share, read alike into either (keys not given
// keep c's values). Seq2Seq's architecture {cell, hidden, embedding, attention, score,
// attentionalTanh} into lab::Seq2SeqConfig or lab::SessionConfig:
template <class Config>
void seq2seq_architecture_from_js(const val& js, Config& c) {
  c.cell = lab::parse_cell(js_string(js, "cell", "rnn", "config.cell").c_str());
  c.hidden = js_whole(js, "hidden", "config.hidden").value_or(c.hidden);
  c.embedding = js_whole(js, "embedding", "config.embedding").value_or(c.embedding);
  c.attention = js_bool(js, "attention", c.attention, "config.attention");
  c.score = lab::parse_score(js_string(js, "score", "dot", "config.score"));
  c.attentional_tanh = js_bool(js, "attentionalTanh", c.attentional_tanh, "config.attentionalTanh");
}
// The Transformer's sizes {layers, heads, dModel, dFF, normFirst} into lab::TransformerConfig or
// lab::TransformerSessionConfig:
template <class Config>
void transformer_sizes_from_js(const val& js, Config& c) {
  c.layers = js_whole(js, "layers", "config.layers").value_or(c.layers);
  c.heads = js_whole(js, "heads", "config.heads").value_or(c.heads);
  c.d_model = js_whole(js, "dModel", "config.dModel").value_or(c.d_model);
  c.d_ff = js_whole(js, "dFF", "config.dFF").value_or(c.d_ff);
  c.norm_first = js_bool(js, "normFirst", c.norm_first, "config.normFirst");
}
// A config's sentence pairs (task 'pairs'): config.pairs (the tab-separated text), config.tokenize
// ('words' or 'chars') and config.heldOut (the share held out, 0 … 0.5) into `o`. Throws when
// task 'pairs' has no pairs or another task has any of the three.
void pairs_options_from_js(const val& config, const std::string& task, lab::TaskOptions& o);
// Sets info().pairs of a pairs session: {tokenize, heldOut, trainPairs, heldOutPairs}; other
// tasks' info has no such key.
void set_pairs_info(val& out, const lab::TaskOptions& o, const lab::Task& task);
// The keys of a training session's config: the model's `own`, then those session_training_from_js
// reads.
std::vector<std::string> session_config_keys(std::vector<std::string> own);
// A training session's {seed, taskOptions, pairs, tokenize, heldOut, batchSize, learningRate,
// clipNorm} into lab::SessionConfig or lab::TransformerSessionConfig, whose task is set; keys not
// given keep c's values.
template <class Config>
void session_training_from_js(const val& js, Config& c) {
  c.seed = js_seed(js, "seed", "config.seed").value_or(c.seed);
  c.task_options = task_options_from_js(js["taskOptions"], c.seed);
  pairs_options_from_js(js, c.task, c.task_options);
  c.batch_size = js_whole(js, "batchSize", "config.batchSize").value_or(c.batch_size);
  c.learning_rate = js_number(js, "learningRate", c.learning_rate, "config.learningRate");
  c.clip_norm = js_number(js, "clipNorm", c.clip_norm, "config.clipNorm");
}

// evaluate(options) → lab::EvalOptions; the result's fields every translator has
// {loss, tokenAccuracy, exactMatch, examples, heldOutIsTrainingData, exactMatchByLength}
// (callers add the rest).
lab::EvalOptions eval_options_from_js(const val& options);
val eval_result_to_js(const lab::EvalResult& r);

// info()'s fields of every trained translator, set on `out` in this order: {seed, batchSize,
// learningRate, clipNorm, sourceVocabSize, targetVocabSize, sourceTokenizer, maxSourceTokens,
// targetTokenizer, parameterCount, step}.
void set_training_info(val& out, uint64_t seed, long batch_size, double learning_rate,
                       double clip_norm, const lab::Task& task, long max_source_tokens,
                       long parameter_count, long step);

// translate(text, options) → lab::TranslateOptions, without the interventions: with
// `interventions` false their key is an InputError, with true the caller parses it
// (why_convert.h's translate_options_with_interventions_from_js).
lab::TranslateOptions translate_options_from_js(const val& options, bool interventions = false);
// Whether translate's options ask for interventions: a non-empty `interventions` list (an empty
// one is plain decoding, bit for bit).
bool asks_interventions(const val& options);
// translate's options in a widget module without interventions (`module`: 'seq2seq' or
// 'transformer'): asking for any is an InputError that names the module; an empty list is taken.
lab::TranslateOptions plain_translate_options_from_js(const val& options, const char* module);

val strings_to_js(const std::vector<std::string>& strings);
val ids_to_js(const std::vector<int32_t>& ids);
val tokens_to_js(const TokenName& token, const std::vector<int32_t>& ids);

// The fields of every translation: {source, output, text, finished} (then steps or beams).
val translation_to_js(const TokenName& token, const std::vector<lab::SourceToken>& source,
                      const std::vector<int32_t>& output, const std::string& text, bool finished);

// Called on each step's (or beam node's) JS object to add a model's own fields (the
// Transformer's per-layer attention): greedy step i, or beam step t node n.
using StepExtra = std::function<void(val& step, size_t t, size_t n)>;
// Greedy steps [{token, prob, top, attention, …extra}].
val greedy_steps_to_js(const TokenName& token, const std::vector<lab::GreedyStep>& steps,
                       const StepExtra& extra = nullptr);
// {width, hypotheses: [{output, text, logProb, score, finished, step, node}],
//  steps: [[{token, parent, prob, logProb, score, finished, top, attention, …extra}]]}.
val beam_trace_to_js(const TokenName& token, const lab::BeamResult& beam,
                     const std::vector<std::string>& hypothesis_texts, long width,
                     const StepExtra& extra = nullptr);

// A bare model's {srcVocab, tgtVocab, seed} into lab::Seq2SeqConfig or lab::TransformerConfig.
template <class Config>
void model_vocabularies_from_js(const val& js, Config& c) {
  c.src_vocab = js_whole(js, "srcVocab", "config.srcVocab").value_or(c.src_vocab);
  c.tgt_vocab = js_whole(js, "tgtVocab", "config.tgtVocab").value_or(c.tgt_vocab);
  c.seed = js_seed(js, "seed", "config.seed").value_or(c.seed);
}
// The bare models' batch {src, srcLengths, tgtIn, tgtOut}: shapes and whole numbers checked
// here; sizes, lengths and ids against the model by the caller's lab::validate_batch.
lab::Batch batch_from_js(const val& js);
// paramNames(): [{name, shape}]; a parameter (getParam) or gradient tensor out of the flat
// buffer; every gradient {name: tensor}.
val param_names_to_js(const std::vector<lab::ParamView>& views);
val param_to_js(const lab::ParamView& v, const std::vector<float>& buffer);
val params_by_name_to_js(const std::vector<lab::ParamView>& views,
                         const std::vector<float>& buffer);
// getParam(name) / setParam(name, value): the name, which must be a string.
std::string param_name_from_js(const val& name, const char* what);
// getParam(name) and setParam(name, value) of a bare model (lab::Seq2SeqModel,
// lab::TransformerModel): a copy of the parameter out; a tensor of its exact shape in.
template <class Model>
val get_param_to_js(const Model& model, const val& name) {
  const lab::ParamView& v = model.param(param_name_from_js(name, "getParam(name)"));
  return param_to_js(v, model.params());
}
template <class Model>
void set_param_from_js(Model& model, const val& name_js, const val& value) {
  const std::string name = param_name_from_js(name_js, "setParam(name, value)");
  const lab::ParamView& v = model.param(name);
  const lab::Tensor t = tensor_from_js(value, "setParam value for " + name);
  lab::check_shape(t, v.shape, "setParam value for " + name);
  model.set_param(name, t.data);
}
// adamStep(options) → lab::AdamOptions; `extra_keys` the model's own further options (read by
// the caller) and `usage` the message for a missing lr.
lab::AdamOptions adam_options_from_js(const val& options,
                                      const std::vector<std::string>& extra_keys,
                                      const char* usage);
// clipGradNorm(maxNorm): the number.
float max_norm_from_js(const val& max_norm);

}  // namespace labjs
