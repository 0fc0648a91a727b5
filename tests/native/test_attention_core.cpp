// The attention core's views (attention/core.h): one attention call on columns of a wider buffer
// (rows ld floats apart, as each head of attention/mha.h reads q, k, v and writes its context)
// gives what the same call gives on a contiguous copy of those columns, forward and backward, for
// every score. The PyTorch references (test_attention_reference.cpp,
// test_transformer_reference.cpp) check the contiguous calls and the heads; this checks the strides
// that join them.
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "attention/core.h"

namespace {

using lab::Score;
namespace attn = lab::attn;

std::vector<float> random_vector(long n, std::mt19937& rng) {
  std::normal_distribution<float> normal(0.0f, 0.5f);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = normal(rng);
  return v;
}

// Columns c0 … c0 + C of a (R, ld) buffer, contiguous.
std::vector<float> columns(const std::vector<float>& x, long R, long ld, long c0, long C) {
  std::vector<float> out;
  for (long r = 0; r < R; ++r)
    out.insert(out.end(), x.begin() + r * ld + c0, x.begin() + r * ld + c0 + C);
  return out;
}

void expect_near(const std::vector<float>& a, const std::vector<float>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5f) << what << " [" << i << "]";
}

TEST(AttentionCore, StridedViewsGiveTheContiguousCall) {
  const long N = 5, M = 7, D = 4, Dk = 3, Dv = 6, A = 5;     // Dk != D: general and additive only
  const long ldq = 11, ldk = 9, ldv = 13, ldo = 10, c0 = 2;  // the views start at column c0
  for (Score score :
       {Score::kDot, Score::kScaled, Score::kGeneral, Score::kAdditive, Score::kCosine}) {
    const bool same = score != Score::kGeneral && score != Score::kAdditive;
    const long dk = same ? D : Dk;
    std::mt19937 rng(static_cast<unsigned>(score) + 1);
    const std::vector<float> q = random_vector(N * ldq, rng), k = random_vector(M * ldk, rng),
                             v = random_vector(M * ldv, rng), dout = random_vector(N * ldo, rng);
    const std::vector<float> w = random_vector(D * dk, rng), w1 = random_vector(A * D, rng),
                             w2 = random_vector(A * dk, rng), b = random_vector(A, rng),
                             vv = random_vector(A, rng);
    attn::ScoreWeights sw;
    sw.score = score;
    sw.temperature = 0.5f;
    sw.A = score == Score::kAdditive ? A : 0;
    sw.w = w.data();
    sw.w1 = w1.data();
    sw.w2 = w2.data();
    sw.b = b.data();
    sw.v = vv.data();
    // key m = 6 padded for every query; query 0 sees keys 0 … 5
    std::vector<uint8_t> pad(M, 0);
    pad[6] = 1;
    std::vector<uint8_t> keep(N * M);
    ASSERT_EQ(attn::keep_mask(keep.data(), pad.data(), false, N, M), -1);

    // Runs forward and backward on the given views; returns out, weights, dq, dk, dv and the
    // score's weight gradients, each contiguous.
    auto run = [&](const float* qp, const float* kp, const float* vp, const float* dp,
                   const attn::Dims& d) {
      std::vector<float> out(N * d.ldo), weights(N * M), scores(N * M);
      std::vector<float> dq(N * d.ldq), dkk(M * d.ldk), dv(M * d.ldv);
      std::vector<float> gw(D * dk), gw1(A * D), gw2(A * dk), gb(A), gv(A);
      attn::ScoreActsBuffer acts;
      acts.resize(score, 1, N, M, D, sw.A);
      attn::AttentionScratch scratch;
      const lab::kernels::SoftmaxStatus status = attn::attention_forward(
          out.data() + (d.ldo == Dv ? 0 : c0), weights.data(), scores.data(), acts.at(0),
          scratch.score, sw, keep.data(), qp, kp, vp, d);
      EXPECT_TRUE(status.finite);
      EXPECT_EQ(status.masked_row, -1);
      const attn::ScoreGrads g{gw.data(), gw1.data(), gw2.data(), gb.data(), gv.data()};
      const long o = d.ldq == D ? 0 : c0;
      attn::attention_backward(dq.data() + o, dkk.data() + (d.ldk == dk ? 0 : c0),
                               dv.data() + (d.ldv == Dv ? 0 : c0), g, scratch, sw,
                               std::as_const(acts).at(0), dp, weights.data(), qp, kp, vp, d);
      std::vector<std::vector<float>> r;
      r.push_back(columns(out, N, d.ldo, d.ldo == Dv ? 0 : c0, Dv));
      r.push_back(weights);
      r.push_back(scores);
      r.push_back(columns(dq, N, d.ldq, o, D));
      r.push_back(columns(dkk, M, d.ldk, d.ldk == dk ? 0 : c0, dk));
      r.push_back(columns(dv, M, d.ldv, d.ldv == Dv ? 0 : c0, Dv));
      for (auto* x : {&gw, &gw1, &gw2, &gb, &gv}) r.push_back(*x);
      return r;
    };
    const attn::Dims strided{N, M, D, dk, Dv, ldq, ldk, ldv, ldo};
    const auto a = run(q.data() + c0, k.data() + c0, v.data() + c0, dout.data() + c0, strided);
    const std::vector<float> qc = columns(q, N, ldq, c0, D), kc = columns(k, M, ldk, c0, dk),
                             vc = columns(v, M, ldv, c0, Dv), dc = columns(dout, N, ldo, c0, Dv);
    const auto c =
        run(qc.data(), kc.data(), vc.data(), dc.data(), attn::contiguous(N, M, D, dk, Dv));
    const char* names[] = {"out", "weights", "scores", "dq", "dk",      "dv",
                           "dw",  "dw1",     "dw2",    "db", "dv_score"};
    for (size_t i = 0; i < a.size(); ++i) {
      SCOPED_TRACE(lab::score_name(score));
      expect_near(a[i], c[i], names[i]);
    }
    // the padded key gets weight exactly 0 and no gradient
    for (long n = 0; n < N; ++n) EXPECT_EQ(a[1][n * M + 6], 0.0f);
  }
}

TEST(AttentionCore, KeepMaskReportsTheFirstQueryWithNoKey) {
  std::vector<uint8_t> keep(3 * 3);
  const uint8_t first_padded[] = {1, 0, 0}, all_padded[] = {1, 1, 1};
  EXPECT_EQ(attn::keep_mask(keep.data(), first_padded, false, 3, 3), -1);
  EXPECT_EQ(attn::keep_mask(keep.data(), first_padded, true, 3, 3), 0);  // query 0 sees key 0 only
  EXPECT_EQ(attn::keep_mask(keep.data(), all_padded, false, 3, 3), 0);
  EXPECT_EQ(attn::keep_mask(keep.data(), nullptr, true, 3, 3), -1);
  const uint8_t causal[] = {1, 0, 0, 1, 1, 0, 1, 1, 1};
  EXPECT_EQ(std::vector<uint8_t>(keep.begin(), keep.end()),
            std::vector<uint8_t>(causal, causal + 9));
}

}  // namespace
