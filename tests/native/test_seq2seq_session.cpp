// Seq2SeqSession (wasm/src/rnn/session.h): bit-identical resume from a saved file, per-step
// token accuracy, evaluation at a length, divergence that keeps the weights and reports the
// completed steps, translation, and config / file validation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "expect_input_error.h"
#include "rnn/session.h"
#include "sequence/model_file.h"
#include "session_util.h"

namespace lab {
namespace {

// A small reverse task: a GRU with general-score attention, tanh layer and clipping, so every
// piece of state a resume must restore (both Adam moments, the sampler, clipping) is exercised.
SessionConfig small_reverse() {
  SessionConfig c;
  c.task = "reverse";
  c.task_options = sessiontest::reverse_task(3, 400, 50, 3, 10, 6);
  c.cell = CellKind::kGru;
  c.hidden = 16;
  c.attention = true;
  c.score = Score::kGeneral;
  c.attentional_tanh = true;
  c.seed = 7;
  c.batch_size = 8;
  c.learning_rate = 1e-2;
  c.clip_norm = 1.0;
  return c;
}

SessionConfig note(long hidden) {
  SessionConfig c;
  c.task = "note";
  c.hidden = hidden;
  c.batch_size = default_batch_size("note");
  c.seed = 1;
  return c;
}

TEST(Seq2SeqSession, ResumeFromFileIsBitIdentical) {
  sessiontest::expect_resume_is_bit_identical<Seq2SeqSession>(small_reverse(), 12, 8);
}

TEST(Seq2SeqSession, TrainReturnsLossAndTokenAccuracyPerStep) {
  Seq2SeqSession s(note(32));
  const TrainResult r = s.train(150);
  ASSERT_EQ(r.losses.size(), 150u);
  ASSERT_EQ(r.token_accuracy.size(), 150u);
  EXPECT_EQ(r.step, 150);
  for (float a : r.token_accuracy) {
    EXPECT_GE(a, 0.0f);
    EXPECT_LE(a, 1.0f);
  }
  // The note's pairs are learnt: late batches are (nearly) all right, early ones are not.
  float early = 0, late = 0;
  for (int i = 0; i < 10; ++i)
    early += r.token_accuracy[i] / 10, late += r.token_accuracy[140 + i] / 10;
  EXPECT_LT(early, 0.6f);
  EXPECT_GT(late, 0.9f);
  EXPECT_EQ(s.train(5).step, 155);
  EXPECT_INPUT_ERROR(s.train(0), "steps must be in [1, 100000] (got 0)");
  EXPECT_INPUT_ERROR(s.train(kMaxTrainSteps + 1), "steps must be in [1, 100000]");
  EXPECT_EQ(s.step(), 155);
}

TEST(Seq2SeqSession, EvaluatesHeldOutAndFreshSequencesOfOneLength) {
  Seq2SeqSession s(small_reverse());
  s.train(30);
  const EvalResult all = s.evaluate();
  EXPECT_EQ(all.examples, 50);
  EXPECT_FALSE(all.held_out_is_training_data);
  EXPECT_TRUE(std::isfinite(all.loss) && all.loss > 0);
  EvalOptions capped;
  capped.max_examples = 7;
  EXPECT_EQ(s.evaluate(capped).examples, 7);

  EvalOptions at_length;
  at_length.length = 14;  // longer than any training string (max_len 10)
  at_length.count = 20;
  const EvalResult a = s.evaluate(at_length);
  EXPECT_EQ(a.examples, 20);
  EXPECT_GE(a.token_accuracy, 0.0);
  EXPECT_LE(a.token_accuracy, 1.0);
  // by position: 14 letters and <eos>, every example has each, so their mean is the whole's
  ASSERT_EQ(a.token_accuracy_by_position.size(), 15u);
  double sum = 0;
  for (const double x : a.token_accuracy_by_position) sum += x;
  EXPECT_NEAR(sum / 15, a.token_accuracy, 1e-12);
  // held-out strings of up to 10 letters: a position per letter of the longest, and its <eos>
  EXPECT_EQ(all.token_accuracy_by_position.size(), 11u);
  const EvalResult b = s.evaluate(at_length);
  EXPECT_EQ(a.loss, b.loss) << "the same seed draws the same strings";
  at_length.seed = 99;
  EXPECT_NE(s.evaluate(at_length).loss, a.loss);
  EXPECT_EQ(s.step(), 30) << "evaluation does not train";

  EvalOptions bad;
  bad.count = 5;
  EXPECT_INPUT_ERROR(s.evaluate(bad), "count and seed only apply with a length");
  bad = {};
  bad.length = 65;
  EXPECT_INPUT_ERROR(s.evaluate(bad), "length");
  bad = {};
  bad.max_examples = 0;
  EXPECT_INPUT_ERROR(s.evaluate(bad), "maxExamples must be in [1, 10000] (got 0)");

  Seq2SeqSession n(note(8));
  EXPECT_TRUE(n.evaluate().held_out_is_training_data);
  EvalOptions length;
  length.length = 5;
  EXPECT_INPUT_ERROR(n.evaluate(length), "task 'note' has no length knob");
}

TEST(Seq2SeqSession, DivergenceKeepsTheLastGoodStateAndReportsCompletedSteps) {
  SessionConfig c = note(16);
  c.learning_rate = 1e30;  // accepted: a lesson, not a danger
  Seq2SeqSession s(c);
  try {
    s.train(50);
    FAIL() << "training with learning rate 1e30 should diverge";
  } catch (const TrainingDiverged& e) {
    const long done = e.completed.step;
    EXPECT_GE(done, 1) << "step 1 completes (its update is still finite), step 2 diverges";
    EXPECT_LT(done, 50);
    EXPECT_EQ(s.step(), done);
    EXPECT_EQ(e.completed.losses.size(), static_cast<size_t>(done));
    EXPECT_EQ(e.completed.token_accuracy.size(), static_cast<size_t>(done));
    EXPECT_NE(
        std::strstr(e.what(), ("training diverged at step " + std::to_string(done + 1)).c_str()),
        nullptr)
        << e.what();
    EXPECT_NE(std::strstr(e.what(),
                          ("the weights after step " + std::to_string(done) + " are kept").c_str()),
              nullptr)
        << e.what();
    // The session is exactly a fresh one trained `done` steps: weights, moments and sampler.
    Seq2SeqSession reference(c);
    if (done > 0) {
      const TrainResult r = reference.train(done);
      EXPECT_EQ(r.losses, e.completed.losses);
    }
    EXPECT_EQ(s.save(), reference.save());
  }
  // Still usable, and deterministic: the same step diverges again, changing nothing.
  const long step = s.step();
  const std::vector<uint8_t> file = s.save();
  EXPECT_THROW(s.train(3), TrainingDiverged);
  EXPECT_EQ(s.step(), step);
  EXPECT_EQ(s.save(), file);
}

TEST(Seq2SeqSession, TranslatesGreedyAndBeamWithUnknownWordsFlagged) {
  Seq2SeqSession s(note(64));
  s.train(300);
  const TranslateResult g = s.translate("咖哥 喜欢 小冰");
  EXPECT_EQ(g.text, "KaGe likes XiaoBing");
  EXPECT_EQ(g.beam_width, 0);
  EXPECT_EQ(g.greedy.steps.size(), 4u);  // three words and <eos>
  TranslateOptions beam;
  beam.beam = 3;
  const TranslateResult b = s.translate("咖哥 喜欢 小冰", beam);
  EXPECT_EQ(b.beam_width, 3);
  EXPECT_EQ(b.text, g.text);
  ASSERT_EQ(b.hypothesis_texts.size(), b.beam.hypotheses.size());
  EXPECT_EQ(b.hypothesis_texts[0], b.text);
  const TranslateResult u = s.translate("咖哥 喜欢 大冰");
  ASSERT_EQ(u.source.size(), 3u);
  EXPECT_TRUE(u.source[2].unknown);
  EXPECT_EQ(u.source[2].token, "<unk>");
  EXPECT_EQ(u.source[2].text, "大冰");
  beam.beam = 0;
  EXPECT_INPUT_ERROR(s.translate("咖哥", beam), "beam must be in [1, 64] (got 0)");
  TranslateOptions length;
  length.max_length = 0;
  EXPECT_INPUT_ERROR(s.translate("咖哥", length), "maxLength must be in [1, 1024] (got 0)");
  EXPECT_INPUT_ERROR(s.translate(""), "sentence is empty");
}

// lengthAlpha: each beam hypothesis scores log p / length^α, its length the steps it took.
TEST(Seq2SeqSession, LengthAlphaScoresBeamHypotheses) {
  Seq2SeqSession s(note(32));
  s.train(50);
  for (double alpha : {0.0, 0.5, 2.0}) {
    TranslateOptions o;
    o.beam = 3;
    o.length_alpha = alpha;
    const TranslateResult r = s.translate("咖哥 喜欢 小冰", o);
    ASSERT_GE(r.beam.hypotheses.size(), 2u);
    for (const BeamHypothesis& h : r.beam.hypotheses) {
      EXPECT_NEAR(h.score, h.log_prob / std::pow(h.step + 1.0, alpha), 1e-12) << "alpha " << alpha;
    }
  }
  TranslateOptions greedy;
  greedy.length_alpha = 0.5;
  EXPECT_INPUT_ERROR(s.translate("咖哥", greedy),
                     "lengthAlpha scores beam search's hypotheses: give beam too");
  TranslateOptions wide;
  wide.beam = 3;
  wide.length_alpha = 5.0;
  EXPECT_INPUT_ERROR(s.translate("咖哥", wide), "lengthAlpha must be in [0, 4] (got 5)");
}

TEST(Seq2SeqSession, ConfigValidationRejectsAbsurdValues) {
  auto with = [](auto change) {
    SessionConfig c = note(8);
    change(c);
    return c;
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_INPUT_ERROR(with([](SessionConfig& c) { c.hidden = 0; }).validate(),
                     "hidden size must be in [1, 4096] (got 0)");
  EXPECT_INPUT_ERROR(with([](SessionConfig& c) { c.hidden = 1000000; }).validate(),
                     "hidden size must be in [1, 4096] (got 1000000)");
  EXPECT_INPUT_ERROR(with([](SessionConfig& c) { c.embedding = -1; }).validate(), "embedding size");
  EXPECT_INPUT_ERROR(with([](SessionConfig& c) { c.batch_size = 0; }).validate(),
                     "batch size must be in [1, 1024] (got 0)");
  EXPECT_INPUT_ERROR(with([](SessionConfig& c) { c.batch_size = 1025; }).validate(),
                     "batch size must be in [1, 1024] (got 1025)");
  EXPECT_INPUT_ERROR(with([&](SessionConfig& c) { c.learning_rate = nan; }).validate(),
                     "learning rate must be a positive finite float32");
  EXPECT_INPUT_ERROR(with([](SessionConfig& c) { c.learning_rate = 0; }).validate(),
                     "learning rate must be a positive finite float32");
  EXPECT_INPUT_ERROR(with([](SessionConfig& c) { c.learning_rate = -1e-3; }).validate(),
                     "learning rate must be a positive finite float32");
  EXPECT_INPUT_ERROR(with([](SessionConfig& c) { c.learning_rate = 1e39; }).validate(),
                     "learning rate must be a positive finite float32");
  EXPECT_NO_THROW(with([](SessionConfig& c) { c.learning_rate = 1e6; }).validate());
  EXPECT_INPUT_ERROR(with([&](SessionConfig& c) { c.clip_norm = nan; }).validate(),
                     "clip norm (0: no clipping) must be 0 or a positive finite float32");
  EXPECT_INPUT_ERROR(with([](SessionConfig& c) { c.clip_norm = -1; }).validate(), "clip norm");
  EXPECT_INPUT_ERROR(
      with([](SessionConfig& c) { c.attention = false, c.attentional_tanh = true; }).validate(),
      "attentional_tanh needs attention");
  EXPECT_INPUT_ERROR(with([](SessionConfig& c) { c.task = ""; }).validate(), "task is missing");
  // The session checks what validate() cannot: the task's name and options, the vocab-sized
  // parameter count. Each before allocating anything large.
  EXPECT_INPUT_ERROR(Seq2SeqSession(with([](SessionConfig& c) { c.task = "klingon"; })),
                     "unknown task 'klingon' (expected note, zh-en, dates, reverse, copy, pairs)");
  EXPECT_INPUT_ERROR(Seq2SeqSession(with([](SessionConfig& c) {
                       c.task = "reverse";
                       c.task_options.max_len = 100;
                     })),
                     "max_len");
  EXPECT_INPUT_ERROR(Seq2SeqSession(with([](SessionConfig& c) { c.hidden = 0; })), "hidden size");
  // Names → enums are the core's too (the bindings pass strings through).
  EXPECT_INPUT_ERROR(parse_cell("transformer"), "unknown cell \"transformer\"");
  EXPECT_INPUT_ERROR(parse_score("magic"), "unknown score function 'magic'");
}

TEST(Seq2SeqSession, LoadRejectsFilesItCannotResume) {
  Seq2SeqSession s(note(8));
  std::vector<uint8_t> file = s.save();
  const ModelFileContents contents = read_model_file(file.data(), file.size());

  nlohmann::json v1 = contents.header;  // the development builds' weights-only files
  v1.erase("version");
  EXPECT_INPUT_ERROR(Seq2SeqSession::load(write_model_file(v1, contents.arrays)),
                     "version 1 (weights only");
  nlohmann::json v3 = contents.header;
  v3["version"] = 3;
  EXPECT_INPUT_ERROR(Seq2SeqSession::load(write_model_file(v3, contents.arrays)),
                     "Seq2Seq version 3; this build reads version 2");
  nlohmann::json other = contents.header;
  other["kind"] = "something-else";
  EXPECT_INPUT_ERROR(Seq2SeqSession::load(write_model_file(other, contents.arrays)),
                     "not a Seq2Seq model");
  nlohmann::json no_sampler = contents.header;
  no_sampler["training"].erase("samplerState");
  EXPECT_INPUT_ERROR(Seq2SeqSession::load(write_model_file(no_sampler, contents.arrays)),
                     "samplerState");
  nlohmann::json bad_sampler = contents.header;
  bad_sampler["training"]["samplerState"] = "12";
  EXPECT_INPUT_ERROR(Seq2SeqSession::load(write_model_file(bad_sampler, contents.arrays)),
                     "samplerState must be 16 lowercase hex digits");
  nlohmann::json huge = contents.header;
  huge["config"]["hidden"] = 1000000;
  EXPECT_INPUT_ERROR(Seq2SeqSession::load(write_model_file(huge, contents.arrays)),
                     "hidden size must be in [1, 4096]");
  std::vector<NamedArray> weights_only(contents.arrays.begin(),
                                       contents.arrays.begin() + contents.arrays.size() / 3);
  EXPECT_INPUT_ERROR(Seq2SeqSession::load(write_model_file(contents.header, weights_only)),
                     "Adam's two moments");
  std::vector<NamedArray> negative = contents.arrays;
  negative.back().tensor.data[0] = -1.0f;  // a second moment
  EXPECT_INPUT_ERROR(Seq2SeqSession::load(write_model_file(contents.header, negative)),
                     "second moment is negative");
}

}  // namespace
}  // namespace lab
