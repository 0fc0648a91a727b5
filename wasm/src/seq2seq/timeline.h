// A training timeline: the attention of one fixed probe sentence, recorded every `every` steps
// while a session trains, so a reader can replay how the alignment forms. Memory is bounded by
// thinning: when `capacity` frames are held and another is due, every other frame is dropped and
// `every` doubles, so the frames stay evenly spaced over the whole run (at most capacity of them).
// Recording decodes greedily with the model's inference scratch: it changes no weight, gradient,
// optimiser state or sampler, so training with and without a timeline is bit-identical.
//
// Dimension letters as in tensor.h: S probe length, T steps of the frame's greedy decoding.
#pragma once

#include <cstdint>
#include <vector>

#include "seq2seq/decode.h"

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
  // [2, kMaxTimelineFrames].
  void start(std::vector<int32_t> probe, long every, long capacity, long step, Seq2SeqModel& model,
             const DecodeOptions& options);
  void stop() { active_ = false; }
  bool active() const { return active_; }
  // After training step `step`: records a frame if one is due (thinning first when full).
  void after_step(long step, Seq2SeqModel& model);

  const std::vector<int32_t>& probe() const { return probe_; }
  long every() const { return every_; }
  long capacity() const { return capacity_; }
  long start_step() const { return start_; }
  const std::vector<TimelineFrame>& frames() const { return frames_; }

 private:
  void record(long step, Seq2SeqModel& model);

  bool active_ = false;
  std::vector<int32_t> probe_;
  long every_ = 1, capacity_ = 0, start_ = 0;
  DecodeOptions options_;
  std::vector<TimelineFrame> frames_;
};

}  // namespace lab
