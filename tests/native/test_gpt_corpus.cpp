// The GPT's character-level corpus: text → characters → ids and back, invalid UTF-8 and unknown
// characters named, nanoGPT-style training windows; and, on the Tang poems extracted by
// scripts/poems.mjs (build/poems/tang300.txt), a small GPT that learns: 150 AdamW steps cut the
// loss from about ln V, and greedy generation decodes to text of the corpus's characters.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>

#include "expect_input_error.h"
#include "gpt/corpus.h"
#include "gpt/generate.h"
#include "test_gpt_util.h"

namespace {

TEST(GptCorpus, CharactersInCodePointOrderRoundTrip) {
  const std::string text = "ba\n春风a。";
  const lab::CharVocab v = lab::CharVocab::from_text(text);
  EXPECT_EQ(v.chars(), (std::vector<std::string>{"\n", "a", "b", "。", "春", "风"}));
  const std::vector<int32_t> ids = v.encode(text);
  EXPECT_EQ(ids, (std::vector<int32_t>{2, 1, 0, 4, 5, 1, 3}));
  EXPECT_EQ(v.decode(ids), text);
  EXPECT_INPUT_ERROR(v.encode("ab秋"), "character 2 (\"秋\") is not in the vocabulary");
  EXPECT_INPUT_ERROR(v.decode({6}), "id 6 is outside the vocabulary [0, 6)");
  EXPECT_INPUT_ERROR(lab::CharVocab::from_text("ab\xe6\x98"), "not valid UTF-8 at byte 2");
  EXPECT_INPUT_ERROR(lab::CharVocab::from_text("a\xc0\xafz"), "not valid UTF-8 at byte 1");
  EXPECT_INPUT_ERROR(lab::CharVocab::from_text("aaa"), "1 distinct characters");
}

TEST(GptCorpus, WindowsAreNextTokenPairs) {
  std::vector<int32_t> ids;
  for (int i = 0; i < 50; ++i) ids.push_back(i);
  lab::Rng rng(3);
  const lab::GptBatch b = lab::sample_windows(ids, 4, 8, rng);
  ASSERT_EQ(b.idx.size(), 32u);
  for (long r = 0; r < 4; ++r) {
    for (long t = 0; t < 8; ++t) {
      EXPECT_EQ(b.targets[r * 8 + t], b.idx[r * 8 + t] + 1);
      if (t > 0) EXPECT_EQ(b.idx[r * 8 + t], b.idx[r * 8 + t - 1] + 1);
    }
  }
  EXPECT_INPUT_ERROR(lab::sample_windows(std::vector<int32_t>(8, 0), 1, 8, rng),
                     "windows of 8 positions need at least 9");
}

TEST(GptCorpus, ASmallGptLearnsTheTangPoems) {
  std::ifstream f(std::string(LAB_POEMS_DIR) + "/tang300.txt");
  if (!f) GTEST_SKIP() << "build/poems/tang300.txt is missing: run npm run build:poems";
  const std::string text{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  const lab::CharVocab vocab = lab::CharVocab::from_text(text);
  const std::vector<int32_t> ids = vocab.encode(text);
  EXPECT_GT(vocab.size(), 2000);
  lab::GptConfig c;
  c.vocab = vocab.size();
  c.block_size = 32;
  c.layers = 2;
  c.heads = 2;
  c.d_model = 32;
  c.seed = 1;
  lab::GptModel model(c);
  lab::Rng rng(2);
  lab::AdamOptions o;
  o.lr = 3e-3f;
  o.weight_decay = 0.1f;
  o.decoupled = true;
  float first = 0.0f, last = 0.0f;
  for (int step = 0; step < 150; ++step) {
    const float loss = model.forward_backward(lab::sample_windows(ids, 8, 32, rng));
    if (step == 0) first = loss;
    last = loss;
    model.adam_step(o);
  }
  EXPECT_NEAR(first, std::log(static_cast<double>(vocab.size())), 0.2);
  EXPECT_LT(last, first - 1.5) << "from " << first;
  lab::GenerateOptions g;
  g.sampling.greedy = true;
  g.max_new_tokens = 20;
  const std::string out = vocab.decode(lab::generate(model, vocab.encode("《"), g).ids);
  EXPECT_EQ(out.rfind("《", 0), 0u);
  std::string shown;  // the line breaks as ⏎, to keep the record on one line
  for (char ch : out) shown += ch == '\n' ? std::string("⏎") : std::string(1, ch);
  std::printf("[ gpt tang300 ] V %ld, loss %.3f -> %.3f after 150 steps; greedy: %s\n",
              vocab.size(), first, last, shown.c_str());
}

}  // namespace
