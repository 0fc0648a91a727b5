// The safetensors container (io/safetensors.h): round trips, F16/BF16 widening, and every kind of
// malformed file, each rejected with a message that names the problem.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "expect_input_error.h"
#include "io/safetensors.h"

namespace {

using lab::read_safetensors;
using lab::SafetensorsTensor;

// 8-byte little-endian length + header text + data bytes.
std::vector<uint8_t> raw_file(const std::string& header, const std::vector<uint8_t>& data,
                              uint64_t length_override = ~uint64_t{0}) {
  const uint64_t n = length_override == ~uint64_t{0} ? header.size() : length_override;
  std::vector<uint8_t> out;
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(n >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::vector<uint8_t> f32_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> out(values.size() * 4);
  std::memcpy(out.data(), values.data(), out.size());  // the test hosts are little-endian
  return out;
}

lab::SafetensorsFile read(const std::vector<uint8_t>& bytes) {
  return read_safetensors(bytes.data(), bytes.size());
}

SafetensorsTensor tensor(const std::string& name, std::vector<long> shape, std::vector<float> v) {
  return {name, "F32", lab::Tensor(std::move(shape), std::move(v))};
}

TEST(Safetensors, RoundTripKeepsValuesMetadataAndOrder) {
  const std::vector<SafetensorsTensor> in = {
      tensor("b", {2, 3}, {1, -2, 3.5f, 0, 1e-30f, -7}), tensor("a", {3}, {9, 8, 7}),
      tensor("scalar", {}, {0.25f}), tensor("empty", {0, 4}, {})};
  const std::vector<uint8_t> bytes = lab::write_safetensors(in, {{"k", "v"}, {"中文", "值"}});
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | bytes[static_cast<size_t>(i)];
  EXPECT_EQ((8 + n) % 8, 0u) << "data starts 8-byte aligned";
  EXPECT_TRUE(lab::looks_like_safetensors(bytes.data(), bytes.size()));
  const lab::SafetensorsFile out = read(bytes);
  ASSERT_EQ(out.tensors.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(out.tensors[i].name, in[i].name) << "data-offset order is the written order";
    EXPECT_EQ(out.tensors[i].tensor.shape, in[i].tensor.shape);
    EXPECT_EQ(out.tensors[i].tensor.data, in[i].tensor.data);
  }
  EXPECT_EQ(out.metadata.at("k"), "v");
  EXPECT_EQ(out.metadata.at("中文"), "值");
  ASSERT_NE(out.find("a"), nullptr);
  EXPECT_EQ(out.find("nope"), nullptr);
}

TEST(Safetensors, HalfAndBfloat16AreWidenedExactly) {
  EXPECT_EQ(lab::f16_to_f32(0x3C00), 1.0f);
  EXPECT_EQ(lab::f16_to_f32(0xC000), -2.0f);
  EXPECT_EQ(lab::f16_to_f32(0x7BFF), 65504.0f);
  EXPECT_EQ(lab::f16_to_f32(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(lab::f16_to_f32(0x3555), 0.333251953125f);
  EXPECT_TRUE(std::isinf(lab::f16_to_f32(0x7C00)));
  EXPECT_TRUE(std::isnan(lab::f16_to_f32(0x7E00)));
  EXPECT_EQ(lab::bf16_to_f32(0x3F80), 1.0f);
  EXPECT_EQ(lab::bf16_to_f32(0xC0A0), -5.0f);
  EXPECT_EQ(lab::bf16_to_f32(0x3EAB), 0.333984375f);

  const std::string header = R"({"h":{"dtype":"F16","shape":[2],"data_offsets":[0,4]},)"
                             R"("b":{"dtype":"BF16","shape":[2],"data_offsets":[4,8]}})";
  const lab::SafetensorsFile f =
      read(raw_file(header, {0x00, 0x3C, 0x55, 0x35, 0x80, 0x3F, 0xA0, 0xC0}));
  EXPECT_EQ(f.find("h")->tensor.data, (std::vector<float>{1.0f, 0.333251953125f}));
  EXPECT_EQ(f.find("h")->dtype, "F16");
  EXPECT_EQ(f.find("b")->tensor.data, (std::vector<float>{1.0f, -5.0f}));
}

TEST(Safetensors, RejectsBadLengthsAndHeaders) {
  const std::vector<uint8_t> tiny = {1, 0, 0};
  EXPECT_INPUT_ERROR(read(tiny), "truncated: 3 bytes");
  EXPECT_INPUT_ERROR(read(raw_file("{}", {}, 9000000000000000000ULL)),
                     "header length 9000000000000000000 exceeds the file (10 bytes)");
  EXPECT_INPUT_ERROR(read(raw_file("{}", {}, 1)), "starting with '{'");
  EXPECT_INPUT_ERROR(read(raw_file("[1,2]", {})), "starting with '{'");
  EXPECT_INPUT_ERROR(read(raw_file("{\"a\":", {})), "not valid JSON");
  std::string big(lab::kMaxSafetensorsHeaderBytes + 1, ' ');
  big[0] = '{';
  big[1] = '}';
  EXPECT_INPUT_ERROR(read(raw_file(big, {})), "the limit is 8388608");
  std::string deep = "{\"__metadata__\":" + std::string(100, '[') + std::string(100, ']') + "}";
  EXPECT_INPUT_ERROR(read(raw_file(deep, {})), "nests deeper than 16");
  EXPECT_INPUT_ERROR(read(raw_file(R"({"__metadata__":{"a":1}})", {})),
                     "__metadata__ value 'a' is not a string");
  EXPECT_INPUT_ERROR(read(raw_file(R"({"__metadata__":[]})", {})), "object of strings");
}

TEST(Safetensors, RejectsBadEntries) {
  auto one = [](const std::string& entry, size_t data_bytes = 8) {
    return read(raw_file("{\"w\":" + entry + "}", std::vector<uint8_t>(data_bytes, 0)));
  };
  EXPECT_INPUT_ERROR(one("3"), "tensor 'w': entry must be an object");
  EXPECT_INPUT_ERROR(one(R"({"dtype":"F32","shape":[2]})"), "tensor 'w' has no data_offsets");
  EXPECT_INPUT_ERROR(one(R"({"dtype":"F32","shape":[2],"data_offsets":[0,8],"x":1})"),
                     "unknown key 'x'");
  EXPECT_INPUT_ERROR(one(R"({"dtype":"I64","shape":[1],"data_offsets":[0,8]})"),
                     "tensor 'w' has dtype I64; this reader takes F32, F16 and BF16");
  EXPECT_INPUT_ERROR(one(R"({"dtype":"F32","shape":[-2],"data_offsets":[0,8]})"), "whole numbers");
  EXPECT_INPUT_ERROR(one(R"({"dtype":"F32","shape":[1,1,1,1,1,1,1,1,2],"data_offsets":[0,8]})"),
                     "9 dimensions; the limit is 8");
  EXPECT_INPUT_ERROR(one(R"({"dtype":"F32","shape":[1048576,1048576],"data_offsets":[0,8]})"),
                     "the limit is 67108864");
  EXPECT_INPUT_ERROR(one(R"({"dtype":"F32","shape":[2],"data_offsets":[0]})"),
                     "data_offsets must be two whole numbers");
  EXPECT_INPUT_ERROR(one(R"({"dtype":"F32","shape":[2],"data_offsets":[8,0]})"),
                     "end before they begin");
  EXPECT_INPUT_ERROR(one(R"({"dtype":"F32","shape":[3],"data_offsets":[0,8]})"),
                     "data_offsets [0, 8] hold 8 bytes, but F32 of shape [3] needs 12");
  EXPECT_INPUT_ERROR(one(R"({"dtype":"F32","shape":[2],"data_offsets":[0,8]})", 4),
                     "go beyond the data buffer (4 bytes)");
  EXPECT_INPUT_ERROR(read(raw_file(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                                   R"("w":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                                   std::vector<uint8_t>(8, 0))),
                     "names tensor 'w' twice");
  EXPECT_INPUT_ERROR(read(raw_file(R"({"":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
                                   std::vector<uint8_t>(4, 0))),
                     "tensor names must be 1 to 256 bytes");
}

TEST(Safetensors, RejectsOverlapsGapsAndTrailingBytes) {
  const std::string overlap =
      R"({"encoder.embedding.weight":{"dtype":"F32","shape":[16],"data_offsets":[0,64]},)"
      R"("decoder.out.weight":{"dtype":"F32","shape":[24],"data_offsets":[0,96]}})";
  EXPECT_INPUT_ERROR(read(raw_file(overlap, std::vector<uint8_t>(96, 0))),
                     "tensor 'decoder.out.weight': data_offsets [0, 96] overlap "
                     "'encoder.embedding.weight'");
  const std::string gap = R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                          R"("b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})";
  EXPECT_INPUT_ERROR(read(raw_file(gap, std::vector<uint8_t>(12, 0))),
                     "data bytes [4, 8] belong to no tensor (before 'b')");
  const std::string one = R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})";
  EXPECT_INPUT_ERROR(read(raw_file(one, std::vector<uint8_t>(7, 0))),
                     "3 bytes after its last tensor");
  EXPECT_INPUT_ERROR(read(raw_file("{}", std::vector<uint8_t>(1, 0))),
                     "1 bytes after its last tensor");
}

TEST(Safetensors, RejectsNonFiniteValuesAndTooManyTensors) {
  const std::string one = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
  EXPECT_INPUT_ERROR(read(raw_file(one, f32_bytes({1.0f, NAN}))),
                     "tensor 'a' has a non-finite value (NaN) at index 1");
  const std::string half = R"({"a":{"dtype":"F16","shape":[1],"data_offsets":[0,2]}})";
  EXPECT_INPUT_ERROR(read(raw_file(half, {0x00, 0x7C})), "non-finite value (infinity) at index 0");
  std::string many = "{";
  for (size_t i = 0; i <= lab::kMaxSafetensorsTensors; ++i) {
    many += (i ? "," : "") + std::string("\"t") + std::to_string(i) +
            "\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}";
  }
  EXPECT_INPUT_ERROR(read(raw_file(many + "}", {})), "more than 4096 tensors");
}

TEST(Safetensors, WriterRefusesWhatTheReaderWould) {
  EXPECT_INPUT_ERROR(lab::write_safetensors({tensor("a", {1}, {1}), tensor("a", {1}, {2})}, {}),
                     "two tensors named 'a'");
  EXPECT_INPUT_ERROR(lab::write_safetensors({tensor("a", {1}, {NAN})}, {}), "non-finite");
  SafetensorsTensor bad{"a", "F32", lab::Tensor()};
  bad.tensor.shape = {3};
  bad.tensor.data = {1, 2};
  EXPECT_INPUT_ERROR(lab::write_safetensors({bad}, {}), "has 2 values but its shape [3] holds 3");
  EXPECT_INPUT_ERROR(lab::write_safetensors({tensor("__metadata__", {1}, {1})}, {}),
                     "bad tensor name");
}

}  // namespace
