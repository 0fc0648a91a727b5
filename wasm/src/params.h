// The flat parameter table every model shares (the Seq2Seq translator's, the Transformer's, the
// GPT's): one float buffer holds every weight, and a table of named views (PyTorch state-dict
// keys and shapes) says where each one lies, so Adam is one loop and a state dict is the table.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "optim.h"

namespace lab {

// One named parameter inside the flat buffer (PyTorch state-dict key and shape).
struct ParamView {
  std::string name;
  std::vector<long> shape;
  long offset = 0;  // into params() / grads()
  long size = 0;
};

// - kMaxVocab, kMaxParams: 16 Mi parameters, because a model keeps params, grads, Adam m and v
//   and a 3·P Adam scratch, i.e. 7 floats per parameter, 448 MiB at this limit;
// - check_param_count: `count` (in double, so absurd sizes cannot overflow before being
//   rejected) within kMaxParams, else an InputError that ends with `advice`;
// - append_param: adds the view `name` of `shape` after the table's last one and returns it;
// - find_param: the view `name`, or nullptr (each model names its parameters in its message);
// - write_param: `values` into params at v (named `name`), which must be v.size finite values;
// - check_adam_state: moments of num_params values each, finite, the second >= 0, step >= 0.
// Each throws InputError naming the parameter.
inline constexpr long kMaxVocab = 100000;
inline constexpr long kMaxParams = 1L << 24;
void check_param_count(double count, const char* advice);
const ParamView& append_param(std::vector<ParamView>& table, const std::string& name,
                              std::vector<long> shape);
const ParamView* find_param(const std::vector<ParamView>& table, const std::string& name);
void write_param(std::vector<float>& params, const ParamView& v, const std::string& name,
                 const std::vector<float>& values);
void check_adam_state(const AdamState& state, size_t num_params);

}  // namespace lab
