// Scoring attention against known alignments, and exact match by source length: what evaluate()
// reports beside the loss so that a reader can see whether attention lines words up.
//
// Alignment accuracy: over the target tokens that have aligned source tokens (content words; the
// function words and <eos> have none), the share whose attention argmax falls on one of them.
#pragma once

#include <cstdint>
#include <vector>

#include "sequence/tasks.h"

namespace lab {

struct AlignmentCount {
  long hits = 0;    // argmax on an aligned source token
  long scored = 0;  // target tokens with an alignment
};

// attention: the (T, S_stride) weights of one example, row t for target token t (teacher-forced),
// of which the first source_length columns are real tokens. Rows past alignment.size() (the
// <eos> step, padding) are not read. Ties go to the first maximum.
AlignmentCount count_alignment(const float* attention, long S_stride, long source_length,
                               const std::vector<std::vector<int32_t>>& alignment);

// Four buckets of (nearly) equal width over the source lengths of `examples`; one bucket when
// they all have the same length.
std::vector<LengthBucket> equal_width_buckets(const std::vector<Example>& examples, size_t n);

}  // namespace lab
