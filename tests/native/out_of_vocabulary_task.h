// A task whose batches hold a source id outside its own vocabulary: a validation error such as a
// bug in a task would raise. The session tests train on it to show that such an error is not
// reported as the run diverging (expect_own_error_not_divergence below).
#pragma once

#include <gtest/gtest.h>

#include <cstring>

#include "rnn/session.h"  // TrainingDiverged
#include "sequence/tasks.h"

namespace lab {

class OutOfVocabularyTask : public Task {
 public:
  OutOfVocabularyTask()
      : Task("out-of-vocabulary", Vocab::build(Tokenizer::kWords, {"a", "b"}),
             Vocab::build(Tokenizer::kWords, {"x"})) {
    max_source_tokens_ = 1;
    max_target_tokens_ = 1;
  }
  long train_size() const override { return 1; }
  Example sample_train(Rng&) const override {
    Example e;
    e.source = "a";
    e.target = "x";
    e.source_ids = {99};  // the source vocabulary has ids 0 … 5
    e.target_ids = {4};
    return e;
  }
};

// Trains a session (Seq2SeqSession or TransformerSession) built on an OutOfVocabularyTask twice:
// each time the batch's bad id must be reported as itself (its message contains `expected`),
// never as the run diverging, and nothing must have been trained.
template <class Session>
void expect_own_error_not_divergence(Session& s, const char* expected) {
  for (int attempt = 0; attempt < 2; ++attempt) {  // the same error again: nothing was changed
    try {
      s.train(3);
      ADD_FAILURE() << "a batch with token id 99 must be rejected";
    } catch (const TrainingDiverged& e) {
      ADD_FAILURE() << "relabelled as divergence: " << e.what();
    } catch (const InputError& e) {
      EXPECT_NE(std::strstr(e.what(), expected), nullptr) << e.what();
      EXPECT_EQ(std::strstr(e.what(), "diverged"), nullptr) << e.what();
      EXPECT_EQ(std::strstr(e.what(), "learningRate"), nullptr) << e.what();
    }
    EXPECT_EQ(s.step(), 0);
  }
}

}  // namespace lab
