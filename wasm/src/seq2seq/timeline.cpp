#include "seq2seq/timeline.h"

#include <string>

namespace lab {

void AttentionTimeline::start(std::vector<int32_t> probe, long every, long capacity, long step,
                              Seq2SeqModel& model, const DecodeOptions& options) {
  if (every < 1 || every > 1000000) {
    throw InputError("timeline: every must be in [1, 1000000] steps (got " + std::to_string(every) +
                     ")");
  }
  if (capacity < 2 || capacity > kMaxTimelineFrames) {
    throw InputError("timeline: capacity must be in [2, " + std::to_string(kMaxTimelineFrames) +
                     "] frames (got " + std::to_string(capacity) + ")");
  }
  options.validate(model.config());
  AttentionTimeline next;
  next.probe_ = std::move(probe);
  next.every_ = every;
  next.capacity_ = capacity;
  next.start_ = step;
  next.options_ = options;
  next.record(step, model);  // the probe is checked by decoding it, before anything is replaced
  next.active_ = true;
  *this = std::move(next);
}

void AttentionTimeline::after_step(long step, Seq2SeqModel& model) {
  if (!active_ || (step - start_) % every_ != 0) return;
  if (static_cast<long>(frames_.size()) >= capacity_) {
    // Keep the frames at multiples of 2·every (from the start): evenly spaced, half as many.
    std::vector<TimelineFrame> kept;
    for (TimelineFrame& f : frames_) {
      if ((f.step - start_) % (2 * every_) == 0) kept.push_back(std::move(f));
    }
    frames_ = std::move(kept);
    every_ *= 2;
    if ((step - start_) % every_ != 0) return;
  }
  record(step, model);
}

void AttentionTimeline::record(long step, Seq2SeqModel& model) {
  const GreedyResult g = greedy_decode(model, probe_, options_);
  TimelineFrame f;
  f.step = step;
  for (const GreedyStep& s : g.steps) {
    f.output.push_back(s.token);
    f.attention.insert(f.attention.end(), s.attention.begin(), s.attention.end());
  }
  frames_.push_back(std::move(f));
}

}  // namespace lab
