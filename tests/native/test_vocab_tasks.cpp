// Vocabularies, tokenizers and the Seq2Seq tasks.
#include <gtest/gtest.h>
#include <time.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "expect_input_error.h"
#include "seq2seq/tasks.h"
#include "seq2seq/vocab.h"
#include "tensor.h"

namespace lab {
namespace {

std::vector<std::string> strings(const std::vector<std::string_view>& views) {
  return {views.begin(), views.end()};
}

// ---------------------------------------------------------------------------------------------
// Vocab

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
  V duplicate = reserved;
  duplicate.insert(duplicate.end(), {"a", "b", "a"});
  EXPECT_INPUT_ERROR(Vocab::from_tokens(Tokenizer::kWords, duplicate),
                     "token 'a' appears twice (ids 4 and 6)");
  V reserved_again = reserved;
  reserved_again.push_back("<eos>");
  EXPECT_INPUT_ERROR(Vocab::from_tokens(Tokenizer::kWords, reserved_again), "appears twice");
  V spaced = reserved;
  spaced.push_back("a b");
  EXPECT_INPUT_ERROR(Vocab::from_tokens(Tokenizer::kWords, spaced), "contains whitespace");
  V two_chars = reserved;
  two_chars.push_back("ab");
  EXPECT_INPUT_ERROR(Vocab::from_tokens(Tokenizer::kChars, two_chars), "more than one character");
  V empty = reserved;
  empty.push_back("");
  EXPECT_INPUT_ERROR(Vocab::from_tokens(Tokenizer::kWords, empty), "token is empty");
  V bad_utf8 = reserved;
  bad_utf8.push_back("\xff");
  EXPECT_INPUT_ERROR(Vocab::from_tokens(Tokenizer::kWords, bad_utf8), "invalid UTF-8");
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

// ---------------------------------------------------------------------------------------------
// Tasks: common

TEST(TaskTest, UnknownTaskNamesTheChoices) {
  EXPECT_INPUT_ERROR(make_task("x"), "unknown task 'x' (expected note, zh-en, dates, reverse, copy)");
}

TEST(TaskTest, MakeBatchPadsAndShiftsTargets) {
  Example a{"", "", {7, 8, 9}, {4, 5}};
  Example b{"", "", {6}, {4, 5, 6, 7}};
  Batch batch = make_batch({a, b});
  EXPECT_EQ(batch.B, 2);
  EXPECT_EQ(batch.S, 3);
  EXPECT_EQ(batch.T, 5);
  EXPECT_EQ(batch.src, (std::vector<int32_t>{7, 8, 9, 6, 0, 0}));
  EXPECT_EQ(batch.src_len, (std::vector<int32_t>{3, 1}));
  EXPECT_EQ(batch.tgt_in, (std::vector<int32_t>{1, 4, 5, 0, 0, 1, 4, 5, 6, 7}));
  EXPECT_EQ(batch.tgt_out, (std::vector<int32_t>{4, 5, 2, 0, 0, 4, 5, 6, 7, 2}));
  EXPECT_INPUT_ERROR(make_batch({}), "at least one example");
  EXPECT_INPUT_ERROR(make_batch({Example{"", "", {}, {4}}}), "empty source");
}

TEST(TaskTest, OptionLimitsAreChecked) {
  auto with = [](auto change) {
    TaskOptions options;
    change(options);
    return options;
  };
  EXPECT_INPUT_ERROR(make_task("reverse", with([](TaskOptions& o) { o.min_len = 0; })),
                     "option min_len is 0; it must be in [1, 64]");
  EXPECT_INPUT_ERROR(make_task("reverse", with([](TaskOptions& o) { o.max_len = 65; })),
                     "option max_len is 65; it must be in [1, 64]");
  EXPECT_INPUT_ERROR(make_task("copy", with([](TaskOptions& o) { o.min_len = 9, o.max_len = 8; })),
                     "option max_len (8) is less than min_len (9)");
  EXPECT_INPUT_ERROR(make_task("reverse", with([](TaskOptions& o) { o.symbols = 27; })),
                     "option symbols is 27; it must be in [2, 26]");
  EXPECT_INPUT_ERROR(make_task("dates", with([](TaskOptions& o) { o.held_out = 20000; })),
                     "option held_out is 20000; it must be in [1, 10000]");
  EXPECT_INPUT_ERROR(make_task("reverse", with([](TaskOptions& o) { o.train = -3; })),
                     "option train is -3");
  EXPECT_INPUT_ERROR(make_task("reverse", with([](TaskOptions& o) {
                                 o.symbols = 2, o.min_len = 1, o.max_len = 2, o.held_out = 4;
                               })),
                     "held_out 4 needs at least 8 distinct strings, but lengths 1–2 over 2 "
                     "symbols give only 6");
  auto task = make_task("note");
  Rng rng(1);
  EXPECT_INPUT_ERROR(task->sample_batch(rng, 0), "option batch_size is 0");
  EXPECT_INPUT_ERROR(task->sample_batch(rng, 1025), "option batch_size is 1025");
}

TEST(TaskTest, OptionsFromJson) {
  using nlohmann::json;
  TaskOptions options = task_options_from_json(json{{"seed", 42}, {"min_len", 3}, {"max_len", 9}});
  EXPECT_EQ(options.seed, 42u);
  EXPECT_EQ(options.min_len, 3);
  EXPECT_EQ(options.max_len, 9);
  EXPECT_EQ(options.symbols, 20);
  TaskOptions back = task_options_from_json(task_options_to_json(options));
  EXPECT_EQ(task_options_to_json(back), task_options_to_json(options));
  EXPECT_INPUT_ERROR(task_options_from_json(json{{"colour", 1}}),
                     "unknown task option 'colour' (expected seed, held_out, train, min_len, "
                     "max_len, symbols)");
  EXPECT_INPUT_ERROR(task_options_from_json(json{{"min_len", 2.5}}), "must be an integer");
  EXPECT_INPUT_ERROR(task_options_from_json(json{{"seed", -1}}), "seed must be an integer >= 0");
  EXPECT_INPUT_ERROR(task_options_from_json(json{{"max_len", 1e300}}), "must be an integer");
  EXPECT_INPUT_ERROR(task_options_from_json(json{{"max_len", 18446744073709551615ULL}}),
                     "it must be in [1, 64]");
  EXPECT_INPUT_ERROR(task_options_from_json(json{{"held_out", -9223372036854775807LL}}),
                     "it must be in [1, 10000]");
  EXPECT_INPUT_ERROR(task_options_from_json(json::array()), "must be a JSON object");
}

// ---------------------------------------------------------------------------------------------
// note

TEST(TaskTest, NoteHasTheBooksFivePairs) {
  auto task = make_task("note");
  EXPECT_EQ(task->name(), "note");
  EXPECT_EQ(task->tokenizer(), Tokenizer::kWords);
  EXPECT_EQ(task->train_size(), 5);
  ASSERT_EQ(task->held_out().size(), 5u);
  EXPECT_TRUE(task->held_out_is_training_data());
  const Example& first = task->held_out()[0];
  EXPECT_EQ(first.source, "咖哥 喜欢 小冰");
  EXPECT_EQ(first.target, "KaGe likes XiaoBing");
  EXPECT_EQ(first.source_ids, (std::vector<int32_t>{4, 5, 6}));
  EXPECT_EQ(task->target_vocab().decode(first.target_ids),
            (std::vector<std::string>{"KaGe", "likes", "XiaoBing"}));
  EXPECT_EQ(task->held_out()[4].target, "Neural-Nets are complex");
  // 3 + 4 + 3 + 5 + 3 distinct source words, 3 + 4 + 4 + 4 + 3 target words ("the" once).
  EXPECT_EQ(task->source_vocab().size(), 4 + 18);
  EXPECT_EQ(task->target_vocab().size(), 4 + 18);
  EXPECT_EQ(task->max_source_tokens(), 5);
  EXPECT_EQ(task->max_target_tokens(), 4);

  Rng rng(3);
  Batch batch = task->sample_batch(rng, 1);
  EXPECT_EQ(batch.tgt_in[0], kSosId);
  EXPECT_EQ(batch.tgt_out[static_cast<size_t>(batch.T - 1)], kEosId);
  EXPECT_INPUT_ERROR(task->eval_at_length(5, 10, 1), "task 'note' has no length knob");
}

// ---------------------------------------------------------------------------------------------
// dates

using dates::Date;

std::string iso_of_tm(const tm& t) {
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02d-%02d", t.tm_year + 1900, t.tm_mon + 1, t.tm_mday);
  return text;
}

int weekday_by_libc(const Date& date) {
  tm t{};
  t.tm_year = date.year - 1900, t.tm_mon = date.month - 1, t.tm_mday = date.day;
  time_t seconds = timegm(&t);
  tm back{};
  gmtime_r(&seconds, &back);
  return back.tm_wday;
}

// The pattern as a strptime format, so rendered dates are read back by libc, not by our code.
std::string strptime_format(const std::string& pattern, bool* two_digit_year) {
  std::string format;
  for (size_t pos = 0; pos < pattern.size(); ++pos) {
    if (pattern[pos] != '{') {
      format += pattern[pos];
      continue;
    }
    size_t end = pattern.find('}', pos);
    std::string field = pattern.substr(pos + 1, end - pos - 1);
    pos = end;
    if (field == "d" || field == "dd") format += "%d";
    if (field == "M" || field == "MM") format += "%m";
    if (field == "MMM" || field == "MON") format += "%b";
    if (field == "MMMM") format += "%B";
    if (field == "yy") format += "%y", *two_digit_year = true;
    if (field == "yyyy") format += "%Y";
    if (field == "EEE") format += "%a";
    if (field == "EEEE") format += "%A";
  }
  return format;
}

TEST(TaskTest, DatesCalendarMatchesLibc) {
  EXPECT_EQ(dates::days_from_civil({1970, 1, 1}), 0);
  EXPECT_EQ(dates::weekday({2015, 1, 23}), 5);  // Friday
  EXPECT_EQ(dates::weekday({2000, 2, 29}), 2);  // Tuesday
  long first = dates::days_from_civil(dates::kFirstDate);
  long last = dates::days_from_civil(dates::kLastDate);
  EXPECT_EQ(last - first + 1, 36525);  // 100 years, 25 leap days (2000 is one)
  for (long day = first; day <= last; ++day) {
    Date date = dates::civil_from_days(day);
    ASSERT_EQ(dates::days_from_civil(date), day);
    if (day % 97 == 0) ASSERT_EQ(dates::weekday(date), weekday_by_libc(date)) << day;
  }
  EXPECT_INPUT_ERROR(dates::iso({2015, 2, 29}), "not a valid date");
  EXPECT_INPUT_ERROR(dates::render({2050, 1, 1}, 0), "not a valid date");
  EXPECT_INPUT_ERROR(dates::render({2015, 1, 1}, 24), "date format 24 does not exist");
}

TEST(TaskTest, DatesHasAtLeast20DistinctFormats) {
  const auto& patterns = dates::format_patterns();
  EXPECT_GE(patterns.size(), 20u);
  std::set<std::string> renderings;
  for (size_t f = 0; f < patterns.size(); ++f) {
    renderings.insert(dates::render({2015, 1, 23}, static_cast<int>(f)));
  }
  EXPECT_EQ(renderings.size(), patterns.size());
  for (const char* expected :
       {"23Jan2015", "01/23/15", "JAN 23, 2015", "2015-01-23", "23.01.2015", "January 23, 2015",
        "23 January 2015", "Friday, January 23, 2015", "2015/01/23", "20150123", "1/23/2015",
        "23-01-2015", "Jan 23 2015", "23 JAN 2015", "Fri, 23 Jan 2015"}) {
    EXPECT_EQ(renderings.count(expected), 1u) << expected;
  }
  EXPECT_EQ(dates::render({1999, 3, 5}, 0), "05Mar1999");
  EXPECT_EQ(dates::render({1999, 3, 5}, 4), "3/5/1999");
  EXPECT_EQ(dates::iso({1999, 3, 5}), "1999-03-05");
}

TEST(TaskTest, DatesEveryFormatParsesBackToTheSameDate) {
  const auto& patterns = dates::format_patterns();
  Rng rng(11);
  long first = dates::days_from_civil(dates::kFirstDate);
  long last = dates::days_from_civil(dates::kLastDate);
  const char* weekdays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  for (int sample = 0; sample < 400; ++sample) {
    Date date = dates::civil_from_days(first + rng.below(last - first + 1));
    for (size_t f = 0; f < patterns.size(); ++f) {
      std::string text = dates::render(date, static_cast<int>(f));
      bool two_digit_year = false;
      std::string format = strptime_format(patterns[f], &two_digit_year);
      tm t{};
      const char* end = strptime(text.c_str(), format.c_str(), &t);
      ASSERT_TRUE(end != nullptr && *end == '\0') << text << " vs " << format;
      if (two_digit_year)
        t.tm_year = (t.tm_year % 100 >= 50 ? 1900 : 2000) + t.tm_year % 100 - 1900;
      EXPECT_EQ(iso_of_tm(t), dates::iso(date)) << text;
      if (patterns[f].find("{EEE") != std::string::npos) {
        EXPECT_EQ(text.compare(0, 3, weekdays[weekday_by_libc(date)]), 0) << text;
      }
    }
  }
}

TEST(TaskTest, DatesVocabulariesCoverEveryRendering) {
  auto task = make_task("dates");
  EXPECT_EQ(task->tokenizer(), Tokenizer::kChars);
  EXPECT_EQ(task->target_vocab().size(), 4 + 11);  // digits and '-'
  long first = dates::days_from_civil(dates::kFirstDate);
  long last = dates::days_from_civil(dates::kLastDate);
  long longest = 0;
  for (long day = first; day <= last; day += 3) {  // every weekday and month, many times
    Date date = dates::civil_from_days(day);
    for (int f = 0; f < static_cast<int>(dates::format_patterns().size()); ++f) {
      Encoded encoded = task->source_vocab().encode(dates::render(date, f));
      for (uint8_t unknown : encoded.unknown) ASSERT_EQ(unknown, 0) << dates::render(date, f);
      longest = std::max(longest, static_cast<long>(encoded.ids.size()));
    }
  }
  EXPECT_LE(longest, task->max_source_tokens());
  EXPECT_EQ(task->max_source_tokens(), 29);  // "Wednesday, September 30, 2015"
  EXPECT_EQ(task->max_target_tokens(), 10);
}

TEST(TaskTest, DatesTrainAndHeldOutAreDisjoint) {
  auto task = make_task("dates");
  ASSERT_EQ(task->held_out().size(), 2000u);
  EXPECT_FALSE(task->held_out_is_training_data());
  EXPECT_EQ(task->train_size(), (36525 - 2000) * 24);
  std::set<std::string> held_out_dates;
  for (const Example& example : task->held_out()) {
    held_out_dates.insert(example.target);
    EXPECT_EQ(task->target_vocab().decode_text(example.target_ids), example.target);
  }
  EXPECT_EQ(held_out_dates.size(), 2000u);  // distinct dates
  // ~200k draws visit nearly all 34525 training dates; none may be held out.
  Rng rng(5);
  std::set<std::string> train_dates;
  for (int step = 0; step < 800; ++step) {
    Batch batch = task->sample_batch(rng, 256);
    for (long b = 0; b < batch.B; ++b) {
      std::vector<int32_t> target(batch.tgt_out.begin() + b * batch.T,
                                  batch.tgt_out.begin() + (b + 1) * batch.T);
      std::string iso = task->target_vocab().decode_text(target);
      ASSERT_EQ(held_out_dates.count(iso), 0u) << iso;
      train_dates.insert(iso);
    }
  }
  EXPECT_GT(train_dates.size(), 34000u);
}

TEST(TaskTest, SameSeedSameData) {
  for (const char* name : {"dates", "reverse", "copy"}) {
    TaskOptions options;
    options.seed = 77;
    auto a = make_task(name, options);
    auto b = make_task(name, options);
    ASSERT_EQ(a->held_out().size(), b->held_out().size());
    for (size_t i = 0; i < a->held_out().size(); ++i) {
      ASSERT_EQ(a->held_out()[i].source, b->held_out()[i].source) << name;
      ASSERT_EQ(a->held_out()[i].source_ids, b->held_out()[i].source_ids) << name;
    }
    Rng rng_a(9), rng_b(9);
    Batch batch_a = a->sample_batch(rng_a, 64), batch_b = b->sample_batch(rng_b, 64);
    EXPECT_EQ(batch_a.src, batch_b.src) << name;
    EXPECT_EQ(batch_a.tgt_out, batch_b.tgt_out) << name;
    options.seed = 78;
    auto c = make_task(name, options);
    EXPECT_NE(a->held_out()[0].source + a->held_out()[1].source,
              c->held_out()[0].source + c->held_out()[1].source)
        << name;
  }
  // Pinned values: if these change, every seed saved in a URL or a model file means other data.
  auto dates = make_task("dates");
  EXPECT_EQ(dates->held_out()[0].source, "14May2006");
  EXPECT_EQ(dates->held_out()[1].source, "05/12/87");
  EXPECT_EQ(make_task("reverse")->held_out()[0].source, "tkpbifnakrkecq");
}

// ---------------------------------------------------------------------------------------------
// reverse and copy

TEST(TaskTest, ReverseAndCopyTargets) {
  TaskOptions options;
  options.min_len = 3, options.max_len = 12, options.symbols = 5, options.train = 2000;
  auto reverse = make_task("reverse", options);
  auto copy = make_task("copy", options);
  EXPECT_EQ(reverse->source_vocab().size(), 4 + 5);
  EXPECT_EQ(reverse->train_size(), 2000);
  EXPECT_EQ(reverse->max_source_tokens(), 12);
  for (const Example& example : reverse->held_out()) {
    ASSERT_GE(example.source.size(), 3u);
    ASSERT_LE(example.source.size(), 12u);
    EXPECT_EQ(example.target, std::string(example.source.rbegin(), example.source.rend()));
    std::vector<int32_t> reversed(example.source_ids.rbegin(), example.source_ids.rend());
    EXPECT_EQ(example.target_ids, reversed);
    for (char c : example.source) EXPECT_TRUE(c >= 'a' && c <= 'e');
  }
  for (const Example& example : copy->held_out()) EXPECT_EQ(example.target, example.source);
  // Same seed, same strings: copy and reverse differ only in the target.
  EXPECT_EQ(copy->held_out()[0].source, reverse->held_out()[0].source);
}

TEST(TaskTest, ReverseTrainAndHeldOutAreDisjoint) {
  TaskOptions options;
  options.min_len = 1, options.max_len = 4, options.symbols = 3, options.held_out = 40;
  options.train = 3000;  // 120 possible strings: training must keep clear of the 40 held out
  auto task = make_task("reverse", options);
  std::set<std::string> held_out;
  for (const Example& example : task->held_out()) held_out.insert(example.source);
  EXPECT_EQ(held_out.size(), 40u);
  Rng rng(2);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_EQ(held_out.count(task->sample_train(rng).source), 0u);
  }
}

TEST(TaskTest, EvalAtFixedLength) {
  TaskOptions options;
  options.min_len = 5, options.max_len = 10, options.train = 1000;
  auto task = make_task("reverse", options);
  for (long length : {5L, 20L, 64L}) {
    std::vector<Example> eval = task->eval_at_length(length, 50, 123);
    ASSERT_EQ(eval.size(), 50u);
    for (const Example& example : eval) ASSERT_EQ(example.source_ids.size(), size_t(length));
    EXPECT_EQ(task->eval_at_length(length, 50, 123)[7].source, eval[7].source);  // seeded
  }
  EXPECT_INPUT_ERROR(task->eval_at_length(65, 10, 1), "option length is 65");
  EXPECT_INPUT_ERROR(task->eval_at_length(5, 0, 1), "option count is 0");
  // Every string of length 1 over 2 symbols is in the training set: nothing fresh to draw.
  options.min_len = 1, options.max_len = 3, options.symbols = 2, options.held_out = 1;
  options.train = 500;
  auto small = make_task("copy", options);
  EXPECT_INPUT_ERROR(small->eval_at_length(1, 1, 1), "could not draw");
  EXPECT_INPUT_ERROR(make_task("dates")->eval_at_length(5, 1, 1), "no length knob");
}

TEST(TaskTest, DefaultReverseTaskBuildsQuicklyAndBatches) {
  auto task = make_task("reverse");
  EXPECT_EQ(task->train_size(), 10000);
  EXPECT_EQ(task->held_out().size(), 500u);
  Rng rng(1);
  Batch batch = task->sample_batch(rng, 32);
  EXPECT_EQ(batch.B, 32);
  EXPECT_LE(batch.S, 60);
  for (long b = 0; b < batch.B; ++b) {
    int32_t length = batch.src_len[static_cast<size_t>(b)];
    ASSERT_GE(length, 5);
    ASSERT_LE(length, 60);
    EXPECT_EQ(batch.tgt_out[static_cast<size_t>(b * batch.T + length)], kEosId);
  }
}

}  // namespace
}  // namespace lab
