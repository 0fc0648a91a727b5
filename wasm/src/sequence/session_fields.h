// The pieces of a resumable session's .atlb file (sequence/model_file.h) that every session
// (rnn/, transformer/ and gpt/session_io.cpp) shares: the checked header-field reader, the
// 64-bit Rng state as hex, the training progress, and the arrays (the weights under their
// parameter names, then Adam's two moments of each, "adam.exp_avg.<name>" and
// "adam.exp_avg_sq.<name>").
#pragma once

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "optim.h"  // AdamState
#include "params.h"
#include "rng.h"
#include "sequence/model_file.h"

namespace lab {

inline constexpr const char* kFirstMomentPrefix = "adam.exp_avg.";
inline constexpr const char* kSecondMomentPrefix = "adam.exp_avg_sq.";

// 64-bit Rng states as 16 hex digits: JSON numbers are often read as doubles (53 bits).
inline std::string hex64(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, value);
  return text;
}

inline uint64_t parse_hex64(const std::string& text, const std::string& what) {
  if (text.size() != 16 || text.find_first_not_of("0123456789abcdef") != std::string::npos) {
    throw InputError("model file: " + what + " must be 16 lowercase hex digits");
  }
  return std::stoull(text, nullptr, 16);
}

// The header field obj[key], named `path` in messages. It must be present and of the JSON type T
// needs, so that nothing is converted silently: nlohmann's get<long>() would truncate 2.5 to 2
// and wrap 2^32 + 1 to 1 in wasm32, and get<uint64_t>() would wrap -1.
template <class T>
T header_field(const nlohmann::json& obj, const char* key, const std::string& path) {
  if (!obj.is_object() || !obj.contains(key)) {
    throw InputError("model file header has no '" + path + "'");
  }
  const nlohmann::json& v = obj.at(key);
  bool ok = false;
  const char* expected = "";
  if constexpr (std::is_same_v<T, bool>) {
    ok = v.is_boolean(), expected = "true or false";
  } else if constexpr (std::is_same_v<T, std::string>) {
    ok = v.is_string(), expected = "a string";
  } else if constexpr (std::is_same_v<T, double>) {
    ok = v.is_number(), expected = "a number";
  } else if constexpr (std::is_unsigned_v<T>) {
    ok = v.is_number_unsigned(), expected = "a whole number >= 0";
  } else {
    static_assert(std::is_same_v<T, long>);
    ok = (v.is_number_unsigned() && v.get<uint64_t>() <= static_cast<uint64_t>(LONG_MAX)) ||
         (v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() >= LONG_MIN &&
          v.get<int64_t>() <= LONG_MAX);
    expected = "a whole number within the range of long";
  }
  if (!ok) {
    std::string shown = v.dump();
    if (shown.size() > 40) shown = shown.substr(0, 40) + "…";
    throw InputError("model file header field '" + path + "' must be " + expected + " (got " +
                     shown + ")");
  }
  return v.get<T>();
}

// Where a saved session stood: its "training" header's step, batch sampler state and Adam step.
struct SessionProgress {
  long step = 0;
  uint64_t sampler_state = 0;
  long adam_step = 0;
};

// Reads and checks them from the "training" object `jt` (in that order).
inline SessionProgress read_session_progress(const nlohmann::json& jt) {
  SessionProgress progress;
  progress.step = header_field<long>(jt, "step", "training.step");
  if (progress.step < 0) throw InputError("model file: training step must be >= 0");
  progress.sampler_state =
      parse_hex64(header_field<std::string>(jt, "samplerState", "training.samplerState"),
                  "training.samplerState");
  progress.adam_step = header_field<long>(jt, "adamStep", "training.adamStep");
  // Adam divides by 1 − β^t: a negative t would give the next step an infinite or reversed
  // update, a corrupted model rather than an error.
  if (progress.adam_step < 0) throw InputError("model file: training.adamStep must be >= 0");
  return progress;
}

// The file's arrays of a session: every weight (params sliced by `table`), then every first
// moment, then every second moment, each in table order.
inline std::vector<NamedArray> session_arrays(const std::vector<float>& params,
                                              const AdamState& adam,
                                              const std::vector<ParamView>& table) {
  const auto slice = [](const std::vector<float>& flat, const ParamView& p) {
    return Tensor(p.shape,
                  std::vector<float>(flat.begin() + p.offset, flat.begin() + p.offset + p.size));
  };
  std::vector<NamedArray> arrays;
  for (const ParamView& p : table) arrays.push_back({p.name, slice(params, p)});
  for (const ParamView& p : table)
    arrays.push_back({kFirstMomentPrefix + p.name, slice(adam.exp_avg, p)});
  for (const ParamView& p : table) {
    arrays.push_back({kSecondMomentPrefix + p.name, slice(adam.exp_avg_sq, p)});
  }
  return arrays;
}

// The array `name` of the file, which must have the parameter's shape.
inline const std::vector<float>& session_array_like(const ModelFileContents& file,
                                                    const std::string& name, const ParamView& p) {
  const Tensor& t = file.array(name);
  if (t.shape != p.shape) {
    throw InputError("model file array '" + name + "' has shape " + shape_str(t.shape) +
                     " but the model needs " + shape_str(p.shape));
  }
  return t.data;
}

// Checks the header's kind (`model` names it in the message: "Seq2Seq", "Transformer", "GPT") and
// version, and that it has both "config" and "training".
inline void check_session_header(const nlohmann::json& h, const char* kind, const char* model,
                                 long version) {
  if (h.value("kind", "") != kind) {
    throw InputError(std::string("model file is not a ") + model + " model (header kind must be '" +
                     kind + "')");
  }
  const long got = header_field<long>(h, "version", "version");
  if (got != version) {
    throw InputError(std::string("model file has ") + model + " version " + std::to_string(got) +
                     "; this build reads version " + std::to_string(version));
  }
  if (!h.contains("config") || !h.contains("training")) {
    throw InputError("model file header needs both 'config' and 'training'");
  }
}

// read(), with a JSON error from reading the header reported as an InputError.
template <class Read>
auto reading_session_header(const Read& read) -> decltype(read()) {
  try {
    return read();
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("model file header is missing or has a wrong field: ") + e.what());
  }
}

// Sets the model's weights and Adam's moments from the file's arrays (written by session_arrays),
// Adam's step, the sampler's state and the step counter from `progress`. Model is Seq2SeqModel,
// TransformerModel or GptModel: params(), set_param(name, values), set_adam_state(state); `table`
// is its parameter table.
template <class Model>
void restore_session(const ModelFileContents& file, Model& model,
                     const std::vector<ParamView>& table, const SessionProgress& progress,
                     Rng& sampler, long& step) {
  AdamState adam;
  adam.step = progress.adam_step;
  const size_t expected = 3 * table.size();  // weights and both moments
  if (file.arrays.size() != expected) {
    throw InputError("model file has " + std::to_string(file.arrays.size()) +
                     " arrays but this configuration needs " + std::to_string(expected) +
                     " (its weights and Adam's two moments of each)");
  }
  adam.exp_avg.resize(model.params().size());
  adam.exp_avg_sq.resize(model.params().size());
  for (const ParamView& p : table) {
    model.set_param(p.name, session_array_like(file, p.name, p));
    const std::vector<float>& m = session_array_like(file, kFirstMomentPrefix + p.name, p);
    const std::vector<float>& v = session_array_like(file, kSecondMomentPrefix + p.name, p);
    std::copy(m.begin(), m.end(), adam.exp_avg.begin() + p.offset);
    std::copy(v.begin(), v.end(), adam.exp_avg_sq.begin() + p.offset);
  }
  model.set_adam_state(std::move(adam));
  sampler.set_state(progress.sampler_state);
  step = progress.step;
}

}  // namespace lab
