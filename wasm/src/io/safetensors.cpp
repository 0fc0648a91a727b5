// The safetensors reader and writer (io/safetensors.h). The checks, in the order the reader makes
// them: the 8-byte length against the file and the limit, the JSON (depth, duplicate names), each
// entry (keys, dtype, shape, offsets against dtype × shape and against the buffer), then the
// tiling of the buffer (overlap, gap, trailing bytes), then the values (finite).
#include "io/safetensors.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace lab {

namespace {

using json = nlohmann::json;

std::string quoted(const std::string& name) {
  return "'" + name + "'";
}

size_t dtype_bytes(const std::string& dtype) {
  if (dtype == "F32") return 4;
  if (dtype == "F16" || dtype == "BF16") return 2;
  return 0;
}

uint64_t read_u64_le(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

uint32_t read_u32_le(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

std::string offsets_str(uint64_t begin, uint64_t end) {
  return "[" + std::to_string(begin) + ", " + std::to_string(end) + "]";
}

struct Entry {
  std::string name, dtype;
  std::vector<long> shape;
  long count = 0;
  uint64_t begin = 0, end = 0;
};

std::vector<long> parse_shape(const json& j, const std::string& name) {
  if (!j.is_array()) throw InputError("tensor " + quoted(name) + ": shape must be an array");
  if (j.size() > static_cast<size_t>(kMaxSafetensorsRank)) {
    throw InputError("tensor " + quoted(name) + " has " + std::to_string(j.size()) +
                     " dimensions; the limit is " + std::to_string(kMaxSafetensorsRank));
  }
  std::vector<long> shape;
  double count = 1;
  for (const json& d : j) {
    if (!d.is_number_unsigned() || d.get<uint64_t>() > static_cast<uint64_t>(kMaxDim)) {
      throw InputError("tensor " + quoted(name) + ": shape " + j.dump() +
                       " must hold whole numbers in [0, " + std::to_string(kMaxDim) + "]");
    }
    shape.push_back(d.get<long>());
    count *= static_cast<double>(shape.back());
  }
  if (count > static_cast<double>(kMaxSafetensorsValues)) {
    throw InputError("tensor " + quoted(name) + " of shape " + j.dump() + " has " +
                     std::to_string(static_cast<long long>(count)) + " values; the limit is " +
                     std::to_string(kMaxSafetensorsValues));
  }
  return shape;
}

Entry parse_entry(const std::string& name, const json& j, uint64_t data_size) {
  if (name.empty() || name.size() > kMaxSafetensorsNameBytes) {
    throw InputError("tensor names must be 1 to " + std::to_string(kMaxSafetensorsNameBytes) +
                     " bytes long (got " + std::to_string(name.size()) + ")");
  }
  if (!j.is_object()) throw InputError("tensor " + quoted(name) + ": entry must be an object");
  for (const auto& item : j.items()) {
    if (item.key() != "dtype" && item.key() != "shape" && item.key() != "data_offsets") {
      throw InputError("tensor " + quoted(name) + " has an unknown key " + quoted(item.key()) +
                       " (expected dtype, shape, data_offsets)");
    }
  }
  for (const char* key : {"dtype", "shape", "data_offsets"}) {
    if (!j.contains(key)) throw InputError("tensor " + quoted(name) + " has no " + key);
  }
  Entry e;
  e.name = name;
  if (!j["dtype"].is_string())
    throw InputError("tensor " + quoted(name) + ": dtype must be a string");
  e.dtype = j["dtype"].get<std::string>();
  if (dtype_bytes(e.dtype) == 0) {
    throw InputError("tensor " + quoted(name) + " has dtype " + e.dtype.substr(0, 16) +
                     "; this reader takes F32, F16 and BF16 (save the model in float32)");
  }
  e.shape = parse_shape(j["shape"], name);
  e.count = 1;
  for (long d : e.shape) e.count *= d;
  const json& off = j["data_offsets"];
  if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() ||
      !off[1].is_number_unsigned()) {
    throw InputError("tensor " + quoted(name) +
                     ": data_offsets must be two whole numbers [begin, end]");
  }
  e.begin = off[0].get<uint64_t>();
  e.end = off[1].get<uint64_t>();
  if (e.begin > e.end) {
    throw InputError("tensor " + quoted(name) + ": data_offsets " + offsets_str(e.begin, e.end) +
                     " end before they begin");
  }
  const uint64_t need = static_cast<uint64_t>(e.count) * dtype_bytes(e.dtype);
  if (e.end - e.begin != need) {
    throw InputError("tensor " + quoted(name) + ": data_offsets " + offsets_str(e.begin, e.end) +
                     " hold " + std::to_string(e.end - e.begin) + " bytes, but " + e.dtype +
                     " of shape " + shape_str(e.shape) + " needs " + std::to_string(need));
  }
  if (e.end > data_size) {
    throw InputError("tensor " + quoted(name) + ": data_offsets " + offsets_str(e.begin, e.end) +
                     " go beyond the data buffer (" + std::to_string(data_size) +
                     " bytes): the file is truncated or corrupt");
  }
  return e;
}

// The header's JSON, with nesting and duplicate names refused while parsing.
json parse_header(const uint8_t* text, size_t size) {
  std::set<std::string> names;
  auto check = [&](int depth, json::parse_event_t event, json& parsed) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth >= kMaxSafetensorsDepth) {
      throw InputError("safetensors header nests deeper than " +
                       std::to_string(kMaxSafetensorsDepth) + " levels");
    }
    if (event == json::parse_event_t::key && depth == 1 &&
        !names.insert(parsed.get<std::string>()).second) {
      throw InputError("safetensors header names tensor " + quoted(parsed.get<std::string>()) +
                       " twice");
    }
    return true;
  };
  try {
    return json::parse(text, text + size, check);
  } catch (const json::exception& e) {
    throw InputError(std::string("safetensors header is not valid JSON: ") + e.what());
  }
}

float widen(const uint8_t* p, const std::string& dtype) {
  if (dtype == "F32") {
    const uint32_t bits = read_u32_le(p);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  const uint16_t bits = static_cast<uint16_t>(p[0] | p[1] << 8);
  return dtype == "F16" ? f16_to_f32(bits) : bf16_to_f32(bits);
}

}  // namespace

float bf16_to_f32(uint16_t bits) {
  const uint32_t wide = uint32_t{bits} << 16;  // bfloat16 is the top half of a float32
  float f;
  std::memcpy(&f, &wide, sizeof f);
  return f;
}

float f16_to_f32(uint16_t bits) {
  // value = (−1)^sign · 2^(exponent − 15) · 1.mantissa, subnormals 2^−14 · 0.mantissa
  const uint32_t sign = (bits >> 15) & 1u, exponent = (bits >> 10) & 0x1Fu,
                 mantissa = bits & 0x3FFu;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    magnitude = mantissa ? NAN : INFINITY;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
  }
  return sign ? -magnitude : magnitude;
}

const SafetensorsTensor* SafetensorsFile::find(const std::string& name) const {
  for (const SafetensorsTensor& t : tensors) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

bool looks_like_safetensors(const uint8_t* data, size_t size) {
  return size >= 10 && data[8] == '{' &&
         (data[9] == '"' || data[9] == '}' || data[9] == ' ' || data[9] == '\n');
}

SafetensorsFile read_safetensors(const uint8_t* data, size_t size) {
  if (size < 8) {
    throw InputError("safetensors file is truncated: " + std::to_string(size) +
                     " bytes, but it must start with an 8-byte header length");
  }
  if (size > kMaxSafetensorsFileBytes) {
    throw InputError("safetensors file is " + std::to_string(size) + " bytes; the limit is " +
                     std::to_string(kMaxSafetensorsFileBytes));
  }
  const uint64_t header_length = read_u64_le(data);
  if (header_length > size - 8) {
    throw InputError("safetensors header length " + std::to_string(header_length) +
                     " exceeds the file (" + std::to_string(size) +
                     " bytes): the file is truncated or corrupt");
  }
  if (header_length > kMaxSafetensorsHeaderBytes) {
    throw InputError("safetensors header is " + std::to_string(header_length) +
                     " bytes long; the limit is " + std::to_string(kMaxSafetensorsHeaderBytes));
  }
  if (header_length < 2 || data[8] != '{') {
    throw InputError("safetensors header must be a JSON object starting with '{'");
  }
  const json header = parse_header(data + 8, static_cast<size_t>(header_length));
  if (!header.is_object()) throw InputError("safetensors header is not a JSON object");
  const uint8_t* buffer = data + 8 + header_length;
  const uint64_t data_size = size - 8 - header_length;

  SafetensorsFile file;
  std::vector<Entry> entries;
  for (const auto& item : header.items()) {
    if (item.key() == "__metadata__") {
      if (!item.value().is_object()) {
        throw InputError("safetensors __metadata__ must be an object of strings");
      }
      for (const auto& m : item.value().items()) {
        if (!m.value().is_string()) {
          throw InputError("safetensors __metadata__ value " + quoted(m.key()) +
                           " is not a string (the format allows strings only)");
        }
        file.metadata[m.key()] = m.value().get<std::string>();
      }
      continue;
    }
    if (entries.size() == kMaxSafetensorsTensors) {
      throw InputError("safetensors file has more than " + std::to_string(kMaxSafetensorsTensors) +
                       " tensors");
    }
    entries.push_back(parse_entry(item.key(), item.value(), data_size));
  }

  // The tensors must tile the data buffer: sorted by offset, each begins where the last ended.
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  uint64_t covered = 0;
  const Entry* previous = nullptr;
  for (const Entry& e : entries) {
    if (e.begin < covered) {
      throw InputError("tensor " + quoted(e.name) + ": data_offsets " +
                       offsets_str(e.begin, e.end) + " overlap " + quoted(previous->name) +
                       " (data_offsets " + offsets_str(previous->begin, previous->end) + ")");
    }
    if (e.begin > covered) {
      throw InputError("safetensors data bytes " + offsets_str(covered, e.begin) +
                       " belong to no tensor (before " + quoted(e.name) + ")");
    }
    covered = e.end;
    if (e.end > e.begin) previous = &e;
  }
  if (covered != data_size) {
    throw InputError("safetensors data buffer has " + std::to_string(data_size - covered) +
                     " bytes after its last tensor, which belong to no tensor");
  }

  for (const Entry& e : entries) {
    SafetensorsTensor t;
    t.name = e.name;
    t.dtype = e.dtype;
    t.tensor.shape = e.shape;
    t.tensor.data.resize(static_cast<size_t>(e.count));
    const size_t width = dtype_bytes(e.dtype);
    for (long i = 0; i < e.count; ++i) {
      const float x = widen(buffer + e.begin + static_cast<size_t>(i) * width, e.dtype);
      if (!std::isfinite(x)) {
        throw InputError("tensor " + quoted(e.name) + " has a non-finite value (" +
                         (std::isnan(x) ? "NaN" : "infinity") + ") at index " + std::to_string(i));
      }
      t.tensor.data[static_cast<size_t>(i)] = x;
    }
    file.tensors.push_back(std::move(t));
  }
  return file;
}

std::vector<uint8_t> write_safetensors(const std::vector<SafetensorsTensor>& tensors,
                                       const std::map<std::string, std::string>& metadata) {
  if (tensors.size() > kMaxSafetensorsTensors) {
    throw InputError("safetensors: more than " + std::to_string(kMaxSafetensorsTensors) +
                     " tensors");
  }
  json header = json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  uint64_t offset = 0;
  for (const SafetensorsTensor& t : tensors) {
    if (t.name.empty() || t.name.size() > kMaxSafetensorsNameBytes || t.name == "__metadata__") {
      throw InputError("safetensors: bad tensor name " + quoted(t.name));
    }
    if (header.contains(t.name))
      throw InputError("safetensors: two tensors named " + quoted(t.name));
    if (t.tensor.rank() > kMaxSafetensorsRank) {
      throw InputError("safetensors: tensor " + quoted(t.name) + " has too many dimensions");
    }
    const long count = shape_numel(t.tensor.shape, t.name);
    if (count != t.tensor.size() || count > kMaxSafetensorsValues) {
      throw InputError("safetensors: tensor " + quoted(t.name) + " has " +
                       std::to_string(t.tensor.size()) + " values but its shape " +
                       shape_str(t.tensor.shape) + " holds " + std::to_string(count));
    }
    for (float x : t.tensor.data) {
      if (!std::isfinite(x)) {
        throw InputError("safetensors: tensor " + quoted(t.name) + " has a non-finite value");
      }
    }
    const uint64_t end = offset + static_cast<uint64_t>(count) * 4;
    header[t.name] = {{"dtype", "F32"}, {"shape", t.tensor.shape}, {"data_offsets", {offset, end}}};
    offset = end;
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // the data starts 8-byte aligned
  if (text.size() > kMaxSafetensorsHeaderBytes ||
      8 + text.size() + offset > kMaxSafetensorsFileBytes) {
    throw InputError("safetensors: the model is too large for one file");
  }
  std::vector<uint8_t> out;
  out.reserve(8 + text.size() + offset);
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(uint64_t{text.size()} >> (8 * i)));
  out.insert(out.end(), text.begin(), text.end());
  for (const SafetensorsTensor& t : tensors) {
    for (float x : t.tensor.data) {
      uint32_t bits;
      std::memcpy(&bits, &x, sizeof bits);
      for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(bits >> (8 * i)));
    }
  }
  return out;
}

}  // namespace lab
