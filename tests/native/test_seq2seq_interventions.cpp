// Interventions in greedy decoding (sequence/decode.h): a forced one-hot attention makes the
// context exactly that encoder output, a forced prefix gives the teacher-forced logits, an
// intervention that changes nothing leaves the decoding bit-identical, and bad interventions are
// InputErrors that leave the model decoding as before.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "expect_input_error.h"
#include "rnn/decode.h"
#include "test_seq2seq_util.h"

namespace {

using lab::Intervention;
using lab::InterventionKind;

// Every model here starts from seed 33.
lab::Seq2SeqConfig config(lab::CellKind cell, bool attention, lab::Score score, bool tanh) {
  return s2stest::decode_config(cell, attention, score, tanh, 33);
}

using s2stest::trained_a_little;
const std::vector<int32_t>& kSource = s2stest::kDecodeSource;

lab::DecodeOptions options() {
  lab::DecodeOptions o;
  o.max_length = 8;
  return o;
}

Intervention make(long step, InterventionKind kind, long source = -1, int32_t token = -1) {
  Intervention v;
  v.step = step;
  v.kind = kind;
  v.source = source;
  v.token = token;
  return v;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

struct Case {
  lab::CellKind cell;
  lab::Score score;
  bool tanh;
};

class Interventions : public ::testing::TestWithParam<Case> {};

TEST_P(Interventions, ForcedOneHotAttentionMakesTheContextThatEncoderOutput) {
  const Case p = GetParam();
  lab::Seq2SeqModel model = trained_a_little(config(p.cell, true, p.score, p.tanh));
  const long Hd = model.config().hidden, S = static_cast<long>(kSource.size());
  const std::vector<float> enc = model.encode(kSource).memory->outputs;  // (S, Hd)
  for (long j = 0; j < S; ++j) {
    const lab::GreedyResult g = lab::greedy_decode(model, kSource, options(),
                                                   {make(0, InterventionKind::kForceAttention, j)});
    const lab::GreedyStep& step = g.steps.at(0);
    EXPECT_TRUE(step.edited_attention);
    for (long s = 0; s < S; ++s) EXPECT_EQ(step.attention[s], s == j ? 1.0f : 0.0f);
    // Bit for bit: 1·x + Σ 0 is x.
    EXPECT_TRUE(same_bits(step.context,
                          std::vector<float>(enc.begin() + j * Hd, enc.begin() + (j + 1) * Hd)))
        << "source " << j;
    EXPECT_FALSE(g.steps.size() > 1 && g.steps[1].edited_attention);
  }
}

TEST_P(Interventions, ForcedPrefixGivesTheTeacherForcedLogits) {
  const Case p = GetParam();
  lab::Seq2SeqModel model = trained_a_little(config(p.cell, true, p.score, p.tanh));
  const std::vector<int32_t> prefix = {5, 3, 8};  // not what the model writes
  std::vector<Intervention> list;
  for (size_t t = 0; t < prefix.size(); ++t) {
    list.push_back(make(static_cast<long>(t), InterventionKind::kForceToken, -1, prefix[t]));
  }
  const lab::GreedyResult g = lab::greedy_decode(model, kSource, options(), list);
  ASSERT_GT(g.steps.size(), prefix.size());
  for (size_t t = 0; t < prefix.size(); ++t) {
    EXPECT_TRUE(g.steps[t].forced_token);
    EXPECT_EQ(g.steps[t].token, prefix[t]);
  }
  // Teacher forcing on <sos> + prefix: logits of steps 0 … |prefix| (the one after it included).
  const long T = static_cast<long>(prefix.size()) + 1;
  const lab::Seq2SeqOutputs tf = model.evaluate(s2stest::prefix_batch(kSource, prefix));
  const long Vt = model.config().tgt_vocab;
  for (long t = 0; t < T; ++t) {
    std::vector<double> expected(tf.logits.data.begin() + t * Vt,
                                 tf.logits.data.begin() + (t + 1) * Vt);
    labtest::expect_close(g.steps[t].logits.data(), expected, 1e-5,
                          "logits of step " + std::to_string(t));
  }
}

TEST_P(Interventions, AnInterventionThatChangesNothingIsBitIdentical) {
  const Case p = GetParam();
  lab::Seq2SeqModel model = trained_a_little(config(p.cell, true, p.score, p.tanh));
  const lab::GreedyResult plain = lab::greedy_decode(model, kSource, options());
  const lab::GreedyResult empty = lab::greedy_decode(model, kSource, options(), {});
  // Forcing the argmax the model writes anyway changes no bit of any step.
  const lab::GreedyResult same =
      lab::greedy_decode(model, kSource, options(),
                         {make(0, InterventionKind::kForceToken, -1, plain.steps[0].token)});
  for (const lab::GreedyResult* r : {&empty, &same}) {
    ASSERT_EQ(r->steps.size(), plain.steps.size());
    EXPECT_EQ(r->tokens, plain.tokens);
    for (size_t t = 0; t < plain.steps.size(); ++t) {
      EXPECT_TRUE(same_bits(r->steps[t].logits, plain.steps[t].logits)) << t;
      EXPECT_TRUE(same_bits(r->steps[t].attention, plain.steps[t].attention)) << t;
      EXPECT_TRUE(same_bits(r->steps[t].context, plain.steps[t].context)) << t;
    }
  }
}

TEST_P(Interventions, MaskAndEditRenormalise) {
  const Case p = GetParam();
  lab::Seq2SeqModel model = trained_a_little(config(p.cell, true, p.score, p.tanh));
  const lab::GreedyResult plain = lab::greedy_decode(model, kSource, options());
  const std::vector<float>& w = plain.steps.at(1).attention;
  const lab::GreedyResult masked =
      lab::greedy_decode(model, kSource, options(), {make(1, InterventionKind::kMaskSource, 2)});
  // w'[s] = w[s] / (1 − w[2]), w'[2] = 0; step 0 untouched
  EXPECT_TRUE(same_bits(masked.steps[0].attention, plain.steps[0].attention));
  for (size_t s = 0; s < w.size(); ++s) {
    EXPECT_NEAR(masked.steps[1].attention[s], s == 2 ? 0.0 : w[s] / (1.0 - w[2]), 1e-6) << s;
  }
  Intervention edit = make(1, InterventionKind::kEditAttention);
  edit.weights = {2, 0, 1, 0, 1};
  const lab::GreedyResult edited = lab::greedy_decode(model, kSource, options(), {edit});
  const std::vector<float> expected = {0.5f, 0, 0.25f, 0, 0.25f};
  EXPECT_EQ(edited.steps[1].attention, expected);
}

INSTANTIATE_TEST_SUITE_P(Cells, Interventions,
                         ::testing::Values(Case{lab::CellKind::kRnn, lab::Score::kDot, false},
                                           Case{lab::CellKind::kGru, lab::Score::kGeneral, true},
                                           Case{lab::CellKind::kLstm, lab::Score::kAdditive,
                                                true}));

TEST(InterventionErrors, NameTheProblemAndLeaveDecodingUnchanged) {
  lab::Seq2SeqModel model =
      trained_a_little(config(lab::CellKind::kGru, true, lab::Score::kDot, false));
  const lab::GreedyResult before = lab::greedy_decode(model, kSource, options());
  const long taken = static_cast<long>(before.steps.size());
  Intervention bad_row = make(0, InterventionKind::kEditAttention);
  bad_row.weights = {0, 0, 0, 0, 0};
  Intervention short_row = make(0, InterventionKind::kEditAttention);
  short_row.weights = {1, 2};
  Intervention nan_row = make(0, InterventionKind::kEditAttention);
  nan_row.weights = {1, NAN, 0, 0, 0};
  Intervention negative_row = make(0, InterventionKind::kEditAttention);
  negative_row.weights = {1, -1, 0, 0, 0};
  const std::vector<std::pair<std::vector<Intervention>, std::string>> cases = {
      {{make(taken, InterventionKind::kForceAttention, 0)}, "beyond the translation"},
      {{make(99, InterventionKind::kForceAttention, 0)}, "the step must be in [0, 8)"},
      {{make(-1, InterventionKind::kMaskSource, 0)}, "the step must be in"},
      {{make(0, InterventionKind::kForceAttention, 5)}, "source token 5 is outside the sentence"},
      {{make(0, InterventionKind::kMaskSource, -1)}, "source token -1 is outside"},
      {{bad_row}, "must sum to a positive number"},
      {{short_row}, "has 2 weights but the sentence has 5 tokens"},
      {{nan_row}, "weight 1 must be a finite number >= 0"},
      {{negative_row}, "weight 1 must be a finite number >= 0"},
      {{make(0, InterventionKind::kForceToken, -1, 9)},
       "token 9 is not a word the model can write"},
      {{make(0, InterventionKind::kForceToken, -1, 1)}, "<pad> and <sos> are not words"},
      {{make(0, InterventionKind::kForceAttention, 0),
        make(0, InterventionKind::kForceAttention, 1)},
       "conflicts with intervention 0"},
      {{make(0, InterventionKind::kForceToken, -1, 4),
        make(0, InterventionKind::kForceToken, -1, 5)},
       "conflicts with intervention 0"},
      {{make(0, InterventionKind::kForceAttention, 2), make(0, InterventionKind::kMaskSource, 2)},
       "the masked tokens held all of the attention"},
  };
  for (const auto& [list, message] : cases) {
    EXPECT_INPUT_ERROR(lab::greedy_decode(model, kSource, options(), list), message.c_str());
  }
  lab::Seq2SeqModel plain =
      trained_a_little(config(lab::CellKind::kGru, false, lab::Score::kDot, false));
  const std::vector<Intervention> mask = {make(0, InterventionKind::kMaskSource, 0)};
  EXPECT_INPUT_ERROR(lab::greedy_decode(plain, kSource, options(), mask),
                     "this model has no attention to intervene on");
  EXPECT_INPUT_ERROR(lab::parse_intervention_kind("swap-heads"),
                     "intervention kind 'swap-heads' is unknown");
  const lab::GreedyResult after = lab::greedy_decode(model, kSource, options());
  ASSERT_EQ(after.steps.size(), before.steps.size());
  for (size_t t = 0; t < after.steps.size(); ++t) {
    EXPECT_TRUE(same_bits(after.steps[t].logits, before.steps[t].logits));
  }
}

}  // namespace
