// The .atlb model file: a trained model (config, vocabularies, weights) in one checked blob.
// The byte layout is documented in docs/model-format.md:
//
//   "ATLB" | uint32 version = 1 | uint32 header length | JSON header, space-padded so the
//   arrays start 4-byte aligned | float32 little-endian arrays | CRC-32 of all bytes before it
//
// The header is the caller's JSON object plus one key the format owns, "arrays": the table of
// {"name", "shape", "offset", "count"} entries (offset in bytes from the start of the arrays).
//
// Files come from users (uploads, URLs), so reading checks everything and throws InputError
// with a message that says what is wrong; it never trusts a length or an offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tensor.h"

namespace lab {

constexpr uint32_t kModelFileVersion = 1;
constexpr size_t kMaxModelHeaderBytes = size_t{4} << 20;  // 4 MiB of JSON: vocabularies fit easily
constexpr size_t kMaxModelFileBytes = size_t{1} << 30;    // 1 GiB, well inside wasm32 memory
constexpr size_t kMaxModelArrays = 4096;
constexpr size_t kMaxArrayNameBytes = 256;
constexpr int kMaxArrayRank = 8;
constexpr int kMaxHeaderDepth = 64;  // JSON nesting: keeps recursive walks of it shallow

struct NamedArray {
  std::string name;  // unique, non-empty, e.g. "encoder.embedding"
  Tensor tensor;
};

struct ModelFileContents {
  nlohmann::json header;  // as the writer's caller passed it ("arrays" removed)
  std::vector<NamedArray> arrays;

  // Throws InputError("model file has no array 'x'").
  const Tensor& array(const std::string& name) const;
};

// Throws InputError for a header that is not an object or already has "arrays", duplicate or
// bad names, a tensor whose data does not match its shape, non-finite values, or limits.
std::vector<uint8_t> write_model_file(const nlohmann::json& header,
                                      const std::vector<NamedArray>& arrays);

ModelFileContents read_model_file(const uint8_t* data, size_t size);

// CRC-32 as in zlib, PNG and Ethernet (reflected polynomial 0xEDB88320).
uint32_t crc32_ieee(const uint8_t* data, size_t size);

}  // namespace lab
