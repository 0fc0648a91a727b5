// Bad input the JS suite (tests/wasm/bad-input.test.mjs) found slipping through the core, checked
// natively: a training run whose loss explodes while staying finite, key-padding masks that are
// neither 0 nor 1, Unicode whitespace (the ideographic space of Chinese input methods) that the
// words tokenizer must split on, so a sentence of such spaces is empty, not one unknown word, and
// Seq2Seq file headers whose fields have the wrong JSON type (once truncated or wrapped silently).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "attention/attention.h"
#include "expect_input_error.h"
#include "out_of_vocabulary_task.h"
#include "rnn/session.h"
#include "sequence/model_file.h"
#include "sequence/vocab.h"

namespace lab {
namespace {

SessionConfig note_at(double learning_rate) {
  SessionConfig c;
  c.task = "note";
  c.hidden = 32;
  c.batch_size = default_batch_size("note");
  c.seed = 1;
  c.learning_rate = learning_rate;
  return c;
}

TEST(BadInput, ExplodingButFiniteLossIsReportedAsDivergence) {
  // Adam at lr 1e6 moves every weight by ~1e6 on step 1; step 2's loss is ~1e7, still finite.
  Seq2SeqSession s(note_at(1e6));
  try {
    s.train(20);
    FAIL() << "training at learning rate 1e6 should be reported as diverged";
  } catch (const TrainingDiverged& e) {
    EXPECT_EQ(e.completed.step, 1) << e.what();
    EXPECT_NE(std::strstr(e.what(), "training diverged at step 2 (the loss "), nullptr) << e.what();
    EXPECT_NE(std::strstr(e.what(), "times that of a uniform guess"), nullptr) << e.what();
    ASSERT_EQ(e.completed.losses.size(), 1u);
    EXPECT_TRUE(std::isfinite(e.completed.losses[0]));
    EXPECT_LT(e.completed.losses[0], 2 * std::log(22.0))
        << "step 1 starts from the initial weights";
  }
  // The weights are those after step 1 exactly: a fresh session trained one step saves the same.
  EXPECT_EQ(s.step(), 1);
  Seq2SeqSession reference(note_at(1e6));
  reference.train(1);
  EXPECT_EQ(s.save(), reference.save());
  const TranslateResult t = s.translate("咖哥 喜欢 小冰");
  EXPECT_FALSE(t.greedy.steps.empty());
}

TEST(BadInput, AValidationErrorDuringTrainingKeepsItsOwnMessage) {
  SessionConfig c = note_at(1e-3);
  c.hidden = 8;
  c.batch_size = 2;
  Seq2SeqSession s(c, std::make_unique<OutOfVocabularyTask>());
  expect_own_error_not_divergence(s, "batch.src id 99 at (0, 0) is outside the source vocabulary");
}

TEST(BadInput, ALargeButSoundLearningRateIsNotCalledDivergence) {
  // lr 1 makes the note task's loss spike far above a uniform guess's (ln V) on the way, which a
  // check of the loss's size alone would call divergence. Which pairs the model gets right at a
  // given step is chaotic at this rate (a last-bit change in Adam moves it), so only the run's
  // completion, its spike and its finite losses are asserted.
  Seq2SeqSession s(note_at(1.0));
  const TrainResult r = s.train(100);
  EXPECT_EQ(r.step, 100);
  ASSERT_EQ(r.losses.size(), 100u);
  float highest = 0.0f;
  for (float loss : r.losses) {
    ASSERT_TRUE(std::isfinite(loss));
    highest = std::max(highest, loss);
  }
  EXPECT_GT(highest, 10.0f * std::log(22.0f))
      << "the run no longer spikes: the test lost its point";
  EXPECT_FALSE(s.translate("咖哥 喜欢 小冰").greedy.steps.empty());
}

AttentionInputs ones_inputs() {
  AttentionInputs in;
  in.query = Tensor({1, 2, 4}, 1.0f);
  in.key = Tensor({1, 3, 4}, 1.0f);
  in.value = Tensor({1, 3, 4}, 1.0f);
  return in;
}

TEST(BadInput, KeyPaddingMustBeZeroOrOne) {
  for (float bad : {0.5f, -1.0f, 2.0f}) {
    AttentionConfig cfg;
    cfg.mask.key_padding = Tensor({1, 3}, std::vector<float>{0, bad, 0});
    EXPECT_INPUT_ERROR(attention_forward(ones_inputs(), cfg),
                       "mask.keyPadding must hold only 0 (attend) and 1 (ignore)");
    EXPECT_INPUT_ERROR(attention_forward(ones_inputs(), cfg), "at flat index 1");
  }
  AttentionConfig cfg;
  cfg.mask.key_padding = Tensor({1, 3}, std::vector<float>{0, 1, 0});
  const AttentionForward f = attention_forward(ones_inputs(), cfg);
  EXPECT_FLOAT_EQ(f.weights.data[0], 0.5f);
  EXPECT_FLOAT_EQ(f.weights.data[1], 0.0f);
  EXPECT_FLOAT_EQ(f.weights.data[2], 0.5f);
}

// §3.1's attention, §3.5's self-attention and §3.6's multi-head refuse a query with every key
// masked in the same words (one check, attention.h's build_keep), before any weight is computed.
TEST(BadInput, EveryKeyMaskedIsRefusedByEachAttention) {
  AttentionMask mask;
  mask.causal = true;
  mask.key_padding = Tensor({2, 3}, std::vector<float>{0, 0, 0, 1, 0, 0});
  const char* refusal = "query 0 of batch 1 has every key masked";
  AttentionInputs in;
  in.query = in.key = in.value = Tensor({2, 3, 4}, 1.0f);
  AttentionConfig cfg;
  cfg.mask = mask;
  EXPECT_INPUT_ERROR(attention_forward(in, cfg), refusal);
  ProjectionParams p;
  for (Tensor* w : {&p.wq, &p.wk, &p.wv, &p.wo}) *w = Tensor({4, 4}, 0.5f);
  for (Tensor* b : {&p.bq, &p.bk, &p.bv, &p.bo}) *b = Tensor({4}, 0.0f);
  EXPECT_INPUT_ERROR(self_attention_forward(in.query, p, mask), refusal);
  EXPECT_INPUT_ERROR(multi_head_forward(in.query, p, 2, mask), refusal);
  // Without the causal mask query 0 of batch 1 sees keys 1 and 2, and key 0 (padding) gets 0:
  // weights (B·H, N, M), batch 1 head 0 first.
  mask.causal = false;
  EXPECT_EQ(multi_head_forward(in.query, p, 2, mask).attn.weights.data[(1 * 2 + 0) * 9 + 0], 0.0f);
}

std::vector<std::string> words(const std::string& text, Tokenizer kind = Tokenizer::kWords) {
  std::vector<std::string> out;
  for (std::string_view t : tokenize(text, kind)) out.emplace_back(t);
  return out;
}

TEST(BadInput, UnicodeWhitespaceSeparatesWords) {
  using V = std::vector<std::string>;
  EXPECT_EQ(words("咖哥\u3000喜欢\u3000小冰"), (V{"咖哥", "喜欢", "小冰"}));
  EXPECT_EQ(words("\u00a0a\u2003b\u202fc\u205fd\u1680e\u2028f\u0085g "),
            (V{"a", "b", "c", "d", "e", "f", "g"}));
  EXPECT_EQ(words("\u3000 \u00a0\t"), V{});
  EXPECT_EQ(words("\u3000Jan 1\u3000", Tokenizer::kChars), (V{"J", "a", "n", " ", "1"}));
  // Characters that merely share bytes with the spaces stay whole: U+2010 (E2 80 90), U+3001 (、).
  EXPECT_EQ(words("a\u2010b\u3001c"), V{"a\u2010b\u3001c"});

  Seq2SeqSession s(note_at(1e-3));
  EXPECT_INPUT_ERROR(s.translate("\u3000\u3000"), "sentence is empty");
  const TranslateResult t = s.translate("咖哥\u3000喜欢\u3000小冰");
  ASSERT_EQ(t.source.size(), 3u);
  for (const SourceToken& token : t.source) EXPECT_FALSE(token.unknown) << token.text;
}

TEST(BadInput, VocabularyTokensMayNotHoldUnicodeWhitespace) {
  EXPECT_INPUT_ERROR(Vocab::build(Tokenizer::kWords, {"a\u3000b"}),
                     "contains whitespace, which the words tokenizer splits on");
}

// A saved note session whose header has `edit` applied, rewritten with a valid checksum.
template <class Edit>
std::vector<uint8_t> edited_note_file(Edit edit) {
  const std::vector<uint8_t> bytes = Seq2SeqSession(note_at(1e-3)).save();
  ModelFileContents file = read_model_file(bytes.data(), bytes.size());
  edit(file.header);
  return write_model_file(file.header, file.arrays);
}

TEST(BadInput, SessionFileFieldsMustHaveTheirJsonType) {
  auto load = [](const std::vector<uint8_t>& b) {
    return Seq2SeqSession::load(b.data(), b.size());
  };
  // Unchanged, it loads: the edits below are what is refused.
  EXPECT_EQ(load(edited_note_file([](nlohmann::json&) {})).step(), 0);
  EXPECT_INPUT_ERROR(
      load(edited_note_file([](nlohmann::json& h) { h["config"]["hidden"] = 32.5; })),
      "model file header field 'config.hidden' must be a whole number");
  EXPECT_INPUT_ERROR(
      load(edited_note_file(
          [](nlohmann::json& h) { h["config"]["hidden"] = 18446744073709551615ULL; })),
      "model file header field 'config.hidden' must be a whole number within the range of long");
  EXPECT_INPUT_ERROR(load(edited_note_file([](nlohmann::json& h) { h["config"]["seed"] = -1; })),
                     "model file header field 'config.seed' must be a whole number >= 0 (got -1)");
  EXPECT_INPUT_ERROR(
      load(edited_note_file([](nlohmann::json& h) { h["training"]["learningRate"] = "0.1"; })),
      "model file header field 'training.learningRate' must be a number (got \"0.1\")");
  EXPECT_INPUT_ERROR(
      load(edited_note_file([](nlohmann::json& h) { h["config"]["attention"] = 1; })),
      "model file header field 'config.attention' must be true or false (got 1)");
  EXPECT_INPUT_ERROR(
      load(edited_note_file([](nlohmann::json& h) { h["training"].erase("adamStep"); })),
      "model file header has no 'training.adamStep'");
  EXPECT_INPUT_ERROR(
      load(edited_note_file([](nlohmann::json& h) { h["training"]["adamStep"] = -3; })),
      "training.adamStep must be >= 0");
  EXPECT_INPUT_ERROR(load(edited_note_file([](nlohmann::json& h) { h.erase("training"); })),
                     "model file header needs both 'config' and 'training'");
}

}  // namespace
}  // namespace lab
