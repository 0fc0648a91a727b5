// A training timeline: the attention of one fixed probe sentence, recorded every `every` steps
// while a session trains, so a reader can replay how the alignment forms. Memory is bounded by
// thinning: when `capacity` frames are held and another is due, every other frame is dropped and
// `every` doubles, so the frames stay evenly spaced over the whole run (at most capacity of them).
// Recording decodes greedily with the model's inference scratch: it changes no weight, gradient,
// optimiser state or sampler, so training with and without a timeline is bit-identical.
// The timeline does not know the model: each call takes the session's greedy decoder,
// `decode(probe, options)` → GreedyResult, so the recurrent and Transformer sessions share it
// (a frame holds each step's `attention` as that decoder gives it: the attention weights of a
// recurrent translator, the rollout onto the source of a Transformer).
//
// Dimension letters as in tensor.h: S probe length, T steps of the frame's greedy decoding.
#pragma once

#include <cstdint>
#include <vector>

#include "sequence/decode.h"

namespace lab {

constexpr long kMaxTimelineFrames = 4096;

struct TimelineFrame {
  long step = 0;                 // training steps taken when it was recorded
  std::vector<int32_t> output;   // (T) the greedy decoding's tokens, <eos> included if produced
  std::vector<float> attention;  // (T, S); empty without attention
};

class AttentionTimeline {
 public:
  // Starts a timeline of `probe` (source ids) at training step `step`, recording that step
  // first. Throws InputError for every outside [1, 1000000] or capacity outside
  // [2, kMaxTimelineFrames], and whatever decoding the probe throws, before anything is replaced.
  template <class Decode>
  void start(std::vector<int32_t> probe, long every, long capacity, long step,
             const DecodeOptions& options, const Decode& decode) {
    check_limits(every, capacity);
    AttentionTimeline next;
    next.probe_ = std::move(probe);
    next.every_ = every;
    next.capacity_ = capacity;
    next.start_ = step;
    next.options_ = options;
    next.record(step, decode(next.probe_, options));
    next.active_ = true;
    *this = std::move(next);
  }
  void stop() { active_ = false; }
  bool active() const { return active_; }
  // After training step `step`: records a frame if one is due (thinning first when full).
  template <class Decode>
  void after_step(long step, const Decode& decode) {
    if (due(step)) record(step, decode(probe_, options_));
  }

  const std::vector<int32_t>& probe() const { return probe_; }
  long every() const { return every_; }
  long capacity() const { return capacity_; }
  long start_step() const { return start_; }
  const std::vector<TimelineFrame>& frames() const { return frames_; }

 private:
  static void check_limits(long every, long capacity);
  // True if a frame is due after `step`; thins the frames first when they are at capacity.
  bool due(long step);
  void record(long step, const GreedyResult& decoded);

  bool active_ = false;
  std::vector<int32_t> probe_;
  long every_ = 1, capacity_ = 0, start_ = 0;
  DecodeOptions options_;
  std::vector<TimelineFrame> frames_;
};

}  // namespace lab
