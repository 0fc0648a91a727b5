#include "sequence/alignment.h"

#include <algorithm>

namespace lab {

AlignmentCount count_alignment(const float* attention, long S_stride, long source_length,
                               const std::vector<std::vector<int32_t>>& alignment) {
  AlignmentCount count;
  for (size_t t = 0; t < alignment.size(); ++t) {
    if (alignment[t].empty()) continue;
    const float* row = attention + static_cast<long>(t) * S_stride;
    // argmax_s a[t, s] over the real source tokens
    const int32_t argmax = static_cast<int32_t>(std::max_element(row, row + source_length) - row);
    const auto& aligned = alignment[t];
    count.hits += std::find(aligned.begin(), aligned.end(), argmax) != aligned.end();
    ++count.scored;
  }
  return count;
}

std::vector<LengthBucket> equal_width_buckets(const std::vector<Example>& examples, size_t n) {
  long lo = 0, hi = 0;
  for (size_t i = 0; i < n; ++i) {
    const long length = static_cast<long>(examples[i].source_ids.size());
    lo = i == 0 ? length : std::min(lo, length);
    hi = i == 0 ? length : std::max(hi, length);
  }
  const long span = hi - lo + 1, count = std::min<long>(4, span);
  std::vector<LengthBucket> buckets;
  for (long k = 0; k < count; ++k) {
    buckets.push_back({lo + span * k / count, lo + span * (k + 1) / count - 1});
  }
  return buckets;
}

}  // namespace lab
