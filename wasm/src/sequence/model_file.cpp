// The .atlb reader and writer (docs/model-format.md). Over the ~400-line guide on purpose: it is
// one format's both directions, and every check of the untrusted reader sits next to the field
// it guards; split, the layout rules would live in two files that must change together.
#include "sequence/model_file.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <set>

#include "sequence/vocab.h"

namespace lab {

namespace {

constexpr char kMagic[4] = {'A', 'T', 'L', 'B'};
constexpr size_t kPreambleBytes = 12;  // magic, version, header length
constexpr size_t kChecksumBytes = 4;
constexpr const char* kArraysKey = "arrays";

// A file that ends too early. Reported as such even when the checksum fails too, because it
// says what went wrong (an interrupted download) better than "corrupt" does.
struct TruncatedFile : InputError {
  using InputError::InputError;
};

uint32_t read_u32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

void append_u32(std::vector<uint8_t>& out, uint32_t value) {
  for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<uint8_t>(value >> shift));
}

// Float bits go through uint32, so the byte order is little-endian on any host.
float read_f32(const uint8_t* p) {
  uint32_t bits = read_u32(p);
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

void append_f32(std::vector<uint8_t>& out, float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  append_u32(out, bits);
}

// Nesting depth of [ and { outside strings, stopping early once it passes the limit. Checked
// before parsing so that no recursive walk (printing, comparing) can ever overflow the stack.
bool json_text_too_deep(const uint8_t* text, size_t size) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < size; ++i) {
    char c = static_cast<char>(text[i]);
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxHeaderDepth) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

// The same depth for a json value: levels of arrays and objects, "{}" being one level.
bool json_too_deep(const nlohmann::json& j, int levels_above = 0) {
  if (!j.is_structured()) return false;
  if (levels_above + 1 > kMaxHeaderDepth) return true;
  for (const auto& child : j) {
    if (json_too_deep(child, levels_above + 1)) return true;
  }
  return false;
}

void check_array_name(const std::string& name, const std::string& where) {
  if (name.empty()) throw InputError(where + " has an empty name");
  if (name.size() > kMaxArrayNameBytes) {
    throw InputError(where + " has a name of " + std::to_string(name.size()) +
                     " bytes; the limit is " + std::to_string(kMaxArrayNameBytes));
  }
  check_utf8(name);
}

// Elements of a shape, checked against tensor.h's limits in 64-bit arithmetic before anything
// multiplies them in `long` (32 bits in wasm, where an unchecked product could overflow).
uint64_t checked_numel(const std::vector<uint64_t>& dims, const std::string& where) {
  uint64_t numel = 1;
  for (uint64_t dim : dims) {
    if (dim > static_cast<uint64_t>(kMaxDim)) {
      throw InputError(where + " has dimension " + std::to_string(dim) + "; the limit is " +
                       std::to_string(kMaxDim));
    }
    numel *= dim;  // <= 2^26 * 2^20: no overflow
    if (numel > static_cast<uint64_t>(kMaxElements)) {
      throw InputError(where + " has more elements than the limit of " +
                       std::to_string(kMaxElements));
    }
  }
  return numel;
}

std::string byte_range(uint64_t begin, uint64_t end) {
  return "bytes " + std::to_string(begin) + "–" + std::to_string(end);
}

// One row of the array table, checked.
struct ArrayEntry {
  std::string name;
  std::vector<long> shape;
  uint64_t offset = 0;  // from the start of the array data
  uint64_t count = 0;   // floats
  uint64_t end() const { return offset + 4 * count; }
};

uint64_t table_integer(const nlohmann::json& entry, const char* key, const std::string& where) {
  auto it = entry.find(key);
  if (it == entry.end() || !it->is_number_unsigned()) {
    throw InputError(where + " needs a non-negative integer '" + key + "'");
  }
  return it->get<uint64_t>();
}

ArrayEntry parse_entry(const nlohmann::json& entry, size_t index) {
  std::string where = "array table entry " + std::to_string(index);
  if (!entry.is_object()) throw InputError(where + " is not a JSON object");
  for (auto it = entry.begin(); it != entry.end(); ++it) {
    if (it.key() != "name" && it.key() != "shape" && it.key() != "offset" && it.key() != "count") {
      throw InputError(where + " has an unknown key '" + it.key() + "'");
    }
  }
  ArrayEntry result;
  auto name = entry.find("name");
  if (name == entry.end() || !name->is_string()) throw InputError(where + " needs a string 'name'");
  result.name = name->get<std::string>();
  check_array_name(result.name, where);
  where = "array '" + result.name + "'";

  auto shape = entry.find("shape");
  if (shape == entry.end() || !shape->is_array()) {
    throw InputError(where + " needs a 'shape' array");
  }
  if (shape->size() > static_cast<size_t>(kMaxArrayRank)) {
    throw InputError(where + " has " + std::to_string(shape->size()) +
                     " dimensions; the limit is " + std::to_string(kMaxArrayRank));
  }
  std::vector<uint64_t> dims;
  for (const auto& dim : *shape) {
    if (!dim.is_number_unsigned()) {
      throw InputError(where + " has a shape entry that is not a non-negative integer");
    }
    dims.push_back(dim.get<uint64_t>());
  }
  uint64_t numel = checked_numel(dims, where);
  result.shape.assign(dims.begin(), dims.end());  // each <= kMaxDim now

  result.offset = table_integer(entry, "offset", where);
  result.count = table_integer(entry, "count", where);
  if (result.count != numel) {
    throw InputError(where + " has count " + std::to_string(result.count) + " but its shape " +
                     shape_str(result.shape) + " holds " + std::to_string(numel));
  }
  if (result.offset > kMaxModelFileBytes) {
    throw InputError(where + " has offset " + std::to_string(result.offset) +
                     ", beyond the largest possible file");
  }
  if (result.offset % 4 != 0) {
    throw InputError(where + " has offset " + std::to_string(result.offset) +
                     ", which is not a multiple of 4");
  }
  return result;
}

struct Layout {
  nlohmann::json header;
  std::vector<ArrayEntry> entries;  // in table order
  size_t data_start = 0;            // file offset of the array data
};

// Everything but the checksum and the values. Throws TruncatedFile when the file ends before
// what its own preamble and table describe.
Layout parse_layout(const uint8_t* data, size_t size) {
  size_t header_length = read_u32(data + 8);
  if (header_length > size - kPreambleBytes - kChecksumBytes) {
    throw TruncatedFile("model header length " + std::to_string(header_length) +
                        " goes beyond the end of the file (" + std::to_string(size) +
                        " bytes): the file is truncated or corrupt");
  }
  if (header_length > kMaxModelHeaderBytes) {
    throw InputError("model header is " + std::to_string(header_length) +
                     " bytes long; the limit is " + std::to_string(kMaxModelHeaderBytes));
  }
  Layout layout;
  layout.data_start = kPreambleBytes + header_length;
  if (layout.data_start % 4 != 0) {
    throw InputError("model header length " + std::to_string(header_length) +
                     " leaves the arrays unaligned (12 + length must be a multiple of 4)");
  }
  const uint8_t* text = data + kPreambleBytes;
  if (json_text_too_deep(text, header_length)) {
    throw InputError("model header nests deeper than " + std::to_string(kMaxHeaderDepth) +
                     " levels");
  }
  try {
    layout.header = nlohmann::json::parse(text, text + header_length);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("model header is not valid JSON: ") + e.what());
  }
  if (!layout.header.is_object()) throw InputError("model header is not a JSON object");
  auto table = layout.header.find(kArraysKey);
  if (table == layout.header.end() || !table->is_array()) {
    throw InputError("model header has no 'arrays' table");
  }
  if (table->size() > kMaxModelArrays) {
    throw InputError("model file has " + std::to_string(table->size()) + " arrays; the limit is " +
                     std::to_string(kMaxModelArrays));
  }
  std::set<std::string> names;
  for (const auto& entry : *table) {
    layout.entries.push_back(parse_entry(entry, layout.entries.size()));
    if (!names.insert(layout.entries.back().name).second) {
      throw InputError("model file has two arrays named '" + layout.entries.back().name + "'");
    }
  }
  layout.header.erase(kArraysKey);

  // The arrays must tile the data exactly: no overlaps, no gaps, nothing after them.
  std::vector<const ArrayEntry*> by_offset;
  for (const ArrayEntry& entry : layout.entries) by_offset.push_back(&entry);
  std::sort(by_offset.begin(), by_offset.end(),
            [](const ArrayEntry* a, const ArrayEntry* b) { return a->offset < b->offset; });
  uint64_t covered = 0;
  const ArrayEntry* previous = nullptr;
  for (const ArrayEntry* entry : by_offset) {
    if (entry->offset < covered) {
      throw InputError("array '" + entry->name + "' (" + byte_range(entry->offset, entry->end()) +
                       ") overlaps array '" + previous->name + "' (" +
                       byte_range(previous->offset, previous->end()) + ")");
    }
    if (entry->offset > covered) {
      throw InputError("array data " + byte_range(covered, entry->offset) + " belong to no array");
    }
    covered = entry->end();
    previous = entry;
  }
  uint64_t data_bytes = size - layout.data_start - kChecksumBytes;
  if (covered > data_bytes) {
    throw TruncatedFile("model file is truncated: array '" + previous->name + "' ends at byte " +
                        std::to_string(covered) + " of the array data, but the file has " +
                        std::to_string(data_bytes));
  }
  if (covered < data_bytes) {
    throw InputError("model file has " + std::to_string(data_bytes - covered) +
                     " unexpected bytes after its arrays");
  }
  return layout;
}

}  // namespace

uint32_t crc32_ieee(const uint8_t* data, size_t size) {
  static const std::array<uint32_t, 256> kTable = [] {
    std::array<uint32_t, 256> table{};
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[n] = c;
    }
    return table;
  }();
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i) crc = kTable[(crc ^ data[i]) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

const Tensor& ModelFileContents::array(const std::string& name) const {
  for (const NamedArray& named : arrays) {
    if (named.name == name) return named.tensor;
  }
  throw InputError("model file has no array '" + name + "'");
}

std::vector<uint8_t> write_model_file(const nlohmann::json& header,
                                      const std::vector<NamedArray>& arrays) {
  if (!header.is_object()) throw InputError("model header must be a JSON object");
  if (header.contains(kArraysKey)) {
    throw InputError("model header key 'arrays' is reserved for the array table");
  }
  if (json_too_deep(header)) {
    throw InputError("model header nests deeper than " + std::to_string(kMaxHeaderDepth) +
                     " levels");
  }
  if (arrays.size() > kMaxModelArrays) {
    throw InputError("model has " + std::to_string(arrays.size()) + " arrays; the limit is " +
                     std::to_string(kMaxModelArrays));
  }
  nlohmann::json table = nlohmann::json::array();
  std::set<std::string> names;
  uint64_t data_bytes = 0;
  for (const NamedArray& named : arrays) {
    check_array_name(named.name, "array '" + named.name + "'");
    if (!names.insert(named.name).second) {
      throw InputError("two arrays are named '" + named.name + "'");
    }
    const Tensor& t = named.tensor;
    if (t.rank() > kMaxArrayRank) {
      throw InputError("array '" + named.name + "' has " + std::to_string(t.rank()) +
                       " dimensions; the limit is " + std::to_string(kMaxArrayRank));
    }
    std::vector<uint64_t> dims;
    for (long dim : t.shape) {
      if (dim < 0) throw InputError("array '" + named.name + "' has a negative dimension");
      dims.push_back(static_cast<uint64_t>(dim));
    }
    uint64_t numel = checked_numel(dims, "array '" + named.name + "'");
    if (numel != t.data.size()) {
      throw InputError("array '" + named.name + "' has " + std::to_string(t.size()) +
                       " values but its shape " + shape_str(t.shape) + " holds " +
                       std::to_string(numel));
    }
    check_finite(t, "array '" + named.name + "'");
    table.push_back(
        {{"name", named.name}, {"shape", t.shape}, {"offset", data_bytes}, {"count", numel}});
    data_bytes += 4 * numel;
  }
  nlohmann::json full = header;
  full[kArraysKey] = std::move(table);
  std::string text;
  try {
    text = full.dump();
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("model header cannot be written as JSON: ") + e.what());
  }
  // JSON ignores trailing spaces, so they align the arrays without a separate padding field.
  while ((kPreambleBytes + text.size()) % 4 != 0) text += ' ';
  if (text.size() > kMaxModelHeaderBytes) {
    throw InputError("model header is " + std::to_string(text.size()) +
                     " bytes long; the limit is " + std::to_string(kMaxModelHeaderBytes));
  }
  uint64_t total = kPreambleBytes + text.size() + data_bytes + kChecksumBytes;
  if (total > kMaxModelFileBytes) {
    throw InputError("model file would be " + std::to_string(total) + " bytes; the limit is " +
                     std::to_string(kMaxModelFileBytes));
  }

  std::vector<uint8_t> out;
  out.reserve(static_cast<size_t>(total));
  for (char c : kMagic) out.push_back(static_cast<uint8_t>(c));
  append_u32(out, kModelFileVersion);
  append_u32(out, static_cast<uint32_t>(text.size()));
  for (char c : text) out.push_back(static_cast<uint8_t>(c));
  for (const NamedArray& named : arrays) {
    for (float value : named.tensor.data) append_f32(out, value);
  }
  append_u32(out, crc32_ieee(out.data(), out.size()));
  return out;
}

ModelFileContents read_model_file(const uint8_t* data, size_t size) {
  if (data == nullptr && size != 0) throw InputError("model file data is null");
  if (std::memcmp(data == nullptr ? "" : reinterpret_cast<const char*>(data), kMagic,
                  std::min<size_t>(size, 4)) != 0) {
    throw InputError("not an AttentionLab model file (it does not start with \"ATLB\")");
  }
  size_t minimum = kPreambleBytes + kChecksumBytes;
  if (size < minimum) {
    throw TruncatedFile("model file is truncated: " + std::to_string(size) +
                        " bytes, but even an empty model file has " + std::to_string(minimum));
  }
  if (size > kMaxModelFileBytes) {
    throw InputError("model file is " + std::to_string(size) + " bytes; the limit is " +
                     std::to_string(kMaxModelFileBytes));
  }
  uint32_t version = read_u32(data + 4);
  if (version == 0) throw InputError("model file version 0 is not a valid version");
  if (version > kModelFileVersion) {
    throw InputError("model file version " + std::to_string(version) +
                     " is newer than this build supports (" + std::to_string(kModelFileVersion) +
                     ")");
  }

  // A damaged file usually also breaks its structure; the checksum names the real cause, so it
  // wins over structural errors, but not over truncation (which is the more precise diagnosis).
  const char* kCorrupt = "checksum mismatch: the file is corrupt";
  bool checksum_ok = crc32_ieee(data, size - kChecksumBytes) == read_u32(data + size - 4);
  Layout layout;
  try {
    layout = parse_layout(data, size);
  } catch (const TruncatedFile&) {
    throw;
  } catch (const InputError&) {
    if (!checksum_ok) throw InputError(kCorrupt);
    throw;
  }
  if (!checksum_ok) throw InputError(kCorrupt);

  ModelFileContents contents;
  contents.header = std::move(layout.header);
  for (const ArrayEntry& entry : layout.entries) {
    NamedArray named{entry.name, Tensor(entry.shape)};
    const uint8_t* values = data + layout.data_start + entry.offset;
    for (uint64_t i = 0; i < entry.count; ++i) {
      float value = read_f32(values + 4 * i);
      if (!std::isfinite(value)) {
        throw InputError("array '" + entry.name + "' has a non-finite value (" +
                         (std::isnan(value) ? "NaN" : "infinity") + ") at index " +
                         std::to_string(i));
      }
      named.tensor.data[i] = value;
    }
    contents.arrays.push_back(std::move(named));
  }
  return contents;
}

}  // namespace lab
