// The Seq2Seq tasks: deterministic, seeded data generated locally (no downloads to rot).
//
//   note     the note's five Chinese → English pairs (§3.3), words as tokens
//   zh-en    Chinese → English sentences from a small grammar with word-order changes
//            (task_grammar.h), words as tokens, every target word aligned to its source words
//   dates    a date in one of 24 human formats → ISO "2015-01-23", characters as tokens
//            (like the TensorFlow.js date-conversion-attention example)
//   reverse  a string of letters → the same string reversed, with a length knob: the long-range
//            task on which a fixed-size context fails and attention does not
//   copy     the same strings → themselves
//   pairs    the reader's own tab-separated sentence pairs, words or characters as tokens
//            (task_pairs.h)
//
// Every random choice goes through lab::Rng (splitmix64, rng.h) with integer arithmetic only, so
// a seed gives the same data on every platform, native and wasm alike (std::*_distribution is
// implementation-defined and never used). The trainer passes its own Rng to sample_batch, so one
// seed drives a whole run.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rng.h"
#include "sequence/batch.h"
#include "sequence/vocab.h"

namespace lab {

struct Example {
  std::string source;               // as a user would type it
  std::string target;               // the reference output text
  std::vector<int32_t> source_ids;  // no <sos>/<eos>
  std::vector<int32_t> target_ids;  // no <sos>/<eos>
  // Empty, or one entry per target token: the indices into source_ids of the source tokens it
  // translates, empty for a function word (the, a) that translates none on its own.
  std::vector<std::vector<int32_t>> alignment;
};

// Source lengths [min_words, max_words], inclusive: one bucket of the exact-match-by-length table.
struct LengthBucket {
  long min_words = 0, max_words = 0;
};

// Pads examples into one Batch (layout in batch.h). Throws for no examples or an empty source.
Batch make_batch(const std::vector<Example>& examples);

// Limits on the options: they keep generation well under a second and memory below ~25 MB
// (a stored example of 64 symbols costs ~0.9 KB with its ids and set entry).
constexpr long kMaxBatchSize = 1024;
constexpr long kMaxHeldOut = 10000;
constexpr long kMaxTrainSequences = 20000;
constexpr long kMaxSequenceLength = kDefaultMaxTokens;  // so any training string can be typed in
constexpr long kMaxSymbols = 26;                        // the letters a–z
// Rejection sampling (a string or sentence outside its lengths, or already drawn) gives up after
// this many draws in a row that it had to throw away: the tasks have far more strings than a
// training set draws, so it never does in practice.
constexpr long kMaxRejectedDraws = 100000;

struct TaskOptions {
  uint64_t seed = 1;
  long held_out = 0;  // held-out examples; 0: the task's default (dates 2000, others 500)
  long train = 0;     // reverse/copy/zh-en: training examples; 0: 10000 (zh-en 5000)
  long min_len = 5;   // reverse/copy: string lengths, inclusive
  long max_len = 60;
  long symbols = 20;  // reverse/copy: alphabet size, the first letters a, b, c, …
  // pairs: the tab-separated text (task_pairs.h), how its sides split into tokens, and the
  // share of its distinct pairs held out, in [0, 0.5].
  std::string pairs;
  Tokenizer tokenize = Tokenizer::kWords;
  double held_out_fraction = 0.1;
};

// {"seed": 1, "held_out": 0, ...}; unknown keys, non-integers and values beyond the limits throw.
// The pairs fields ("pairs", "tokenize", "held_out_fraction") are written only for a non-empty
// pairs text, so the other tasks' files are as before.
TaskOptions task_options_from_json(const nlohmann::json& j);
nlohmann::json task_options_to_json(const TaskOptions& options);

class Task {
 public:
  virtual ~Task() = default;

  const std::string& name() const { return name_; }
  const Vocab& source_vocab() const { return source_vocab_; }
  const Vocab& target_vocab() const { return target_vocab_; }
  Tokenizer tokenizer() const { return source_vocab_.tokenizer(); }

  // Distinct training examples the sampler draws from (dates: training dates × formats).
  virtual long train_size() const = 0;
  virtual Example sample_train(Rng& rng) const = 0;
  // batch_size training examples drawn with replacement; batch_size in [1, kMaxBatchSize].
  Batch sample_batch(Rng& rng, long batch_size) const;

  // Fixed evaluation examples, disjoint from training, except for the note: its five pairs
  // cannot be split, and the book tests on a training sentence, so they are the training pairs.
  const std::vector<Example>& held_out() const { return held_out_; }
  bool held_out_is_training_data() const { return held_out_is_training_data_; }

  // Upper bounds over every example the task can produce (target without <eos>).
  long max_source_tokens() const { return max_source_tokens_; }
  long max_target_tokens() const { return max_target_tokens_; }

  // reverse/copy: `count` fresh strings of exactly `length` symbols, none from the training set,
  // for the accuracy-vs-length table. Other tasks throw InputError.
  virtual std::vector<Example> eval_at_length(long length, long count, uint64_t seed) const;

  // The buckets evaluate() reports exact match in; empty: the session picks four of equal width.
  const std::vector<LengthBucket>& length_buckets() const { return length_buckets_; }

  // The text translate() reads when the user types `text`: as is, except that the pairs task
  // with characters as tokens drops whitespace, as it did from its training pairs.
  virtual std::string input_text(const std::string& text) const { return text; }

  // Encodes a pair with this task's vocabularies.
  Example make_example(std::string source, std::string target) const;

 protected:
  Task(std::string name, Vocab source_vocab, Vocab target_vocab)
      : name_(std::move(name)),
        source_vocab_(std::move(source_vocab)),
        target_vocab_(std::move(target_vocab)) {}

  std::string name_;
  Vocab source_vocab_, target_vocab_;
  std::vector<Example> held_out_;
  bool held_out_is_training_data_ = false;
  long max_source_tokens_ = 0, max_target_tokens_ = 0;
  std::vector<LengthBucket> length_buckets_;
};

// Throws "unknown task 'x' (expected note, zh-en, dates, reverse, copy, pairs)" and option errors.
std::unique_ptr<Task> make_task(const std::string& name, const TaskOptions& options = {});

// The dates task's calendar and formats, public for tests and for the UI's format list.
namespace dates {

struct Date {
  int year = 1970, month = 1, day = 1;
};
constexpr Date kFirstDate{1950, 1, 1};   // two-digit years are unambiguous in this century:
constexpr Date kLastDate{2049, 12, 31};  // 50–99 → 19xx, 00–49 → 20xx

// Days since 1970-01-01 and back (proleptic Gregorian; Hinnant's algorithms).
long days_from_civil(const Date& date);
Date civil_from_days(long days);
// 0 = Sunday … 6 = Saturday.
int weekday(const Date& date);

// The formats as patterns: fields in braces ({d} {dd} {M} {MM} {MMM} {MON} {MMMM} {yy} {yyyy}
// {EEE} {EEEE}), everything else literal. Numeric formats with slashes are month-first (US);
// with dots or dashes they are day-first; year-first formats are ISO-like. No two formats can
// read the same string as different dates.
const std::vector<std::string>& format_patterns();
// Renders a date in format `format` (an index into format_patterns()); throws for a bad index.
std::string render(const Date& date, int format);
std::string iso(const Date& date);

// The dates task (task_dates.cpp), validated options; use make_task("dates", options).
std::unique_ptr<Task> make_task(const TaskOptions& options);

}  // namespace dates

}  // namespace lab
