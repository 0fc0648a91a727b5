#include "format.h"

#include <cmath>
#include <cstdint>

namespace lab {

namespace {

// 10^k for 0 <= k <= 22: every one of them is exact in a double.
double exact_pow10(int k) {
  double p = 1.0;
  for (int i = 0; i < k; ++i) p *= 10.0;
  return p;
}

// x · 10^k, one correctly rounded operation while |k| <= 22 (10^|k| is exact there).
double scale_pow10(double x, int k) {
  while (k > 22) x *= 1e22, k -= 22;
  while (k < -22) x /= 1e22, k += 22;
  return k >= 0 ? x * exact_pow10(k) : x / exact_pow10(-k);
}

// hi + lo = a · b exactly (Dekker's product: Veltkamp's split into 26-bit halves).
void two_product(double a, double b, double& hi, double& lo) {
  auto split = [](double v, double& high, double& low) {
    const double c = 134217729.0 * v;  // 2^27 + 1
    high = c - (c - v);
    low = v - high;
  };
  double ah, al, bh, bl;
  split(a, ah, al);
  split(b, bh, bl);
  hi = a * b;
  lo = ((ah * bh - hi) + ah * bl + al * bh) + al * bl;
}

// The sign of x · 10^k − t, exact for |k| <= 22 and t within a factor 2 of x · 10^k (Sterbenz:
// the subtraction of the high part is exact, so only the low part's sign can decide).
int compare_scaled(double x, int k, double t) {
  double hi, lo, d;
  if (k >= 0) {
    two_product(x, exact_pow10(k), hi, lo);
    d = (hi - t) + lo;
  } else {
    two_product(t, exact_pow10(-k), hi, lo);  // x / 10^-k − t has the sign of x − t · 10^-k
    d = (x - hi) - lo;
  }
  return (d > 0) - (d < 0);
}

// round(x · 10^k) to the nearest integer, ties to even, as printf rounds the exact value: the
// scaled double alone can be rounded onto or across a .5 (0.015 · 100 gives 1.5 exactly, though
// 0.015 is 0.01499999…), so the two neighbouring ties are checked exactly.
double round_scaled(double x, int k) {
  double n = std::nearbyint(scale_pow10(x, k));
  if (k < -22 || k > 22) return n;
  auto odd = [](double v) { return (static_cast<uint64_t>(v) & 1) != 0; };  // v < 2^53
  const int below = compare_scaled(x, k, n - 0.5);
  if (below < 0 || (below == 0 && odd(n))) return n - 1;
  const int above = compare_scaled(x, k, n + 0.5);
  if (above > 0 || (above == 0 && odd(n))) return n + 1;
  return n;
}

std::string two_digit_exponent(int e) {
  std::string s(1, e < 0 ? '-' : '+');
  const int a = e < 0 ? -e : e;
  if (a >= 100) s += static_cast<char>('0' + a / 100);
  s += static_cast<char>('0' + a / 10 % 10);
  s += static_cast<char>('0' + a % 10);
  return s;
}

}  // namespace

std::string format_number(double value, int significant) {
  if (significant < 1) significant = 1;
  if (significant > 15) significant = 15;
  if (std::isnan(value)) return "nan";
  std::string out = std::signbit(value) ? "-" : "";
  const double x = std::fabs(value);
  if (std::isinf(x)) return out + "inf";
  if (x == 0.0) return out + "0";

  // digits = round(x / 10^(e − p + 1)): p digits, e the decimal exponent of the first one.
  // ilogb · log10(2) gives e or e − 1; too low, or a rounding that carries into a (p+1)-th digit
  // (9.9999996 at p = 6), shows as digits >= 10^p: then e + 1.
  int e = static_cast<int>(std::floor(std::ilogb(x) * 0.30102999566398120));  // log10(2)
  const double high = exact_pow10(significant);
  double digits = round_scaled(x, significant - 1 - e);
  while (digits >= high) digits = round_scaled(x, significant - 1 - ++e);

  // The p digits, most significant first.
  std::string text(static_cast<size_t>(significant), '0');
  uint64_t n = static_cast<uint64_t>(digits);
  for (int i = significant - 1; i >= 0; --i, n /= 10)
    text[static_cast<size_t>(i)] = static_cast<char>('0' + n % 10);
  // %g: exponent form when e < −4 or e >= p; fixed otherwise; trailing zeros dropped.
  const bool exponent_form = e < -4 || e >= significant;
  const int point = exponent_form ? 1 : e + 1;  // digits before the decimal point
  std::string body;
  if (point <= 0) {
    body = "0." + std::string(static_cast<size_t>(-point), '0') + text;
  } else {
    body =
        text.substr(0, static_cast<size_t>(point)) + "." + text.substr(static_cast<size_t>(point));
  }
  if (body.find('.') != std::string::npos) {
    body.erase(body.find_last_not_of('0') + 1);
    if (body.back() == '.') body.pop_back();
  }
  out += body;
  if (exponent_form) out += "e" + two_digit_exponent(e);
  return out;
}

}  // namespace lab
