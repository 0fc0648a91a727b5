// The pairs task (task_pairs.h): parsing the reader's tab-separated text, the seeded held-out
// split and the task built on it.
#include "sequence/task_pairs.h"

#include <algorithm>
#include <initializer_list>
#include <set>
#include <utility>

#include "format.h"
#include "tensor.h"

namespace lab {

namespace {

// Mixed into the seed so that the split's shuffle differs from the weights' and the sampler's.
constexpr uint64_t kSplitSeedMix = 0x5A1D5A1D5A1D5A1DULL;

// One piece of an error message: text or a whole number. fail() builds every message of this
// file from such pieces in one place: a string concatenation inlined at each throw weighed
// several KB in the lean widget module.
struct Piece {
  Piece(const char* s) : text(s) {}
  Piece(std::string_view s) : text(s) {}
  Piece(const std::string& s) : text(s) {}
  Piece(long n) : number(n), is_number(true) {}
  std::string_view text;
  long number = 0;
  bool is_number = false;
};

[[noreturn]] __attribute__((noinline)) void fail(std::initializer_list<Piece> pieces) {
  std::string message;
  for (const Piece& p : pieces) {
    if (p.is_number) {
      message += std::to_string(p.number);
    } else {
      message += p.text;
    }
  }
  throw InputError(message);
}

long size_of(size_t n) {
  return static_cast<long>(n);
}

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
    fail({"the ", side, " is ", size_of(text.size()), " bytes long; at most ",
          size_of(kMaxSentenceBytes)});
  }
  const std::vector<std::string_view> tokens = side_tokens(text, kind);
  if (tokens.empty()) fail({"the ", side, " is empty"});
  const long n = size_of(tokens.size());
  if (n > kMaxPairTokens) {
    fail({"the ", side, " has ", n, " ", unit(kind, n), "; at most ", kMaxPairTokens});
  }
  std::vector<std::string> joined;
  for (std::string_view token : tokens) {
    if (token.size() > kMaxTokenBytes) {
      fail({"the ", side, " has a word of ", size_of(token.size()), " bytes; at most ",
            size_of(kMaxTokenBytes)});
    }
    if (is_reserved_token(token)) {
      fail({"the ", side, " has the word '", token,
            "', which is reserved (<pad>, <sos>, <eos>, <unk>)"});
    }
    joined.emplace_back(token);
  }
  return join_tokens(joined, kind);
}

// Throws for a C0 control character other than the tab (a CR only ends a CRLF line) or DEL.
void check_controls(std::string_view line) {
  for (unsigned char c : line) {
    if ((c < 0x20 && c != '\t') || c == 0x7F) {
      // U+00XX by hand: printf's formatting code would weigh more than this whole task.
      const char hex[] = {"0123456789ABCDEF"[c >> 4], "0123456789ABCDEF"[c & 15], 0};
      fail({"has the control character U+00", static_cast<const char*>(hex)});
    }
  }
}

PairLine parse_line(std::string_view line, long number, Tokenizer kind) {
  check_controls(line);
  check_utf8(line);
  const size_t tab = line.find('\t');
  if (tab == std::string_view::npos) fail({"no tab between source and target"});
  const long tabs = static_cast<long>(std::count(line.begin(), line.end(), '\t'));
  if (tabs > 1) fail({"has ", tabs, " tabs; a line is source<TAB>target with exactly one"});
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

void check_pairs_options(const TaskOptions& o) {
  if (!(o.held_out_fraction >= 0 && o.held_out_fraction <= kMaxHeldOutFraction)) {
    fail({"option heldOut (the share of pairs held out) must be from 0 to 0.5 (got ",
          format_number(o.held_out_fraction), ")"});
  }
  if (o.pairs.size() > kMaxPairsBytes) {
    fail({"the pairs text is ", size_of(o.pairs.size()), " bytes; at most ",
          size_of(kMaxPairsBytes), " (1 MiB)"});
  }
}

void pairs_for_another_task(const std::string& task) {
  fail({"sentence pairs are for task 'pairs' only (the task is '", task, "')"});
}

std::vector<PairLine> parse_pairs(std::string_view text, Tokenizer kind) {
  if (text.size() > kMaxPairsBytes) {
    fail({"the pairs text is ", size_of(text.size()), " bytes; at most ", size_of(kMaxPairsBytes),
          " (1 MiB)"});
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
    if (size_of(pairs.size()) == kMaxPairs) {
      fail({"line ", number, ": more than ", kMaxPairs, " pairs; at most ", kMaxPairs});
    }
    try {
      pairs.push_back(parse_line(line, number, kind));
    } catch (const InputError& e) {
      fail({"line ", number, ": ", e.what()});
    }
  }
  if (pairs.empty()) {
    fail(
        {"the pairs text has no pairs (every line is blank or a # comment); write one "
         "source<TAB>target per line"});
  }
  return pairs;
}

std::unique_ptr<Task> make_pairs_task(const TaskOptions& options) {
  if (options.held_out != 0 || options.train != 0) {
    fail(
        {"task 'pairs' takes the share held out as heldOut (a fraction), not as a count of "
         "examples, and trains on every pair that is not held out"});
  }
  std::vector<PairLine> lines = parse_pairs(options.pairs, options.tokenize);
  // Identical pairs count once: a repeat would otherwise put one pair on both sides of the split.
  std::vector<PairLine> distinct;
  std::set<std::string> seen;  // source TAB target: neither side holds a tab
  for (PairLine& p : lines) {
    if (seen.insert(p.source + '\t' + p.target).second) distinct.push_back(std::move(p));
  }
  const long n = static_cast<long>(distinct.size());
  const long repeats = size_of(lines.size()) - n;
  const double fraction = options.held_out_fraction;
  // floor(n × fraction), with a margin for fractions such as 0.1 that binary cannot hold exactly.
  const long held = static_cast<long>(static_cast<double>(n) * fraction + 1e-9);
  if (fraction > 0 && held == 0) {
    const long needed = static_cast<long>(1.0 / fraction - 1e-9) + 1;
    const std::string percent = format_number(fraction * 100, 4);
    const char* const advice = "; add pairs, or set heldOut to 0 to evaluate on the training pairs";
    const char* const few = n == 1 ? " distinct pair is" : " distinct pairs are";
    if (repeats == 0)
      fail({n, few, " too few to hold ", percent, "% out: that needs at least ", needed, advice});
    fail({n, few, " too few to hold ", percent, "% out: that needs at least ", needed, " (",
          repeats, " of the ", size_of(lines.size()),
          " lines repeat an earlier pair and count once)", advice});
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
