// One padded training or evaluation batch, as the tasks hand it to the model.
//
// Every array is row-major int32 with padding id kPadId (<pad>):
//   src      (B, S)  source token ids; row b holds src_len[b] real tokens, then padding
//   src_len  (B)     real source tokens per row, each in [1, S]
//   tgt_in   (B, T)  decoder input:  <sos> + target, then padding   (teacher forcing)
//   tgt_out  (B, T)  decoder output: target + <eos>, then padding   (what the loss compares with)
// tgt_in[b][t + 1] == tgt_out[b][t] for every real position, so T = longest target + 1.
#pragma once

#include <cstdint>
#include <vector>

namespace lab {

// The padding id, in every vocabulary (vocab.h reserves it for "<pad>") and every batch; the loss
// ignores target positions equal to it.
constexpr int32_t kPadId = 0;

struct Batch {
  long B = 0, S = 0, T = 0;
  std::vector<int32_t> src, src_len, tgt_in, tgt_out;
};

}  // namespace lab
