// Seq2SeqSession::source_vocabulary / target_vocabulary: the tokens a front end offers as
// clickable words. Checked against the note's corpus as the note's §3.3 code prints it
// (words in order of first appearance) and, for every task, against translate()'s own ids.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rnn/session.h"
#include "sequence/vocab.h"

namespace lab {
namespace {

SessionConfig config_for(const std::string& task) {
  SessionConfig c;
  c.task = task;
  c.hidden = 8;
  if (task == "reverse") {
    c.task_options.train = 20;
    c.task_options.held_out = 5;
    c.task_options.max_len = 8;
    c.task_options.symbols = 5;
  }
  return c;
}

TEST(Seq2SeqVocabulary, NoteTaskListsTheCorpusWordsInOrderOfFirstAppearance) {
  const Seq2SeqSession s(config_for("note"));
  const std::vector<std::string> source = {
      "咖哥", "喜欢", "小冰", "我",   "爱", "学习", "人工智能", "深度学习", "改变",
      "世界", "自然", "语言", "处理", "很", "强大", "神经网络", "非常",     "复杂"};
  EXPECT_EQ(s.source_vocabulary(), source);
  const std::vector<std::string> target = {
      "KaGe", "likes", "XiaoBing", "I",  "love", "studying", "AI",          "DL",  "changed",
      "the",  "world", "NLP",      "is", "so",   "powerful", "Neural-Nets", "are", "complex"};
  EXPECT_EQ(s.target_vocabulary(), target);
}

TEST(Seq2SeqVocabulary, EveryListedTokenIsKnownToTranslateWithIdIndexPlusFour) {
  for (const std::string task : {"note", "dates", "reverse"}) {
    SCOPED_TRACE(task);
    Seq2SeqSession s(config_for(task));
    const std::vector<std::string> vocab = s.source_vocabulary();
    EXPECT_EQ(static_cast<long>(vocab.size()) + kNumReservedTokens, s.task().source_vocab().size());
    EXPECT_EQ(static_cast<long>(s.target_vocabulary().size()) + kNumReservedTokens,
              s.task().target_vocab().size());
    ASSERT_FALSE(vocab.empty());
    for (size_t i = 0; i < vocab.size(); ++i) {
      for (const char* reserved : kReservedTokens) EXPECT_NE(vocab[i], reserved);
      // The dates task has a space token, which cannot be typed on its own (it is trimmed).
      if (vocab[i] == " ") continue;
      TranslateOptions one;
      one.max_length = 1;
      const TranslateResult r = s.translate(vocab[i], one);
      ASSERT_EQ(r.source.size(), 1u) << vocab[i];
      EXPECT_FALSE(r.source[0].unknown) << vocab[i];
      EXPECT_EQ(r.source[0].id, static_cast<int32_t>(i) + kNumReservedTokens) << vocab[i];
    }
  }
}

}  // namespace
}  // namespace lab
