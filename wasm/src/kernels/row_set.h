// Some rows of a (R, ·) matrix: the rows whose results are read (a padded batch's real rows, a
// window's rows up to its last target). The GEMMs take them (kernels/gemm.h says how); so do
// the elementwise ops, through row_runs.
#pragma once

#include <cstdint>
#include <vector>

namespace lab::kernels {

struct RowSet {
  const int32_t* index = nullptr;  // ascending
  long count = 0;
};

// The rows b·T + t with t < length(b), for each b < B, written to `rows` (reused storage): each
// sequence's leading rows, e.g. its real positions or those up to its last target.
template <class Length>
RowSet prefix_rows(std::vector<int32_t>& rows, long B, long T, Length length) {
  rows.clear();
  for (long b = 0; b < B; ++b) {
    const long n = length(b);
    for (long t = 0; t < n && t < T; ++t) rows.push_back(static_cast<int32_t>(b * T + t));
  }
  return {rows.data(), static_cast<long>(rows.size())};
}

// Calls f(first, count) for each run of consecutive listed rows, in order; rows null: once, for
// all R rows.
template <class F>
void row_runs(const RowSet* rows, long R, F&& f) {
  if (rows == nullptr) {
    if (R > 0) f(0L, R);
    return;
  }
  for (long i = 0; i < rows->count;) {
    long j = i + 1;
    while (j < rows->count && rows->index[j] == rows->index[j - 1] + 1) ++j;
    f(static_cast<long>(rows->index[i]), j - i);
    i = j;
  }
}

// Calls f(first, count) for each run of consecutive rows of R that `rows` leaves out, in order;
// rows null: none.
template <class F>
void unlisted_runs(const RowSet* rows, long R, F&& f) {
  if (rows == nullptr) return;
  long next = 0;  // the first row not yet visited
  for (long i = 0; i <= rows->count; ++i) {
    const long m = i < rows->count ? rows->index[i] : R;
    if (m > next) f(next, m - next);
    next = m + 1;
  }
}

}  // namespace lab::kernels
