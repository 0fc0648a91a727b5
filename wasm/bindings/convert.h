// JS ⇄ core conversion for the embind layer. No maths here: only checking what JS handed us and
// copying it in, and copying results out (never views into wasm memory, which a later memory
// growth would detach).
#pragma once

#include <emscripten/val.h>

#include <string>
#include <vector>

#include "tensor.h"

namespace labjs {

using emscripten::val;

// {shape: number[], data: Float32Array | number[]} → Tensor. Throws lab::InputError naming `name`
// for anything else: missing, not an object, non-integer or negative shape, wrong data length.
lab::Tensor tensor_from_js(const val& v, const std::string& name);
// Same, but an absent (undefined/null) value gives an empty Tensor.
lab::Tensor optional_tensor(const val& obj, const char* key, const std::string& name);
// Integer ids (embedding ids, targets) from a tensor whose values must be whole numbers.
std::vector<int32_t> ids_from_js(const val& v, const std::string& name);

// Tensor → {shape: number[], data: Float32Array} (a copy).
val tensor_to_js(const lab::Tensor& t);

bool js_bool(const val& obj, const char* key, bool fallback);
double js_number(const val& obj, const char* key, double fallback, const std::string& name);
std::string js_string(const val& obj, const char* key, const std::string& fallback,
                      const std::string& name);

// Runs fn() and returns its result; any exception becomes {error: message}, which the ES module
// rethrows as a JS Error. Keeping C++ exceptions inside wasm means no unwinding across the
// boundary: every destructor runs and the module stays usable.
template <class F>
val guarded(F&& fn) {
  std::string message;
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    message = "out of memory: the request is too large for this module";
  } catch (const std::exception& e) {
    message = e.what();
  }
  val result = val::object();
  result.set("error", val(message));
  return result;
}

}  // namespace labjs
