// The head detectors and the head mask (gpt/heads.h).
#include "gpt/heads.h"

#include <algorithm>
#include <string>

namespace lab {

const char* const kGptDetectorNames[kGptDetectors] = {"previous", "lineBack", "lineStart",
                                                      "induction"};

std::vector<GptHeadQuery> gpt_text_queries(GptDetector d, const std::vector<int32_t>& text,
                                           const std::vector<int32_t>& line_end, long start,
                                           long length) {
  const long end = start + length;
  // line_start[i]: the first position of i's line (a line end belongs to the line it ends).
  std::vector<long> line_start(static_cast<size_t>(end));
  long s = 0;
  for (long i = 0; i < end; ++i) {
    line_start[i] = s;
    if (std::find(line_end.begin(), line_end.end(), text[i]) != line_end.end()) s = i + 1;
  }
  std::vector<GptHeadQuery> out;
  for (long i = start; i < end; ++i) {
    GptHeadQuery q{i - start, {}};
    const long ls = line_start[i], column = i - ls;
    const auto add = [&](long target) {
      if (target >= start) q.targets.push_back(target - start);
    };
    if (d == kPreviousChar) {
      if (i >= 1) add(i - 1);
    } else if (d == kLineBack) {
      if (ls >= 1) {
        const long target = line_start[ls - 1] + column;
        if (target < ls && target != i - 1) add(target);
      }
    } else if (d == kLineStart) {
      if (column >= 2) {
        add(ls);
        if (ls >= 1) add(ls - 1);
      }
    }
    if (!q.targets.empty()) out.push_back(std::move(q));
  }
  return out;
}

std::vector<GptHeadQuery> gpt_induction_queries(long n) {
  std::vector<GptHeadQuery> out;
  for (long j = 0; j + 2 <= n; ++j) out.push_back({n + j, {j + 1}});
  return out;
}

void gpt_accumulate_scores(double* sums, const float* att, long H, long T,
                           const std::vector<GptHeadQuery>& queries) {
  for (long h = 0; h < H; ++h) {
    for (const GptHeadQuery& q : queries) {
      const float* row = att + (h * T + q.query) * T;
      for (long t : q.targets) sums[h] += row[t];
    }
  }
}

std::vector<uint8_t> gpt_head_mask(const GptConfig& c, const std::vector<GptHeadRef>& heads) {
  std::vector<uint8_t> mask(static_cast<size_t>(c.layers * c.heads), 0);
  for (size_t i = 0; i < heads.size(); ++i) {
    const std::string key = "zeroHeads[" + std::to_string(i) + "]";
    if (heads[i].layer < 0 || heads[i].layer >= c.layers) {
      throw InputError(key + ": layer " + std::to_string(heads[i].layer) + " is outside [0, " +
                       std::to_string(c.layers) + ") (the model has " + std::to_string(c.layers) +
                       " layers, numbered from 0)");
    }
    if (heads[i].head < 0 || heads[i].head >= c.heads) {
      throw InputError(key + ": head " + std::to_string(heads[i].head) + " is outside [0, " +
                       std::to_string(c.heads) + ") (the model has " + std::to_string(c.heads) +
                       " heads per layer, numbered from 0)");
    }
    mask[heads[i].layer * c.heads + heads[i].head] = 1;
  }
  return mask;
}

namespace {

void check_ids(const std::vector<int32_t>& ids, long V, const std::string& what) {
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] >= V) {
      throw InputError(what + "[" + std::to_string(i) + "] = " + std::to_string(ids[i]) +
                       " is outside the vocabulary [0, " + std::to_string(V) + ")");
    }
  }
}

// Each score: the summed target weight over the scored queries, divided by their number (even:
// the same for the even spread's weights).
GptHeadScores finish(GptHeadScores& out, const std::vector<double>& sums, const double* even) {
  const long LH = out.layers * out.heads;
  out.scores.resize(sums.size());
  for (long d = 0; d < kGptDetectors; ++d) {
    const double n = static_cast<double>(out.queries[d]);
    for (long i = 0; i < LH; ++i) {
      out.scores[d * LH + i] = n > 0 ? static_cast<float>(sums[d * LH + i] / n) : 0.0f;
    }
    out.even[d] = n > 0 ? static_cast<float>(even[d] / n) : 0.0f;
  }
  return out;
}

}  // namespace

GptHeadScores gpt_head_scores(GptModel& model, const GptHeadProbe& probe,
                              const std::vector<GptHeadRef>& zero_heads) {
  const GptConfig& c = model.config();
  const long L = c.layers, H = c.heads, T = c.block_size;
  const std::vector<uint8_t> mask = gpt_head_mask(c, zero_heads);
  check_ids(probe.text, c.vocab, "the probe text");
  check_ids(probe.line_end, c.vocab, "the probe's line ends");
  check_ids(probe.random, c.vocab, "the induction probe");
  const long n_text = static_cast<long>(probe.text.size());
  const long n = static_cast<long>(probe.random.size());
  if (n_text < 2) throw InputError("the probe text needs at least 2 characters");
  if (n != 0 && (n < 3 || 2 * n > T)) {
    throw InputError("the induction probe needs none or 3 to blockSize / 2 = " +
                     std::to_string(T / 2) + " ids (got " + std::to_string(n) + ")");
  }
  GptHeadScores out;
  out.layers = L;
  out.heads = H;
  std::vector<double> sums(static_cast<size_t>(kGptDetectors * L * H), 0.0);
  double even[kGptDetectors] = {0, 0, 0, 0};
  const auto score = [&](const GptBatch& batch, const std::vector<GptHeadQuery>* queries[]) {
    model.forward(batch, mask);
    for (long d = 0; d < kGptDetectors; ++d) {
      if (!queries[d]) continue;
      out.queries[d] += static_cast<long>(queries[d]->size());
      // the even spread puts 1 / (i + 1) on each of query i's targets
      for (const GptHeadQuery& q : *queries[d]) {
        even[d] += static_cast<double>(q.targets.size()) / static_cast<double>(q.query + 1);
      }
      for (long l = 0; l < L; ++l) {
        gpt_accumulate_scores(sums.data() + (d * L + l) * H, model.attention(l).data(), H, batch.T,
                              *queries[d]);
      }
    }
  };
  // The text probe: consecutive windows of T positions (the last one shorter, if any).
  const long windows = std::min(kGptProbeWindows, (n_text + T - 1) / T);
  for (long w = 0; w < windows; ++w) {
    const long start = w * T, len = std::min(T, n_text - start);
    if (len < 2) break;
    GptBatch batch;
    batch.B = 1;
    batch.T = len;
    batch.idx.assign(probe.text.begin() + start, probe.text.begin() + start + len);
    std::vector<GptHeadQuery> q[3];
    const std::vector<GptHeadQuery>* qs[kGptDetectors] = {};
    for (long d = 0; d < 3; ++d) {
      q[d] = gpt_text_queries(static_cast<GptDetector>(d), probe.text, probe.line_end, start, len);
      qs[d] = &q[d];
    }
    score(batch, qs);
  }
  // The induction probe: r ++ r.
  if (n == 0) return finish(out, sums, even);
  GptBatch batch;
  batch.B = 1;
  batch.T = 2 * n;
  batch.idx = probe.random;
  batch.idx.insert(batch.idx.end(), probe.random.begin(), probe.random.end());
  const std::vector<GptHeadQuery> induction = gpt_induction_queries(n);
  const std::vector<GptHeadQuery>* qs[kGptDetectors] = {nullptr, nullptr, nullptr, &induction};
  score(batch, qs);
  return finish(out, sums, even);
}

}  // namespace lab
