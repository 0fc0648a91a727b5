// lab::format_number against the C library's printf("%.*g"), which it replaces in messages.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "format.h"

namespace lab {
namespace {

std::string printf_g(double value, int significant) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", significant, value);
  return text;
}

TEST(FormatNumber, ReadableForms) {
  EXPECT_EQ(format_number(0.5), "0.5");
  EXPECT_EQ(format_number(0.5f), "0.5");  // std::to_string(0.5f) gave "0.500000"
  EXPECT_EQ(format_number(0.1f), "0.1");  // 0.100000001490116 as a double
  EXPECT_EQ(format_number(1e6), "1e+06");
  EXPECT_EQ(format_number(123456), "123456");
  EXPECT_EQ(format_number(1234567), "1.23457e+06");
  EXPECT_EQ(format_number(0.0001), "0.0001");
  EXPECT_EQ(format_number(0.00001), "1e-05");
  EXPECT_EQ(format_number(-2.5), "-2.5");
  EXPECT_EQ(format_number(0.0), "0");
  EXPECT_EQ(format_number(-0.0), "-0");
  EXPECT_EQ(format_number(9.9999996), "10");  // the rounding carries into a new digit
  EXPECT_EQ(format_number(1e100), "1e+100");
  EXPECT_EQ(format_number(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(format_number(-std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(format_number(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(format_number(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(format_number(1234.5678, 3), "1.23e+03");
  EXPECT_EQ(format_number(0.125, 2), "0.12");  // an exact tie rounds to even, as printf
  EXPECT_EQ(format_number(3.0, 0), "3");       // fewer than 1 digit means 1
}

// Random doubles of either sign, and floats widened to double (what the messages print), at 1…15
// significant digits, wherever the digits need one scaling by at most 1e22 (the exact range).
TEST(FormatNumber, MatchesPrintfInTheExactRange) {
  std::mt19937_64 rng(20261202);
  std::uniform_real_distribution<double> exponent(-22.0, 22.0), mantissa(1.0, 10.0);
  std::uniform_int_distribution<int> digits(1, 15), sign(0, 1);
  for (int i = 0; i < 200000; ++i) {
    double x = mantissa(rng) * std::pow(10.0, std::floor(exponent(rng)));
    if (i % 2) x = static_cast<double>(static_cast<float>(x));
    const int p = digits(rng);
    if (std::abs(p - 1 - static_cast<int>(std::floor(std::log10(x)))) > 22) continue;
    if (sign(rng)) x = -x;
    ASSERT_EQ(format_number(x, p), printf_g(x, p)) << "x = " << x << ", p = " << p;
  }
}

// Every power of ten and the short decimals a user types (0.001 … 1000 in steps), which round
// to a tie or a carry when the digits run out.
TEST(FormatNumber, MatchesPrintfOnShortDecimals) {
  for (int p = 1; p <= 9; ++p) {
    for (int k = -22; k <= 22; ++k) {
      const double x = std::pow(10.0, k);
      ASSERT_EQ(format_number(x, p), printf_g(x, p)) << "10^" << k << ", p = " << p;
    }
    for (int n = 1; n <= 100000; n += 7) {
      for (double scale : {1e-3, 1e-2, 0.1, 1.0, 1e3}) {
        const double x = n * scale;
        ASSERT_EQ(format_number(x, p), printf_g(x, p)) << "x = " << x << ", p = " << p;
      }
    }
  }
}

// Outside the exact range (subnormals to DBL_MAX) the digits may differ from printf's in the
// last place only: read back, the text is within one unit of the last digit.
TEST(FormatNumber, CloseToPrintfEverywhere) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = rng() & ~(uint64_t{1} << 63);
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (!std::isfinite(x) || x == 0.0) continue;
    const int p = 1 + static_cast<int>(rng() % 9);
    const double read = std::strtod(format_number(x, p).c_str(), nullptr);
    const double exact = std::strtod(printf_g(x, p).c_str(), nullptr);
    ASSERT_LE(std::fabs(read - exact), std::fabs(exact) * std::pow(10.0, 1 - p) * 1.0001)
        << "x = " << printf_g(x, 17) << ", p = " << p << ": " << format_number(x, p) << " vs "
        << printf_g(x, p);
  }
  EXPECT_EQ(format_number(std::numeric_limits<double>::max()), "1.79769e+308");
  EXPECT_EQ(format_number(std::numeric_limits<double>::denorm_min()), "4.94066e-324");
  EXPECT_EQ(format_number(std::numeric_limits<float>::max()), "3.40282e+38");
}

}  // namespace
}  // namespace lab
