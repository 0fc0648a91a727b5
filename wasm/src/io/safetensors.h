// The safetensors container (Hugging Face's format, which PyTorch users save state dicts in):
//
//   uint64 little-endian N | N bytes of UTF-8 JSON header | the data buffer
//
// The header maps each tensor name to {"dtype", "shape", "data_offsets": [begin, end]} (byte
// offsets into the data buffer) and may hold "__metadata__", an object of string values. Data is
// row-major and little-endian. The layout and what the reader rejects: docs/safetensors.md.
//
// Files come from users, so the reader trusts nothing: every tensor's offsets must be inside the
// buffer and agree with its dtype and shape, the tensors must tile the buffer exactly (no overlap,
// no gap, no trailing bytes), and sizes are limited before anything is allocated. Every failure
// is an InputError that names the tensor and the problem. F32 is read as is; F16 and BF16 are
// widened to float32 exactly; the writer writes F32.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tensor.h"

namespace lab {

constexpr size_t kMaxSafetensorsHeaderBytes = size_t{8} << 20;  // 8 MiB: vocabularies fit
constexpr size_t kMaxSafetensorsFileBytes = size_t{1} << 30;    // 1 GiB, inside wasm32 memory
constexpr size_t kMaxSafetensorsTensors = 4096;
constexpr size_t kMaxSafetensorsNameBytes = 256;
constexpr int kMaxSafetensorsRank = 8;
constexpr long kMaxSafetensorsValues = 1L << 26;  // per tensor
constexpr int kMaxSafetensorsDepth = 16;          // JSON nesting of the header

struct SafetensorsTensor {
  std::string name;
  std::string dtype;  // as stored: F32, F16 or BF16
  Tensor tensor;      // float32 values in the tensor's shape
};

struct SafetensorsFile {
  std::map<std::string, std::string> metadata;  // "__metadata__", empty when absent
  std::vector<SafetensorsTensor> tensors;       // in data-offset order

  // nullptr when there is no tensor of that name.
  const SafetensorsTensor* find(const std::string& name) const;
};

// Throws InputError for anything the format does not allow (see docs/safetensors.md).
SafetensorsFile read_safetensors(const uint8_t* data, size_t size);

// F32 tensors in the given order, consecutive in the data buffer; the header is padded with
// spaces so that the data starts 8-byte aligned. Throws InputError for duplicate or bad names,
// a tensor whose data does not match its shape, non-finite values and the reader's limits.
std::vector<uint8_t> write_safetensors(const std::vector<SafetensorsTensor>& tensors,
                                       const std::map<std::string, std::string>& metadata);

// A cheap content check for front ends that accept several formats: the header (byte 8) opens
// with '{' followed by '"', '}' or white space. Says nothing about validity; read_safetensors does.
bool looks_like_safetensors(const uint8_t* data, size_t size);

// IEEE 754 half and bfloat16 → float32 (exact: every such value is a float32).
float f16_to_f32(uint16_t bits);
float bf16_to_f32(uint16_t bits);

}  // namespace lab
