// GptSession (gpt/session.h): the corpus split, the baselines against a hand count, determinism,
// save → load → train equal to an uninterrupted run, and the errors that name the problem.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "expect_input_error.h"
#include "gpt/session.h"
#include "sequence/model_file.h"
#include "sequence/session_checks.h"

namespace {

// n short "poems" of distinct first lines, separated by blank lines, as scripts/poems.mjs writes.
std::string poems_text(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    if (i > 0) text += "\n\n";
    text += "《题" + std::to_string(i) + "》\n白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。";
  }
  return text + "\n";
}

lab::GptSessionConfig tiny_config(int poems = 20) {
  lab::GptSessionConfig c;
  c.text = poems_text(poems);
  c.held_out = 0.1;
  c.block_size = 8;
  c.layers = 1;
  c.heads = 2;
  c.d_model = 8;
  c.batch_size = 4;
  c.learning_rate = 1e-2;
  c.warmup = 3;
  c.seed = 7;
  return c;
}

TEST(GptSession, SplitsWholePoemsWithTheSeed) {
  const std::vector<std::string> poems = lab::split_poems("a\nb\n\n\nc\n \nd\r\ne\n");
  ASSERT_EQ(poems.size(), 3u);
  EXPECT_EQ(poems[0], "a\nb");
  EXPECT_EQ(poems[1], "c");
  EXPECT_EQ(poems[2], "d\ne");

  const std::vector<size_t> a = lab::held_out_poems(20, 0.1, 7);
  EXPECT_EQ(a.size(), 2u);  // round(0.1 · 20)
  EXPECT_EQ(a, lab::held_out_poems(20, 0.1, 7));
  EXPECT_NE(a, lab::held_out_poems(20, 0.1, 8));
  EXPECT_TRUE(lab::held_out_poems(20, 0, 7).empty());
  EXPECT_EQ(lab::held_out_poems(2, 0.5, 1).size(), 1u);  // at least one poem trains

  // The session's held-out text is exactly those poems, whole, and the rest trains.
  const lab::GptSession s(tiny_config());
  const std::vector<std::string> all = lab::split_poems(tiny_config().text);
  std::string held;
  for (size_t i : a) held += (held.empty() ? "" : "\n\n") + all[i];
  EXPECT_EQ(s.vocab().decode(s.held_out_ids()), held + "\n");
  EXPECT_EQ(s.corpus().poems, 20);
  EXPECT_EQ(s.corpus().held_out_poems, 2);
  EXPECT_EQ(s.corpus().train_poems, 18);
  const std::string train = s.vocab().decode(s.train_ids());
  for (size_t i : a) EXPECT_EQ(train.find(all[i] + "\n"), std::string::npos) << all[i];
}

TEST(GptSession, BaselinesMatchAHandCount) {
  // train 0 1 0 1 1 (V = 3): unigram counts 2, 3, 0 of 5; bigrams 01 ×2, 10, 11, so 0 and 1
  // each start 2. Held-out 0 1 2: targets 1 (after 0) and 2 (after 1).
  const lab::NgramLosses l = lab::ngram_baselines({0, 1, 0, 1, 1}, {0, 1, 2}, 3);
  EXPECT_NEAR(l.unigram, -(std::log(4.0 / 8.0) + std::log(1.0 / 8.0)) / 2, 1e-12);
  EXPECT_NEAR(l.bigram, -(std::log(3.0 / 5.0) + std::log(1.0 / 5.0)) / 2, 1e-12);

  lab::GptSession s(tiny_config());
  const lab::GptEvalResult e = s.evaluate();
  const lab::NgramLosses expected =
      lab::ngram_baselines(s.train_ids(), s.held_out_ids(), s.vocab().size());
  EXPECT_EQ(e.unigram_loss, expected.unigram);
  EXPECT_EQ(e.bigram_loss, expected.bigram);
  EXPECT_EQ(e.characters, static_cast<long>(s.held_out_ids().size()));
  // An untrained model is near a uniform guess, ln V.
  EXPECT_NEAR(e.validation_loss, std::log(static_cast<double>(s.vocab().size())), 0.2);
}

TEST(GptSession, TokenAccuracyCountsRowsWhoseFirstMaximumIsTheTarget) {
  // 4 rows of 3 logits: right; wrong; a tie between 0 and 2, whose first maximum (0) is the
  // target; ignored (target -1, though its maximum is wrong too)
  const std::vector<float> logits = {0, 5, 1, 9, 2, 3, 4, 1, 4, 7, 0, 0};
  const std::vector<int32_t> targets = {1, 1, 0, -1};
  const lab::session_common::TokenCount c =
      lab::session_common::count_argmax_hits(logits.data(), targets.data(), 4, 3, -1);
  EXPECT_EQ(c.correct, 2);
  EXPECT_EQ(c.total, 3);

  // Rows of 11: every target position against a row whose first maximum is at 6 and that ties
  // it at 9.
  std::vector<float> row = {1, 2, 3, 0, 4, 5, 8, 7, 6, 8, -1};
  for (int32_t t = 0; t < 11; ++t) {
    const lab::session_common::TokenCount r =
        lab::session_common::count_argmax_hits(row.data(), &t, 1, 11, -1);
    EXPECT_EQ(r.correct, t == 6 ? 1 : 0) << "target " << t;
  }
  row[6] = 7.5f;  // now the first maximum is the 8 at 9
  for (int32_t t = 0; t < 11; ++t) {
    EXPECT_EQ(lab::session_common::count_argmax_hits(row.data(), &t, 1, 11, -1).correct,
              t == 9 ? 1 : 0)
        << "target " << t;
  }
}

TEST(GptSession, TrainingLowersTheHeldOutLossBelowTheBigram) {
  lab::GptSession s(tiny_config());
  const lab::TrainResult r = s.train(300);
  EXPECT_EQ(r.step, 300);
  // each step's next-character accuracy beside its loss, rising as the loss falls
  ASSERT_EQ(r.token_accuracy.size(), r.losses.size());
  double first = 0, last = 0;
  for (size_t i = 0; i < 20; ++i) {
    EXPECT_GE(r.token_accuracy[i], 0.0f);
    first += r.token_accuracy[i] / 20.0;
    last += r.token_accuracy[r.token_accuracy.size() - 1 - i] / 20.0;
  }
  for (float a : r.token_accuracy) EXPECT_LE(a, 1.0f);
  EXPECT_GT(last, first + 0.2);
  const lab::GptEvalResult e = s.evaluate();
  // Every poem has the same lines: the held-out text is learnable from the training text.
  EXPECT_LT(e.validation_loss, e.bigram_loss);
  EXPECT_LT(e.bigram_loss, e.unigram_loss);
}

TEST(GptSession, SameSeedSameRunAndResumeIsBitForBit) {
  lab::GptSession a(tiny_config()), b(tiny_config());
  const lab::TrainResult ra = a.train(12);
  const std::vector<float>& whole = ra.losses;
  const lab::TrainResult rb = b.train(12);
  EXPECT_EQ(whole, rb.losses);
  EXPECT_EQ(ra.token_accuracy, rb.token_accuracy);

  lab::GptSession first(tiny_config());
  std::vector<float> resumed = first.train(5).losses;
  lab::GptSession loaded = lab::GptSession::load(first.save());
  EXPECT_EQ(loaded.step(), 5);
  const std::vector<float> rest = loaded.train(7).losses;
  resumed.insert(resumed.end(), rest.begin(), rest.end());
  EXPECT_EQ(resumed, whole);
  EXPECT_EQ(loaded.model().params(), a.model().params());

  lab::GenerateOptions o;
  o.max_new_tokens = 10;
  o.seed = 3;
  EXPECT_EQ(loaded.sample("白日", o).text, a.sample("白日", o).text);
}

// What the bench hands PyTorch (first_batches) is what train() trains on: the same losses, bit
// for bit, from a model of the same seed stepped by hand on those batches.
TEST(GptSession, FirstBatchesAreTheBatchesTrainDraws) {
  for (const double drills : {0.0, 0.5}) {
    for (const lab::GptWindows windows : {lab::GptWindows::kPoem, lab::GptWindows::kText}) {
      if (drills > 0 && windows == lab::GptWindows::kText) continue;
      lab::GptSessionConfig c = tiny_config();
      c.windows = windows;
      c.drills = drills;
      c.warmup = 0;
      lab::GptSession session(c);
      const std::vector<lab::GptBatch> batches = session.first_batches(4);
      lab::GptModel model = session.model();
      const std::vector<float> trained = session.train(4).losses;
      ASSERT_EQ(batches.size(), 4u);
      lab::AdamOptions adam;
      adam.lr = static_cast<float>(c.learning_rate);
      for (size_t i = 0; i < batches.size(); ++i) {
        EXPECT_EQ(model.forward_backward(batches[i]), trained[i])
            << lab::gpt_windows_name(windows) << " drills " << drills << " " << i;
        model.adam_step(adam);
      }
    }
  }
}

TEST(GptSession, PoemWindowsStartAtTheBlankLineBeforeEachPoem) {
  lab::GptSessionConfig c = tiny_config();
  c.windows = lab::GptWindows::kPoem;
  const lab::GptSession s(c);
  const std::vector<int32_t>& ids = s.train_ids();
  const auto n = static_cast<long>(ids.size());
  const int32_t nl = s.vocab().encode("\n")[0];
  // The training text ends with a blank line, so read cyclically its first poem follows one too.
  const std::string text = s.vocab().decode(ids);
  ASSERT_GE(text.size(), 2u);
  EXPECT_EQ(text.substr(text.size() - 2), "\n\n");
  // Each poem gives a window at the blank line before it and one every blockSize characters
  // after that while inside the poem (so a poem longer than the block trains on its later parts
  // too); each window's targets run to the blank line that closes its poem, and no further.
  long at_poem_start = 0, last_poem_start = -1, later_parts = 0, whole_blocks = 0;
  for (const lab::PoemWindow& w : s.poem_windows()) {
    const long start = w.start;
    ASSERT_GE(start, 0);
    ASSERT_LT(start, n);
    // (a window at the last line's end, whose one target is the blank line's, starts at two
    // line breaks too)
    const bool blank_line = w.targets > 1 && ids[start] == nl && ids[(start + 1) % n] == nl;
    if (blank_line) {
      EXPECT_NE(ids[(start + 2) % n], nl);  // the poem's first line
      ++at_poem_start;
      last_poem_start = start;
    } else {
      ASSERT_GE(last_poem_start, 0);
      EXPECT_EQ((start - last_poem_start + n) % n % c.block_size, 0) << start;
      ++later_parts;
    }
    // the last target is the closing blank line's newline, after the last line's own
    ASSERT_GE(w.targets, 1);
    EXPECT_EQ(ids[(start + w.targets) % n], nl) << start;
    EXPECT_EQ(ids[(start + w.targets - 1) % n], nl) << start;
    EXPECT_NE(ids[(start + w.targets - 2 + n) % n], nl) << start;
    // and no blank line comes before it past the one the window may start at
    for (long t = 2; t < w.targets - 1; ++t) {
      EXPECT_FALSE(ids[(start + t) % n] == nl && ids[(start + t + 1) % n] == nl) << start;
    }
    whole_blocks += w.targets >= c.block_size;
  }
  EXPECT_EQ(at_poem_start, 18);
  EXPECT_GT(later_parts, 0);
  EXPECT_GT(whole_blocks, 0);
  // A batch reads those windows cyclically: targets are the ids one further on while they are
  // the window's poem's, -1 exactly after.
  lab::Rng rng(5);
  const lab::GptBatch b = lab::sample_windows_at(ids, {{n - 2, 5}}, 2, 8, rng);
  EXPECT_EQ(b.idx[0], nl);
  EXPECT_EQ(b.idx[1], nl);
  EXPECT_EQ(b.idx[2], ids[0]);
  EXPECT_EQ(b.targets[1], ids[0]);
  EXPECT_EQ(b.targets[4], ids[3]);
  for (long t = 5; t < 8; ++t) EXPECT_EQ(b.targets[t], lab::kGptIgnoreTarget) << t;
  const long T = c.block_size, B = 64;
  const lab::GptBatch many = lab::sample_windows_at(ids, s.poem_windows(), B, T, rng);
  long ignored = 0;
  for (long r = 0; r < B; ++r) {
    // Some window of the session gives the row: its ids, its poem's targets, then -1. (Windows
    // can hold the same ids: a poem's last, at its closing line breaks, and the next poem's
    // first; only the targets tell them apart.)
    bool found = false;
    for (const lab::PoemWindow& w : s.poem_windows()) {
      bool same = true;
      for (long t = 0; t < T && same; ++t) {
        const int32_t target = t < w.targets ? ids[(w.start + t + 1) % n] : lab::kGptIgnoreTarget;
        same = ids[(w.start + t) % n] == many.idx[r * T + t] && target == many.targets[r * T + t];
      }
      found = found || same;
    }
    EXPECT_TRUE(found) << "row " << r;
    for (long t = 0; t < T; ++t) ignored += many.targets[r * T + t] == lab::kGptIgnoreTarget;
  }
  EXPECT_GT(ignored, 0);

  // Training and evaluation read the same targets in the same blocks: with nothing held out,
  // evaluate()'s training loss is the mean loss of the windows of its first poems, as many as
  // make up the training text's length (each poem's first window holds all its targets but
  // one: the poem is targets + 1 ids, from blank line to blank line).
  lab::GptSessionConfig all_train = c;
  all_train.held_out = 0;
  lab::GptSession trained(all_train);
  trained.train(20);
  lab::GptModel copy = trained.model();
  const auto train_chars = static_cast<long>(trained.train_ids().size());
  double sum = 0, counted = 0;
  long chars = 0, poems_read = 0;
  for (size_t i = 0; i < trained.poem_windows().size(); ++i) {
    const lab::PoemWindow& w = trained.poem_windows()[i];
    const bool poem_start = i == 0 || w.targets > trained.poem_windows()[i - 1].targets;
    if (poem_start) {
      if (chars >= train_chars) break;
      chars += w.targets + 1;
      ++poems_read;
    }
    lab::Rng one(1);
    const lab::GptBatch window = lab::sample_windows_at(trained.train_ids(), {w}, 1, T, one);
    const auto k = static_cast<double>(std::min(w.targets, T));
    sum += copy.loss_only(window) * k;
    counted += k;
  }
  EXPECT_GT(poems_read, 10);
  EXPECT_NEAR(trained.evaluate().train_loss, sum / counted, 1e-5);

  // Evaluation reads each held-out poem from the blank line before it to the one after, and
  // scores the baselines on the same targets.
  lab::GptSession e_session(c);
  const lab::GptEvalResult e = e_session.evaluate();
  const std::vector<std::string> all = lab::split_poems(c.text);
  double uni = 0, bi = 0, targets = 0;
  for (size_t i : lab::held_out_poems(all.size(), c.held_out, c.seed)) {
    const std::vector<int32_t> held = s.vocab().encode("\n\n" + all[i] + "\n\n");
    const lab::NgramLosses l = lab::ngram_baselines(ids, held, s.vocab().size());
    const auto k = static_cast<double>(held.size() - 1);
    uni += l.unigram * k;
    bi += l.bigram * k;
    targets += k;
  }
  EXPECT_NEAR(e.unigram_loss, uni / targets, 1e-12);
  EXPECT_NEAR(e.bigram_loss, bi / targets, 1e-12);
  EXPECT_NEAR(e.validation_loss, std::log(static_cast<double>(s.vocab().size())), 0.2);

  // Saved and loaded, the session keeps its windows: the resumed run is the uninterrupted one.
  lab::GptSession whole(c), first(c);
  const std::vector<float> expected = whole.train(9).losses;
  std::vector<float> resumed = first.train(4).losses;
  lab::GptSession loaded = lab::GptSession::load(first.save());
  EXPECT_EQ(loaded.config().windows, lab::GptWindows::kPoem);
  const std::vector<float> rest = loaded.train(5).losses;
  resumed.insert(resumed.end(), rest.begin(), rest.end());
  EXPECT_EQ(resumed, expected);
  // and they are other windows than the text's
  lab::GptSession text_windows(tiny_config());
  EXPECT_NE(text_windows.train(9).losses, expected);

  EXPECT_INPUT_ERROR(lab::gpt_windows_from_name("poems", "windows"), "windows must be \"poem\"");

  // A text of one line has no line break of its own: the vocabulary gains one to end its poem.
  lab::GptSessionConfig line = c;
  line.text = "白日依山尽黄河入海流欲穷千里目更上一层楼";
  line.held_out = 0;
  lab::GptSession one_line(line);
  EXPECT_EQ(one_line.vocab().size(), 21);
  EXPECT_EQ(one_line.train(2).step, 2);
}

// Form drills (corpus.h, FormDrills): a drawn window is either one of the session's poem windows
// or a training poem's shape (its line breaks and marks, in place) with every other character
// drawn from the training text's other characters by their counts, read to the poem's end.
TEST(GptSession, FormDrillsKeepAPoemsShapeAndDrawItsWordsFromTheText) {
  // each mark by its code point, read from its UTF-8 here
  const lab::CharVocab marks = lab::CharVocab::from_text("\n\r，。？！；、：,.?!;:白《a");
  for (size_t i = 0; i < marks.points().size(); ++i) {
    const std::string& c = marks.chars()[i];
    EXPECT_EQ(lab::drill_keeps(marks.points()[i]), c != "白" && c != "《" && c != "a") << c;
  }

  lab::GptSessionConfig c = tiny_config();
  c.windows = lab::GptWindows::kPoem;
  c.block_size = 40;  // a whole poem of the tiny corpus, title included, in one window
  c.drills = 0.5;
  const lab::GptSession s(c);
  const std::vector<int32_t>& ids = s.train_ids();
  const auto n = static_cast<long>(ids.size());
  const long T = c.block_size;
  // the training text's characters a drill may draw, with their counts
  std::vector<long> count(static_cast<size_t>(s.vocab().size()), 0);
  std::vector<bool> kept(static_cast<size_t>(s.vocab().size()));
  for (int32_t id = 0; id < s.vocab().size(); ++id) {
    kept[static_cast<size_t>(id)] = lab::drill_keeps(s.vocab().points()[static_cast<size_t>(id)]);
  }
  for (const int32_t id : ids) count[static_cast<size_t>(id)] += !kept[static_cast<size_t>(id)];
  // the training poems, each from the blank line before it to the one after
  std::vector<std::vector<int32_t>> poems;
  for (const lab::PoemWindow& w : s.poem_windows()) {
    std::vector<int32_t> poem;
    for (long t = 0; t <= w.targets; ++t) poem.push_back(ids[(w.start + t) % n]);
    poems.push_back(poem);
  }
  std::vector<long> drawn(count.size(), 0);
  long real = 0, drills = 0;
  for (const lab::GptBatch& b : s.first_batches(50)) {
    for (long r = 0; r < b.B; ++r) {
      const int32_t* x = &b.idx[static_cast<size_t>(r * T)];
      const int32_t* y = &b.targets[static_cast<size_t>(r * T)];
      bool is_real = false, is_drill = false;
      for (const std::vector<int32_t>& poem : poems) {
        const auto len = static_cast<long>(poem.size());
        bool same = true, shape = true;
        for (long t = 0; t < T; ++t) {
          const int32_t target = t + 1 < len ? poem[t + 1] : lab::kGptIgnoreTarget;
          if (t < len) {
            same = same && x[t] == poem[t];
            const auto k = static_cast<size_t>(poem[t]);
            shape = shape && (kept[k] ? x[t] == poem[t]
                                      : !kept[static_cast<size_t>(x[t])] && count[x[t]] > 0);
          }
          same = same && y[t] == target;
          shape = shape && (t + 1 < len ? y[t] == x[t + 1] : y[t] == lab::kGptIgnoreTarget);
        }
        is_real = is_real || same;
        is_drill = is_drill || (shape && !same);
      }
      EXPECT_TRUE(is_real || is_drill) << "row " << r;
      real += is_real;
      drills += is_drill && !is_real;
      if (is_drill && !is_real) {
        for (long t = 0; t < T; ++t) drawn[static_cast<size_t>(x[t])] += !kept[x[t]];
      }
    }
  }
  // about half of the 200 windows are drills (a binomial's 4.2 standard deviations either side)
  EXPECT_EQ(real + drills, 200);
  EXPECT_GT(drills, 70);
  EXPECT_LT(drills, 130);
  // drawn by their counts: 白 is in every training poem's text, a title's digit 1 in a few, 《 in
  // every title
  const auto id = [&](const char* ch) { return static_cast<size_t>(s.vocab().encode(ch)[0]); };
  EXPECT_GT(drawn[id("白")], 0);
  EXPECT_GT(drawn[id("白")], 3 * drawn[id("9")]);
  EXPECT_GT(drawn[id("《")], 0);

  // A session without drills draws the batches it always has; with them, others.
  lab::GptSessionConfig none = c;
  none.drills = 0;
  lab::GptSession without(none), with(c);
  EXPECT_NE(without.train(6).losses, with.train(6).losses);
  EXPECT_EQ(lab::GptSession(none).first_batches(3)[2].idx, without.first_batches(3)[2].idx);

  // Saved and loaded, the drills go on: the resumed run is the uninterrupted one; a file written
  // before drills existed trains without them.
  lab::GptSession whole(c), first(c);
  const std::vector<float> expected = whole.train(9).losses;
  std::vector<float> resumed = first.train(4).losses;
  const std::vector<uint8_t> bytes = first.save();
  lab::GptSession loaded = lab::GptSession::load(bytes);
  EXPECT_EQ(loaded.config().drills, 0.5);
  const std::vector<float> rest = loaded.train(5).losses;
  resumed.insert(resumed.end(), rest.begin(), rest.end());
  EXPECT_EQ(resumed, expected);
  lab::ModelFileContents file = lab::read_model_file(bytes.data(), bytes.size());
  nlohmann::json header = file.header;
  header["config"].erase("drills");
  EXPECT_EQ(lab::GptSession::load(lab::write_model_file(header, file.arrays)).config().drills, 0);

  // Refused, naming the setting: a share outside [0, 0.95], and drills on windows anywhere.
  for (const double bad : {-0.1, 0.96, 1.0, std::nan("")}) {
    lab::GptSessionConfig b = c;
    b.drills = bad;
    EXPECT_INPUT_ERROR(lab::GptSession{b}, "drills must be a share in [0, 0.95]");
  }
  lab::GptSessionConfig anywhere = c;
  anywhere.windows = lab::GptWindows::kText;
  EXPECT_INPUT_ERROR(lab::GptSession{anywhere}, "drills need windows \"poem\"");
  // The poems recipe drills three windows in four.
  EXPECT_EQ(lab::gpt_poems_defaults().drills, 0.75);
}

TEST(GptSession, SamplesTextWithItsSteps) {
  lab::GptSession s(tiny_config());
  lab::GenerateOptions o;
  o.max_new_tokens = 6;
  o.sampling.greedy = true;
  const lab::GptSampleResult r = s.sample("白日", o);
  EXPECT_EQ(r.text, "白日" + r.generated);
  EXPECT_EQ(r.generation.steps.size(), 6u);
  EXPECT_EQ(s.vocab().encode(r.generated).size(), 6u);
}

TEST(GptSession, RefusesBadCorporaAndPromptsNamingTheProblem) {
  lab::GptSessionConfig c = tiny_config();
  c.text = "";
  EXPECT_INPUT_ERROR(lab::GptSession{c}, "the text is empty");
  c.text = std::string(lab::kGptMaxCorpusBytes + 1, 'a');
  EXPECT_INPUT_ERROR(lab::GptSession{c}, "the limit is");
  c = tiny_config(2);
  c.block_size = 64;
  EXPECT_INPUT_ERROR(lab::GptSession{c}, "one block of blockSize 64 needs at least 65");
  c = tiny_config(1);
  EXPECT_INPUT_ERROR(lab::GptSession{c}, "holding out a share needs at least 2");
  c.held_out = 0;
  EXPECT_NO_THROW(lab::GptSession{c});
  c.held_out = 0.6;
  EXPECT_INPUT_ERROR(lab::GptSession{c}, "heldOut must be a share in [0, 0.5]");
  c = tiny_config();
  c.learning_rate = 0;
  EXPECT_INPUT_ERROR(lab::GptSession{c}, "learning rate");

  lab::GptSession s(tiny_config());
  lab::GenerateOptions o;
  EXPECT_INPUT_ERROR(s.sample("", o), "prompt is empty");
  EXPECT_INPUT_ERROR(s.sample("床前明月光", o),
                     "prompt has 5 characters not in the vocabulary: \"床\", \"前\", \"明\", "
                     "\"月\", \"光\" (the model knows only the characters of its training text)");
  EXPECT_INPUT_ERROR(s.sample(std::string(9, '\n'), o), "at most blockSize 8");
  EXPECT_INPUT_ERROR(s.train(0), "train: steps");
}

// Files of every earlier shape load: one without config.windows trained on windows anywhere and
// goes on with them; one with "poem" windows goes on with windows of one poem each, as the
// session saved here does (its resumed run is the uninterrupted one).
TEST(GptSession, LoadsFilesWithAndWithoutTheirWindows) {
  lab::GptSessionConfig c = tiny_config();
  c.windows = lab::GptWindows::kPoem;
  lab::GptSession poem(c);
  poem.train(3);
  const std::vector<uint8_t> bytes = poem.save();
  lab::ModelFileContents file = lab::read_model_file(bytes.data(), bytes.size());
  ASSERT_EQ(file.header.at("config").at("windows"), "poem");
  nlohmann::json header = file.header;
  header["config"].erase("windows");
  lab::GptSession old = lab::GptSession::load(lab::write_model_file(header, file.arrays));
  EXPECT_EQ(old.config().windows, lab::GptWindows::kText);
  EXPECT_TRUE(old.poem_windows().empty());
  EXPECT_EQ(old.step(), 3);
  lab::GptSession loaded = lab::GptSession::load(bytes);
  EXPECT_EQ(loaded.config().windows, lab::GptWindows::kPoem);
  EXPECT_EQ(loaded.poem_windows().size(), poem.poem_windows().size());
  EXPECT_EQ(loaded.train(2).losses, poem.train(2).losses);
}

TEST(GptSession, RefusesAFileOfAnotherKindOrVocabulary) {
  lab::GptSession s(tiny_config());
  lab::ModelFileContents file;
  const std::vector<uint8_t> bytes = s.save();
  file = lab::read_model_file(bytes.data(), bytes.size());
  nlohmann::json header = file.header;
  header["kind"] = "attention-lab/transformer";
  EXPECT_INPUT_ERROR(lab::GptSession::load(lab::write_model_file(header, file.arrays)),
                     "model file is not a GPT model");
  header = file.header;
  header["vocab"][0] = "X";
  EXPECT_INPUT_ERROR(lab::GptSession::load(lab::write_model_file(header, file.arrays)),
                     "vocab does not match the characters of its text");
  header = file.header;
  file.arrays.pop_back();
  EXPECT_INPUT_ERROR(lab::GptSession::load(lab::write_model_file(header, file.arrays)),
                     "arrays but this configuration needs");
}

}  // namespace
