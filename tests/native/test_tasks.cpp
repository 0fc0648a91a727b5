// The Seq2Seq tasks (sequence/tasks.h): options, batches, the note's pairs, reverse and copy, and
// the same data for the same seed. The dates task's own checks: test_task_dates.cpp.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "expect_input_error.h"
#include "sequence/tasks.h"
#include "sequence/vocab.h"
#include "tensor.h"

namespace lab {
namespace {

TEST(TaskTest, UnknownTaskNamesTheChoices) {
  EXPECT_INPUT_ERROR(make_task("x"),
                     "unknown task 'x' (expected note, zh-en, dates, reverse, copy, pairs)");
}

TEST(TaskTest, MakeBatchPadsAndShiftsTargets) {
  Example a{"", "", {7, 8, 9}, {4, 5}};
  Example b{"", "", {6}, {4, 5, 6, 7}};
  Batch batch = make_batch({a, b});
  EXPECT_EQ(batch.B, 2);
  EXPECT_EQ(batch.S, 3);
  EXPECT_EQ(batch.T, 5);
  EXPECT_EQ(batch.src, (std::vector<int32_t>{7, 8, 9, 6, 0, 0}));
  EXPECT_EQ(batch.src_len, (std::vector<int32_t>{3, 1}));
  EXPECT_EQ(batch.tgt_in, (std::vector<int32_t>{1, 4, 5, 0, 0, 1, 4, 5, 6, 7}));
  EXPECT_EQ(batch.tgt_out, (std::vector<int32_t>{4, 5, 2, 0, 0, 4, 5, 6, 7, 2}));
  EXPECT_INPUT_ERROR(make_batch({}), "at least one example");
  EXPECT_INPUT_ERROR(make_batch({Example{"", "", {}, {4}}}), "empty source");
}

TEST(TaskTest, OptionLimitsAreChecked) {
  auto with = [](auto change) {
    TaskOptions options;
    change(options);
    return options;
  };
  EXPECT_INPUT_ERROR(make_task("reverse", with([](TaskOptions& o) { o.min_len = 0; })),
                     "option min_len must be in [1, 64] (got 0)");
  EXPECT_INPUT_ERROR(make_task("reverse", with([](TaskOptions& o) { o.max_len = 65; })),
                     "option max_len must be in [1, 64] (got 65)");
  EXPECT_INPUT_ERROR(make_task("copy", with([](TaskOptions& o) { o.min_len = 9, o.max_len = 8; })),
                     "option max_len (8) is less than min_len (9)");
  EXPECT_INPUT_ERROR(make_task("reverse", with([](TaskOptions& o) { o.symbols = 27; })),
                     "option symbols must be in [2, 26] (got 27)");
  EXPECT_INPUT_ERROR(make_task("dates", with([](TaskOptions& o) { o.held_out = 20000; })),
                     "option held_out must be in [1, 10000] (got 20000)");
  EXPECT_INPUT_ERROR(make_task("reverse", with([](TaskOptions& o) { o.train = -3; })),
                     "option train must be in [1, 20000] (got -3)");
  EXPECT_INPUT_ERROR(make_task("reverse", with([](TaskOptions& o) {
                                 o.symbols = 2, o.min_len = 1, o.max_len = 2, o.held_out = 4;
                               })),
                     "held_out 4 needs at least 8 distinct strings, but lengths 1–2 over 2 "
                     "symbols give only 6");
  auto task = make_task("note");
  Rng rng(1);
  EXPECT_INPUT_ERROR(task->sample_batch(rng, 0), "option batch_size must be in [1, 1024] (got 0)");
  EXPECT_INPUT_ERROR(task->sample_batch(rng, 1025),
                     "option batch_size must be in [1, 1024] (got 1025)");
}

TEST(TaskTest, OptionsFromJson) {
  using nlohmann::json;
  TaskOptions options = task_options_from_json(json{{"seed", 42}, {"min_len", 3}, {"max_len", 9}});
  EXPECT_EQ(options.seed, 42u);
  EXPECT_EQ(options.min_len, 3);
  EXPECT_EQ(options.max_len, 9);
  EXPECT_EQ(options.symbols, 20);
  TaskOptions back = task_options_from_json(task_options_to_json(options));
  EXPECT_EQ(task_options_to_json(back), task_options_to_json(options));
  EXPECT_INPUT_ERROR(task_options_from_json(json{{"colour", 1}}),
                     "unknown task option 'colour' (expected seed, held_out, train, min_len, "
                     "max_len, symbols, pairs, tokenize, held_out_fraction)");
  EXPECT_INPUT_ERROR(task_options_from_json(json{{"min_len", 2.5}}), "must be an integer");
  EXPECT_INPUT_ERROR(task_options_from_json(json{{"seed", -1}}), "seed must be an integer >= 0");
  EXPECT_INPUT_ERROR(task_options_from_json(json{{"max_len", 1e300}}), "must be an integer");
  EXPECT_INPUT_ERROR(task_options_from_json(json{{"max_len", 18446744073709551615ULL}}),
                     "must be in [1, 64]");
  EXPECT_INPUT_ERROR(task_options_from_json(json{{"held_out", -9223372036854775807LL}}),
                     "must be in [1, 10000]");
  EXPECT_INPUT_ERROR(task_options_from_json(json::array()), "must be a JSON object");
}

// ---------------------------------------------------------------------------------------------
// note

TEST(TaskTest, NoteHasTheBooksFivePairs) {
  auto task = make_task("note");
  EXPECT_EQ(task->name(), "note");
  EXPECT_EQ(task->tokenizer(), Tokenizer::kWords);
  EXPECT_EQ(task->train_size(), 5);
  ASSERT_EQ(task->held_out().size(), 5u);
  EXPECT_TRUE(task->held_out_is_training_data());
  const Example& first = task->held_out()[0];
  EXPECT_EQ(first.source, "咖哥 喜欢 小冰");
  EXPECT_EQ(first.target, "KaGe likes XiaoBing");
  EXPECT_EQ(first.source_ids, (std::vector<int32_t>{4, 5, 6}));
  EXPECT_EQ(task->target_vocab().decode(first.target_ids),
            (std::vector<std::string>{"KaGe", "likes", "XiaoBing"}));
  EXPECT_EQ(task->held_out()[4].target, "Neural-Nets are complex");
  // 3 + 4 + 3 + 5 + 3 distinct source words, 3 + 4 + 4 + 4 + 3 target words ("the" once).
  EXPECT_EQ(task->source_vocab().size(), 4 + 18);
  EXPECT_EQ(task->target_vocab().size(), 4 + 18);
  EXPECT_EQ(task->max_source_tokens(), 5);
  EXPECT_EQ(task->max_target_tokens(), 4);

  Rng rng(3);
  Batch batch = task->sample_batch(rng, 1);
  EXPECT_EQ(batch.tgt_in[0], kSosId);
  EXPECT_EQ(batch.tgt_out[static_cast<size_t>(batch.T - 1)], kEosId);
  EXPECT_INPUT_ERROR(task->eval_at_length(5, 10, 1), "task 'note' has no length knob");
}

TEST(TaskTest, SameSeedSameData) {
  for (const char* name : {"dates", "reverse", "copy"}) {
    TaskOptions options;
    options.seed = 77;
    auto a = make_task(name, options);
    auto b = make_task(name, options);
    ASSERT_EQ(a->held_out().size(), b->held_out().size());
    for (size_t i = 0; i < a->held_out().size(); ++i) {
      ASSERT_EQ(a->held_out()[i].source, b->held_out()[i].source) << name;
      ASSERT_EQ(a->held_out()[i].source_ids, b->held_out()[i].source_ids) << name;
    }
    Rng rng_a(9), rng_b(9);
    Batch batch_a = a->sample_batch(rng_a, 64), batch_b = b->sample_batch(rng_b, 64);
    EXPECT_EQ(batch_a.src, batch_b.src) << name;
    EXPECT_EQ(batch_a.tgt_out, batch_b.tgt_out) << name;
    options.seed = 78;
    auto c = make_task(name, options);
    EXPECT_NE(a->held_out()[0].source + a->held_out()[1].source,
              c->held_out()[0].source + c->held_out()[1].source)
        << name;
  }
  // Pinned values: if these change, every seed saved in a URL or a model file means other data.
  auto dates = make_task("dates");
  EXPECT_EQ(dates->held_out()[0].source, "14May2006");
  EXPECT_EQ(dates->held_out()[1].source, "05/12/87");
  EXPECT_EQ(make_task("reverse")->held_out()[0].source, "tkpbifnakrkecq");
}

// ---------------------------------------------------------------------------------------------
// reverse and copy

TEST(TaskTest, ReverseAndCopyTargets) {
  TaskOptions options;
  options.min_len = 3, options.max_len = 12, options.symbols = 5, options.train = 2000;
  auto reverse = make_task("reverse", options);
  auto copy = make_task("copy", options);
  EXPECT_EQ(reverse->source_vocab().size(), 4 + 5);
  EXPECT_EQ(reverse->train_size(), 2000);
  EXPECT_EQ(reverse->max_source_tokens(), 12);
  for (const Example& example : reverse->held_out()) {
    ASSERT_GE(example.source.size(), 3u);
    ASSERT_LE(example.source.size(), 12u);
    EXPECT_EQ(example.target, std::string(example.source.rbegin(), example.source.rend()));
    std::vector<int32_t> reversed(example.source_ids.rbegin(), example.source_ids.rend());
    EXPECT_EQ(example.target_ids, reversed);
    for (char c : example.source) EXPECT_TRUE(c >= 'a' && c <= 'e');
  }
  for (const Example& example : copy->held_out()) EXPECT_EQ(example.target, example.source);
  // Same seed, same strings: copy and reverse differ only in the target.
  EXPECT_EQ(copy->held_out()[0].source, reverse->held_out()[0].source);
}

TEST(TaskTest, ReverseTrainAndHeldOutAreDisjoint) {
  TaskOptions options;
  options.min_len = 1, options.max_len = 4, options.symbols = 3, options.held_out = 40;
  options.train = 3000;  // 120 possible strings: training must keep clear of the 40 held out
  auto task = make_task("reverse", options);
  std::set<std::string> held_out;
  for (const Example& example : task->held_out()) held_out.insert(example.source);
  EXPECT_EQ(held_out.size(), 40u);
  Rng rng(2);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_EQ(held_out.count(task->sample_train(rng).source), 0u);
  }
}

TEST(TaskTest, EvalAtFixedLength) {
  TaskOptions options;
  options.min_len = 5, options.max_len = 10, options.train = 1000;
  auto task = make_task("reverse", options);
  for (long length : {5L, 20L, 64L}) {
    std::vector<Example> eval = task->eval_at_length(length, 50, 123);
    ASSERT_EQ(eval.size(), 50u);
    for (const Example& example : eval) ASSERT_EQ(example.source_ids.size(), size_t(length));
    EXPECT_EQ(task->eval_at_length(length, 50, 123)[7].source, eval[7].source);  // seeded
  }
  EXPECT_INPUT_ERROR(task->eval_at_length(65, 10, 1), "option length must be in [1, 64] (got 65)");
  EXPECT_INPUT_ERROR(task->eval_at_length(5, 0, 1), "option count must be in [1, 10000] (got 0)");
  // Every string of length 1 over 2 symbols is in the training set: nothing fresh to draw.
  options.min_len = 1, options.max_len = 3, options.symbols = 2, options.held_out = 1;
  options.train = 500;
  auto small = make_task("copy", options);
  EXPECT_INPUT_ERROR(small->eval_at_length(1, 1, 1), "could not draw");
  EXPECT_INPUT_ERROR(make_task("dates")->eval_at_length(5, 1, 1), "no length knob");
}

TEST(TaskTest, DefaultReverseTaskBuildsQuicklyAndBatches) {
  auto task = make_task("reverse");
  EXPECT_EQ(task->train_size(), 10000);
  EXPECT_EQ(task->held_out().size(), 500u);
  Rng rng(1);
  Batch batch = task->sample_batch(rng, 32);
  EXPECT_EQ(batch.B, 32);
  EXPECT_LE(batch.S, 60);
  for (long b = 0; b < batch.B; ++b) {
    int32_t length = batch.src_len[static_cast<size_t>(b)];
    ASSERT_GE(length, 5);
    ASSERT_LE(length, 60);
    EXPECT_EQ(batch.tgt_out[static_cast<size_t>(b * batch.T + length)], kEosId);
  }
}

}  // namespace
}  // namespace lab
