// The pairs task (task_pairs.h): parsing the reader's tab-separated text, the seeded held-out
// split and the task built on it.
#include "seq2seq/task_pairs.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <utility>

#include "format.h"
#include "tensor.h"

namespace lab {

namespace {

// Mixed into the seed so that the split's shuffle differs from the weights' and the sampler's.
constexpr uint64_t kSplitSeedMix = 0x5A1D5A1D5A1D5A1DULL;

const char* unit(Tokenizer kind, long count) {
  if (kind == Tokenizer::kWords) return count == 1 ? "word" : "words";
  return count == 1 ? "character" : "characters";
}

bool is_reserved_token(std::string_view token) {
  for (const char* reserved : kReservedTokens) {
    if (token == reserved) return true;
  }
  return false;
}

// The tokens of one side: words split on whitespace, or the characters of those words (so
// whitespace is dropped). Views into `text`.
std::vector<std::string_view> side_tokens(std::string_view text, Tokenizer kind) {
  std::vector<std::string_view> words = tokenize(text, Tokenizer::kWords);
  if (kind == Tokenizer::kWords) return words;
  std::vector<std::string_view> chars;
  for (std::string_view word : words) {
    for (std::string_view c : tokenize(word, Tokenizer::kChars)) chars.push_back(c);
  }
  return chars;
}

// One side of a pair line, checked, as the text its tokens join back into.
std::string read_side(std::string_view text, Tokenizer kind, const char* side) {
  if (text.size() > kMaxSentenceBytes) {
    throw InputError(std::string("the ") + side + " is " + std::to_string(text.size()) +
                     " bytes long; at most " + std::to_string(kMaxSentenceBytes));
  }
  const std::vector<std::string_view> tokens = side_tokens(text, kind);
  if (tokens.empty()) throw InputError(std::string("the ") + side + " is empty");
  const long n = static_cast<long>(tokens.size());
  if (n > kMaxPairTokens) {
    throw InputError(std::string("the ") + side + " has " + std::to_string(n) + " " +
                     unit(kind, n) + "; at most " + std::to_string(kMaxPairTokens));
  }
  std::vector<std::string> joined;
  for (std::string_view token : tokens) {
    if (token.size() > kMaxTokenBytes) {
      throw InputError(std::string("the ") + side + " has a word of " +
                       std::to_string(token.size()) + " bytes; at most " +
                       std::to_string(kMaxTokenBytes));
    }
    if (is_reserved_token(token)) {
      throw InputError(std::string("the ") + side + " has the word '" + std::string(token) +
                       "', which is reserved (<pad>, <sos>, <eos>, <unk>)");
    }
    joined.emplace_back(token);
  }
  return join_tokens(joined, kind);
}

// Throws for a C0 control character other than the tab (a CR only ends a CRLF line) or DEL.
void check_controls(std::string_view line) {
  for (unsigned char c : line) {
    if ((c < 0x20 && c != '\t') || c == 0x7F) {
      char code[8];
      std::snprintf(code, sizeof code, "U+%04X", c);
      throw InputError(std::string("has the control character ") + code);
    }
  }
}

PairLine parse_line(std::string_view line, long number, Tokenizer kind) {
  check_controls(line);
  check_utf8(line);
  const size_t tab = line.find('\t');
  if (tab == std::string_view::npos) throw InputError("no tab between source and target");
  const long tabs = static_cast<long>(std::count(line.begin(), line.end(), '\t'));
  if (tabs > 1) {
    throw InputError("has " + std::to_string(tabs) +
                     " tabs; a line is source<TAB>target with exactly one");
  }
  PairLine pair;
  pair.line = number;
  pair.source = read_side(line.substr(0, tab), kind, "source");
  pair.target = read_side(line.substr(tab + 1), kind, "target");
  return pair;
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\r\f\v") == std::string_view::npos;
}

class PairsTask : public Task {
 public:
  PairsTask(std::vector<PairLine> train, std::vector<PairLine> held_out, Tokenizer kind)
      : Task("pairs", build_vocab(train, kind, true), build_vocab(train, kind, false)),
        kind_(kind) {
    for (const PairLine& p : train) train_.push_back(make_example(p.source, p.target));
    for (const PairLine& p : held_out) held_out_.push_back(make_example(p.source, p.target));
    if (held_out_.empty()) {
      held_out_ = train_;
      held_out_is_training_data_ = true;
    }
    for (const auto* set : {&train_, &held_out_}) {
      for (const Example& e : *set) {
        max_source_tokens_ = std::max(max_source_tokens_, static_cast<long>(e.source_ids.size()));
        max_target_tokens_ = std::max(max_target_tokens_, static_cast<long>(e.target_ids.size()));
      }
    }
  }

  long train_size() const override { return static_cast<long>(train_.size()); }
  Example sample_train(Rng& rng) const override {
    return train_[static_cast<size_t>(rng.below(static_cast<long>(train_.size())))];
  }
  std::string input_text(const std::string& text) const override {
    if (kind_ == Tokenizer::kWords) return text;
    std::string joined;
    for (std::string_view c : side_tokens(text, kind_)) joined += c;
    return joined;
  }

 private:
  // Tokens of the training pairs' sources (or targets) in order of first appearance.
  static Vocab build_vocab(const std::vector<PairLine>& pairs, Tokenizer kind, bool source) {
    std::vector<std::string> tokens;
    for (const PairLine& p : pairs) {
      for (std::string_view t : tokenize(source ? p.source : p.target, kind))
        tokens.emplace_back(t);
    }
    return Vocab::build(kind, tokens);
  }

  Tokenizer kind_;
  std::vector<Example> train_;
};

}  // namespace

std::vector<PairLine> parse_pairs(std::string_view text, Tokenizer kind) {
  if (text.size() > kMaxPairsBytes) {
    throw InputError("the pairs text is " + std::to_string(text.size()) + " bytes; at most " +
                     std::to_string(kMaxPairsBytes) + " (1 MiB)");
  }
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a byte-order mark
  std::vector<PairLine> pairs;
  long number = 0;
  for (size_t pos = 0; pos <= text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (is_blank(line) || line.front() == '#') continue;
    if (static_cast<long>(pairs.size()) == kMaxPairs) {
      throw InputError("line " + std::to_string(number) + ": more than " +
                       std::to_string(kMaxPairs) + " pairs; at most " + std::to_string(kMaxPairs));
    }
    try {
      pairs.push_back(parse_line(line, number, kind));
    } catch (const InputError& e) {
      throw InputError("line " + std::to_string(number) + ": " + e.what());
    }
  }
  if (pairs.empty()) {
    throw InputError(
        "the pairs text has no pairs (every line is blank or a # comment); write one "
        "source<TAB>target per line");
  }
  return pairs;
}

std::unique_ptr<Task> make_pairs_task(const TaskOptions& options) {
  if (options.held_out != 0 || options.train != 0) {
    throw InputError(
        "task 'pairs' takes the share held out as heldOut (a fraction), not as a count of "
        "examples, and trains on every pair that is not held out");
  }
  std::vector<PairLine> lines = parse_pairs(options.pairs, options.tokenize);
  // Identical pairs count once: a repeat would otherwise put one pair on both sides of the split.
  std::vector<PairLine> distinct;
  std::set<std::pair<std::string, std::string>> seen;
  for (PairLine& p : lines) {
    if (seen.insert({p.source, p.target}).second) distinct.push_back(std::move(p));
  }
  const long n = static_cast<long>(distinct.size());
  const long repeats = static_cast<long>(lines.size()) - n;
  const double fraction = options.held_out_fraction;
  // floor(n × fraction), with a margin for fractions such as 0.1 that binary cannot hold exactly.
  const long held = static_cast<long>(static_cast<double>(n) * fraction + 1e-9);
  if (fraction > 0 && held == 0) {
    const long needed = static_cast<long>(1.0 / fraction - 1e-9) + 1;
    std::string message = std::to_string(n) +
                          (n == 1 ? " distinct pair is" : " distinct pairs are") +
                          " too few to hold " + format_number(fraction * 100, 4) +
                          "% out: that needs at least " + std::to_string(needed);
    if (repeats > 0) {
      message += " (" + std::to_string(repeats) + " of the " + std::to_string(lines.size()) +
                 " lines repeat an earlier pair and count once)";
    }
    throw InputError(message +
                     "; add pairs, or set heldOut to 0 to evaluate on the training pairs");
  }
  // Fisher–Yates over the distinct pairs; the first `held` are held out, kept in file order.
  std::vector<long> order(static_cast<size_t>(n));
  for (long i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  Rng rng(options.seed ^ kSplitSeedMix);
  for (long i = n - 1; i > 0; --i) {
    std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(rng.below(i + 1))]);
  }
  std::vector<uint8_t> is_held(static_cast<size_t>(n), 0);
  for (long i = 0; i < held; ++i) is_held[static_cast<size_t>(order[static_cast<size_t>(i)])] = 1;
  std::vector<PairLine> train, held_out;
  for (long i = 0; i < n; ++i) {
    (is_held[static_cast<size_t>(i)] ? held_out : train).push_back(std::move(distinct[i]));
  }
  return std::make_unique<PairsTask>(std::move(train), std::move(held_out), options.tokenize);
}

}  // namespace lab
