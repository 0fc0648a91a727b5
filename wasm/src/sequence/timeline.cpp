// The timeline's bounds and thinning (timeline.h); the decoding is the caller's.
#include "sequence/timeline.h"

#include <string>

namespace lab {

void AttentionTimeline::check_limits(long every, long capacity) {
  if (every < 1 || every > 1000000) {
    throw InputError("timeline: every must be in [1, 1000000] steps (got " + std::to_string(every) +
                     ")");
  }
  if (capacity < 2 || capacity > kMaxTimelineFrames) {
    throw InputError("timeline: capacity must be in [2, " + std::to_string(kMaxTimelineFrames) +
                     "] frames (got " + std::to_string(capacity) + ")");
  }
}

bool AttentionTimeline::due(long step) {
  if (!active_ || (step - start_) % every_ != 0) return false;
  if (static_cast<long>(frames_.size()) >= capacity_) {
    // Keep the frames at multiples of 2·every (from the start): evenly spaced, half as many.
    std::vector<TimelineFrame> kept;
    for (TimelineFrame& f : frames_) {
      if ((f.step - start_) % (2 * every_) == 0) kept.push_back(std::move(f));
    }
    frames_ = std::move(kept);
    every_ *= 2;
    if ((step - start_) % every_ != 0) return false;
  }
  return true;
}

void AttentionTimeline::record(long step, const GreedyResult& decoded) {
  TimelineFrame f;
  f.step = step;
  for (const GreedyStep& s : decoded.steps) {
    f.output.push_back(s.token);
    f.attention.insert(f.attention.end(), s.attention.begin(), s.attention.end());
  }
  frames_.push_back(std::move(f));
}

}  // namespace lab
