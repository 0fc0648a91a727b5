// GptSession: the corpus and its split, the training loop, evaluation with its baselines, and
// sampling. Saving and loading are in gpt/session_io.cpp.
#include "gpt/session.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "format.h"
#include "sequence/session_checks.h"
#include "tensor.h"

namespace lab {

namespace {

using namespace session_common;

// Mixed into the seed for the split, so that it differs from the weights' and the sampler's.
constexpr uint64_t kSplitSeedMix = 0x5B117B0E75B117B0ULL;
// Without held-out text, evaluate() scores the first this many characters of the training text.
constexpr long kEvalTrainCharacters = 4096;
// Full blocks scored per forward pass in evaluate().
constexpr long kEvalRows = 16;
// Mixed into the seed for the induction probe's random ids.
constexpr uint64_t kProbeSeedMix = 0x1D0C710A5EEDULL;
// The induction probe's length at most (the defaults' blockSize / 2).
constexpr long kInductionIds = 16;

GptHeadProbe make_head_probe(const CharVocab& vocab, const std::vector<int32_t>& text, long block,
                             uint64_t seed) {
  GptHeadProbe p;
  p.text = text;
  for (const char* end : {"\n", "，", "。", "？", "！", "；", ",", ".", "?", "!", ";"}) {
    const auto& chars = vocab.chars();
    const auto it = std::find(chars.begin(), chars.end(), std::string(end));
    if (it != chars.end()) p.line_end.push_back(static_cast<int32_t>(it - chars.begin()));
  }
  // n distinct ids: the first n of a seeded shuffle of the vocabulary.
  const long V = vocab.size(), n = std::min({kInductionIds, block / 2, V});
  std::vector<int32_t> ids(static_cast<size_t>(V));
  for (long i = 0; i < V; ++i) ids[i] = static_cast<int32_t>(i);
  Rng rng(seed ^ kProbeSeedMix);
  for (long i = 0; i < n; ++i) std::swap(ids[i], ids[i + rng.below(V - i)]);
  if (n >= 3) p.random.assign(ids.begin(), ids.begin() + n);  // else no induction probe
  return p;
}

GptConfig model_config(const GptSessionConfig& c, long vocab) {
  GptConfig m;
  m.vocab = vocab;
  m.block_size = c.block_size;
  m.layers = c.layers;
  m.heads = c.heads;
  m.d_model = c.d_model;
  m.seed = c.seed;
  return m;
}

std::string joined(const std::vector<std::string>& poems, const std::vector<size_t>& which) {
  std::string text;
  for (size_t i : which) {
    if (!text.empty()) text += "\n\n";
    text += poems[i];
  }
  return text.empty() ? text : text + "\n";
}

// The summed loss of the model over the targets of `ids` (all but the first) read in consecutive
// blocks of T positions (each block's targets are the next characters; the last block may be
// shorter).
double text_loss_sum(GptModel& model, const std::vector<int32_t>& ids, long T) {
  const long n = static_cast<long>(ids.size());
  if (n < 2) return 0;
  const long full = (n - 1) / T;
  double sum = 0;
  const auto score = [&](long first_block, long rows, long len) {
    GptBatch b;
    b.B = rows;
    b.T = len;
    for (long r = 0; r < rows; ++r) {
      const auto start = ids.begin() + (first_block + r) * T;
      b.idx.insert(b.idx.end(), start, start + len);
      b.targets.insert(b.targets.end(), start + 1, start + len + 1);
    }
    sum += static_cast<double>(model.loss_only(b)) * static_cast<double>(rows * len);
  };
  for (long first = 0; first < full; first += kEvalRows) {
    score(first, std::min(kEvalRows, full - first), T);
  }
  const long tail = (n - 1) - full * T;
  if (tail > 0) score(full, 1, tail);
  return sum;
}

// The mean loss per target over texts each read from an empty context, and the baselines on
// the same targets.
struct TextsLoss {
  double model = 0;
  NgramLosses base;
};
TextsLoss texts_loss(GptModel& model, const std::vector<std::vector<int32_t>>& texts, long T,
                     const std::vector<int32_t>* baseline_train, long vocab) {
  TextsLoss out;
  double targets = 0;
  for (const std::vector<int32_t>& ids : texts) {
    if (ids.size() < 2) continue;
    const auto n = static_cast<double>(ids.size() - 1);
    out.model += text_loss_sum(model, ids, T);
    if (baseline_train != nullptr) {
      const NgramLosses b = ngram_baselines(*baseline_train, ids, vocab);
      out.base.unigram += b.unigram * n;
      out.base.bigram += b.bigram * n;
    }
    targets += n;
  }
  if (targets > 0) {
    out.model /= targets;
    out.base.unigram /= targets;
    out.base.bigram /= targets;
  }
  return out;
}

// A poem as GptWindows::kPoem trains on it: the blank line before it, the poem, the blank line
// after it.
std::vector<int32_t> poem_text(const CharVocab& vocab, const std::string& poem, int32_t newline) {
  std::vector<int32_t> ids = {newline, newline};
  const std::vector<int32_t> body = vocab.encode(poem);
  ids.insert(ids.end(), body.begin(), body.end());
  ids.insert(ids.end(), {newline, newline});
  return ids;
}

}  // namespace

void GptSessionConfig::validate() const {
  // The model's own limits (layers, heads dividing dModel, dModel, blockSize) with the smallest
  // vocabulary as a stand-in.
  model_config(*this, 2).validate();
  if (!(held_out >= 0 && held_out <= kGptMaxHeldOut)) {
    throw InputError("heldOut must be a share in [0, 0.5] (got " + format_number(held_out) + ")");
  }
  check_range(batch_size, 1, kGptMaxBatchSize, "batch size");
  check_float32(learning_rate, false, "learning rate");
  check_range(warmup, 0, kGptMaxWarmup, "warmup (steps; 0: no warm-up)");
  if (!(drills >= 0 && drills <= kGptMaxDrills)) {
    throw InputError("drills must be a share in [0, 0.95] (got " + format_number(drills) + ")");
  }
  if (drills > 0 && windows != GptWindows::kPoem) {
    throw InputError("drills need windows \"poem\": a form drill is a poem read from its start");
  }
}

GptSessionConfig gpt_poems_defaults() {
  // docs/gpt.md, "The recipe" (scripts/gpt-poems.mjs measures it).
  GptSessionConfig c;
  c.held_out = 0.1;
  c.block_size = 80;  // a 七律 (64 characters, 8 line ends) and the blank line before it
  c.layers = 2;
  c.heads = 4;
  c.d_model = 64;
  c.batch_size = 4;  // with 500 steps: more of the form than 8 × 200 in about the same time
  c.learning_rate = 3e-3;
  c.warmup = 0;
  c.windows = GptWindows::kPoem;
  c.drills = 0.75;
  return c;
}

GptWindows gpt_windows_from_name(const std::string& name, const std::string& key) {
  if (name == "poem") return GptWindows::kPoem;
  if (name == "text") return GptWindows::kText;
  throw InputError(
      key + " must be \"poem\" (windows start at a poem's start) or \"text\" (anywhere); got \"" +
      name + "\"");
}

const char* gpt_windows_name(GptWindows w) {
  return w == GptWindows::kPoem ? "poem" : "text";
}

std::vector<std::string> split_poems(const std::string& text) {
  std::vector<std::string> poems;
  std::string poem;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const bool blank = line.find_first_not_of(" \t") == std::string::npos;
    if (blank) {
      if (!poem.empty()) poems.push_back(std::move(poem));
      poem.clear();
    } else {
      if (!poem.empty()) poem += '\n';
      poem += line;
    }
    pos = end + 1;
  }
  if (!poem.empty()) poems.push_back(std::move(poem));
  return poems;
}

std::vector<size_t> held_out_poems(size_t poems, double held_out, uint64_t seed) {
  if (held_out <= 0) return {};
  if (poems < 2) {
    throw InputError("the text has " + std::to_string(poems) +
                     " poem (paragraph); holding out a share needs at least 2: add poems "
                     "separated by a blank line, or set heldOut to 0");
  }
  const size_t k =
      std::min(poems - 1, std::max<size_t>(1, static_cast<size_t>(std::llround(held_out * poems))));
  std::vector<size_t> order(poems);
  for (size_t i = 0; i < poems; ++i) order[i] = i;
  Rng rng(seed ^ kSplitSeedMix);
  for (size_t i = poems - 1; i > 0; --i) {  // Fisher–Yates
    std::swap(order[i], order[static_cast<size_t>(rng.below(static_cast<long>(i + 1)))]);
  }
  order.resize(k);
  std::sort(order.begin(), order.end());
  return order;
}

NgramLosses ngram_baselines(const std::vector<int32_t>& train, const std::vector<int32_t>& held,
                            long vocab) {
  NgramLosses out;
  if (held.size() < 2) return out;
  const auto V = static_cast<size_t>(vocab);
  std::vector<double> uni(V, 0.0), pair(V * V, 0.0), first(V, 0.0);
  for (int32_t id : train) uni[static_cast<size_t>(id)] += 1;
  for (size_t i = 0; i + 1 < train.size(); ++i) {
    const auto a = static_cast<size_t>(train[i]), b = static_cast<size_t>(train[i + 1]);
    pair[a * V + b] += 1;
    first[a] += 1;  // bigrams starting with a
  }
  const double n = static_cast<double>(train.size());
  for (size_t i = 1; i < held.size(); ++i) {
    const auto a = static_cast<size_t>(held[i - 1]), b = static_cast<size_t>(held[i]);
    // Add-one (Laplace) smoothing: every character, and every successor of a, counted once more.
    out.unigram -= std::log((uni[b] + 1) / (n + static_cast<double>(V)));
    out.bigram -= std::log((pair[a * V + b] + 1) / (first[a] + static_cast<double>(V)));
  }
  const double targets = static_cast<double>(held.size() - 1);
  out.unigram /= targets;
  out.bigram /= targets;
  return out;
}

struct GptCorpusParts {
  CharVocab vocab;
  std::vector<int32_t> train, held;
  GptCorpusInfo info;
  std::vector<PoemWindow> poem_windows;                       // kPoem
  std::vector<std::vector<int32_t>> train_poems, held_poems;  // kPoem: poem_text of each
};

namespace {

GptCorpusParts prepare(const GptSessionConfig& c) {
  c.validate();
  if (c.text.empty()) throw InputError("the text is empty: give the corpus to train on");
  if (c.text.size() > kGptMaxCorpusBytes) {
    throw InputError("the text has " + std::to_string(c.text.size()) + " bytes; the limit is " +
                     std::to_string(kGptMaxCorpusBytes) + " (1 MiB)");
  }
  // The line break is in every vocabulary: it separates the poems of the training text even
  // when the text has none of its own (a single line). A text of fewer than 2 distinct
  // characters of its own is refused first: it leaves nothing to predict.
  const CharVocab own = CharVocab::from_text(c.text);
  const bool has_newline = c.text.find('\n') != std::string::npos;
  GptCorpusParts p{has_newline ? own : CharVocab::from_text(c.text + "\n"), {}, {}, {}, {}, {}, {}};
  const std::vector<std::string> poems = split_poems(c.text);
  const std::vector<size_t> held = held_out_poems(poems.size(), c.held_out, c.seed);
  std::vector<size_t> train;
  for (size_t i = 0, h = 0; i < poems.size(); ++i) {
    if (h < held.size() && held[h] == i) {
      ++h;
    } else {
      train.push_back(i);
    }
  }
  p.train = p.vocab.encode(joined(poems, train));
  p.held = p.vocab.encode(joined(poems, held));
  if (c.windows == GptWindows::kPoem && !train.empty()) {
    // The training text ends with a blank line, so read cyclically its first poem follows one as
    // any other does; poem i's windows start at the blank line before it, and each window's
    // targets end with the blank line after it (at first + length + 1), as evaluate() reads it.
    const int32_t newline = p.vocab.encode("\n")[0];
    p.train.push_back(newline);
    const auto n = static_cast<long>(p.train.size());
    long first = 0;  // of the poem in p.train
    for (size_t i : train) {
      std::vector<int32_t> ids = poem_text(p.vocab, poems[i], newline);
      const auto length = static_cast<long>(ids.size()) - 4;
      // The poem's targets are p.train[first - 1 … first + length + 1]; a window every
      // blockSize characters while any remain, as evaluate() reads them in blocks.
      const long end = first + length + 2;
      for (long at = first - 2; at + 1 < end; at += c.block_size) {
        p.poem_windows.push_back({(at + n) % n, end - 1 - at});
      }
      first += length + 2;
      p.train_poems.push_back(std::move(ids));
    }
    for (size_t i : held) p.held_poems.push_back(poem_text(p.vocab, poems[i], newline));
  }
  const auto tokens = static_cast<long>(p.train.size());
  if (tokens <= c.block_size) {
    throw InputError("the training text has " + std::to_string(tokens) +
                     " characters: one block of blockSize " + std::to_string(c.block_size) +
                     " needs at least " + std::to_string(c.block_size + 1) +
                     " (a longer text, a smaller heldOut or a smaller blockSize)");
  }
  p.info = {static_cast<long>(poems.size()), static_cast<long>(train.size()),
            static_cast<long>(held.size()), tokens, static_cast<long>(p.held.size())};
  return p;
}

// FormDrills over the training poems: the kept characters of the vocabulary, and the training
// text's others, one entry per occurrence.
FormDrills form_drills(double share, const CharVocab& vocab, const std::vector<int32_t>& train,
                       const std::vector<std::vector<int32_t>>& poems) {
  FormDrills d;
  if (share <= 0 || poems.empty()) return d;
  std::vector<uint8_t> kept(static_cast<size_t>(vocab.size()));
  for (long id = 0; id < vocab.size(); ++id) {
    kept[static_cast<size_t>(id)] = drill_keeps(vocab.points()[static_cast<size_t>(id)]);
  }
  for (const int32_t id : train) {
    if (!kept[static_cast<size_t>(id)]) d.content.push_back(id);
  }
  if (d.content.empty()) return d;  // nothing but marks: a drill would be the poem itself
  d.share = share;
  for (const std::vector<int32_t>& poem : poems) {
    std::vector<int32_t> shape = poem;
    for (int32_t& id : shape) {
      if (!kept[static_cast<size_t>(id)]) id = kDrillFill;
    }
    d.shapes.push_back(std::move(shape));
  }
  return d;
}
}  // namespace

GptSession::GptSession(const GptSessionConfig& config) : GptSession(config, prepare(config)) {}

GptSession::GptSession(const GptSessionConfig& config, GptCorpusParts&& p)
    : config_(config),
      vocab_(std::move(p.vocab)),
      train_ids_(std::move(p.train)),
      held_out_ids_(std::move(p.held)),
      poem_windows_(std::move(p.poem_windows)),
      held_out_poems_(std::move(p.held_poems)),
      train_poems_(std::move(p.train_poems)),
      info_(p.info),
      model_(model_config(config, vocab_.size())),
      probe_(make_head_probe(vocab_, held_out_ids_.empty() ? train_ids_ : held_out_ids_,
                             config.block_size, config.seed)),
      drills_(form_drills(config.drills, vocab_, train_ids_, train_poems_)),
      rng_(sampler(config)) {}

Rng GptSession::sampler(const GptSessionConfig& config) {
  return Rng(config.seed ^ kSamplerSeedMix);
}

GptBatch GptSession::draw_batch(Rng& rng) const {
  return config_.windows == GptWindows::kPoem
             ? sample_windows_at(train_ids_, poem_windows_, config_.batch_size, config_.block_size,
                                 rng, &drills_)
             : sample_windows(train_ids_, config_.batch_size, config_.block_size, rng);
}

std::vector<GptBatch> GptSession::first_batches(long steps) const {
  Rng rng = sampler(config_);
  std::vector<GptBatch> batches;
  for (long s = 0; s < steps; ++s) batches.push_back(draw_batch(rng));
  return batches;
}

TrainResult GptSession::train(long steps) {
  AdamOptions adam;
  const long V = model_.config().vocab;
  return train_loop<TrainingDiverged, TrainResult>(
      steps, kGptMaxTrainSteps, rng_, step_, [&](Rng& rng) { return draw_batch(rng); },
      [&](const GptBatch& batch, TrainResult& result) {
        const float loss = model_.forward_backward(batch);
        check_loss_not_diverged(loss, V);
        // The accuracy of the same forward pass as the loss.
        TokenCount count;
        count.correct = model_.last_hits();
        for (const int32_t t : batch.targets) count.total += t != kGptIgnoreTarget;
        // Linear warm-up: step t (from 1) at lr · min(1, t / warmup).
        const double ramp = config_.warmup > 0
                                ? std::min(1.0, static_cast<double>(step_ + 1) / config_.warmup)
                                : 1.0;
        adam.lr = static_cast<float>(config_.learning_rate * ramp);
        model_.adam_step_consuming_grads(adam);
        result.losses.push_back(loss);
        result.token_accuracy.push_back(static_cast<float>(count.correct) /
                                        static_cast<float>(count.total));
      },
      "try a smaller learningRate or a warmup");
}

GptEvalResult GptSession::evaluate() {
  GptEvalResult r;
  const long T = config_.block_size;
  const long held = static_cast<long>(held_out_ids_.size());
  const long train_chars =
      std::min<long>(static_cast<long>(train_ids_.size()), held > 0 ? held : kEvalTrainCharacters);
  if (config_.windows == GptWindows::kPoem) {
    // as many training poems as make up the held-out text's length
    std::vector<std::vector<int32_t>> train_part;
    long chars = 0;
    for (const std::vector<int32_t>& poem : train_poems_) {
      if (chars >= train_chars) break;
      train_part.push_back(poem);
      chars += static_cast<long>(poem.size());
    }
    r.train_loss = texts_loss(model_, train_part, T, nullptr, vocab_.size()).model;
    if (held > 0) {
      const TextsLoss held_loss =
          texts_loss(model_, held_out_poems_, T, &train_ids_, vocab_.size());
      r.validation_loss = held_loss.model;
      r.unigram_loss = held_loss.base.unigram;
      r.bigram_loss = held_loss.base.bigram;
    }
    r.characters = held;
    return r;
  }
  const auto mean = [&](const std::vector<int32_t>& ids) {
    return ids.size() < 2 ? 0.0
                          : text_loss_sum(model_, ids, T) / static_cast<double>(ids.size() - 1);
  };
  r.train_loss = mean(std::vector<int32_t>(train_ids_.begin(), train_ids_.begin() + train_chars));
  if (held > 0) {
    r.validation_loss = mean(held_out_ids_);
    const NgramLosses base = ngram_baselines(train_ids_, held_out_ids_, vocab_.size());
    r.unigram_loss = base.unigram;
    r.bigram_loss = base.bigram;
  }
  r.characters = held;
  return r;
}

GptSampleResult GptSession::sample(const std::string& prompt, const GenerateOptions& options) {
  if (prompt.empty()) throw InputError("prompt is empty: give at least one character");
  const std::vector<std::string> missing = vocab_.missing(prompt);
  if (!missing.empty()) {
    std::string list;
    for (const std::string& ch : missing) list += (list.empty() ? "\"" : ", \"") + ch + "\"";
    throw InputError("prompt has " + std::to_string(missing.size()) +
                     (missing.size() == 1 ? " character" : " characters") +
                     " not in the vocabulary: " + list +
                     " (the model knows only the characters of its training text)");
  }
  const std::vector<int32_t> ids = vocab_.encode(prompt);
  if (static_cast<long>(ids.size()) > config_.block_size) {
    throw InputError("prompt has " + std::to_string(ids.size()) +
                     " characters; the model reads at most blockSize " +
                     std::to_string(config_.block_size));
  }
  GptSampleResult r;
  r.generation = generate(model_, ids, options);
  r.text = vocab_.decode(r.generation.ids);
  r.generated = vocab_.decode(std::vector<int32_t>(
      r.generation.ids.begin() + static_cast<long>(ids.size()), r.generation.ids.end()));
  return r;
}

GptHeadScores GptSession::head_scores(const std::vector<GptHeadRef>& zero_heads) {
  return gpt_head_scores(model_, probe_, zero_heads);
}

}  // namespace lab
