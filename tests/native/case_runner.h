// Runs one reference case (shared/reference/attention.json) through the core: the same entry
// points a user calls, so both the PyTorch comparison and the finite-difference checks exercise
// exactly what ships.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tensor.h"
#include "test_util.h"  // load_reference

namespace labtest {

using Named = std::map<std::string, lab::Tensor>;

struct CaseResult {
  Named outputs;
  Named grads;  // dL/d(input) for every float input and weight, L = Σ main_output ⊙ grad_output
};

lab::Tensor tensor_from_json(const nlohmann::json& j);

// The output that grad_output applies to: "output", "y" or "loss".
std::string main_output(const std::string& kind);
// Inputs that are integer ids, not differentiable.
bool is_integer_input(const std::string& name);

CaseResult run_case(const std::string& kind, const nlohmann::json& config, const Named& inputs,
                    const lab::Tensor& grad_output, bool with_backward = true);

}  // namespace labtest
