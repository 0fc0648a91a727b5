// What the session tests of both translators share: the reverse task's options, a small
// Transformer session, and the check that a saved session resumes bit for bit.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "rnn/session.h"
#include "sequence/tasks.h"
#include "transformer/session.h"

namespace sessiontest {

// The reverse task: `train` and `held_out` strings of min_len…max_len of the first `symbols`
// letters, drawn from `seed`.
inline lab::TaskOptions reverse_task(uint64_t seed, long train, long held_out, long min_len,
                                     long max_len, long symbols) {
  lab::TaskOptions o;
  o.seed = seed;
  o.train = train;
  o.held_out = held_out;
  o.min_len = min_len;
  o.max_len = max_len;
  o.symbols = symbols;
  return o;
}

// The size of a test's Transformer.
struct Size {
  long layers, heads, d_model, d_ff;
};

// A Transformer session on `task` of that size, `batch_size` examples a step, peak rate 1e-2
// after `warmup` steps (the other settings the member initialisers').
inline lab::TransformerSessionConfig transformer_session(const std::string& task, Size size,
                                                         long batch_size, long warmup) {
  lab::TransformerSessionConfig c;
  c.task = task;
  c.layers = size.layers;
  c.heads = size.heads;
  c.d_model = size.d_model;
  c.d_ff = size.d_ff;
  c.batch_size = batch_size;
  c.learning_rate = 1e-2;
  c.warmup = warmup;
  return c;
}

// Training `first` steps, saving, loading and training `then` more gives bit for bit what training
// first + then steps straight gives: the losses, token accuracies and step, and the same saved
// file (weights, Adam's moments and step, the sampler); load → save gives the file back. Returns
// the file saved after `first` steps.
template <class Session, class Config>
std::vector<uint8_t> expect_resume_is_bit_identical(const Config& config, long first, long then) {
  Session straight(config);
  const lab::TrainResult before = straight.train(first);
  const lab::TrainResult expected = straight.train(then);

  Session interrupted(config);
  EXPECT_EQ(interrupted.train(first).losses, before.losses);
  const std::vector<uint8_t> file = interrupted.save();
  Session resumed = Session::load(file);
  EXPECT_EQ(resumed.step(), first);
  const lab::TrainResult after = resumed.train(then);
  EXPECT_EQ(after.losses, expected.losses);  // bitwise
  EXPECT_EQ(after.token_accuracy, expected.token_accuracy);
  EXPECT_EQ(after.step, first + then);
  EXPECT_EQ(resumed.save(), straight.save());
  EXPECT_EQ(Session::load(file).save(), file) << "load → save gives the same bytes";
  return file;
}

}  // namespace sessiontest
