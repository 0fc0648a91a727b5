// The parameter store every model shares: names, shapes and offsets into one buffer, its
// gradients and Adam's state.
#include "params.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace lab {

namespace {

// The message lists this many names at most (a Transformer has dozens).
constexpr size_t kNamesListed = 6;

}  // namespace

void check_param_count(double count, const char* advice) {
  if (count > kMaxParams) {
    throw InputError("this configuration has " + std::to_string(static_cast<long long>(count)) +
                     " parameters, over the limit of " + std::to_string(kMaxParams) + "; " +
                     advice);
  }
}

long ParamStore::add_param(const std::string& name, std::vector<long> shape) {
  ParamView v;
  v.name = name;
  v.size = shape_numel(shape, name);
  v.shape = std::move(shape);
  v.offset = table_.empty() ? 0 : table_.back().offset + table_.back().size;
  table_.push_back(std::move(v));
  return table_.back().offset;
}

void ParamStore::allocate_params() {
  const long P = table_.empty() ? 0 : table_.back().offset + table_.back().size;
  params_.assign(static_cast<size_t>(P), 0.0f);
  grads_.assign(params_.size(), 0.0f);
  reset_optimizer();
}

void ParamStore::reset_optimizer() {
  std::fill(grads_.begin(), grads_.end(), 0.0f);
  grads_valid_ = false;
  adam_.reset(num_params());
}

const ParamView& ParamStore::param(const std::string& name) const {
  for (const ParamView& v : table_) {
    if (v.name == name) return v;
  }
  std::string known;
  for (size_t i = 0; i < table_.size() && i < kNamesListed; ++i) {
    known += (i ? ", " : "") + table_[i].name;
  }
  if (table_.size() > kNamesListed) known += ", … (" + std::to_string(table_.size()) + " in all)";
  throw InputError("this " + std::string(model_) + " has no parameter \"" + name +
                   "\" (it has: " + known + ")");
}

void ParamStore::set_param(const std::string& name, const std::vector<float>& values) {
  const ParamView& v = param(name);
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
  std::copy(values.begin(), values.end(), params_.begin() + v.offset);
  grads_valid_ = false;
}

void ParamStore::load_params(const std::vector<float>& values) {
  if (values.size() != params_.size()) {
    throw InputError("the " + std::string(model_) + " has " + std::to_string(params_.size()) +
                     " parameters, not " + std::to_string(values.size()));
  }
  params_ = values;
  reset_optimizer();
}

float ParamStore::clip_grad_norm(float max_norm) {
  if (!grads_valid_) {
    throw InputError("clip_grad_norm needs the gradients of a successful forward_backward");
  }
  return lab::clip_grad_norm(grads_, max_norm);
}

void ParamStore::set_adam_state(AdamState state) {
  const size_t P = params_.size();
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
  adam_ = std::move(state);
}

void ParamStore::step_adam_consuming_grads(const AdamOptions& options) {
  bool zeroed = false;
  step_adam(options, &zeroed);
  grads_valid_ = false;
  grads_zero_ = zeroed;
}

void ParamStore::clear_grads() {
  if (!grads_zero_) std::fill(grads_.begin(), grads_.end(), 0.0f);
  grads_zero_ = false;
}

void ParamStore::step_adam(const AdamOptions& options, bool* grads_zeroed) {
  if (!grads_valid_) {
    throw InputError("adam_step needs the gradients of a forward_backward with a finite loss");
  }
  try {
    // adam_update reads the gradients first (finite, bounded) and refuses a NaN/Inf one before
    // writing anything; here only the message is made specific.
    if (grads_zeroed) {
      *grads_zeroed = adam_update_zeroing_grads(params_, adam_, grads_, options, adam_scratch_);
    } else {
      adam_update(params_, adam_, grads_, options, adam_scratch_);
    }
  } catch (const NonFiniteError&) {
    if (!std::isfinite(grad_l2_norm(grads_))) {
      throw NonFiniteError(
          "the gradient norm is not finite: training diverged; the step was not applied");
    }
    throw;
  }
}

}  // namespace lab
