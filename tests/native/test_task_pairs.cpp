// The pairs task (sequence/task_pairs.h): the shared cases of shared/reference/pairs-cases.json
// (the wasm suite runs the same list), the held-out split, the limits that need generated text,
// and pairs sessions of every architecture that train, evaluate, translate, save and load.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "case_runner.h"
#include "expect_input_error.h"
#include "rnn/session.h"
#include "sequence/task_pairs.h"
#include "sequence/tasks.h"
#include "session_util.h"
#include "transformer/session.h"

namespace lab {
namespace {

using nlohmann::json;

TaskOptions pairs_options(const std::string& text, Tokenizer kind = Tokenizer::kWords,
                          double held_out = 0.1, uint64_t seed = 1) {
  TaskOptions o;
  o.pairs = text;
  o.tokenize = kind;
  o.held_out_fraction = held_out;
  o.seed = seed;
  return o;
}

TaskOptions options_of(const json& c) {
  return pairs_options(c.at("text").get<std::string>(),
                       parse_tokenizer(c.value("tokenize", std::string("words"))),
                       c.value("heldOut", 0.1));
}

std::vector<std::string> user_tokens(const Vocab& v) {
  return {v.tokens().begin() + kNumReservedTokens, v.tokens().end()};
}

const json& cases() {
  static const json j = labtest::load_reference("pairs-cases.json");
  return j;
}

TEST(PairsTask, SharedErrorCasesNameTheProblem) {
  for (const json& c : cases().at("errors")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    EXPECT_INPUT_ERROR(make_task("pairs", options_of(c)), c.at("error").get<std::string>().c_str());
  }
}

TEST(PairsTask, SharedCasesGiveTheirPairsAndVocabularies) {
  for (const json& c : cases().at("ok")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    const std::unique_ptr<Task> task = make_task("pairs", options_of(c));
    EXPECT_EQ(task->name(), "pairs");
    EXPECT_EQ(task->train_size(), c.at("trainPairs").get<long>());
    const long held = c.at("heldOutPairs").get<long>();
    EXPECT_EQ(task->held_out_is_training_data(), held == 0);
    if (held > 0) EXPECT_EQ(static_cast<long>(task->held_out().size()), held);
    if (c.contains("sourceVocab")) {
      EXPECT_EQ(user_tokens(task->source_vocab()),
                c.at("sourceVocab").get<std::vector<std::string>>());
      EXPECT_EQ(user_tokens(task->target_vocab()),
                c.at("targetVocab").get<std::vector<std::string>>());
    }
    for (const json& t : c.value("translate", json::array())) {
      const std::string typed = t.at(0).get<std::string>();
      const Encoded e = task->source_vocab().encode(task->input_text(typed));
      EXPECT_EQ(task->source_vocab().decode(e.ids), t.at(1).get<std::vector<std::string>>());
    }
  }
}

std::string numbered_pairs(long n) {
  std::string text;
  for (long i = 0; i < n; ++i)
    text += "s" + std::to_string(i) + " x\tt" + std::to_string(i) + " y\n";
  return text;
}

std::set<std::string> sources(const std::vector<Example>& examples) {
  std::set<std::string> s;
  for (const Example& e : examples) s.insert(e.source);
  return s;
}

// Every training pair, drawn until each has appeared (the sampler is uniform over them).
std::set<std::string> training_sources(const Task& task) {
  Rng rng(5);
  std::set<std::string> s;
  for (long i = 0; i < 50 * task.train_size(); ++i) s.insert(task.sample_train(rng).source);
  return s;
}

TEST(PairsTask, HeldOutSplitIsDisjointCompleteAndSeeded) {
  const std::string text = numbered_pairs(40);
  const auto a = make_task("pairs", pairs_options(text, Tokenizer::kWords, 0.25, 1));
  ASSERT_EQ(a->held_out().size(), 10u);
  EXPECT_EQ(a->train_size(), 30);
  const std::set<std::string> held = sources(a->held_out());
  const std::set<std::string> train = training_sources(*a);
  EXPECT_EQ(train.size(), 30u);
  for (const std::string& s : held)
    EXPECT_EQ(train.count(s), 0u) << s << " is held out and trained on";
  EXPECT_EQ(held.size() + train.size(), 40u);
  // The same seed gives the same split; another seed another one.
  const auto again = make_task("pairs", pairs_options(text, Tokenizer::kWords, 0.25, 1));
  EXPECT_EQ(sources(again->held_out()), held);
  const auto other = make_task("pairs", pairs_options(text, Tokenizer::kWords, 0.25, 2));
  EXPECT_NE(sources(other->held_out()), held);
}

TEST(PairsTask, HeldOutWordsNeverTrainedOnAreUnknown) {
  // s<i> and t<i> each occur in one pair only, so a held-out pair's are <unk>; x and y are known.
  const auto task = make_task("pairs", pairs_options(numbered_pairs(20), Tokenizer::kWords, 0.1));
  ASSERT_EQ(task->held_out().size(), 2u);
  for (const Example& e : task->held_out()) {
    EXPECT_EQ(e.source_ids[0], kUnkId) << e.source;
    EXPECT_NE(e.source_ids[1], kUnkId);
    EXPECT_EQ(e.target_ids[0], kUnkId) << e.target;
  }
  EXPECT_EQ(task->source_vocab().size(), kNumReservedTokens + 18 + 1);
}

TEST(PairsTask, LimitsThatNeedLongTextNameTheLine) {
  EXPECT_INPUT_ERROR(
      make_task("pairs", pairs_options("# header\n" + numbered_pairs(kMaxPairs + 1))),
      "line 20002: more than 20000 pairs; at most 20000");
  std::string huge(kMaxPairsBytes + 1, 'a');
  EXPECT_INPUT_ERROR(make_task("pairs", pairs_options(huge)),
                     "the pairs text is 1048577 bytes; at most 1048576 (1 MiB)");
  EXPECT_INPUT_ERROR(make_task("pairs", pairs_options("a\tb\nc\xff\td\n")),
                     "line 2: invalid UTF-8 at byte 1");
  const std::string long_side(kMaxSentenceBytes + 1, 'q');
  EXPECT_INPUT_ERROR(make_task("pairs", pairs_options("a\t" + long_side + "\n")),
                     "line 1: the target is 4097 bytes long; at most 4096");
  // The limits themselves pass: 64 tokens a side, 20000 pairs.
  std::string sixty_four;
  for (int i = 0; i < kMaxPairTokens; ++i) sixty_four += "w ";
  EXPECT_NO_THROW(
      make_task("pairs", pairs_options("a\t" + sixty_four + "\nb\tc\n", Tokenizer::kWords, 0)));
  EXPECT_EQ(make_task("pairs", pairs_options(numbered_pairs(kMaxPairs)))->train_size(), 18000);
}

TEST(PairsTask, OptionsAreForThePairsTaskOnly) {
  TaskOptions o = pairs_options("a\tb\n");
  EXPECT_INPUT_ERROR(make_task("note", o),
                     "sentence pairs are for task 'pairs' only (the task is 'note')");
  o.held_out = 5;
  EXPECT_INPUT_ERROR(make_task("pairs", o), "takes the share held out as heldOut (a fraction)");
}

TEST(PairsTask, OptionsRoundTripThroughJson) {
  const TaskOptions o = pairs_options("咖哥\tKaGe\n", Tokenizer::kChars, 0.2, 9);
  const json j = task_options_to_json(o);
  const TaskOptions back = task_options_from_json(j);
  EXPECT_EQ(back.pairs, o.pairs);
  EXPECT_EQ(back.tokenize, Tokenizer::kChars);
  EXPECT_EQ(back.held_out_fraction, 0.2);
  EXPECT_EQ(back.seed, 9u);
  EXPECT_FALSE(task_options_to_json(TaskOptions{}).contains("pairs"));  // other tasks as before
  EXPECT_INPUT_ERROR(task_options_from_json(json{{"tokenize", "bytes"}}),
                     "unknown tokenizer 'bytes'");
}

const char* kNoteTsv =
    "咖哥 喜欢 小冰\tKaGe likes XiaoBing\n"
    "我 爱 学习 人工智能\tI love studying AI\n"
    "深度学习 改变 世界\tDL changed the world\n"
    "自然 语言 处理 很 强大\tNLP is so powerful\n"
    "神经网络 非常 复杂\tNeural-Nets are complex\n";

// The note's five pairs typed in as pairs, nothing held out: the same vocabularies, examples
// and sampling as task 'note', so training is bit for bit the note's.
TEST(PairsSession, TheNotesPairsTrainExactlyAsTheNoteTask) {
  SessionConfig note;
  note.task = "note";
  note.hidden = 32;
  note.batch_size = 1;
  note.learning_rate = 1e-2;
  SessionConfig pairs = note;
  pairs.task = "pairs";
  pairs.task_options = pairs_options(kNoteTsv, Tokenizer::kWords, 0);
  Seq2SeqSession a(note), b(pairs);
  EXPECT_EQ(a.train(60).losses, b.train(60).losses);
  EXPECT_EQ(b.evaluate().examples, 5);
  EXPECT_TRUE(b.evaluate().held_out_is_training_data);
}

TEST(PairsSession, EveryRecurrentArchitectureLearnsAndResumesBitIdentically) {
  struct Arch {
    CellKind cell;
    bool attention;
  };
  for (const Arch arch :
       {Arch{CellKind::kRnn, true}, Arch{CellKind::kGru, false}, Arch{CellKind::kLstm, true}}) {
    SCOPED_TRACE(cell_name(arch.cell) + std::string(arch.attention ? " + attention" : ""));
    SessionConfig c;
    c.task = "pairs";
    c.task_options = pairs_options(kNoteTsv, Tokenizer::kWords, 0);
    c.cell = arch.cell;
    c.attention = arch.attention;
    c.hidden = 32;
    c.batch_size = 5;
    c.learning_rate = 2e-2;
    Seq2SeqSession s(c);
    const TrainResult first = s.train(150);
    EXPECT_LT(first.losses.back(), first.losses.front() / 4);
    EXPECT_EQ(s.translate("咖哥 喜欢 小冰").text, "KaGe likes XiaoBing");
    Seq2SeqSession loaded = Seq2SeqSession::load(s.save());
    EXPECT_EQ(loaded.config().task_options.pairs, kNoteTsv);
    EXPECT_EQ(loaded.translate("咖哥 喜欢 小冰", {3}).text,
              s.translate("咖哥 喜欢 小冰", {3}).text);
    EXPECT_EQ(loaded.train(5).losses, s.train(5).losses);
  }
}

TEST(PairsSession, TransformerTrainsOnCharactersAndResumes) {
  std::string text;
  for (const char* w : {"abc", "bca", "cab", "abd", "dab", "bad", "cad", "dca", "acd", "bdc"}) {
    std::string reversed(w);
    std::reverse(reversed.begin(), reversed.end());
    text += std::string(w) + "\t" + reversed + "\n";
  }
  TransformerSessionConfig c = sessiontest::transformer_session("pairs", {1, 2, 16, 32}, 8, 10);
  c.task_options = pairs_options(text, Tokenizer::kChars, 0.2);
  TransformerSession s(c);
  const TrainResult r = s.train(80);
  EXPECT_LT(r.losses.back(), r.losses.front());
  const EvalResult ev = s.evaluate();
  EXPECT_EQ(ev.examples, 2);
  EXPECT_FALSE(ev.held_out_is_training_data);
  // Spaces typed between the characters are dropped, as they were from the training pairs.
  EXPECT_EQ(s.translate("a b c").source.size(), 3u);
  TransformerSession loaded = TransformerSession::load(s.save());
  EXPECT_EQ(loaded.translate("abc").text, s.translate("abc").text);
  EXPECT_EQ(loaded.train(3).losses, s.train(3).losses);
}

// Every call that reads a typed text reads it as the pairs were read (Task::input_text): with the
// chars tokenizer, spaces between the characters are dropped, as from the training pairs.
template <class Session, class Config>
void expect_typed_characters_read_as_the_pairs(Config c, const std::string& pairs) {
  c.task_options = pairs_options(pairs, Tokenizer::kChars, 0.2);
  Session s(c);
  s.train(40);  // so that the translation attributed holds no <pad>
  EXPECT_EQ(s.translate("a b c").source.size(), 3u);
  EXPECT_EQ(s.attribution("a b c").source.size(), 3u);
  s.record_timeline("a b c", 10, 10);
  EXPECT_EQ(s.timeline_probe().size(), 3u);
  TranslateOptions forced;
  forced.interventions.resize(1);
  forced.interventions[0].intervention.kind = InterventionKind::kForceToken;
  forced.interventions[0].token = "c";
  EXPECT_EQ(s.translate_intervened("a b c", forced).source.size(), 3u);
}

TEST(PairsSession, EveryCallReadsTypedCharactersAsThePairsWere) {
  const std::string pairs = "abc\tcba\nbca\tacb\ncab\tbac\nabd\tdba\ndab\tbad\n";
  SessionConfig rnn;
  rnn.task = "pairs";
  rnn.hidden = 8;
  expect_typed_characters_read_as_the_pairs<Seq2SeqSession>(rnn, pairs);
  expect_typed_characters_read_as_the_pairs<TransformerSession>(
      sessiontest::transformer_session("pairs", {1, 2, 8, 16}, 4, 10), pairs);
}

}  // namespace
}  // namespace lab
