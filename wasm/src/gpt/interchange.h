// A GptModel as a .safetensors state dict under nanoGPT's names, so that a model trained here
// continues in PyTorch (GPT(...).load_state_dict(tensors, strict=True) in
// tests/reference/gen_gpt.py) and a model trained there continues here.
//
//   tensors       every parameter of gpt/model.h's table, in its order, then lm_head.weight: a
//                 copy of transformer.wte.weight, as GPT.state_dict() holds both tied names
//   __metadata__  "format": "pt";  "config": JSON text {"vocab", "block_size", "layers",
//                 "heads", "d_model"} (the head count is not in any shape)
#pragma once

#include <cstdint>
#include <vector>

#include "gpt/model.h"
#include "io/safetensors.h"

namespace lab {

std::vector<uint8_t> write_gpt_safetensors(const GptModel& model);

// The sizes a file's shapes give (vocab and width from wte, block size from wpe, layers from
// the blocks present); heads from `heads` when > 0, else from the "config" metadata. Throws
// InputError when wte / wpe are missing or not 2-D, or the head count is nowhere.
GptConfig gpt_config_of(const SafetensorsFile& file, long heads = 0);

// Every parameter from the file: each of the model's names present with its shape and finite
// values, no other name, and lm_head.weight (if present) equal to transformer.wte.weight. Every
// check runs before anything is written: on an InputError (naming the tensor) the model is
// unchanged. A loaded model starts a fresh Adam state.
void load_gpt_weights(GptModel& model, const SafetensorsFile& file);

}  // namespace lab
