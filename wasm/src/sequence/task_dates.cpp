// The dates task: dates of 1950–2049 in one of 24 human formats → ISO "2015-01-23", characters as
// tokens (tasks.h); first the calendar and the formats, then the task. make_task("dates", …) in
// tasks.cpp builds it through dates::make_task.
#include <algorithm>
#include <memory>

#include "sequence/tasks.h"
#include "tensor.h"

// ---------------------------------------------------------------------------------------------
// dates: calendar and formats

namespace lab::dates {
namespace {

const char* const kMonthNames[12] = {"January",   "February", "March",    "April",
                                     "May",       "June",     "July",     "August",
                                     "September", "October",  "November", "December"};
const char* const kWeekdayNames[7] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                      "Thursday", "Friday", "Saturday"};

std::string two_digits(int value) {
  return std::string(1, static_cast<char>('0' + value / 10)) + static_cast<char>('0' + value % 10);
}

std::string upper(std::string text) {
  for (char& c : text) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return text;
}

// The text of one {field}; `date` is valid.
std::string render_field(const std::string& field, const Date& date) {
  std::string month = kMonthNames[date.month - 1];
  std::string weekday_name = kWeekdayNames[weekday(date)];
  if (field == "d") return std::to_string(date.day);
  if (field == "dd") return two_digits(date.day);
  if (field == "M") return std::to_string(date.month);
  if (field == "MM") return two_digits(date.month);
  if (field == "MMM") return month.substr(0, 3);
  if (field == "MON") return upper(month.substr(0, 3));
  if (field == "MMMM") return month;
  if (field == "yy") return two_digits(date.year % 100);
  if (field == "yyyy") return std::to_string(date.year);
  if (field == "EEE") return weekday_name.substr(0, 3);
  if (field == "EEEE") return weekday_name;
  throw std::logic_error("unknown date field {" + field + "}");
}

// Longest rendering of a field, for the task's bound on source length.
size_t max_field_length(const std::string& field) {
  if (field == "MMMM" || field == "EEEE") return 9;  // "September", "Wednesday"
  if (field == "MMM" || field == "MON" || field == "EEE") return 3;
  return field == "yyyy" ? 4 : 2;
}

// Calls on_literal(char) and on_field(name) in pattern order.
template <typename OnLiteral, typename OnField>
void walk_pattern(const std::string& pattern, OnLiteral on_literal, OnField on_field) {
  for (size_t pos = 0; pos < pattern.size(); ++pos) {
    if (pattern[pos] != '{') {
      on_literal(pattern[pos]);
      continue;
    }
    size_t end = pattern.find('}', pos);
    on_field(pattern.substr(pos + 1, end - pos - 1));
    pos = end;
  }
}

bool is_leap_year(int year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int days_in_month(int year, int month) {
  static const int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap_year(year) ? 29 : kDays[month - 1];
}

void check_date(const Date& date) {
  bool valid = date.year >= kFirstDate.year && date.year <= kLastDate.year && date.month >= 1 &&
               date.month <= 12 && date.day >= 1 &&
               date.day <= days_in_month(date.year, date.month);
  if (!valid) {
    throw InputError("date " + std::to_string(date.year) + "-" + std::to_string(date.month) + "-" +
                     std::to_string(date.day) + " is not a valid date in 1950-01-01…2049-12-31");
  }
}

}  // namespace

// Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms": eras of 400 years, with the
// year starting in March so the leap day comes last.
long days_from_civil(const Date& date) {
  long y = date.year - (date.month <= 2 ? 1 : 0);
  long era = (y >= 0 ? y : y - 399) / 400;
  long year_of_era = y - era * 400;
  long day_of_year = (153 * (date.month + (date.month > 2 ? -3 : 9)) + 2) / 5 + date.day - 1;
  long day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

Date civil_from_days(long days) {
  days += 719468;
  long era = (days >= 0 ? days : days - 146096) / 146097;
  long day_of_era = days - era * 146097;
  long year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  long day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  long mp = (5 * day_of_year + 2) / 153;
  Date date;
  date.day = static_cast<int>(day_of_year - (153 * mp + 2) / 5 + 1);
  date.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  date.year = static_cast<int>(year_of_era + era * 400 + (date.month <= 2 ? 1 : 0));
  return date;
}

int weekday(const Date& date) {
  long days = days_from_civil(date);  // 1970-01-01 was a Thursday (4)
  return static_cast<int>(((days % 7) + 7 + 4) % 7);
}

const std::vector<std::string>& format_patterns() {
  static const std::vector<std::string> kPatterns = {
      "{dd}{MMM}{yyyy}",             // 23Jan2015
      "{MM}/{dd}/{yy}",              // 01/23/15
      "{M}/{d}/{yy}",                // 1/23/15
      "{MM}/{dd}/{yyyy}",            // 01/23/2015
      "{M}/{d}/{yyyy}",              // 1/23/2015
      "{MON} {d}, {yyyy}",           // JAN 23, 2015
      "{MMM} {d}, {yyyy}",           // Jan 23, 2015
      "{MMM} {d} {yyyy}",            // Jan 23 2015
      "{MMM} {d}, {yy}",             // Jan 23, 15
      "{MMMM} {d}, {yyyy}",          // January 23, 2015
      "{d} {MMMM} {yyyy}",           // 23 January 2015
      "{d} {MMM} {yyyy}",            // 23 Jan 2015
      "{dd} {MON} {yyyy}",           // 23 JAN 2015
      "{dd}-{MMM}-{yyyy}",           // 23-Jan-2015
      "{EEEE}, {MMMM} {d}, {yyyy}",  // Friday, January 23, 2015
      "{EEEE}, {d} {MMMM} {yyyy}",   // Friday, 23 January 2015
      "{EEE}, {dd} {MMM} {yyyy}",    // Fri, 23 Jan 2015
      "{yyyy}-{MM}-{dd}",            // 2015-01-23
      "{yyyy}/{MM}/{dd}",            // 2015/01/23
      "{yyyy}.{MM}.{dd}",            // 2015.01.23
      "{yyyy}{MM}{dd}",              // 20150123
      "{dd}.{MM}.{yyyy}",            // 23.01.2015
      "{d}.{M}.{yyyy}",              // 23.1.2015
      "{dd}-{MM}-{yyyy}",            // 23-01-2015
  };
  return kPatterns;
}

std::string render(const Date& date, int format) {
  const auto& patterns = format_patterns();
  if (format < 0 || format >= static_cast<int>(patterns.size())) {
    throw InputError("date format " + std::to_string(format) + " does not exist (0–" +
                     std::to_string(patterns.size() - 1) + ")");
  }
  check_date(date);
  std::string text;
  walk_pattern(
      patterns[static_cast<size_t>(format)], [&](char c) { text += c; },
      [&](const std::string& field) { text += render_field(field, date); });
  return text;
}

std::string iso(const Date& date) {
  check_date(date);
  return std::to_string(date.year) + "-" + two_digits(date.month) + "-" + two_digits(date.day);
}

}  // namespace lab::dates

// ---------------------------------------------------------------------------------------------
// dates: the task

namespace lab {
namespace {

constexpr long kDefaultDatesHeldOut = 2000;

// The characters of an ISO date ("2015-01-23"), the target vocabulary.
std::vector<std::string> iso_characters() {
  std::vector<std::string> tokens;
  for (char c : std::string("-0123456789")) tokens.emplace_back(1, c);
  return tokens;
}

// Every character a format can produce, in code-point order.
std::vector<std::string> date_source_characters() {
  std::string chars = "0123456789 ,./-";
  for (const char* month : dates::kMonthNames) chars += std::string(month) + dates::upper(month);
  for (const char* weekday : dates::kWeekdayNames) chars += weekday;
  std::sort(chars.begin(), chars.end());
  chars.erase(std::unique(chars.begin(), chars.end()), chars.end());
  std::vector<std::string> tokens;
  for (char c : chars) tokens.emplace_back(1, c);
  return tokens;
}

class DatesTask : public Task {
 public:
  explicit DatesTask(const TaskOptions& options)
      : Task("dates", Vocab::build(Tokenizer::kChars, date_source_characters()),
             Vocab::build(Tokenizer::kChars, iso_characters())) {
    long first = dates::days_from_civil(dates::kFirstDate);
    long last = dates::days_from_civil(dates::kLastDate);
    std::vector<long> days;
    for (long day = first; day <= last; ++day) days.push_back(day);
    // Fisher–Yates with the task's own generator: the split depends on the seed only.
    Rng rng(options.seed);
    for (size_t i = days.size() - 1; i > 0; --i) {
      std::swap(days[i], days[static_cast<size_t>(rng.below(static_cast<long>(i) + 1))]);
    }

    long held_out = options.held_out != 0 ? options.held_out : kDefaultDatesHeldOut;
    train_days_.assign(days.begin() + held_out, days.end());
    // Held-out dates cycle through the formats, so every format is evaluated equally often.
    for (long i = 0; i < held_out; ++i) {
      held_out_.push_back(example_for(days[static_cast<size_t>(i)], i % num_formats()));
    }
    for (const std::string& pattern : dates::format_patterns()) {
      size_t length = 0;
      dates::walk_pattern(
          pattern, [&](char) { ++length; },
          [&](const std::string& field) { length += dates::max_field_length(field); });
      max_source_tokens_ = std::max(max_source_tokens_, static_cast<long>(length));
    }
    max_target_tokens_ = 10;  // yyyy-mm-dd
  }

  long train_size() const override { return static_cast<long>(train_days_.size()) * num_formats(); }

  Example sample_train(Rng& rng) const override {
    long day = train_days_[static_cast<size_t>(rng.below(static_cast<long>(train_days_.size())))];
    return example_for(day, rng.below(num_formats()));
  }

 private:
  static long num_formats() { return static_cast<long>(dates::format_patterns().size()); }

  Example example_for(long day, long format) const {
    dates::Date date = dates::civil_from_days(day);
    return make_example(dates::render(date, static_cast<int>(format)), dates::iso(date));
  }

  std::vector<long> train_days_;
};

}  // namespace

std::unique_ptr<Task> dates::make_task(const TaskOptions& options) {
  return std::make_unique<DatesTask>(options);
}

}  // namespace lab
