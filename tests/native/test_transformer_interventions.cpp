// Interventions in the Transformer's greedy decoding (transformer/decode.h): a forced one-hot
// cross-attention makes that head's context exactly value row j, and so does an edited one-hot
// row or masking every other source token; an edited row is renormalised and mixes the value
// rows by it; zeroing a head equals zeroing its columns of out_proj (for each kind of attention);
// a forced prefix gives the teacher-forced logits; an empty list is bit-identical; bad
// interventions are named.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "expect_input_error.h"
#include "rng.h"
#include "test_transformer_util.h"
#include "transformer/decode.h"

namespace {

using lab::AttentionSite;
using lab::Intervention;
using lab::InterventionKind;

const std::vector<int32_t> kSource = {3, 1, 6, 2, 5};
constexpr long kLayers = 2, kHeads = 2;

lab::TransformerModel model_with(uint64_t seed, bool norm_first) {
  lab::TransformerModel m(tftest::tiny_config(kLayers, kHeads, norm_first, 11));
  lab::Rng rng(seed);
  for (float& x : m.params()) x += 0.3f * rng.normal();  // far from uniform attention
  return m;
}

lab::DecodeOptions options() {
  lab::DecodeOptions o;
  o.max_length = 6;
  o.top_k = 3;
  return o;
}

// An intervention of `kind` on head `head` of layer `layer`'s `site` at decoding step `step` (-1:
// every step).
Intervention on_head(InterventionKind kind, long step, AttentionSite site, long layer, long head) {
  Intervention v;
  v.kind = kind;
  v.step = step;
  v.attention = site;
  v.layer = layer;
  v.head = head;
  return v;
}

Intervention zero(AttentionSite site, long layer, long head) {
  return on_head(InterventionKind::kZeroHead, -1, site, layer, head);
}

// The same on the cross-attention at the first step.
Intervention on_cross_head(InterventionKind kind, long layer, long head) {
  return on_head(kind, 0, AttentionSite::kCross, layer, head);
}

bool same_bits(const float* a, const float* b, size_t n) {
  return std::memcmp(a, b, n * sizeof(float)) == 0;
}

class TransformerInterventions : public ::testing::TestWithParam<bool> {};

TEST_P(TransformerInterventions, ForcedOneHotCrossAttentionMakesTheHeadsContextValueRowJ) {
  const lab::TransformerModel model = model_with(5, GetParam());
  const long Dm = model.config().d_model, Dh = Dm / kHeads, S = 5;
  const lab::TransformerGreedyResult plain = lab::greedy_decode(model, kSource, options());
  for (long l = 0; l < kLayers; ++l) {
    for (long h = 0; h < kHeads; ++h) {
      for (long j = 0; j < S; ++j) {
        Intervention v = on_cross_head(InterventionKind::kForceAttention, l, h);
        v.source = j;
        const lab::TransformerGreedyResult r = lab::greedy_decode(model, kSource, options(), {v});
        const lab::TransformerStepTrace& tr = r.traces.at(0);
        const float* value = r.encoder.cross_v[l].data() + j * Dm + h * Dh;
        EXPECT_TRUE(same_bits(tr.cross_context.data() + l * Dm + h * Dh, value, Dh))
            << "layer " << l << " head " << h << " source " << j;
        for (long s = 0; s < S; ++s) {
          EXPECT_EQ(tr.cross[(l * kHeads + h) * S + s], s == j ? 1.0f : 0.0f);
        }
        // Layer 0's other head, before anything downstream changed, is untouched.
        if (l == 0) {
          const long other = 1 - h;
          EXPECT_TRUE(same_bits(tr.cross_context.data() + other * Dh,
                                plain.traces[0].cross_context.data() + other * Dh, Dh));
        }
        EXPECT_TRUE(r.result.steps[0].edited_attention);
      }
    }
  }
}

// Edit-attention and mask-source on one head: a one-hot edited row, or every other source masked,
// gives value row j exactly (the forced row's context); a general edited row is renormalised and
// the head's context is Σ_s w'[s] · value row s.
TEST_P(TransformerInterventions, EditedAndMaskedRowsMixTheValueRowsByTheNewWeights) {
  const lab::TransformerModel model = model_with(7, GetParam());
  const long Dm = model.config().d_model, Dh = Dm / kHeads, S = 5, l = 1, h = 0;
  for (long j = 0; j < S; ++j) {
    Intervention edit = on_cross_head(InterventionKind::kEditAttention, l, h);
    edit.weights.assign(S, 0.0f);
    edit.weights[j] = 3.0f;  // renormalised to 1
    std::vector<Intervention> masks;
    for (long s = 0; s < S; ++s) {
      if (s == j) continue;
      Intervention m = edit;
      m.kind = InterventionKind::kMaskSource;
      m.weights.clear();
      m.source = s;
      masks.push_back(m);
    }
    for (const std::vector<Intervention>& list : {std::vector<Intervention>{edit}, masks}) {
      const lab::TransformerGreedyResult r = lab::greedy_decode(model, kSource, options(), list);
      const lab::TransformerStepTrace& tr = r.traces.at(0);
      const float* value = r.encoder.cross_v[l].data() + j * Dm + h * Dh;
      EXPECT_TRUE(same_bits(tr.cross_context.data() + l * Dm + h * Dh, value, Dh))
          << (list.front().kind == InterventionKind::kEditAttention ? "edit" : "masks");
      for (long s = 0; s < S; ++s)
        EXPECT_EQ(tr.cross[(l * kHeads + h) * S + s], s == j ? 1.f : 0.f);
      EXPECT_TRUE(r.result.steps[0].edited_attention);
    }
  }
  Intervention edit = on_cross_head(InterventionKind::kEditAttention, l, h);
  edit.weights = {1.0f, 0.0f, 2.0f, 0.0f, 1.0f};  // → 0.25, 0, 0.5, 0, 0.25
  const lab::TransformerGreedyResult r = lab::greedy_decode(model, kSource, options(), {edit});
  const lab::TransformerStepTrace& tr = r.traces.at(0);
  const std::vector<float> expected_row = {0.25f, 0.0f, 0.5f, 0.0f, 0.25f};
  for (long s = 0; s < S; ++s) EXPECT_EQ(tr.cross[(l * kHeads + h) * S + s], expected_row[s]);
  for (long i = 0; i < Dh; ++i) {
    double mix = 0.0;
    for (long s = 0; s < S; ++s) mix += expected_row[s] * r.encoder.cross_v[l][s * Dm + h * Dh + i];
    EXPECT_NEAR(tr.cross_context[l * Dm + h * Dh + i], mix, 1e-6);
  }
  // Masking one source renormalises the rest of the computed row.
  const lab::TransformerGreedyResult plain = lab::greedy_decode(model, kSource, options());
  Intervention mask = on_cross_head(InterventionKind::kMaskSource, l, h);
  mask.source = 2;
  const lab::TransformerGreedyResult masked = lab::greedy_decode(model, kSource, options(), {mask});
  const float* before = plain.traces[0].cross.data() + (l * kHeads + h) * S;
  const float* after = masked.traces[0].cross.data() + (l * kHeads + h) * S;
  EXPECT_EQ(after[2], 0.0f);
  for (long s = 0; s < S; ++s) {
    if (s != 2) EXPECT_NEAR(after[s], before[s] / (1.0 - before[2]), 1e-6) << s;
  }
}

// Zeroing head h's output is the same as zeroing its Dh columns of out_proj.weight.
TEST_P(TransformerInterventions, ZeroHeadEqualsZeroingItsOutProjColumns) {
  const long Dm = 8, Dh = Dm / kHeads;
  const struct {
    AttentionSite site;
    const char* module;
    const char* stack;
  } kinds[] = {{AttentionSite::kEncoderSelf, "self_attn", "encoder"},
               {AttentionSite::kDecoderSelf, "self_attn", "decoder"},
               {AttentionSite::kCross, "multihead_attn", "decoder"}};
  for (const auto& k : kinds) {
    for (long l = 0; l < kLayers; ++l) {
      for (long h = 0; h < kHeads; ++h) {
        const lab::TransformerModel model = model_with(7, GetParam());
        lab::TransformerModel cut = model_with(7, GetParam());
        const std::string name = std::string("transformer.") + k.stack + ".layers." +
                                 std::to_string(l) + "." + k.module + ".out_proj.weight";
        const lab::ParamView& w = cut.param(name);
        for (long o = 0; o < Dm; ++o) {
          for (long i = h * Dh; i < (h + 1) * Dh; ++i) cut.params()[w.offset + o * Dm + i] = 0.0f;
        }
        const lab::TransformerGreedyResult zeroed =
            lab::greedy_decode(model, kSource, options(), {zero(k.site, l, h)});
        const lab::TransformerGreedyResult expected = lab::greedy_decode(cut, kSource, options());
        const lab::TransformerGreedyResult plain = lab::greedy_decode(model, kSource, options());
        ASSERT_EQ(zeroed.result.tokens, expected.result.tokens) << name << " head " << h;
        bool differs = false;
        for (size_t t = 0; t < expected.result.steps.size(); ++t) {
          const std::vector<float>& a = zeroed.result.steps[t].logits;
          const std::vector<float>& b = expected.result.steps[t].logits;
          for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5) << name;
          if (t < plain.result.steps.size() && a != plain.result.steps[t].logits) differs = true;
        }
        EXPECT_TRUE(differs) << name << " head " << h << ": zeroing it changed nothing";
      }
    }
  }
}

TEST_P(TransformerInterventions, ForcedPrefixGivesTheTeacherForcedLogits) {
  lab::TransformerModel model = model_with(9, GetParam());
  const std::vector<int32_t> prefix = {4, 7, 3};
  std::vector<Intervention> list;
  for (size_t t = 0; t < prefix.size(); ++t) {
    Intervention v;
    v.kind = InterventionKind::kForceToken;
    v.step = static_cast<long>(t);
    v.token = prefix[t];
    list.push_back(v);
  }
  lab::DecodeOptions o = options();
  const lab::TransformerGreedyResult r = lab::greedy_decode(model, kSource, o, list);
  ASSERT_GT(r.result.steps.size(), prefix.size());
  const long T = static_cast<long>(prefix.size()) + 1, Vt = 9;
  const lab::TransformerOutputs tf = model.evaluate(s2stest::prefix_batch(kSource, prefix));
  for (long t = 0; t < T; ++t) {
    for (long v = 0; v < Vt; ++v) {
      EXPECT_NEAR(r.result.steps[t].logits[v], tf.logits.data[t * Vt + v], 1e-5) << "step " << t;
    }
  }
}

TEST_P(TransformerInterventions, AnEmptyListIsBitIdentical) {
  const lab::TransformerModel model = model_with(3, GetParam());
  const lab::TransformerGreedyResult a = lab::greedy_decode(model, kSource, options());
  const lab::TransformerGreedyResult b = lab::greedy_decode(model, kSource, options(), {});
  ASSERT_EQ(a.result.steps.size(), b.result.steps.size());
  for (size_t t = 0; t < a.result.steps.size(); ++t) {
    EXPECT_EQ(a.result.steps[t].logits, b.result.steps[t].logits);
    EXPECT_EQ(a.traces[t].cross, b.traces[t].cross);
    EXPECT_EQ(a.traces[t].self, b.traces[t].self);
  }
}

INSTANTIATE_TEST_SUITE_P(Norms, TransformerInterventions, ::testing::Values(false, true));

TEST(TransformerInterventionErrors, NameTheProblem) {
  const lab::TransformerModel model = model_with(3, false);
  Intervention far = zero(AttentionSite::kCross, 2, 0);
  Intervention head = zero(AttentionSite::kDecoderSelf, 0, 2);
  Intervention enc_step = zero(AttentionSite::kEncoderSelf, 0, 0);
  enc_step.step = 1;
  Intervention force_self;
  force_self.kind = InterventionKind::kForceAttention;
  force_self.attention = AttentionSite::kDecoderSelf;
  force_self.source = 0;
  Intervention force_far = force_self;
  force_far.attention = AttentionSite::kCross;
  force_far.source = 5;
  Intervention mask_self;
  mask_self.kind = InterventionKind::kMaskSource;
  mask_self.attention = AttentionSite::kDecoderSelf;
  mask_self.source = 0;
  Intervention zero_row;
  zero_row.kind = InterventionKind::kEditAttention;
  zero_row.weights.assign(5, 0.0f);
  Intervention twice = zero_row;
  twice.weights[1] = 1.0f;
  twice.layer = 1;
  Intervention beyond = force_far;
  beyond.source = 0;
  beyond.step = 5;
  const std::vector<std::pair<Intervention, std::string>> cases = {
      {far, "layer 2 is out of range: the model has 2 layers (0 … 1"},
      {head, "head 2 is out of range: the model has 2 heads"},
      {enc_step, "the encoder runs once per sentence"},
      {force_self, "only the cross-attention's rows can be forced"},
      {force_far, "source token 5 is outside the sentence of 5 tokens"},
      {mask_self, "only the cross-attention's rows can be forced, edited or masked"},
      {zero_row, "the edited row must sum to a positive number"},
  };
  for (const auto& [v, message] : cases) {
    EXPECT_INPUT_ERROR(lab::greedy_decode(model, kSource, options(), {v}), message.c_str());
  }
  Intervention force_all = force_far;
  force_all.source = 1;  // every layer and head, so it overlaps `twice` (layer 1)
  EXPECT_INPUT_ERROR(lab::greedy_decode(model, kSource, options(), {force_all, twice}),
                     "intervention 1 (edit-attention at step 0) conflicts with intervention 0 "
                     "(force-attention) on the same head at the same step");
  const lab::TransformerGreedyResult plain = lab::greedy_decode(model, kSource, options());
  if (static_cast<long>(plain.result.steps.size()) <= 5) {
    EXPECT_INPUT_ERROR(lab::greedy_decode(model, kSource, options(), {beyond}),
                       "beyond the translation");
  }
}

}  // namespace
