// The .atlb model file: round trips, and every way a file can be wrong.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "expect_input_error.h"
#include "sequence/model_file.h"
#include "sequence/vocab.h"
#include "tensor.h"

namespace lab {
namespace {

using nlohmann::json;

std::vector<NamedArray> sample_arrays() {
  return {
      {"encoder.embedding", Tensor({3, 2}, {0.5f, -1.25f, 3e-39f, -0.0f, 1e30f, 7.0f})},
      {"encoder.bias", Tensor({4}, {1, 2, 3, 4})},
      {"scale", Tensor({}, {0.125f})},  // a scalar
      {"empty", Tensor({0, 3})},
  };
}

json sample_header() {
  return json{{"format", "attention-lab"},
              {"config", {{"hidden", 128}, {"score", "dot"}}},
              {"source_vocab", Vocab::build(Tokenizer::kWords, {"咖哥", "喜欢"}).to_json()}};
}

std::vector<uint32_t> bits_of(const std::vector<float>& values) {
  std::vector<uint32_t> bits(values.size());
  for (size_t i = 0; i < values.size(); ++i) std::memcpy(&bits[i], &values[i], 4);
  return bits;
}

ModelFileContents read(const std::vector<uint8_t>& bytes) {
  return read_model_file(bytes.data(), bytes.size());
}

void put_u32(std::vector<uint8_t>& bytes, size_t at, uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<uint8_t>(value >> (8 * i));
}

uint32_t get_u32(const std::vector<uint8_t>& bytes, size_t at) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= static_cast<uint32_t>(bytes[at + i]) << (8 * i);
  return value;
}

void fix_checksum(std::vector<uint8_t>& bytes) {
  put_u32(bytes, bytes.size() - 4, crc32_ieee(bytes.data(), bytes.size() - 4));
}

// A file with a hand-written header and data and a valid checksum, to reach the checks behind
// the checksum. The header is space-padded to alignment unless `pad` is false.
std::vector<uint8_t> craft(std::string header, const std::vector<float>& values, bool pad = true) {
  while (pad && (12 + header.size()) % 4 != 0) header += ' ';
  std::vector<uint8_t> bytes = {'A', 'T', 'L', 'B', 1, 0, 0, 0, 0, 0, 0, 0};
  put_u32(bytes, 8, static_cast<uint32_t>(header.size()));
  bytes.insert(bytes.end(), header.begin(), header.end());
  for (float value : values) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<uint8_t>(bits >> (8 * i)));
  }
  bytes.resize(bytes.size() + 4);
  fix_checksum(bytes);
  return bytes;
}

TEST(ModelFileTest, Crc32MatchesTheStandardCheckValue) {
  const char* text = "123456789";
  EXPECT_EQ(crc32_ieee(reinterpret_cast<const uint8_t*>(text), 9), 0xCBF43926u);
  EXPECT_EQ(crc32_ieee(nullptr, 0), 0u);
}

TEST(ModelFileTest, RoundTripIsBitExact) {
  std::vector<NamedArray> arrays = sample_arrays();
  std::vector<uint8_t> bytes = write_model_file(sample_header(), arrays);
  ModelFileContents contents = read(bytes);
  EXPECT_EQ(contents.header, sample_header());
  ASSERT_EQ(contents.arrays.size(), arrays.size());
  for (size_t i = 0; i < arrays.size(); ++i) {
    EXPECT_EQ(contents.arrays[i].name, arrays[i].name);
    EXPECT_EQ(contents.arrays[i].tensor.shape, arrays[i].tensor.shape);
    ASSERT_EQ(contents.arrays[i].tensor.data.size(), arrays[i].tensor.data.size());
    // Bit-exact: -0.0 and the denormal survive.
    EXPECT_EQ(bits_of(contents.arrays[i].tensor.data), bits_of(arrays[i].tensor.data))
        << arrays[i].name;
  }
  EXPECT_EQ(contents.array("encoder.bias").data[3], 4.0f);
  EXPECT_INPUT_ERROR(contents.array("decoder.bias"), "model file has no array 'decoder.bias'");
  // Writing what was read gives the same bytes.
  EXPECT_EQ(write_model_file(contents.header, contents.arrays), bytes);
  EXPECT_EQ(Vocab::from_json(contents.header["source_vocab"]).id("喜欢"), 5);
}

TEST(ModelFileTest, LayoutIsAsDocumented) {
  std::vector<uint8_t> bytes =
      write_model_file(json::object(), {{"w", Tensor({2}, {1.0f, -2.0f})}});
  ASSERT_GE(bytes.size(), 16u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4), "ATLB");
  EXPECT_EQ(get_u32(bytes, 4), 1u);
  uint32_t header_length = get_u32(bytes, 8);
  EXPECT_EQ((12 + header_length) % 4, 0u);
  json header = json::parse(bytes.begin() + 12, bytes.begin() + 12 + header_length);
  EXPECT_EQ(header["arrays"], json::parse(R"([{"name":"w","shape":[2],"offset":0,"count":2}])"));
  size_t data = 12 + header_length;
  EXPECT_EQ(bytes.size(), data + 8 + 4);
  EXPECT_EQ(get_u32(bytes, data), 0x3F800000u);      // 1.0f, little-endian
  EXPECT_EQ(get_u32(bytes, data + 4), 0xC0000000u);  // -2.0f
  EXPECT_EQ(get_u32(bytes, bytes.size() - 4), crc32_ieee(bytes.data(), bytes.size() - 4));
  // No arrays at all is a valid file too.
  EXPECT_TRUE(read(write_model_file(json::object(), {})).arrays.empty());
}

TEST(ModelFileTest, WriterRejectsBadInput) {
  Tensor w({2}, {1, 2});
  EXPECT_INPUT_ERROR(write_model_file(json::array(), {}), "model header must be a JSON object");
  EXPECT_INPUT_ERROR(write_model_file(json{{"arrays", 1}}, {}), "key 'arrays' is reserved");
  EXPECT_INPUT_ERROR(write_model_file(json::object(), {{"w", w}, {"w", w}}),
                     "two arrays are named 'w'");
  EXPECT_INPUT_ERROR(write_model_file(json::object(), {{"", w}}), "has an empty name");
  EXPECT_INPUT_ERROR(write_model_file(json::object(), {{"bad\xff", w}}), "invalid UTF-8");
  Tensor nan_tensor({2}, {1, std::numeric_limits<float>::quiet_NaN()});
  EXPECT_INPUT_ERROR(write_model_file(json::object(), {{"w", nan_tensor}}), "NaN");
  Tensor mismatched = w;
  mismatched.data.push_back(3);
  EXPECT_INPUT_ERROR(write_model_file(json::object(), {{"w", mismatched}}),
                     "has 3 values but its shape [2] holds 2");
  EXPECT_INPUT_ERROR(write_model_file(json{{"name", "bad\xff"}}, {}), "cannot be written as JSON");
  json deep = 1;
  for (int i = 0; i < 70; ++i) deep = json::array({deep});
  EXPECT_INPUT_ERROR(write_model_file(json{{"deep", deep}}, {}), "nests deeper than 64");
}

TEST(ModelFileTest, RejectsWrongMagicAndVersion) {
  std::vector<uint8_t> bytes = write_model_file(sample_header(), sample_arrays());
  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  EXPECT_INPUT_ERROR(read(png), "not an AttentionLab model file");
  std::vector<uint8_t> future = bytes;
  put_u32(future, 4, 7);
  fix_checksum(future);
  EXPECT_INPUT_ERROR(read(future), "version 7 is newer than this build supports (1)");
  put_u32(future, 4, 0);
  EXPECT_INPUT_ERROR(read(future), "version 0 is not a valid version");
  EXPECT_INPUT_ERROR(read_model_file(nullptr, 5), "model file data is null");
}

TEST(ModelFileTest, RejectsHeaderLengthBeyondTheFile) {
  std::vector<uint8_t> bytes = write_model_file(sample_header(), sample_arrays());
  put_u32(bytes, 8, 0xFFFFFFFFu);
  fix_checksum(bytes);
  EXPECT_INPUT_ERROR(read(bytes), "header length 4294967295 goes beyond the end of the file");
}

TEST(ModelFileTest, TruncatedAtEveryLengthIsRejected) {
  std::vector<uint8_t> bytes = write_model_file(sample_header(), sample_arrays());
  for (size_t length = 0; length < bytes.size(); ++length) {
    // A copy of exactly `length` bytes, so AddressSanitizer sees any read past the end.
    SCOPED_TRACE("length " + std::to_string(length));
    std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<long>(length));
    EXPECT_INPUT_ERROR(read_model_file(prefix.data(), prefix.size()), "truncated");
  }
}

TEST(ModelFileTest, AnyFlippedByteIsRejected) {
  std::vector<uint8_t> bytes = write_model_file(sample_header(), sample_arrays());
  uint32_t data_start = 12 + get_u32(bytes, 8);
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t mask : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xFF}}) {
      std::vector<uint8_t> damaged = bytes;
      damaged[i] ^= mask;
      // The first check that sees the damage names it: the magic "ATLB" (bytes 0-3), the version
      // (4-7), a header length that makes the file look truncated, else the checksum.
      const char* expected = i < 4   ? "does not start with \"ATLB\""
                             : i < 8 ? "model file version"
                                     : nullptr;
      try {
        read(damaged);
        ADD_FAILURE() << "byte " << i << " mask " << int(mask) << " was accepted";
      } catch (const InputError& e) {
        const bool named = expected ? std::strstr(e.what(), expected) != nullptr
                                    : std::strstr(e.what(), "checksum mismatch") != nullptr ||
                                          std::strstr(e.what(), "truncated") != nullptr;
        EXPECT_TRUE(named) << "byte " << i << " mask " << int(mask) << ": " << e.what();
      }
      if (i >= data_start) {
        SCOPED_TRACE("byte " + std::to_string(i));
        EXPECT_INPUT_ERROR(read(damaged), "checksum mismatch: the file is corrupt");
      }
    }
  }
  // Appended bytes are damage too.
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  EXPECT_INPUT_ERROR(read(longer), "checksum mismatch: the file is corrupt");
}

TEST(ModelFileTest, RejectsStructuralErrorsBehindAValidChecksum) {
  const std::string ok_entry = R"({"name":"w","shape":[2],"offset":0,"count":2})";
  EXPECT_NO_THROW(read(craft(R"({"arrays":[)" + ok_entry + "]}", {1, 2})));

  struct Case {
    std::string header;
    std::vector<float> values;
    const char* message;
  };
  const Case cases[] = {
      {R"({"arrays":[)", {}, "model header is not valid JSON"},
      {R"("just a string")", {}, "model header is not a JSON object"},
      {R"({"config":{}})", {}, "model header has no 'arrays' table"},
      {R"({"arrays":{}})", {}, "model header has no 'arrays' table"},
      {R"({"arrays":[7]})", {}, "array table entry 0 is not a JSON object"},
      {R"({"arrays":[{"shape":[1],"offset":0,"count":1}]})", {1}, "needs a string 'name'"},
      {R"({"arrays":[{"name":"","shape":[1],"offset":0,"count":1}]})", {1}, "empty name"},
      {R"({"arrays":[{"name":"w","shape":[2],"offset":0,"count":3}]})",
       {1, 2, 3},
       "array 'w' has count 3 but its shape [2] holds 2"},
      {R"({"arrays":[{"name":"w","shape":[-2],"offset":0,"count":2}]})",
       {1, 2},
       "shape entry that is not a non-negative integer"},
      {R"({"arrays":[{"name":"w","shape":[2.5],"offset":0,"count":2}]})",
       {1, 2},
       "shape entry that is not a non-negative integer"},
      {R"({"arrays":[{"name":"w","shape":[1,1,1,1,1,1,1,1,1],"offset":0,"count":1}]})",
       {1},
       "has 9 dimensions; the limit is 8"},
      {R"({"arrays":[{"name":"w","shape":[99999999999],"offset":0,"count":1}]})",
       {1},
       "array 'w' has dimension 99999999999; the limit is 1048576"},
      {R"({"arrays":[{"name":"w","shape":[65536,65536],"offset":0,"count":1}]})",
       {1},
       "array 'w' has more elements than the limit of 67108864"},
      {R"({"arrays":[{"name":"w","shape":[1048576,1048576,0],"offset":0,"count":0}]})",
       {},
       "array 'w' has more elements than the limit of 67108864"},
      {R"({"arrays":[{"name":"w","shape":[2],"offset":-4,"count":2}]})",
       {1, 2},
       "needs a non-negative integer 'offset'"},
      {R"({"arrays":[{"name":"w","shape":[2],"count":2}]})",
       {1, 2},
       "needs a non-negative integer 'offset'"},
      {R"({"arrays":[{"name":"w","shape":[2],"offset":2,"count":2}]})",
       {1, 2},
       "offset 2, which is not a multiple of 4"},
      {R"({"arrays":[{"name":"w","shape":[2],"offset":18446744073709551612,"count":2}]})",
       {1, 2},
       "beyond the largest possible file"},
      {R"({"arrays":[{"name":"w","shape":[2],"offset":0,"count":2,"dtype":"f16"}]})",
       {1, 2},
       "unknown key 'dtype'"},
      {R"({"arrays":[)" + ok_entry + "," + ok_entry + "]}", {1, 2}, "two arrays named 'w'"},
      {R"({"arrays":[)" + ok_entry + R"(,{"name":"v","shape":[2],"offset":4,"count":2}]})",
       {1, 2, 3},
       "array 'v' (bytes 4–12) overlaps array 'w' (bytes 0–8)"},
      {R"({"arrays":[{"name":"w","shape":[2],"offset":4,"count":2}]})",
       {0, 1, 2},
       "array data bytes 0–4 belong to no array"},
      {R"({"arrays":[{"name":"w","shape":[4],"offset":0,"count":4}]})",
       {1, 2},
       "model file is truncated: array 'w' ends at byte 16 of the array data, but the file has 8"},
      {R"({"arrays":[)" + ok_entry + "]}", {1, 2, 3}, "4 unexpected bytes after its arrays"},
      {R"({"arrays":[)" + ok_entry + "]}",
       {1, std::numeric_limits<float>::quiet_NaN()},
       "array 'w' has a non-finite value (NaN) at index 1"},
      {R"({"arrays":[)" + ok_entry + "]}",
       {-std::numeric_limits<float>::infinity(), 1},
       "array 'w' has a non-finite value (infinity) at index 0"},
      {std::string(100, '[') + std::string(100, ']'), {}, "nests deeper than 64 levels"},
      {"{\"arrays\":[],\"name\":\"\xff\"}", {}, "model header is not valid JSON"},
  };
  for (const Case& c : cases) {
    EXPECT_INPUT_ERROR(read(craft(c.header, c.values)), c.message);
  }
  // A header length that leaves the arrays unaligned.
  EXPECT_INPUT_ERROR(read(craft(R"({"arrays":[]} )", {}, false)), "leaves the arrays unaligned");
  // The same structural error with a broken checksum reports the corruption instead.
  std::vector<uint8_t> broken = craft(R"({"arrays":[7]})", {});
  broken.back() ^= 1;
  EXPECT_INPUT_ERROR(read(broken), "checksum mismatch: the file is corrupt");
}

}  // namespace
}  // namespace lab
