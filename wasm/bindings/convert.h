// JS ⇄ core conversion for the embind layer. No maths here: only checking what JS handed us and
// copying it in, and copying results out (never views into wasm memory, which a later memory
// growth would detach).
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sequence/session_checks.h"  // TrainResult, TrainingDiverged
#include "tensor.h"

namespace labjs {

using emscripten::val;

// A JS number from a count or size (every one here is far below 2^53, so exact as a double).
inline val number(double x) {
  return val(x);
}

// The one test for "not given": undefined or null (JS callers pass either for an absent argument).
bool is_absent(const val& v);
// obj is given and obj[key] is given.
bool has_value(const val& obj, const char* key);

// {shape: number[], data: Float32Array | number[]} → Tensor. Throws lab::InputError naming `name`
// for anything else: missing, not an object, non-integer or negative shape, wrong data length.
lab::Tensor tensor_from_js(const val& v, const std::string& name);
// Same, but an absent (undefined/null) value gives an empty Tensor.
lab::Tensor optional_tensor(const val& obj, const char* key, const std::string& name);
// Integer ids (embedding ids, targets) from a tensor whose values must be whole numbers.
std::vector<int32_t> ids_from_js(const val& v, const std::string& name);

// Tensor → {shape: number[], data: Float32Array} (a copy).
val tensor_to_js(const lab::Tensor& t);

// obj[key], which must be true or false when present ("`name` must be true or false (got 1)";
// `name` defaults to the key).
bool js_bool(const val& obj, const char* key, bool fallback, const std::string& name = "");
double js_number(const val& obj, const char* key, double fallback, const std::string& name);
// obj[key] as a number; absent (undefined/null) gives nullopt. Ranges are the core's business.
std::optional<double> js_number(const val& obj, const char* key, const std::string& name);
std::string js_string(const val& obj, const char* key, const std::string& fallback,
                      const std::string& name);

// A JS string as UTF-8; throws for a non-string or an unpaired surrogate (which the conversion
// would otherwise turn into a different character).
std::string js_text(const val& v, const std::string& name);

// obj[key] as a whole number; absent (undefined/null) gives nullopt. Throws "`name` must be a
// whole number (got 2.5)" for non-numbers, fractions, NaN/Inf and values outside `long`. Ranges
// are the core's business: it names them.
std::optional<long> js_whole(const val& obj, const char* key, const std::string& name);
// The same for a required value (absent: "`name` must be a number").
long js_whole(const val& value, const std::string& name);
// obj[key] as a seed: a whole number in [0, 2^53 − 1] (every such number is exact in JS).
std::optional<uint64_t> js_seed(const val& obj, const char* key, const std::string& name);
// Throws "`what` has an unknown key 'x' (expected a, b, …)" for a key outside `allowed`, and
// "`what` must be an object" for a non-object. Absent obj passes.
void check_keys(const val& obj, const std::vector<std::string>& allowed, const std::string& what);
// A factory's config object: absent, the InputError `usage` ("createX() needs a config object
// {…}"); then check_keys(config, allowed, "config").
void check_config_object(const val& config, const char* usage,
                         const std::vector<std::string>& allowed);

// Copies out of wasm memory (never a view, which memory growth would detach).
val float_array_to_js(const std::vector<float>& values);
val bytes_to_js(const std::vector<uint8_t>& bytes);
std::vector<uint8_t> bytes_from_js(const val& bytes, const std::string& what);

// {error: message}, with an InputError's code and details ({error, code, details: {count: 70,
// …}}) when it has a code.
val error_to_js(const std::string& message, const lab::InputError* coded = nullptr);

// A session's train(steps): {losses, tokenAccuracy, step}; a diverged run gives {error,
// completed}, which the ES module turns into a JS Error carrying the completed steps.
val train_to_js(const val& steps, const std::function<lab::TrainResult(long)>& train);

// Runs fn() and returns its result; any exception becomes {error: message} (error_to_js), which
// the ES module rethrows as a JS Error. Keeping C++ exceptions inside wasm means no unwinding
// across the boundary: every destructor runs and the module stays usable.
template <class F>
val guarded(F&& fn) {
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    return error_to_js("out of memory: the request is too large for this module");
  } catch (const lab::InputError& e) {
    return error_to_js(e.what(), &e);
  } catch (const std::exception& e) {
    return error_to_js(e.what());
  }
}

}  // namespace labjs
