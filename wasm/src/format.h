// Numbers in error messages, without printf: std::to_string(float/double) and snprintf would link
// musl's printf_core and fmt_fp (~3 KB of gzipped wasm) into modules that only ever print a
// number in a message, and std::to_string(0.5f) reads "0.500000".
#pragma once

#include <string>

namespace lab {

// printf("%.*g", significant, value): the shortest of fixed and exponent form with `significant`
// digits (1…15), trailing zeros dropped. "0.5", "1e+06", "1.23457e-05", "-0", "nan", "inf".
// Exact (the digits printf prints) while the digits need one scaling by at most 1e22, i.e.
// |significant − 1 − exponent| <= 22 (6 digits: |value| in about [1e-17, 1e28)); outside, the last
// digit may be off by one.
std::string format_number(double value, int significant = 6);

}  // namespace lab
