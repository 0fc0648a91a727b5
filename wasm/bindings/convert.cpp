#include "convert.h"

#include <emscripten/emscripten.h>

#include <algorithm>
#include <climits>
#include <cmath>

using emscripten::EM_VAL;

// One pass in JS instead of one embind call per element: the index of the first element of the
// plain array `handle` that is not a number, or -1. TypedArray.set would otherwise turn "1" into 1,
// null (what JSON.stringify makes of NaN) into 0 and true into 1 without a word.
EM_JS(int, lab_first_non_number, (EM_VAL handle), {
  const a = Emval.toValue(handle);
  for (let i = 0; i < a.length; ++i) {
    if (typeof a[i] != 'number') return i;
  }
  return -1;
});

// The index of the first unpaired UTF-16 surrogate of the string `handle`, or -1. Emscripten's
// UTF-8 encoder would silently fuse a lone high surrogate with whatever follows it.
EM_JS(int, lab_lone_surrogate_at, (EM_VAL handle), {
  const s = Emval.toValue(handle);
  for (let i = 0; i < s.length; ++i) {
    const c = s.charCodeAt(i);
    if (c >= 0xD800 && c <= 0xDBFF) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xDC00 && d <= 0xDFFF) {
        ++i;
        continue;
      }
      return i;
    }
    if (c >= 0xDC00 && c <= 0xDFFF) return i;
  }
  return -1;
});

namespace labjs {

namespace {

// Throws unless every element of the plain array `data` is a number (typed arrays always are).
void check_numbers(const val& data, const std::string& name) {
  const int i = lab_first_non_number(data.as_handle());
  if (i < 0) return;
  val element = data[i];
  const std::string type = element.isNull() ? "null" : element.typeOf().as<std::string>();
  throw lab::InputError(name + ".data[" + std::to_string(i) + "] is " + type + ", not a number");
}

std::vector<long> shape_from_js(const val& shape, const std::string& name) {
  if (!val::global("Array").call<bool>("isArray", shape)) {
    throw lab::InputError(name + ".shape must be an array of sizes");
  }
  const unsigned rank = shape["length"].as<unsigned>();
  if (rank > 8)
    throw lab::InputError(name + ".shape has " + std::to_string(rank) +
                          " dimensions; at most 8 are supported");
  std::vector<long> dims;
  for (unsigned i = 0; i < rank; ++i) {
    val d = shape[i];
    if (!d.isNumber() || !val::global("Number").call<bool>("isInteger", d) || d.as<double>() < 0) {
      throw lab::InputError(name + ".shape[" + std::to_string(i) +
                            "] must be a non-negative whole number");
    }
    double size = d.as<double>();
    if (size > lab::kMaxDim) {
      throw lab::InputError(name + ".shape[" + std::to_string(i) +
                            "] = " + std::to_string(static_cast<long long>(size)) +
                            " exceeds the limit of " + std::to_string(lab::kMaxDim));
    }
    dims.push_back(static_cast<long>(size));
  }
  return dims;
}

}  // namespace

bool is_absent(const val& v) {
  return v.isUndefined() || v.isNull();
}

bool has_value(const val& obj, const char* key) {
  return !is_absent(obj) && !is_absent(obj[key]);
}

lab::Tensor tensor_from_js(const val& v, const std::string& name) {
  if (is_absent(v)) throw lab::InputError(name + " is missing");
  if (v.typeOf().as<std::string>() != "object") {
    throw lab::InputError(name + " must be a tensor {shape, data}");
  }
  std::vector<long> shape = shape_from_js(v["shape"], name);
  const long n = lab::shape_numel(shape, name);  // checks the limits before anything is allocated
  val data = v["data"];
  bool typed = data.instanceof (val::global("Float32Array"));
  if (!typed && !val::global("Array").call<bool>("isArray", data)) {
    throw lab::InputError(name + ".data must be a Float32Array or an array of numbers");
  }
  const long length = data["length"].as<long>();
  if (length != n) {
    throw lab::InputError(name + ".data has " + std::to_string(length) + " values but shape " +
                          lab::shape_str(shape) + " needs " + std::to_string(n));
  }
  if (!typed) check_numbers(data, name);
  return lab::Tensor(std::move(shape), emscripten::convertJSArrayToNumberVector<float>(data));
}

lab::Tensor optional_tensor(const val& obj, const char* key, const std::string& name) {
  if (is_absent(obj)) return {};
  val v = obj[key];
  return is_absent(v) ? lab::Tensor() : tensor_from_js(v, name);
}

std::vector<int32_t> ids_from_js(const val& v, const std::string& name) {
  if (is_absent(v)) throw lab::InputError(name + " is missing");
  std::vector<long> shape = shape_from_js(v["shape"], name);
  const long n = lab::shape_numel(shape, name);
  val data = v["data"];
  if (data.isUndefined() || data["length"].isUndefined() || data["length"].as<long>() != n) {
    throw lab::InputError(name + ".data must hold " + std::to_string(n) + " whole numbers");
  }
  if (val::global("Array").call<bool>("isArray", data)) check_numbers(data, name);
  std::vector<double> raw = emscripten::convertJSArrayToNumberVector<double>(data);
  std::vector<int32_t> ids;
  for (size_t i = 0; i < raw.size(); ++i) {
    double x = raw[i];
    if (!(std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 2147483647.0)) {
      throw lab::InputError(name + ".data[" + std::to_string(i) + "] is not a whole number");
    }
    ids.push_back(static_cast<int32_t>(x));
  }
  return ids;
}

val tensor_to_js(const lab::Tensor& t) {
  val shape = val::array();
  for (long d : t.shape) shape.call<void>("push", val(static_cast<double>(d)));
  val out = val::object();
  out.set("shape", shape);
  // slice() copies out of wasm memory: the caller keeps a Float32Array of its own.
  out.set("data",
          val(emscripten::typed_memory_view(t.data.size(), t.data.data())).call<val>("slice"));
  return out;
}

bool js_bool(const val& obj, const char* key, bool fallback, const std::string& name) {
  if (!has_value(obj, key)) return fallback;
  val v = obj[key];
  if (!v.isTrue() && !v.isFalse()) {
    throw lab::InputError((name.empty() ? std::string(key) : name) +
                          " must be true or false (got " +
                          val::global("String")(v).as<std::string>() + ")");
  }
  return v.isTrue();
}

double js_number(const val& obj, const char* key, double fallback, const std::string& name) {
  if (!has_value(obj, key)) return fallback;
  val v = obj[key];
  if (!v.isNumber()) throw lab::InputError(name + " must be a number");
  return v.as<double>();
}

std::optional<double> js_number(const val& obj, const char* key, const std::string& name) {
  if (!has_value(obj, key)) return std::nullopt;
  return js_number(obj, key, 0.0, name);
}

std::string js_string(const val& obj, const char* key, const std::string& fallback,
                      const std::string& name) {
  if (!has_value(obj, key)) return fallback;
  val v = obj[key];
  if (!v.isString()) throw lab::InputError(name + " must be a string");
  return v.as<std::string>();
}

std::string js_text(const val& v, const std::string& name) {
  if (!v.isString()) throw lab::InputError(name + " must be a string");
  const int i = lab_lone_surrogate_at(v.as_handle());
  if (i >= 0) {
    throw lab::InputError(name + " has an unpaired UTF-16 surrogate at position " +
                          std::to_string(i) + ", which is not valid Unicode");
  }
  return v.as<std::string>();
}

std::optional<long> js_whole(const val& obj, const char* key, const std::string& name) {
  if (!has_value(obj, key)) return std::nullopt;
  return js_whole(obj[key], name);
}

long js_whole(const val& v, const std::string& name) {
  if (!v.isNumber()) throw lab::InputError(name + " must be a number");
  const double x = v.as<double>();
  // In [LONG_MIN, LONG_MAX], i.e. [−2^31, 2^31) in wasm32, so the cast below is exact.
  if (!(std::isfinite(x) && x == std::floor(x) && x >= static_cast<double>(LONG_MIN) &&
        x < -static_cast<double>(LONG_MIN))) {
    throw lab::InputError(name + " must be a whole number (got " +
                          val::global("String")(v).as<std::string>() + ")");
  }
  return static_cast<long>(x);
}

std::optional<uint64_t> js_seed(const val& obj, const char* key, const std::string& name) {
  if (!has_value(obj, key)) return std::nullopt;
  val v = obj[key];
  const double x = v.isNumber() ? v.as<double>() : -1.0;
  if (!(x >= 0 && x <= 9007199254740991.0 && x == std::floor(x))) {
    throw lab::InputError(name + " must be a whole number in [0, 2^53 - 1] (got " +
                          val::global("String")(v).as<std::string>() + ")");
  }
  return static_cast<uint64_t>(x);
}

void check_keys(const val& obj, const std::vector<std::string>& allowed, const std::string& what) {
  if (is_absent(obj)) return;
  if (obj.typeOf().as<std::string>() != "object") {
    throw lab::InputError(what + " must be an object");
  }
  val keys = val::global("Object").call<val>("keys", obj);
  const unsigned n = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    const std::string k = keys[i].as<std::string>();
    if (std::find(allowed.begin(), allowed.end(), k) == allowed.end()) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw lab::InputError(what + " has an unknown key '" + k + "' (expected " + list + ")");
    }
  }
}

void check_config_object(const val& config, const char* usage,
                         const std::vector<std::string>& allowed) {
  if (is_absent(config)) throw lab::InputError(usage);
  check_keys(config, allowed, "config");
}

val error_to_js(const std::string& message, const lab::InputError* coded) {
  val result = val::object();
  result.set("error", val(message));
  if (coded != nullptr && !coded->code.empty()) {
    result.set("code", val(coded->code));
    val details = val::object();
    for (const auto& [key, value] : coded->details) details.set(key, number(value));
    result.set("details", details);
  }
  return result;
}

val float_array_to_js(const std::vector<float>& values) {
  return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

val bytes_to_js(const std::vector<uint8_t>& bytes) {
  return val(emscripten::typed_memory_view(bytes.size(), bytes.data())).call<val>("slice");
}

std::vector<uint8_t> bytes_from_js(const val& bytes, const std::string& what) {
  if (is_absent(bytes) || !bytes.instanceof (val::global("Uint8Array"))) {
    throw lab::InputError(what + " needs the bytes of a .atlb file as a Uint8Array");
  }
  return emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
}

val train_to_js(const val& steps, const std::function<lab::TrainResult(long)>& train) {
  const auto to_js = [](const lab::TrainResult& r) {
    val out = val::object();
    out.set("losses", float_array_to_js(r.losses));
    out.set("tokenAccuracy", float_array_to_js(r.token_accuracy));
    out.set("step", val(static_cast<double>(r.step)));
    return out;
  };
  const long n = js_whole(steps, "train(steps): steps");
  try {
    return to_js(train(n));
  } catch (const lab::TrainingDiverged& e) {
    val out = error_to_js(e.what());
    out.set("completed", to_js(e.completed));
    return out;
  }
}

}  // namespace labjs
