// Greedy and beam-search decoding, and the note's recipe (§3.3) end to end.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "expect_input_error.h"
#include "rnn/decode.h"
#include "test_seq2seq_util.h"

namespace {

// Every model here starts from seed 21.
lab::Seq2SeqConfig decode_config(lab::CellKind cell, bool attention, lab::Score score, bool tanh) {
  return s2stest::decode_config(cell, attention, score, tanh, 21);
}

using s2stest::trained_a_little;
const std::vector<int32_t>& kSource = s2stest::kDecodeSource;

struct DecodeCase {
  lab::CellKind cell;
  bool attention;
  lab::Score score;
  bool tanh;
};

class Seq2SeqDecode : public ::testing::TestWithParam<DecodeCase> {
 protected:
  // The case's model, trained a little.
  lab::Seq2SeqModel model() const {
    const DecodeCase p = GetParam();
    return trained_a_little(decode_config(p.cell, p.attention, p.score, p.tanh));
  }
};

lab::DecodeOptions decode_options(long max_length, long beam_width) {
  lab::DecodeOptions opt;
  opt.max_length = max_length;
  opt.beam_width = beam_width;
  return opt;
}

// Greedy decoding, one real autoregressive step at a time, must agree with a teacher-forced run
// of the whole model fed its own outputs: the same tokens, probabilities and attention.
TEST_P(Seq2SeqDecode, GreedyEqualsTeacherForcedRerun) {
  const DecodeCase p = GetParam();
  lab::Seq2SeqModel model = trained_a_little(decode_config(p.cell, p.attention, p.score, p.tanh));
  lab::DecodeOptions opt;
  opt.max_length = 8;
  const lab::GreedyResult g = lab::greedy_decode(model, kSource, opt);
  const long T = static_cast<long>(g.steps.size());
  ASSERT_GE(T, 1);

  lab::Batch b;
  b.B = 1, b.S = static_cast<long>(kSource.size()), b.T = T;
  b.src = kSource;
  b.src_len = {static_cast<int32_t>(kSource.size())};
  b.tgt_in = {opt.sos_id};
  for (long t = 0; t + 1 < T; ++t) b.tgt_in.push_back(g.steps[t].token);
  for (long t = 0; t < T; ++t) b.tgt_out.push_back(g.steps[t].token);
  const lab::Seq2SeqOutputs out = model.evaluate(b);
  const long V = model.config().tgt_vocab;
  for (long t = 0; t < T; ++t) {
    const float* row = out.logits.ptr() + t * V;
    const long argmax = std::max_element(row, row + V) - row;
    EXPECT_EQ(argmax, g.steps[t].token) << "step " << t;
    double z = 0;
    for (long v = 0; v < V; ++v) z += std::exp(row[v] - row[argmax]);
    EXPECT_NEAR(1.0 / z, g.steps[t].prob, 1e-5) << "step " << t;
    ASSERT_EQ(g.steps[t].top.size(), 5u);
    EXPECT_EQ(g.steps[t].top[0].id, g.steps[t].token);
    for (size_t k = 1; k < 5; ++k) EXPECT_LE(g.steps[t].top[k].prob, g.steps[t].top[k - 1].prob);
    if (p.attention) {
      ASSERT_EQ(g.steps[t].attention.size(), kSource.size());
      for (size_t s = 0; s < kSource.size(); ++s) {
        EXPECT_NEAR(g.steps[t].attention[s], out.attention.data[t * kSource.size() + s], 1e-5);
      }
    } else {
      EXPECT_TRUE(g.steps[t].attention.empty());
    }
  }
  // Tokens exclude <eos>; `finished` says whether it came.
  EXPECT_EQ(g.finished, g.steps.back().token == opt.eos_id);
  EXPECT_EQ(static_cast<long>(g.tokens.size()), g.finished ? T - 1 : T);
}

TEST_P(Seq2SeqDecode, BeamWidthOneIsGreedy) {
  lab::Seq2SeqModel model = this->model();
  const lab::DecodeOptions opt = decode_options(8, 1);
  const lab::GreedyResult g = lab::greedy_decode(model, kSource, opt);
  const lab::BeamResult beam = lab::beam_search(model, kSource, opt);
  EXPECT_EQ(beam.tokens, g.tokens);
  ASSERT_EQ(beam.steps.size(), g.steps.size());
  for (size_t t = 0; t < g.steps.size(); ++t) {
    ASSERT_EQ(beam.steps[t].size(), 1u);
    EXPECT_EQ(beam.steps[t][0].token, g.steps[t].token);
    EXPECT_FLOAT_EQ(beam.steps[t][0].prob, g.steps[t].prob);
    EXPECT_EQ(beam.steps[t][0].attention, g.steps[t].attention);
  }
}

// The beam tree is consistent, and the best hypothesis' log-probability is what an independent
// teacher-forced run of the model gives for that sequence.
TEST_P(Seq2SeqDecode, BeamTreeIsConsistentWithTheModel) {
  lab::Seq2SeqModel model = this->model();
  const lab::DecodeOptions opt = decode_options(7, 4);
  const lab::BeamResult beam = lab::beam_search(model, kSource, opt);
  ASSERT_FALSE(beam.hypotheses.empty());
  for (size_t t = 0; t < beam.steps.size(); ++t) {
    ASSERT_LE(beam.steps[t].size(), 4u);
    for (const lab::BeamNode& n : beam.steps[t]) {
      const double parent_lp = t == 0 ? 0.0 : beam.steps[t - 1][n.parent].log_prob;
      if (t > 0) ASSERT_FALSE(beam.steps[t - 1][n.parent].finished);
      EXPECT_NEAR(n.log_prob, parent_lp + std::log(n.prob), 1e-4);
      EXPECT_NEAR(n.score, n.log_prob / static_cast<double>(t + 1), 1e-9);
    }
  }
  for (size_t i = 1; i < beam.hypotheses.size(); ++i) {
    if (beam.hypotheses[i].finished == beam.hypotheses[i - 1].finished) {
      EXPECT_LE(beam.hypotheses[i].score, beam.hypotheses[i - 1].score);
    }
  }
  const lab::BeamHypothesis& best = beam.hypotheses.front();
  EXPECT_EQ(best.tokens, beam.tokens);
  // Teacher-forced log-probability of the best sequence (with <eos> when finished).
  std::vector<int32_t> seq = best.tokens;
  if (best.finished) seq.push_back(opt.eos_id);
  lab::Batch b;
  b.B = 1, b.S = static_cast<long>(kSource.size()), b.T = static_cast<long>(seq.size());
  b.src = kSource;
  b.src_len = {static_cast<int32_t>(kSource.size())};
  b.tgt_in = {opt.sos_id};
  b.tgt_in.insert(b.tgt_in.end(), seq.begin(), seq.end() - 1);
  b.tgt_out = seq;
  // The loss is the mean −log p per token.
  const double log_prob = -model.loss_only(b) * static_cast<double>(seq.size());
  EXPECT_NEAR(best.log_prob, log_prob, 1e-4 * seq.size());
  // The beam found a sequence at least as likely (per token) as greedy's.
  const lab::GreedyResult g = lab::greedy_decode(model, kSource, opt);
  if (g.finished && best.finished) {
    double greedy_lp = 0;
    for (const auto& s : g.steps) greedy_lp += std::log(s.prob);
    EXPECT_GE(best.score, greedy_lp / g.steps.size() - 1e-6);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Seq2Seq, Seq2SeqDecode,
    ::testing::Values(DecodeCase{lab::CellKind::kRnn, false, lab::Score::kDot, false},
                      DecodeCase{lab::CellKind::kRnn, true, lab::Score::kDot, false},
                      DecodeCase{lab::CellKind::kGru, true, lab::Score::kGeneral, true},
                      DecodeCase{lab::CellKind::kLstm, true, lab::Score::kAdditive, true},
                      DecodeCase{lab::CellKind::kLstm, false, lab::Score::kDot, false}),
    [](const ::testing::TestParamInfo<DecodeCase>& info) {
      const DecodeCase& p = info.param;
      return std::string(lab::cell_name(p.cell)) + "_" +
             (p.attention ? lab::score_name(p.score) : "plain") + (p.tanh ? "_tanh" : "");
    });

TEST(Seq2SeqDecodeOptions, RejectsBadSettings) {
  lab::Seq2SeqModel model(decode_config(lab::CellKind::kRnn, true, lab::Score::kDot, false));
  lab::DecodeOptions opt;
  opt.beam_width = 0;
  EXPECT_INPUT_ERROR(lab::beam_search(model, kSource, opt), "beam must be in [1, 64] (got 0");
  opt = {};
  opt.eos_id = 9;
  EXPECT_INPUT_ERROR(lab::greedy_decode(model, kSource, opt),
                     "<eos> id 9 must be inside the target vocabulary of 9");
  opt = {};
  EXPECT_INPUT_ERROR(lab::greedy_decode(model, {3, 12}, opt),
                     "source id 12 at position 1 is outside the source vocabulary of 12");
  EXPECT_INPUT_ERROR(lab::greedy_decode(model, {}, opt), "source length 0 must be in [1, 0]");
}

// The note's recipe (§3.3 of the note's code): RNN, hidden 128, dot attention, Adam 1e-3, batch 1,
// 400 steps on randomly chosen pairs of the 5 sentence pairs. Ids follow vocab.h: 0 <pad>,
// 1 <sos>, 2 <eos>, 3 <unk>, then words in order of first appearance.
struct NotePair {
  std::vector<int32_t> src, tgt;
};
const NotePair kNotePairs[] = {
    {{4, 5, 6}, {4, 5, 6}},            // 咖哥 喜欢 小冰 → KaGe likes XiaoBing
    {{7, 8, 9, 10}, {7, 8, 9, 10}},    // 我 爱 学习 人工智能 → I love studying AI
    {{11, 12, 13}, {11, 12, 13, 14}},  // 深度学习 改变 世界 → DL changed the world
    {{14, 15, 16, 17, 18}, {15, 16, 17, 18}},  // 自然 语言 处理 很 强大 → NLP is so powerful
    {{19, 20, 21}, {19, 20, 21}},  // 神经网络 非常 复杂 → Neural-Nets are complex
};

TEST(Seq2SeqNoteRecipe, TranslatesAllFivePairsForThreeSeeds) {
  for (uint64_t seed : {1, 2, 3}) {
    // The note's RNN: 128 units, both vocabularies 22 words, dot-product attention.
    lab::Seq2SeqModel model(s2stest::model_config(lab::CellKind::kRnn, 128, 22, 22, true,
                                                  lab::Score::kDot, false, seed));
    lab::Rng pick(seed + 1000);
    float first = 0, last = 0;
    for (int step = 0; step < 400; ++step) {
      const NotePair& p = kNotePairs[pick.below(5)];
      lab::Batch b;
      b.B = 1, b.S = static_cast<long>(p.src.size()), b.T = static_cast<long>(p.tgt.size()) + 1;
      b.src = p.src;
      b.src_len = {static_cast<int32_t>(p.src.size())};
      b.tgt_in = {1};
      b.tgt_in.insert(b.tgt_in.end(), p.tgt.begin(), p.tgt.end());
      b.tgt_out = p.tgt;
      b.tgt_out.push_back(2);
      last = model.forward_backward(b);
      if (step == 0) first = last;
      model.adam_step(1e-3f);
    }
    EXPECT_LT(last, 0.1f * first) << "seed " << seed;
    lab::DecodeOptions opt;
    opt.max_length = 10;
    for (const NotePair& p : kNotePairs) {
      const lab::GreedyResult g = lab::greedy_decode(model, p.src, opt);
      EXPECT_TRUE(g.finished) << "seed " << seed;
      EXPECT_EQ(g.tokens, p.tgt) << "seed " << seed << ", source starting with " << p.src[0];
    }
  }
}

}  // namespace
