// TransformerSession (wasm/src/transformer/session.h): the Transformer trained on the project's
// tasks through the Seq2Seq session's interface. Training on reverse reaches high held-out
// exact match in a short run; save → load resumes bit-identically; translations carry every
// layer's and head's attention with consistent shapes; bad configurations, sentences and files
// are refused with the problem named.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "expect_input_error.h"
#include "out_of_vocabulary_task.h"
#include "sequence/model_file.h"
#include "session_util.h"
#include "transformer/session.h"

namespace lab {
namespace {

// Reverse 3–6 letters of 8: held-out strings are unseen (the task keeps them disjoint).
TransformerSessionConfig small_reverse() {
  TransformerSessionConfig c = sessiontest::transformer_session("reverse", {2, 4, 32, 64}, 32, 100);
  c.task_options = sessiontest::reverse_task(3, 2000, 100, 3, 6, 8);
  c.seed = 5;
  c.clip_norm = 1.0;
  return c;
}

TEST(TransformerSession, AValidationErrorDuringTrainingKeepsItsOwnMessage) {
  TransformerSessionConfig c = small_reverse();
  c.layers = 1;
  c.heads = 2;
  c.d_model = 8;
  c.d_ff = 16;
  c.batch_size = 2;
  TransformerSession s(c, std::make_unique<OutOfVocabularyTask>());
  expect_own_error_not_divergence(s, "batch.src id 99 at (0, 0) is outside the source vocabulary");
}

TEST(TransformerSession, LearnsToReverseUnseenStrings) {
  for (bool norm_first : {false, true}) {
    TransformerSessionConfig c = small_reverse();
    c.norm_first = norm_first;
    TransformerSession s(c);
    const EvalResult before = s.evaluate();
    const TrainResult r = s.train(1000);
    ASSERT_EQ(r.losses.size(), 1000u);
    EXPECT_EQ(r.step, 1000);
    EXPECT_LT(r.losses.back(), 0.1f * r.losses.front());
    const EvalResult after = s.evaluate();
    EXPECT_LT(before.exact_match, 0.05);
    // 6 letters of 8 reversed by chance: (1/8)^3 or less per string.
    EXPECT_GE(after.exact_match, 0.9) << (norm_first ? "pre" : "post") << "-norm";
    EXPECT_GE(after.token_accuracy, 0.97);
    EXPECT_EQ(after.examples, 100);
    RecordProperty(norm_first ? "pre_exact_match" : "post_exact_match",
                   std::to_string(after.exact_match));
    // The translator reverses a typed string.
    EXPECT_EQ(s.translate("abcde").text, "edcba");
  }
}

// Bit for bit: the weights, Adam's moments, the warm-up step and the sampler.
TEST(TransformerSession, ResumeFromFileIsBitIdentical) {
  const std::vector<uint8_t> file =
      sessiontest::expect_resume_is_bit_identical<TransformerSession>(small_reverse(), 30, 20);
  EXPECT_TRUE(TransformerSession::is_session_file(file.data(), file.size()));
}

float sum(const std::vector<float>& v, size_t from, size_t n) {
  return std::accumulate(v.begin() + static_cast<long>(from),
                         v.begin() + static_cast<long>(from + n), 0.0f);
}

TEST(TransformerSession, TranslationTracesEveryLayerAndHead) {
  TransformerSessionConfig c = small_reverse();
  c.layers = 3;
  c.heads = 2;
  TransformerSession s(c);
  s.train(20);
  const long L = 3, H = 2;
  const TransformerTranslateResult g = s.translate("abxc", {});
  ASSERT_EQ(g.source.size(), 4u);
  EXPECT_TRUE(g.source[2].unknown);  // x is not among the 8 letters a–h
  const long S = 4;
  ASSERT_EQ(g.greedy.encoder.self_att.size(), static_cast<size_t>(L));
  EXPECT_EQ(g.greedy.encoder.self_att[0].size(), static_cast<size_t>(H * S * S));
  EXPECT_EQ(g.greedy.encoder.rollout.size(), static_cast<size_t>(S * S));
  ASSERT_EQ(g.greedy.traces.size(), g.greedy.result.steps.size());
  for (size_t t = 0; t < g.greedy.traces.size(); ++t) {
    const TransformerStepTrace& tr = g.greedy.traces[t];
    ASSERT_EQ(tr.cross.size(), static_cast<size_t>(L * H * S));
    ASSERT_EQ(tr.self.size(), static_cast<size_t>(L * H) * (t + 1));
    for (long lh = 0; lh < L * H; ++lh) {  // every head's weights are a distribution
      EXPECT_NEAR(sum(tr.cross, lh * S, S), 1.0f, 1e-5f);
      EXPECT_NEAR(sum(tr.self, lh * (t + 1), t + 1), 1.0f, 1e-5f);
    }
    EXPECT_NEAR(sum(tr.rollout_target, 0, t + 1) + sum(tr.rollout_source, 0, S), 1.0f, 1e-5f);
    EXPECT_EQ(g.greedy.result.steps[t].attention, tr.rollout_source);
  }
  TranslateOptions one;
  one.beam = 1;
  const TransformerTranslateResult b1 = s.translate("abxc", one);
  EXPECT_EQ(b1.output, g.output) << "beam width 1 is greedy";
  TranslateOptions four;
  four.beam = 4;
  const TransformerTranslateResult b4 = s.translate("abxc", four);
  EXPECT_EQ(b4.beam_width, 4);
  ASSERT_EQ(b4.beam.traces.size(), b4.beam.result.steps.size());
  for (size_t t = 0; t < b4.beam.traces.size(); ++t) {
    ASSERT_EQ(b4.beam.traces[t].size(), b4.beam.result.steps[t].size());
    for (const TransformerStepTrace& tr : b4.beam.traces[t]) {
      EXPECT_EQ(tr.cross.size(), static_cast<size_t>(L * H * S));
    }
  }
  EXPECT_EQ(b4.hypothesis_texts.size(), b4.beam.result.hypotheses.size());
}

TEST(TransformerSession, RefusesBadConfigurationsSentencesAndFiles) {
  auto with = [](auto change) {
    TransformerSessionConfig c = small_reverse();
    change(c);
    return c;
  };
  EXPECT_INPUT_ERROR(TransformerSession(with([](auto& c) { c.heads = 5; })),
                     "number of heads (5) must divide the model size dModel (32)");
  EXPECT_INPUT_ERROR(TransformerSession(with([](auto& c) { c.layers = 0; })),
                     "number of layers must be in [1, 6]");
  EXPECT_INPUT_ERROR(TransformerSession(with([](auto& c) { c.layers = 7; })),
                     "number of layers must be in [1, 6]");
  EXPECT_INPUT_ERROR(TransformerSession(with([](auto& c) {
                       c.d_model = 4096;
                       c.heads = 4;
                     })),
                     "model size dModel must be in [1, 1024]");
  EXPECT_INPUT_ERROR(TransformerSession(with([](auto& c) { c.d_ff = 100000; })),
                     "feed-forward size dFF must be in [1, 4096]");
  EXPECT_INPUT_ERROR(TransformerSession(with([](auto& c) {
                       c.layers = 6;
                       c.d_model = 1024;
                       c.d_ff = 4096;
                     })),
                     "parameters, over the limit");
  EXPECT_INPUT_ERROR(TransformerSession(with([](auto& c) { c.warmup = -1; })), "warmup");
  EXPECT_INPUT_ERROR(TransformerSession(with([](auto& c) { c.task = "klingon"; })),
                     "unknown task 'klingon'");

  TransformerSession s(small_reverse());
  std::string long_sentence;
  long_sentence.assign(300, 'a');
  EXPECT_INPUT_ERROR(s.translate(long_sentence),
                     "sentence has 300 tokens; the Transformer's positional table has 256");
  // Every call that reads a typed text reads it alike.
  EXPECT_INPUT_ERROR(s.attribution(long_sentence),
                     "sentence has 300 tokens; the Transformer's positional table has 256");
  EXPECT_INPUT_ERROR(s.record_timeline(long_sentence, 10, 10),
                     "sentence has 300 tokens; the Transformer's positional table has 256");
  // the limit a caller can read beforehand, and the code and numbers a page words the error with
  EXPECT_EQ(s.max_source_tokens(), 256);
  try {
    s.translate(long_sentence);
    ADD_FAILURE() << "300 tokens translated";
  } catch (const InputError& e) {
    EXPECT_EQ(e.code, "sentenceOverPositions");
    EXPECT_EQ(e.details,
              (std::vector<std::pair<std::string, long>>{{"count", 300}, {"limit", 256}}));
  }
  TranslateOptions too_long;
  too_long.max_length = 1000;
  EXPECT_INPUT_ERROR(s.translate("ab", too_long), "256");
  EXPECT_EQ(s.translate("abc").source.size(), 3u) << "still usable";

  // A file whose weights hold a NaN (under a valid checksum) is refused by name.
  const std::vector<uint8_t> file = s.save();
  ModelFileContents contents = read_model_file(file.data(), file.size());
  std::vector<NamedArray> arrays = contents.arrays;
  const std::string first = arrays[0].name;
  std::vector<uint8_t> clean = write_model_file(contents.header, arrays);
  EXPECT_EQ(TransformerSession::load(clean).save(), file);
  // write_model_file refuses NaN itself, so the NaN goes into the written bytes: find the
  // first float of the first array by its value and overwrite it, then fix the CRC.
  const float value = arrays[0].tensor.data[0];
  uint8_t pattern[4];
  std::memcpy(pattern, &value, 4);
  auto at = std::search(clean.begin(), clean.end(), pattern, pattern + 4);
  ASSERT_NE(at, clean.end());
  const float nan = std::nanf("");
  std::memcpy(&*at, &nan, 4);
  const uint32_t crc = crc32_ieee(clean.data(), clean.size() - 4);
  std::memcpy(clean.data() + clean.size() - 4, &crc, 4);
  EXPECT_INPUT_ERROR(TransformerSession::load(clean), ("array '" + first + "'").c_str());
  EXPECT_INPUT_ERROR(TransformerSession::load(clean), "non-finite value (NaN)");

  // A recurrent session's file is not a Transformer's.
  EXPECT_INPUT_ERROR(
      [] {
        SessionConfig rnn;
        rnn.task = "reverse";
        rnn.hidden = 8;
        const std::vector<uint8_t> bytes = Seq2SeqSession(rnn).save();
        EXPECT_FALSE(TransformerSession::is_session_file(bytes.data(), bytes.size()));
        TransformerSession::load(bytes);
      }(),
      "not a Transformer model");
}

}  // namespace
}  // namespace lab
