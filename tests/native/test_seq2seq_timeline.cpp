// The training timeline (sequence/timeline.h) through both sessions, recurrent and Transformer:
// frames of the probe's attention every k steps, thinned evenly within the capacity, each equal
// to translating the probe at that step, and training bit-identical with and without it.
#include <gtest/gtest.h>

#include "expect_input_error.h"
#include "rnn/session.h"
#include "session_util.h"
#include "transformer/session.h"

namespace {

lab::SessionConfig config_for(lab::Seq2SeqSession*) {
  lab::SessionConfig c;
  c.task = "note";
  c.hidden = 16;
  c.batch_size = 1;
  c.learning_rate = 1e-2;
  c.seed = 3;
  return c;
}

lab::TransformerSessionConfig config_for(lab::TransformerSession*) {
  lab::TransformerSessionConfig c = sessiontest::transformer_session("note", {1, 2, 16, 32}, 1, 0);
  c.seed = 3;
  return c;
}

// The greedy steps of a translation (with their attention: the Transformer's rollout).
const std::vector<lab::GreedyStep>& steps_of(const lab::TranslateResult& r) {
  return r.greedy.steps;
}
const std::vector<lab::GreedyStep>& steps_of(const lab::TransformerTranslateResult& r) {
  return r.greedy.result.steps;
}

const char* kProbe = "咖哥 喜欢 小冰";

template <class Session>
class Timeline : public ::testing::Test {
 protected:
  static Session make() { return Session(config_for(static_cast<Session*>(nullptr))); }
};

using Sessions = ::testing::Types<lab::Seq2SeqSession, lab::TransformerSession>;
TYPED_TEST_SUITE(Timeline, Sessions);

TYPED_TEST(Timeline, FramesAreThinnedEvenlyAndMatchTheTranslationAtTheirStep) {
  TypeParam plain = this->make(), recorded = this->make();
  recorded.record_timeline(kProbe, 2, 4);
  // Frame at step 0, then every 2 steps; at 8 steps the fifth frame is due: thinned to every 4.
  std::vector<std::vector<float>> at_step(21);
  for (long s = 1; s <= 20; ++s) {
    const lab::TrainResult a = plain.train(1), b = recorded.train(1);
    EXPECT_EQ(a.losses, b.losses) << "step " << s;  // bit-identical training
    std::vector<float>& row = at_step[static_cast<size_t>(s)];
    const auto translation = plain.translate(kProbe);
    for (const lab::GreedyStep& g : steps_of(translation)) {
      row.insert(row.end(), g.attention.begin(), g.attention.end());
    }
  }
  const lab::AttentionTimeline& tl = recorded.timeline();
  EXPECT_EQ(tl.every(), 8);  // 2 → 4 (at step 8) → 8 (at step 16)
  std::vector<long> steps;
  for (const lab::TimelineFrame& f : tl.frames()) steps.push_back(f.step);
  EXPECT_EQ(steps, (std::vector<long>{0, 8, 16}));
  EXPECT_LE(static_cast<long>(tl.frames().size()), tl.capacity());
  for (const lab::TimelineFrame& f : tl.frames()) {
    EXPECT_FALSE(f.attention.empty());
    if (f.step == 0) continue;
    EXPECT_EQ(f.attention, at_step[static_cast<size_t>(f.step)]) << "frame of step " << f.step;
  }
  EXPECT_EQ(plain.save(), recorded.save());
}

TYPED_TEST(Timeline, BadOptionsAreNamedAndKeepTheOldTimeline) {
  TypeParam s = this->make();
  s.record_timeline(kProbe, 5, 10);
  EXPECT_INPUT_ERROR(s.record_timeline(kProbe, 0, 10),
                     "every must be in [1, 1000000] steps (got 0)");
  EXPECT_INPUT_ERROR(s.record_timeline(kProbe, 1, 1),
                     "capacity must be in [2, 4096] frames (got 1)");
  EXPECT_INPUT_ERROR(s.record_timeline("", 1, 10), "sentence is empty");
  EXPECT_EQ(s.timeline().every(), 5);
  EXPECT_TRUE(s.timeline().active());
}

}  // namespace
