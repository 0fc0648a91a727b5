// The flat parameter table every model shares: names, shapes and offsets into one buffer.
#include "params.h"

#include <cmath>
#include <string>
#include <utility>

namespace lab {

void check_param_count(double count, const char* advice) {
  if (count > kMaxParams) {
    throw InputError("this configuration has " + std::to_string(static_cast<long long>(count)) +
                     " parameters, over the limit of " + std::to_string(kMaxParams) + "; " +
                     advice);
  }
}

const ParamView& append_param(std::vector<ParamView>& table, const std::string& name,
                              std::vector<long> shape) {
  ParamView v;
  v.name = name;
  v.size = shape_numel(shape, name);
  v.shape = std::move(shape);
  v.offset = table.empty() ? 0 : table.back().offset + table.back().size;
  table.push_back(std::move(v));
  return table.back();
}

const ParamView* find_param(const std::vector<ParamView>& table, const std::string& name) {
  for (const ParamView& v : table) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

void write_param(std::vector<float>& params, const ParamView& v, const std::string& name,
                 const std::vector<float>& values) {
  if (static_cast<long>(values.size()) != v.size) {
    throw InputError("parameter " + name + " has shape " + shape_str(v.shape) + " (" +
                     std::to_string(v.size) + " values) but " + std::to_string(values.size()) +
                     " were given");
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      throw InputError("parameter " + name + " value " + std::to_string(i) + " is not finite");
    }
  }
  std::copy(values.begin(), values.end(), params.begin() + v.offset);
}

void check_adam_state(const AdamState& state, size_t num_params) {
  const size_t P = num_params;
  if (state.exp_avg.size() != P || state.exp_avg_sq.size() != P) {
    throw InputError("optimizer state has " + std::to_string(state.exp_avg.size()) + " and " +
                     std::to_string(state.exp_avg_sq.size()) + " moment values but the model has " +
                     std::to_string(P) + " parameters");
  }
  if (state.step < 0) throw InputError("optimizer step must be >= 0");
  for (size_t i = 0; i < P; ++i) {
    if (!std::isfinite(state.exp_avg[i]) || !(state.exp_avg_sq[i] >= 0.0f) ||
        !std::isfinite(state.exp_avg_sq[i])) {
      throw InputError("optimizer moment " + std::to_string(i) +
                       " is not finite (or the second moment is negative)");
    }
  }
}

}  // namespace lab
