#include "sequence/task_grammar.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tensor.h"

namespace lab {
namespace {

constexpr long kDefaultGrammarHeldOut = 500;
constexpr long kDefaultGrammarTrain = 5000;

// ---------------------------------------------------------------------------------------------
// The lexicon. Every Chinese word is one source token, every English word one target token.

enum Kind : unsigned { kPerson = 1, kAnimal = 2, kThing = 4, kAnyKind = 7 };

struct Noun {
  const char* zh;
  const char* en;
  const char* plural;
  const char* measure;  // the classifier after a number: 两 只 猫
  unsigned kind;
};
constexpr Noun kNouns[] = {
    {"猫", "cat", "cats", "只", kAnimal},           {"狗", "dog", "dogs", "只", kAnimal},
    {"鸟", "bird", "birds", "只", kAnimal},         {"朋友", "friend", "friends", "个", kPerson},
    {"老师", "teacher", "teachers", "位", kPerson}, {"孩子", "child", "children", "个", kPerson},
    {"书", "book", "books", "本", kThing},          {"苹果", "apple", "apples", "个", kThing},
    {"花", "flower", "flowers", "朵", kThing},      {"车", "car", "cars", "辆", kThing},
};

struct Pronoun {
  const char* zh;
  const char* subject;
  const char* object;
  const char* possessive;
};
constexpr Pronoun kPronouns[] = {
    {"我", "I", "me", "my"},     {"你", "you", "you", "your"}, {"他", "he", "him", "his"},
    {"她", "she", "her", "her"}, {"我们", "we", "us", "our"},  {"他们", "they", "them", "their"},
};

struct Pair {
  const char* zh;
  const char* en;  // may be several words, each aligned to the one Chinese word
};
constexpr Pair kNames[] = {
    {"小明", "Xiaoming"}, {"小红", "Xiaohong"}, {"小冰", "XiaoBing"}, {"咖哥", "KaGe"}};
// One-character adjectives go straight before the noun (白 猫); longer ones take 的 (漂亮 的 花).
struct Adjective {
  const char* zh;
  const char* en;
  unsigned kinds;  // the nouns it describes
};
constexpr Adjective kAdjectives[] = {
    {"大", "big", kAnyKind},           {"小", "small", kAnyKind},
    {"白", "white", kAnimal | kThing}, {"红", "red", kThing},
    {"新", "new", kPerson | kThing},   {"旧", "old", kPerson | kThing},
    {"漂亮", "beautiful", kAnyKind},   {"可爱", "cute", kPerson | kAnimal}};
constexpr Pair kNumbers[] = {{"两", "two"}, {"三", "three"}, {"四", "four"}, {"五", "five"}};
constexpr Pair kTimes[] = {{"昨天", "yesterday"},    {"昨晚", "last night"},
                           {"上周", "last week"},    {"去年", "last year"},
                           {"上个月", "last month"}, {"前天", "the day before yesterday"}};
constexpr Pair kPlaces[] = {{"公园", "park"},   {"学校", "school"},    {"商店", "shop"},
                            {"花园", "garden"}, {"图书馆", "library"}, {"厨房", "kitchen"}};

struct Verb {
  const char* zh;
  const char* en;  // simple past
  bool le;         // takes the perfective particle 了
  unsigned subjects, objects;
};
constexpr Verb kVerbs[] = {
    {"看见", "saw", true, kPerson | kAnimal, kAnyKind},
    {"喜欢", "liked", false, kPerson | kAnimal, kAnyKind},
    {"找到", "found", true, kPerson | kAnimal, kAnyKind},
    {"画", "drew", true, kPerson, kAnyKind},
    {"帮助", "helped", true, kPerson | kAnimal, kPerson | kAnimal},
    {"遇见", "met", true, kPerson | kAnimal, kPerson | kAnimal},
    {"买", "bought", true, kPerson, kThing | kAnimal},
};

// Words of either side that translate nothing on their own.
constexpr const char* kSourceParticles[] = {"的", "在", "了", "一"};
constexpr const char* kFunctionWords[] = {"the", "a", "in"};

// ---------------------------------------------------------------------------------------------
// Phrases: Chinese words in Chinese order and English words in English order, each English word
// with the set of this phrase's Chinese words it translates, as a bit mask (bit i: word i; a
// sentence has at most 21 words before the length filter). Words point into the lexicon.

using WordSet = uint32_t;
constexpr size_t kMaxPhraseWords = 32;  // a whole sentence has at most 21 Chinese, 20 English words

// Fixed capacity, no allocation: plain copies, and no growth code in the wasm module.
struct Phrase {
  const char* zh[kMaxPhraseWords] = {};
  size_t zh_size = 0;
  std::string_view en[kMaxPhraseWords] = {};
  WordSet aligned[kMaxPhraseWords] = {};
  size_t en_size = 0;

  WordSet add_zh(const char* word) {
    zh[zh_size] = word;
    return WordSet{1} << zh_size++;
  }
  // Each space-separated word of `words`, all aligned to `aligned_to` (0: function words).
  void add_en(std::string_view words, WordSet aligned_to) {
    while (!words.empty()) {
      const size_t end = std::min(words.find(' '), words.size());
      en[en_size] = words.substr(0, end);
      aligned[en_size++] = aligned_to;
      words.remove_prefix(std::min(end + 1, words.size()));
    }
  }
};

// The phrases' Chinese in zh_order and their English in en_order (the same phrases, reordered).
Phrase combine(std::initializer_list<const Phrase*> zh_order,
               std::initializer_list<const Phrase*> en_order) {
  Phrase out;
  for (const Phrase* part : en_order) {
    size_t offset = 0;  // where `part` starts in the Chinese order
    for (const Phrase* before : zh_order) {
      if (before == part) break;
      offset += before->zh_size;
    }
    for (size_t i = 0; i < part->en_size; ++i) {
      out.en[out.en_size] = part->en[i];
      out.aligned[out.en_size++] = part->aligned[i] << offset;
    }
  }
  for (const Phrase* part : zh_order) {
    for (size_t i = 0; i < part->zh_size; ++i) out.zh[out.zh_size++] = part->zh[i];
  }
  return out;
}

template <typename T, size_t N>
const T& pick(Rng& rng, const T (&items)[N]) {
  return items[rng.below(static_cast<long>(N))];
}

// True with probability percent / 100.
bool chance(Rng& rng, long percent) {
  return rng.below(100) < percent;
}

bool is_one_character(const char* zh) {
  return std::string_view(zh).size() <= 3;  // one CJK character is three UTF-8 bytes
}

// 在 公园 → "in the park"; with `modifier` the 的 of "在 公园 的 猫".
Phrase place_phrase(Rng& rng, bool modifier) {
  const Pair& place = pick(rng, kPlaces);
  Phrase p;
  p.add_zh("在");
  const WordSet noun = p.add_zh(place.zh);
  if (modifier) p.add_zh("的");
  p.add_en("in the", 0);
  p.add_en(place.en, noun);
  return p;
}

// [我 的 | 两 只 | 一 只] [白 | 漂亮 的] 猫, optionally after 在 公园 的 (English after the noun).
Phrase noun_phrase(Rng& rng, unsigned kinds, bool allow_number, bool allow_place) {
  const Noun* noun = nullptr;
  while (noun == nullptr || (noun->kind & kinds) == 0) noun = &pick(rng, kNouns);
  Phrase det, adj, head;
  bool plural = false;
  const long roll = rng.below(100);
  if (roll < 25) {
    const Pronoun& owner = pick(rng, kPronouns);
    const WordSet words = det.add_zh(owner.zh) | det.add_zh("的");
    det.add_en(owner.possessive, words);
  } else if (allow_number && roll < 45) {
    det.add_zh("一");
    det.add_zh(noun->measure);
    det.add_en("a", 0);
  } else if (allow_number && roll < 70) {
    const Pair& number = pick(rng, kNumbers);
    const WordSet words = det.add_zh(number.zh) | det.add_zh(noun->measure);
    det.add_en(number.en, words);
    plural = true;
  } else {
    det.add_en("the", 0);
  }
  if (chance(rng, 60)) {
    const Adjective* adjective = nullptr;
    while (adjective == nullptr || (adjective->kinds & noun->kind) == 0) {
      adjective = &pick(rng, kAdjectives);
    }
    WordSet words = adj.add_zh(adjective->zh);
    if (!is_one_character(adjective->zh)) words |= adj.add_zh("的");
    adj.add_en(adjective->en, words);
  }
  head.add_en(plural ? noun->plural : noun->en, head.add_zh(noun->zh));
  // A possessive and a place modifier together read badly in both languages: one or the other.
  if (allow_place && roll >= 25 && chance(rng, 35)) {
    const Phrase place = place_phrase(rng, true);
    return combine({&place, &det, &adj, &head}, {&det, &adj, &head, &place});
  }
  return combine({&det, &adj, &head}, {&det, &adj, &head});
}

// A name, a pronoun (subject or object form) or a noun phrase of one of `kinds`.
Phrase argument(Rng& rng, unsigned kinds, bool subject, bool allow_place) {
  Phrase p;
  const long roll = rng.below(100);
  if ((kinds & kPerson) != 0 && roll < 25) {
    const Pronoun& pronoun = pick(rng, kPronouns);
    p.add_en(subject ? pronoun.subject : pronoun.object, p.add_zh(pronoun.zh));
    return p;
  }
  if ((kinds & kPerson) != 0 && roll < 45) {
    const Pair& name = pick(rng, kNames);
    p.add_en(name.en, p.add_zh(name.zh));
    return p;
  }
  return noun_phrase(rng, kinds, !subject, allow_place);
}

// [时间] 主语 [时间] [在 地点] 动词 [了] 宾语  →  subject verb object [in the place] [time]
Phrase sentence(Rng& rng) {
  const Verb& verb = pick(rng, kVerbs);
  Phrase time, place, verb_phrase;
  if (chance(rng, 60)) {
    const Pair& when = pick(rng, kTimes);
    time.add_en(when.en, time.add_zh(when.zh));
  }
  const bool has_place = chance(rng, 50);
  if (has_place) place = place_phrase(rng, false);
  WordSet verb_words = verb_phrase.add_zh(verb.zh);
  if (verb.le) verb_words |= verb_phrase.add_zh("了");
  verb_phrase.add_en(verb.en, verb_words);
  const Phrase subject = argument(rng, verb.subjects, true, true);
  const Phrase object = argument(rng, verb.objects, false, !has_place);
  if (chance(rng, 50)) {
    return combine({&time, &subject, &place, &verb_phrase, &object},
                   {&subject, &verb_phrase, &object, &place, &time});
  }
  return combine({&subject, &time, &place, &verb_phrase, &object},
                 {&subject, &verb_phrase, &object, &place, &time});
}

template <typename Word>
std::string join(const Word* words, size_t count) {
  std::string text;
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) text += ' ';
    text += words[i];
  }
  return text;
}

// Appends each space-separated word of `words`.
void add(std::vector<std::string>& tokens, std::string_view words) {
  while (!words.empty()) {
    const size_t end = std::min(words.find(' '), words.size());
    tokens.emplace_back(words.substr(0, end));
    words.remove_prefix(std::min(end + 1, words.size()));
  }
}

template <size_t N>
void add_pairs(std::vector<std::string>& zh, std::vector<std::string>& en, const Pair (&pairs)[N]) {
  for (const Pair& pair : pairs) add(zh, pair.zh), add(en, pair.en);
}

// Every word the grammar can produce, in lexicon order (Vocab::build skips repeats), so the ids
// do not depend on the seed.
std::pair<std::vector<std::string>, std::vector<std::string>> lexicon_words() {
  std::vector<std::string> zh, en;
  for (const char* w : kSourceParticles) add(zh, w);
  for (const char* w : kFunctionWords) add(en, w);
  for (const Noun& n : kNouns) add(zh, n.zh), add(zh, n.measure), add(en, n.en), add(en, n.plural);
  for (const Pronoun& p : kPronouns) {
    add(zh, p.zh), add(en, p.subject), add(en, p.object), add(en, p.possessive);
  }
  add_pairs(zh, en, kNames);
  for (const Adjective& a : kAdjectives) add(zh, a.zh), add(en, a.en);
  add_pairs(zh, en, kNumbers);
  add_pairs(zh, en, kTimes);
  add_pairs(zh, en, kPlaces);
  for (const Verb& v : kVerbs) add(zh, v.zh), add(en, v.en);
  return {zh, en};
}

class GrammarTask : public Task {
 public:
  explicit GrammarTask(const TaskOptions& options)
      : Task("zh-en", Vocab::build(Tokenizer::kWords, lexicon_words().first),
             Vocab::build(Tokenizer::kWords, lexicon_words().second)) {
    Rng rng(options.seed);
    const long held_out = options.held_out != 0 ? options.held_out : kDefaultGrammarHeldOut;
    const long train = options.train != 0 ? options.train : kDefaultGrammarTrain;
    std::set<std::string> seen;
    for (long i = 0; i < held_out; ++i) held_out_.push_back(draw_new(rng, seen));
    for (long i = 0; i < train; ++i) train_.push_back(draw_new(rng, seen));
    for (const auto* set : {&held_out_, &train_}) {
      for (const Example& e : *set) {
        max_source_tokens_ = std::max(max_source_tokens_, static_cast<long>(e.source_ids.size()));
        max_target_tokens_ = std::max(max_target_tokens_, static_cast<long>(e.target_ids.size()));
      }
    }
    length_buckets_ = {{4, 6}, {7, 9}, {10, 11}, {12, 14}};
  }

  long train_size() const override { return static_cast<long>(train_.size()); }
  Example sample_train(Rng& rng) const override {
    return train_[static_cast<size_t>(rng.below(static_cast<long>(train_.size())))];
  }

 private:
  // A sentence of 4–14 words whose source is not in `seen` (then added to it).
  Example draw_new(Rng& rng, std::set<std::string>& seen) const {
    for (long attempt = 0; attempt < kMaxRejectedDraws; ++attempt) {
      const Phrase s = sentence(rng);
      const long words = static_cast<long>(s.zh_size);
      if (words < kGrammarMinWords || words > kGrammarMaxWords) continue;
      std::string source = join(s.zh, s.zh_size);
      if (!seen.insert(source).second) continue;
      Example example = make_example(std::move(source), join(s.en, s.en_size));
      for (size_t t = 0; t < s.en_size; ++t) {
        std::vector<int32_t> indices;
        for (int32_t i = 0; i < words; ++i) {
          if ((s.aligned[t] >> i) & 1) indices.push_back(i);
        }
        example.alignment.push_back(std::move(indices));
      }
      return example;
    }
    throw InputError("the grammar ran out of distinct sentences; ask for fewer");
  }

  std::vector<Example> train_;
};

}  // namespace

std::unique_ptr<Task> make_grammar_task(const TaskOptions& options) {
  return std::make_unique<GrammarTask>(options);
}

}  // namespace lab
