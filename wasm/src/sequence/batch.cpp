// The checks of a Batch (batch.h) that do not depend on the model.
#include "sequence/batch.h"

#include <string>

#include "params.h"  // check_range, kMaxVocab
#include "tensor.h"  // InputError

namespace lab {

namespace {

void check_ids(const std::vector<int32_t>& ids, long B, long L, long vocab, const char* name,
               const char* vocab_name) {
  for (long b = 0; b < B; ++b) {
    for (long t = 0; t < L; ++t) {
      const int32_t id = ids[static_cast<size_t>(b * L + t)];
      if (id < 0 || id >= vocab) {
        throw InputError(std::string("batch.") + name + " id " + std::to_string(id) + " at (" +
                         std::to_string(b) + ", " + std::to_string(t) + ") is outside the " +
                         vocab_name + " vocabulary of " + std::to_string(vocab));
      }
    }
  }
}

void check_size(const std::vector<int32_t>& v, long n, const char* name, const char* layout) {
  if (static_cast<long>(v.size()) != n) {
    throw InputError(std::string("batch.") + name + " has " + std::to_string(v.size()) +
                     " ids but its shape " + layout + " needs " + std::to_string(n));
  }
}

}  // namespace

void check_vocab_sizes(long src_vocab, long tgt_vocab) {
  check_range(src_vocab, 2, kMaxVocab, "source vocabulary size (padding id 0 included)");
  check_range(tgt_vocab, 2, kMaxVocab, "target vocabulary size (padding id 0 included)");
}

void check_batch_sizes(const Batch& batch, long max_length, const std::string& length_note) {
  check_range(batch.B, 1, kMaxDim, "batch size B");
  check_range(batch.S, 1, max_length, "source length S" + length_note);
  check_range(batch.T, 1, max_length, "target length T" + length_note);
}

void check_batch_arrays(const Batch& batch, long src_vocab, long tgt_vocab) {
  const long B = batch.B, S = batch.S, T = batch.T;
  check_size(batch.src, B * S, "src", "(B, S)");
  check_size(batch.src_len, B, "src_len", "(B)");
  check_size(batch.tgt_in, B * T, "tgt_in", "(B, T)");
  check_size(batch.tgt_out, B * T, "tgt_out", "(B, T)");
  for (long b = 0; b < B; ++b) {
    const int32_t len = batch.src_len[static_cast<size_t>(b)];
    if (len < 1 || len > S) {
      throw InputError("batch.src_len[" + std::to_string(b) + "] = " + std::to_string(len) +
                       " must be in [1, S = " + std::to_string(S) + "]");
    }
  }
  check_ids(batch.src, B, S, src_vocab, "src", "source");
  check_ids(batch.tgt_in, B, T, tgt_vocab, "tgt_in", "target");
  check_ids(batch.tgt_out, B, T, tgt_vocab, "tgt_out", "target");
}

}  // namespace lab
