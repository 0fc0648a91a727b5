// The tasks' shared batching and options, and the note, reverse and copy generators. The dates
// task (calendar, formats, the task) is task_dates.cpp; the zh-en grammar task task_grammar.cpp.
#include "sequence/tasks.h"

#include <algorithm>
#include <set>

#include "format.h"
#include "sequence/task_grammar.h"
#include "sequence/task_pairs.h"
#include "tensor.h"

namespace lab {

// ---------------------------------------------------------------------------------------------
// Batching

Batch make_batch(const std::vector<Example>& examples) {
  if (examples.empty()) throw InputError("a batch needs at least one example");
  Batch batch;
  batch.B = static_cast<long>(examples.size());
  for (const Example& example : examples) {
    if (example.source_ids.empty()) throw InputError("an example has an empty source");
    batch.S = std::max(batch.S, static_cast<long>(example.source_ids.size()));
    batch.T = std::max(batch.T, static_cast<long>(example.target_ids.size()) + 1);
  }
  // 64-bit products: `long` is 32 bits in wasm.
  if (int64_t{batch.B} * batch.S > kMaxElements || int64_t{batch.B} * batch.T > kMaxElements) {
    throw InputError("batch of " + std::to_string(batch.B) + " examples exceeds the limit of " +
                     std::to_string(kMaxElements) + " tokens");
  }
  batch.src.assign(static_cast<size_t>(batch.B * batch.S), kPadId);
  batch.tgt_in.assign(static_cast<size_t>(batch.B * batch.T), kPadId);
  batch.tgt_out.assign(static_cast<size_t>(batch.B * batch.T), kPadId);
  batch.src_len.resize(static_cast<size_t>(batch.B));
  for (size_t b = 0; b < examples.size(); ++b) {
    const Example& example = examples[b];
    std::copy(example.source_ids.begin(), example.source_ids.end(),
              batch.src.begin() + static_cast<long>(b) * batch.S);
    batch.src_len[b] = static_cast<int32_t>(example.source_ids.size());
    auto tgt_in = batch.tgt_in.begin() + static_cast<long>(b) * batch.T;
    auto tgt_out = batch.tgt_out.begin() + static_cast<long>(b) * batch.T;
    tgt_in[0] = kSosId;
    std::copy(example.target_ids.begin(), example.target_ids.end(), tgt_in + 1);
    std::copy(example.target_ids.begin(), example.target_ids.end(), tgt_out);
    tgt_out[static_cast<long>(example.target_ids.size())] = kEosId;
  }
  return batch;
}

// ---------------------------------------------------------------------------------------------
// Options

namespace {

void check_option(const char* name, long value, long lo, long hi) {
  check_range(value, lo, hi, "option " + std::string(name));
}

void validate_options(const TaskOptions& o) {
  if (o.held_out != 0) check_option("held_out", o.held_out, 1, kMaxHeldOut);
  if (o.train != 0) check_option("train", o.train, 1, kMaxTrainSequences);
  check_option("min_len", o.min_len, 1, kMaxSequenceLength);
  check_option("max_len", o.max_len, 1, kMaxSequenceLength);
  if (o.max_len < o.min_len) {
    throw InputError("option max_len (" + std::to_string(o.max_len) + ") is less than min_len (" +
                     std::to_string(o.min_len) + ")");
  }
  check_option("symbols", o.symbols, 2, kMaxSymbols);
#ifndef LAB_NO_PAIRS_TASK
  check_pairs_options(o);
#endif
}

}  // namespace

TaskOptions task_options_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw InputError("task options must be a JSON object");
  TaskOptions options;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    const nlohmann::json& value = it.value();
    if (key == "pairs" || key == "tokenize") {
      if (!value.is_string()) throw InputError("option " + key + " must be a string");
      if (key == "pairs") {
        options.pairs = value.get<std::string>();
      } else {
        options.tokenize = parse_tokenizer(value.get<std::string>());
      }
      continue;
    }
    if (key == "held_out_fraction") {
      if (!value.is_number()) throw InputError("option held_out_fraction must be a number");
      options.held_out_fraction = value.get<double>();
      continue;
    }
    if (key == "seed") {
      // JSON numbers travel through JavaScript doubles, so only exact non-negative integers.
      bool non_negative =
          value.is_number_unsigned() || (value.is_number_integer() && value.get<int64_t>() >= 0);
      if (!non_negative) throw InputError("option seed must be an integer >= 0");
      options.seed = value.get<uint64_t>();
      continue;
    }
    long* field = key == "held_out"  ? &options.held_out
                  : key == "train"   ? &options.train
                  : key == "min_len" ? &options.min_len
                  : key == "max_len" ? &options.max_len
                  : key == "symbols" ? &options.symbols
                                     : nullptr;
    if (field == nullptr) {
      throw InputError("unknown task option '" + key +
                       "' (expected seed, held_out, train, min_len, max_len, symbols, pairs, "
                       "tokenize, held_out_fraction)");
    }
    if (!value.is_number_integer()) throw InputError("option " + key + " must be an integer");
    // Clamp before narrowing so a huge value reports itself as out of range, not wrapped.
    int64_t v = value.is_number_unsigned()
                    ? static_cast<int64_t>(std::min<uint64_t>(value.get<uint64_t>(), 1u << 30))
                    : std::max<int64_t>(value.get<int64_t>(), -(1 << 30));
    *field = static_cast<long>(v);
  }
  validate_options(options);
  return options;
}

nlohmann::json task_options_to_json(const TaskOptions& o) {
  nlohmann::json j = {{"seed", o.seed},       {"held_out", o.held_out}, {"train", o.train},
                      {"min_len", o.min_len}, {"max_len", o.max_len},   {"symbols", o.symbols}};
  if (!o.pairs.empty()) {
    j["pairs"] = o.pairs;
    j["tokenize"] = tokenizer_name(o.tokenize);
    j["held_out_fraction"] = o.held_out_fraction;
  }
  return j;
}

// ---------------------------------------------------------------------------------------------
// Task

Batch Task::sample_batch(Rng& rng, long batch_size) const {
  check_option("batch_size", batch_size, 1, kMaxBatchSize);
  std::vector<Example> examples;
  examples.reserve(static_cast<size_t>(batch_size));
  for (long i = 0; i < batch_size; ++i) examples.push_back(sample_train(rng));
  return make_batch(examples);
}

std::vector<Example> Task::eval_at_length(long, long, uint64_t) const {
  throw InputError("task '" + name_ + "' has no length knob (only reverse and copy have)");
}

Example Task::make_example(std::string source, std::string target) const {
  Example example;
  example.source_ids = source_vocab_.encode(source, kMaxSequenceLength).ids;
  example.target_ids = target_vocab_.encode(target, kMaxSequenceLength).ids;
  example.source = std::move(source);
  example.target = std::move(target);
  return example;
}

namespace {

// Uniform in [lo, hi].
long between(Rng& rng, long lo, long hi) {
  return lo + rng.below(hi - lo + 1);
}

// Uniform index into a non-empty container.
template <typename Container>
size_t pick(Rng& rng, const Container& items) {
  return static_cast<size_t>(rng.below(static_cast<long>(items.size())));
}

// Tokens in order of first appearance, for vocabularies that read like the corpus.
std::vector<std::string> tokens_of(const std::vector<std::string>& texts, Tokenizer kind) {
  std::vector<std::string> tokens;
  for (const std::string& text : texts) {
    for (std::string_view token : tokenize(text, kind)) tokens.emplace_back(token);
  }
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// note: the five sentence pairs of the note's §3.3 code

struct NotePair {
  const char* source;
  const char* target;
  // Per target word, the source words it translates (-1: none, a function word; -2: 自然 语言
  // 处理, the three words NLP abbreviates).
  int aligned[5];
};
constexpr NotePair kNotePairs[] = {
    {"咖哥 喜欢 小冰", "KaGe likes XiaoBing", {0, 1, 2}},
    {"我 爱 学习 人工智能", "I love studying AI", {0, 1, 2, 3}},
    {"深度学习 改变 世界", "DL changed the world", {0, 1, -1, 2}},
    {"自然 语言 处理 很 强大", "NLP is so powerful", {-2, -1, 3, 4}},
    {"神经网络 非常 复杂", "Neural-Nets are complex", {0, -1, 2}},
};

std::vector<std::vector<int32_t>> note_alignment(const NotePair& pair, size_t target_words) {
  std::vector<std::vector<int32_t>> alignment;
  for (size_t t = 0; t < target_words; ++t) {
    const int a = pair.aligned[t];
    alignment.push_back(a >= 0    ? std::vector<int32_t>{a}
                        : a == -2 ? std::vector<int32_t>{0, 1, 2}
                                  : std::vector<int32_t>{});
  }
  return alignment;
}

std::vector<std::string> note_texts(bool source) {
  std::vector<std::string> texts;
  for (const NotePair& pair : kNotePairs) texts.emplace_back(source ? pair.source : pair.target);
  return texts;
}

class NoteTask : public Task {
 public:
  NoteTask()
      : Task("note",
             Vocab::build(Tokenizer::kWords, tokens_of(note_texts(true), Tokenizer::kWords)),
             Vocab::build(Tokenizer::kWords, tokens_of(note_texts(false), Tokenizer::kWords))) {
    for (const NotePair& pair : kNotePairs) {
      held_out_.push_back(make_example(pair.source, pair.target));
      held_out_.back().alignment = note_alignment(pair, held_out_.back().target_ids.size());
    }
    held_out_is_training_data_ = true;
    for (const Example& example : held_out_) {
      max_source_tokens_ =
          std::max(max_source_tokens_, static_cast<long>(example.source_ids.size()));
      max_target_tokens_ =
          std::max(max_target_tokens_, static_cast<long>(example.target_ids.size()));
    }
  }
  long train_size() const override { return static_cast<long>(held_out_.size()); }
  // One random pair per step, as the book trains (batch 1 there; any batch size here).
  Example sample_train(Rng& rng) const override { return held_out_[pick(rng, held_out_)]; }
};

}  // namespace
}  // namespace lab

// ---------------------------------------------------------------------------------------------
// reverse and copy

namespace lab {
namespace {

constexpr long kDefaultSequenceHeldOut = 500;
constexpr long kDefaultTrainSequences = 10000;

// Σ symbols^L over the lengths, saturating (it only has to be compared with small counts).
uint64_t distinct_strings(long symbols, long min_len, long max_len) {
  const uint64_t kCap = uint64_t{1} << 40;
  uint64_t total = 0, power = 1;
  for (long length = 1; length <= max_len && total < kCap; ++length) {
    power = std::min(power * static_cast<uint64_t>(symbols), kCap);
    if (length >= min_len) total += power;
  }
  return total;
}

std::vector<std::string> alphabet(long symbols) {
  std::vector<std::string> letters;
  for (long i = 0; i < symbols; ++i) letters.emplace_back(1, static_cast<char>('a' + i));
  return letters;
}

class SequenceTask : public Task {
 public:
  SequenceTask(const std::string& name, const TaskOptions& options)
      : Task(name, Vocab::build(Tokenizer::kChars, alphabet(options.symbols)),
             Vocab::build(Tokenizer::kChars, alphabet(options.symbols))),
        reverse_(name == "reverse"),
        symbols_(options.symbols),
        min_len_(options.min_len),
        max_len_(options.max_len) {
    long held_out = options.held_out != 0 ? options.held_out : kDefaultSequenceHeldOut;
    long train = options.train != 0 ? options.train : kDefaultTrainSequences;
    // Half the strings stay free, so drawing distinct held-out strings and training strings
    // outside them is quick.
    uint64_t distinct = distinct_strings(symbols_, min_len_, max_len_);
    if (distinct < 2 * static_cast<uint64_t>(held_out)) {
      throw InputError("held_out " + std::to_string(held_out) + " needs at least " +
                       std::to_string(2 * held_out) + " distinct strings, but lengths " +
                       std::to_string(min_len_) + "–" + std::to_string(max_len_) + " over " +
                       std::to_string(symbols_) + " symbols give only " + std::to_string(distinct));
    }
    Rng rng(options.seed);
    std::set<std::string> held_out_strings;
    for (long i = 0; i < held_out; ++i) {
      std::string source = draw_avoiding(rng, min_len_, max_len_, held_out_strings);
      held_out_strings.insert(source);
      held_out_.push_back(example_for(std::move(source)));
    }
    for (long i = 0; i < train; ++i) {
      std::string source = draw_avoiding(rng, min_len_, max_len_, held_out_strings);
      train_strings_.insert(source);
      train_.push_back(example_for(std::move(source)));
    }
    max_source_tokens_ = max_target_tokens_ = max_len_;
  }

  long train_size() const override { return static_cast<long>(train_.size()); }

  Example sample_train(Rng& rng) const override { return train_[pick(rng, train_)]; }

  std::vector<Example> eval_at_length(long length, long count, uint64_t seed) const override {
    check_option("length", length, 1, kMaxSequenceLength);
    check_option("count", count, 1, kMaxHeldOut);
    Rng rng(seed);
    std::vector<Example> examples;
    for (long i = 0; i < count; ++i) {
      examples.push_back(example_for(draw_avoiding(rng, length, length, train_strings_)));
    }
    return examples;
  }

 private:
  // A random string with length in [lo, hi] that is not in `avoid`.
  std::string draw_avoiding(Rng& rng, long lo, long hi, const std::set<std::string>& avoid) const {
    for (long attempt = 0; attempt < kMaxRejectedDraws; ++attempt) {
      std::string text(static_cast<size_t>(between(rng, lo, hi)), 'a');
      for (char& c : text) c = static_cast<char>('a' + rng.below(symbols_));
      if (avoid.count(text) == 0) return text;
    }
    throw InputError("could not draw a string of length " + std::to_string(lo) + "–" +
                     std::to_string(hi) + " outside the " + std::to_string(avoid.size()) +
                     " strings already taken; use longer strings or more symbols");
  }

  Example example_for(std::string source) const {
    std::string target = source;
    if (reverse_) std::reverse(target.begin(), target.end());
    const int32_t n = static_cast<int32_t>(source.size());
    Example example = make_example(std::move(source), std::move(target));
    // Target symbol i is source symbol n − 1 − i (reverse) or i (copy).
    for (int32_t i = 0; i < n; ++i) example.alignment.push_back({reverse_ ? n - 1 - i : i});
    return example;
  }

  bool reverse_;
  long symbols_, min_len_, max_len_;
  std::vector<Example> train_;
  // std::set, not unordered_set: the vocabularies' std::map links the tree code already, and the
  // hash table added 0.8 KB gzipped to the Seq2Seq widget module; lookups are not hot.
  std::set<std::string> train_strings_;
};

}  // namespace

std::unique_ptr<Task> make_task(const std::string& name, const TaskOptions& options) {
  validate_options(options);
#ifndef LAB_NO_PAIRS_TASK
  if (name != "pairs" && !options.pairs.empty()) pairs_for_another_task(name);
#endif
  if (name == "note") return std::make_unique<NoteTask>();
  if (name == "zh-en") return make_grammar_task(options);
  if (name == "dates") return dates::make_task(options);
#ifdef LAB_NO_PAIRS_TASK
  // The widgets' Seq2Seq and Transformer modules (CMakeLists.txt) leave the reader's own pairs
  // out: no widget offers them (the Seq2Seq module: about 5 KB of gzipped wasm).
  if (name == "pairs") {
    throw InputError(
        "task 'pairs' is not in this build (a widgets' module): load the 'full' variant");
  }
#else
  if (name == "pairs") return make_pairs_task(options);
#endif
  if (name == "reverse" || name == "copy") return std::make_unique<SequenceTask>(name, options);
  throw InputError("unknown task '" + name +
                   "' (expected note, zh-en, dates, reverse, copy, pairs)");
}

}  // namespace lab
