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
#include <string>
#include <vector>

namespace lab {

// The padding id, in every vocabulary (vocab.h reserves it for "<pad>") and every batch; the loss
// ignores target positions equal to it.
constexpr int32_t kPadId = 0;

struct Batch {
  long B = 0, S = 0, T = 0;
  std::vector<int32_t> src, src_len, tgt_in, tgt_out;
};

// A model's checks of its vocabularies and batches (params.h has the parameter table's):
// - check_vocab_sizes: both vocabularies in [2, kMaxVocab] (padding id 0 included);
// - check_batch_sizes: B in [1, kMaxDim], S and T in [1, max_length] (`length_note` follows
//   their names in the messages: why the model has that limit, or empty);
// - check_batch_arrays: each array's size against B, S, T, every src_len in [1, S] and every id
//   inside its vocabulary (the caller has checked B, S and T themselves).
// Each throws InputError naming the array, position or problem.
void check_vocab_sizes(long src_vocab, long tgt_vocab);
void check_batch_sizes(const Batch& batch, long max_length, const std::string& length_note);
void check_batch_arrays(const Batch& batch, long src_vocab, long tgt_vocab);

}  // namespace lab
