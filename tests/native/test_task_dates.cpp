// The dates task (sequence/tasks.h, namespace dates): its calendar and formats, checked against
// libc (timegm, strptime), its vocabularies, and disjoint train and held-out sets.
#include <gtest/gtest.h>
#include <time.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "expect_input_error.h"
#include "sequence/tasks.h"
#include "sequence/vocab.h"
#include "tensor.h"

namespace lab {
namespace {

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

}  // namespace
}  // namespace lab
