// The zh-en grammar task (task_grammar.h) and the alignment accuracy of evaluate() (alignment.h).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "rnn/session.h"
#include "sequence/alignment.h"
#include "sequence/task_grammar.h"
#include "sequence/tasks.h"
#include "sequence/vocab.h"

namespace lab {
namespace {

TaskOptions grammar_options(uint64_t seed, long held_out = 0, long train = 0) {
  TaskOptions o;
  o.seed = seed;
  o.held_out = held_out;
  o.train = train;
  return o;
}

bool is_function_word(const std::string& word) {
  return word == "the" || word == "a" || word == "in";
}

// Every check an example of the grammar must pass; `where` names it in failures.
void expect_consistent(const Example& e, const Task& task, const std::string& where) {
  SCOPED_TRACE(where + ": " + e.source + " => " + e.target);
  const long words = static_cast<long>(e.source_ids.size());
  EXPECT_GE(words, kGrammarMinWords);
  EXPECT_LE(words, kGrammarMaxWords);
  ASSERT_EQ(e.alignment.size(), e.target_ids.size());
  for (int32_t id : e.source_ids) EXPECT_NE(id, kUnkId);
  for (int32_t id : e.target_ids) EXPECT_NE(id, kUnkId);
  std::set<int32_t> covered;
  for (size_t t = 0; t < e.alignment.size(); ++t) {
    const std::string& word = task.target_vocab().token(e.target_ids[t]);
    // Content words have an alignment; "a" and "in" never do ("the" does inside "the day before
    // yesterday", which 前天 translates as a whole).
    if (!is_function_word(word)) EXPECT_FALSE(e.alignment[t].empty()) << word;
    if (word == "a" || word == "in") EXPECT_TRUE(e.alignment[t].empty()) << word;
    for (int32_t s : e.alignment[t]) {
      EXPECT_GE(s, 0);
      EXPECT_LT(s, words);
      covered.insert(s);
    }
  }
  // The source words nobody translates are the particles 的 在 了 一 and the classifiers.
  const std::set<std::string> untranslated = {"的", "在", "了", "一", "只",
                                              "个", "位", "本", "朵", "辆"};
  for (long s = 0; s < words; ++s) {
    const std::string& word = task.source_vocab().token(e.source_ids[static_cast<size_t>(s)]);
    if (covered.count(static_cast<int32_t>(s)) == 0) EXPECT_TRUE(untranslated.count(word)) << word;
  }
}

TEST(GrammarTask, IsDeterministicFromTheSeed) {
  const auto a = make_task("zh-en", grammar_options(7, 50, 100));
  const auto b = make_task("zh-en", grammar_options(7, 50, 100));
  const auto c = make_task("zh-en", grammar_options(8, 50, 100));
  ASSERT_EQ(a->held_out().size(), 50u);
  long differ = 0;
  for (size_t i = 0; i < 50; ++i) {
    EXPECT_EQ(a->held_out()[i].source, b->held_out()[i].source);
    EXPECT_EQ(a->held_out()[i].target, b->held_out()[i].target);
    EXPECT_EQ(a->held_out()[i].alignment, b->held_out()[i].alignment);
    differ += a->held_out()[i].source != c->held_out()[i].source;
  }
  EXPECT_GT(differ, 40);
  // The vocabularies come from the lexicon, not the draw: the same for every seed.
  EXPECT_EQ(a->source_vocab().tokens(), c->source_vocab().tokens());
  EXPECT_EQ(a->target_vocab().tokens(), c->target_vocab().tokens());
  Rng ra(3), rb(3);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(a->sample_train(ra).source, b->sample_train(rb).source);
}

TEST(GrammarTask, AlignmentsAreConsistent) {
  const auto task = make_task("zh-en", {});
  EXPECT_EQ(task->name(), "zh-en");
  ASSERT_EQ(task->held_out().size(), 500u);
  EXPECT_EQ(task->train_size(), 5000);
  EXPECT_FALSE(task->held_out_is_training_data());
  for (size_t i = 0; i < task->held_out().size(); ++i) {
    expect_consistent(task->held_out()[i], *task, "held-out " + std::to_string(i));
  }
  Rng rng(1);
  for (int i = 0; i < 500; ++i) expect_consistent(task->sample_train(rng), *task, "train");
  EXPECT_LE(task->max_source_tokens(), kGrammarMaxWords);
}

TEST(GrammarTask, FirstSentenceOfSeedOneIsTheSameOnEveryPlatform) {
  // tests/wasm/grammar.test.mjs asserts the same sentence from the wasm build.
  const auto task = make_task("zh-en", {});
  const Example& e = task->held_out()[0];
  EXPECT_EQ(e.source, "昨天 漂亮 的 孩子 在 花园 找到 了 我们 的 小 老师");
  EXPECT_EQ(e.target, "the beautiful child found our small teacher in the garden yesterday");
  EXPECT_EQ(e.alignment, (std::vector<std::vector<int32_t>>{
                             {}, {1, 2}, {3}, {6, 7}, {8, 9}, {10}, {11}, {}, {}, {5}, {0}}));
}

TEST(GrammarTask, HandWrittenSentenceHasTheExpectedAlignment) {
  // Find a sentence with a time word in front and a place phrase, and check the reordering.
  const auto task = make_task("zh-en", {});
  bool found = false;
  for (const Example& e : task->held_out()) {
    if (e.source.rfind("昨天 ", 0) != 0 || e.target.find(" yesterday") == std::string::npos)
      continue;
    // 昨天 is source word 0 and "yesterday" the last target word.
    EXPECT_EQ(e.alignment.back(), std::vector<int32_t>{0}) << e.source;
    found = true;
  }
  EXPECT_TRUE(found);
}

TEST(GrammarTask, HeldOutSentencesAreNotTrainedOn) {
  const auto task = make_task("zh-en", grammar_options(1, 200, 300));
  std::set<std::string> held_out, train;
  for (const Example& e : task->held_out()) held_out.insert(e.source);
  EXPECT_EQ(held_out.size(), 200u);  // distinct
  Rng rng(5);
  for (int i = 0; i < 5000; ++i) train.insert(task->sample_train(rng).source);
  EXPECT_EQ(train.size(), 300u);  // 5000 draws see every one of the 300 distinct sentences
  for (const std::string& s : train) EXPECT_EQ(held_out.count(s), 0u) << s;
}

TEST(GrammarTask, LengthsSpreadOverTheBuckets) {
  const auto task = make_task("zh-en", {});
  ASSERT_EQ(task->length_buckets().size(), 4u);
  EXPECT_EQ(task->length_buckets().front().min_words, kGrammarMinWords);
  EXPECT_EQ(task->length_buckets().back().max_words, kGrammarMaxWords);
  for (const LengthBucket& bucket : task->length_buckets()) {
    long count = 0;
    for (const Example& e : task->held_out()) {
      const long words = static_cast<long>(e.source_ids.size());
      count += words >= bucket.min_words && words <= bucket.max_words;
    }
    EXPECT_GE(count, 30) << bucket.min_words << "-" << bucket.max_words;
  }
}

TEST(Alignment, CountsArgmaxOnAnAlignedWordOverContentWordsOnly) {
  // 3 target tokens + <eos>, source of 3 words padded to S = 4. Row t is target t's attention.
  const std::vector<float> attention = {
      0.1f, 0.7f, 0.2f, 0.0f,  // t0 → argmax 1, aligned {1}: hit
      0.5f, 0.1f, 0.4f, 0.0f,  // t1 → argmax 0, a function word: not scored
      0.2f, 0.3f, 0.1f, 0.9f,  // t2 → argmax 1 among the 3 real words (the pad column ignored),
                               //      aligned {0, 2}: miss
      0.0f, 0.0f, 1.0f, 0.0f,  // <eos>: past the alignment, never read
  };
  const std::vector<std::vector<int32_t>> alignment = {{1}, {}, {0, 2}};
  const AlignmentCount c = count_alignment(attention.data(), 4, 3, alignment);
  EXPECT_EQ(c.scored, 2);
  EXPECT_EQ(c.hits, 1);
  // A tie goes to the first maximum: uniform attention hits only alignments containing word 0.
  const std::vector<float> uniform(12, 1.0f / 3);
  const AlignmentCount u = count_alignment(uniform.data(), 3, 3, {{0}, {2}, {1, 0}});
  EXPECT_EQ(u.scored, 3);
  EXPECT_EQ(u.hits, 2);
  EXPECT_EQ(count_alignment(uniform.data(), 3, 3, {}).scored, 0);
}

TEST(Alignment, EqualWidthBucketsCoverTheLengths) {
  std::vector<Example> examples(3);
  examples[0].source_ids.assign(5, 4);
  examples[1].source_ids.assign(12, 4);
  examples[2].source_ids.assign(60, 4);
  const auto buckets = equal_width_buckets(examples, 2);  // only the first two: 5 … 12
  ASSERT_EQ(buckets.size(), 4u);
  EXPECT_EQ(buckets.front().min_words, 5);
  EXPECT_EQ(buckets.back().max_words, 12);
  for (size_t k = 1; k < buckets.size(); ++k) {
    EXPECT_EQ(buckets[k].min_words, buckets[k - 1].max_words + 1);
  }
  const auto one = equal_width_buckets(examples, 1);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].min_words, 5);
  EXPECT_EQ(one[0].max_words, 5);
}

TEST(Alignment, OtherTasksAlignTheirTargets) {
  TaskOptions o;
  o.min_len = 4;
  o.max_len = 6;
  o.held_out = 5;
  o.train = 10;
  const auto reverse = make_task("reverse", o);
  for (const Example& e : reverse->held_out()) {
    const long n = static_cast<long>(e.source_ids.size());
    ASSERT_EQ(static_cast<long>(e.alignment.size()), n);
    for (long i = 0; i < n; ++i) {
      EXPECT_EQ(e.alignment[static_cast<size_t>(i)],
                std::vector<int32_t>{static_cast<int32_t>(n - 1 - i)});
      EXPECT_EQ(e.target_ids[static_cast<size_t>(i)], e.source_ids[static_cast<size_t>(n - 1 - i)]);
    }
  }
  const auto note = make_task("note");
  const Example& first = note->held_out()[0];  // 咖哥 喜欢 小冰 → KaGe likes XiaoBing
  EXPECT_EQ(first.alignment, (std::vector<std::vector<int32_t>>{{0}, {1}, {2}}));
  for (const Example& e : note->held_out()) EXPECT_EQ(e.alignment.size(), e.target_ids.size());
  EXPECT_TRUE(make_task("dates", o)->held_out()[0].alignment.empty());
}

SessionConfig small_grammar_config(bool attention) {
  SessionConfig c;
  c.task = "zh-en";
  c.task_options = grammar_options(1, 200, 0);
  c.cell = CellKind::kGru;
  c.hidden = 32;
  c.attention = attention;
  c.batch_size = 32;
  c.learning_rate = 0.01;
  return c;
}

TEST(GrammarTraining, AttentionLinesUpTheWordsAndPlainHasNoAlignment) {
  Seq2SeqSession before(small_grammar_config(true));
  const EvalResult untrained = before.evaluate();
  ASSERT_TRUE(untrained.alignment_accuracy.has_value());
  EXPECT_GT(untrained.aligned_tokens, 500);

  Seq2SeqSession session(small_grammar_config(true));
  session.train(300);
  const EvalResult r = session.evaluate();
  ASSERT_TRUE(r.alignment_accuracy.has_value());
  EXPECT_EQ(r.aligned_tokens, untrained.aligned_tokens);
  // Chance is about one source word in eight; the trained model lines nearly all words up.
  EXPECT_LT(*untrained.alignment_accuracy, 0.4);
  EXPECT_GT(*r.alignment_accuracy, 0.6);
  EXPECT_GT(r.exact_match, 0.5);

  ASSERT_EQ(r.exact_match_by_length.size(), 4u);
  long examples = 0;
  double matched = 0;
  for (const LengthBucketResult& b : r.exact_match_by_length) {
    examples += b.examples;
    matched += b.exact_match * static_cast<double>(b.examples);
  }
  EXPECT_EQ(examples, r.examples);
  EXPECT_NEAR(matched / static_cast<double>(examples), r.exact_match, 1e-9);

  Seq2SeqSession plain(small_grammar_config(false));
  plain.train(20);
  const EvalResult p = plain.evaluate();
  EXPECT_FALSE(p.alignment_accuracy.has_value());
  EXPECT_EQ(p.aligned_tokens, 0);
  EXPECT_EQ(p.exact_match_by_length.size(), 4u);
}

TEST(GrammarTraining, TranslatesAHeldOutSentence) {
  Seq2SeqSession session(small_grammar_config(true));
  session.train(300);
  long right = 0;
  for (int i = 0; i < 10; ++i) {
    const Example& e = session.task().held_out()[static_cast<size_t>(i)];
    right += session.translate(e.source).text == e.target;
  }
  EXPECT_GE(right, 5);
}

}  // namespace
}  // namespace lab
