// A task whose batches hold a source id outside its own vocabulary: a validation error such as a
// bug in a task would raise. The session tests train on it to show that such an error is not
// reported as the run diverging.
#pragma once

#include "seq2seq/tasks.h"

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

}  // namespace lab
