// Vocabularies and tokenizers (sequence/vocab.h).
#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include "expect_input_error.h"
#include "sequence/tasks.h"
#include "sequence/vocab.h"
#include "tensor.h"

namespace lab {
namespace {

std::vector<std::string> strings(const std::vector<std::string_view>& views) {
  return {views.begin(), views.end()};
}

TEST(VocabTest, ReservedTokensComeFirst) {
  Vocab vocab = Vocab::build(Tokenizer::kWords, {"b", "a", "b"});
  ASSERT_EQ(vocab.size(), 6);
  EXPECT_EQ(vocab.token(kPadId), "<pad>");
  EXPECT_EQ(vocab.token(kSosId), "<sos>");
  EXPECT_EQ(vocab.token(kEosId), "<eos>");
  EXPECT_EQ(vocab.token(kUnkId), "<unk>");
  EXPECT_EQ(vocab.id("b"), 4);  // first appearance order, repeats skipped
  EXPECT_EQ(vocab.id("a"), 5);
  EXPECT_EQ(vocab.id("zzz"), kUnkId);
}

TEST(VocabTest, EncodeDecodeRoundTrip) {
  Vocab vocab = Vocab::build(Tokenizer::kWords, {"咖哥", "喜欢", "小冰"});
  Encoded encoded = vocab.encode("  咖哥 喜欢\t小冰\n");
  EXPECT_EQ(encoded.ids, (std::vector<int32_t>{4, 5, 6}));
  EXPECT_EQ(encoded.unknown, (std::vector<uint8_t>{0, 0, 0}));
  EXPECT_EQ(vocab.decode(encoded.ids), (std::vector<std::string>{"咖哥", "喜欢", "小冰"}));
  EXPECT_EQ(vocab.decode_text({kSosId, 4, 5, kPadId, 6, kEosId, 4}), "咖哥 喜欢 小冰");
}

TEST(VocabTest, UnknownTokensAreFlaggedNotErrors) {
  Vocab vocab = Vocab::build(Tokenizer::kWords, {"I", "love"});
  Encoded encoded = vocab.encode("I love cats");
  EXPECT_EQ(encoded.ids, (std::vector<int32_t>{4, 5, kUnkId}));
  EXPECT_EQ(encoded.unknown, (std::vector<uint8_t>{0, 0, 1}));
}

TEST(VocabTest, TypedReservedNamesAreUnknownText) {
  Vocab vocab = Vocab::build(Tokenizer::kWords, {"I"});
  Encoded encoded = vocab.encode("I <eos> <pad>");
  EXPECT_EQ(encoded.ids, (std::vector<int32_t>{4, kUnkId, kUnkId}));
  EXPECT_EQ(encoded.unknown, (std::vector<uint8_t>{0, 1, 1}));
}

TEST(VocabTest, EmptySentenceIsAnError) {
  for (Tokenizer kind : {Tokenizer::kWords, Tokenizer::kChars}) {
    Vocab vocab(kind);
    EXPECT_INPUT_ERROR(vocab.encode(""), "sentence is empty");
    EXPECT_INPUT_ERROR(vocab.encode(" \t\r\n\v\f "), "sentence is empty");
  }
}

TEST(VocabTest, TooManyTokensNamesTheLimit) {
  Vocab vocab = Vocab::build(Tokenizer::kWords, {"a"});
  std::string text;
  for (int i = 0; i < 75; ++i) text += "a ";
  EXPECT_INPUT_ERROR(vocab.encode(text), "sentence has 75 tokens; the limit is 64");
  EXPECT_INPUT_ERROR(vocab.encode("a a a", 2), "sentence has 3 tokens; the limit is 2");
  EXPECT_EQ(vocab.encode(text, 75).ids.size(), 75u);
  EXPECT_INPUT_ERROR(vocab.encode("a", 0), "max_tokens must be at least 1");
  EXPECT_INPUT_ERROR(vocab.encode(std::string(5000, 'a')), "the limit is 4096");
  // the code and numbers a page words the message with, in its own language
  try {
    vocab.encode(text);
    ADD_FAILURE() << "75 tokens encoded";
  } catch (const InputError& e) {
    EXPECT_EQ(e.code, "sentenceTooLong");
    EXPECT_EQ(e.details, (std::vector<std::pair<std::string, long>>{{"count", 75}, {"limit", 64}}));
  }
  try {
    vocab.encode("");
    ADD_FAILURE() << "an empty sentence encoded";
  } catch (const InputError& e) {
    EXPECT_EQ(e.code, "");
    EXPECT_TRUE(e.details.empty());
  }
}

TEST(VocabTest, CharsTokenizerSplitsCodePoints) {
  // 咖 (3 bytes), 😀 (4 bytes), é (2 bytes), a; outer whitespace ignored, inner kept.
  EXPECT_EQ(strings(tokenize(" 咖😀é a\n", Tokenizer::kChars)),
            (std::vector<std::string>{"咖", "😀", "é", " ", "a"}));
  EXPECT_EQ(strings(tokenize("咖哥 😀x  y", Tokenizer::kWords)),
            (std::vector<std::string>{"咖哥", "😀x", "y"}));
  Vocab vocab = Vocab::build(Tokenizer::kChars, {"咖", "😀"});
  Encoded encoded = vocab.encode("😀咖?");
  EXPECT_EQ(encoded.ids, (std::vector<int32_t>{5, 4, kUnkId}));
  EXPECT_EQ(encoded.unknown, (std::vector<uint8_t>{0, 0, 1}));
  EXPECT_EQ(vocab.decode_text({5, 4}), "😀咖");
}

TEST(VocabTest, InvalidUtf8NamesTheByteOffset) {
  struct Case {
    std::string text;
    const char* message;
  };
  const Case cases[] = {
      {"ab\x80", "invalid UTF-8 at byte 2"},              // stray continuation byte
      {"\xff", "invalid UTF-8 at byte 0"},                // never valid
      {"a\xe5\x92", "invalid UTF-8 at byte 1"},           // truncated 3-byte sequence
      {"\xc0\xaf", "invalid UTF-8 at byte 0"},            // overlong '/'
      {"\xe0\x80\xaf", "invalid UTF-8 at byte 0"},        // overlong, 3 bytes
      {"xy\xed\xa0\x80", "invalid UTF-8 at byte 2"},      // UTF-16 surrogate
      {"\xf4\x90\x80\x80", "invalid UTF-8 at byte 0"},    // above U+10FFFF
      {"\xe5\x92\x96 \xe5(", "invalid UTF-8 at byte 4"},  // bad second byte
  };
  for (const Case& c : cases) {
    for (Tokenizer kind : {Tokenizer::kWords, Tokenizer::kChars}) {
      EXPECT_INPUT_ERROR(Vocab(kind).encode(c.text), c.message);
    }
  }
  EXPECT_NO_THROW(check_utf8("\xf4\x8f\xbf\xbf"));  // U+10FFFF is the last valid code point
}

TEST(VocabTest, JsonRoundTrip) {
  Vocab vocab = Vocab::build(Tokenizer::kChars, {"x", "咖", "😀"});
  nlohmann::json j = vocab.to_json();
  EXPECT_EQ(j["tokenizer"], "chars");
  Vocab back = Vocab::from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.tokens(), vocab.tokens());
  EXPECT_EQ(back.tokenizer(), Tokenizer::kChars);
  EXPECT_EQ(back.id("😀"), 6);
}

TEST(VocabTest, FromTokensValidates) {
  using V = std::vector<std::string>;
  const V reserved = {"<pad>", "<sos>", "<eos>", "<unk>"};
  EXPECT_EQ(Vocab::from_tokens(Tokenizer::kWords, reserved).size(), 4);
  EXPECT_INPUT_ERROR(Vocab::from_tokens(Tokenizer::kWords, {"<pad>", "<sos>", "<eos>"}),
                     "missing the reserved token <unk> at id 3");
  EXPECT_INPUT_ERROR(Vocab::from_tokens(Tokenizer::kWords, {"<sos>", "<pad>", "<eos>", "<unk>"}),
                     "missing the reserved token <pad> at id 0");
  // the reserved tokens, then `extra`
  const auto reserved_then = [&reserved](std::initializer_list<std::string> extra) {
    V tokens = reserved;
    tokens.insert(tokens.end(), extra);
    return tokens;
  };
  EXPECT_INPUT_ERROR(Vocab::from_tokens(Tokenizer::kWords, reserved_then({"a", "b", "a"})),
                     "token 'a' appears twice (ids 4 and 6)");
  EXPECT_INPUT_ERROR(Vocab::from_tokens(Tokenizer::kWords, reserved_then({"<eos>"})),
                     "appears twice");
  EXPECT_INPUT_ERROR(Vocab::from_tokens(Tokenizer::kWords, reserved_then({"a b"})),
                     "contains whitespace");
  EXPECT_INPUT_ERROR(Vocab::from_tokens(Tokenizer::kChars, reserved_then({"ab"})),
                     "more than one character");
  EXPECT_INPUT_ERROR(Vocab::from_tokens(Tokenizer::kWords, reserved_then({""})), "token is empty");
  EXPECT_INPUT_ERROR(Vocab::from_tokens(Tokenizer::kWords, reserved_then({"\xff"})),
                     "invalid UTF-8");
  EXPECT_INPUT_ERROR(Vocab::build(Tokenizer::kWords, {"<unk>"}), "reserved");
}

TEST(VocabTest, FromJsonValidates) {
  using nlohmann::json;
  EXPECT_INPUT_ERROR(Vocab::from_json(json::array()), "must be a JSON object");
  EXPECT_INPUT_ERROR(Vocab::from_json(json{{"tokens", json::array()}}), "'tokenizer'");
  EXPECT_INPUT_ERROR(Vocab::from_json(json{{"tokenizer", "words"}}), "'tokens'");
  EXPECT_INPUT_ERROR(Vocab::from_json(json{{"tokenizer", "bytes"}, {"tokens", json::array()}}),
                     "unknown tokenizer 'bytes' (expected words, chars)");
  EXPECT_INPUT_ERROR(
      Vocab::from_json(json{{"tokenizer", "words"}, {"tokens", {"<pad>", "<sos>", 7}}}),
      "token 2 is not a string");
}

TEST(VocabTest, DecodeRejectsIdsOutsideTheVocabulary) {
  Vocab vocab(Tokenizer::kWords);
  EXPECT_INPUT_ERROR(vocab.decode({0, 4}), "token id 4 is outside the vocabulary (size 4)");
  EXPECT_INPUT_ERROR(vocab.decode({-1}), "token id -1");
}

}  // namespace
}  // namespace lab
