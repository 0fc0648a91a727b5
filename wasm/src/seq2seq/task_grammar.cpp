#include "seq2seq/task_grammar.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tensor.h"

namespace lab {
namespace {

constexpr long kDefaultGrammarHeldOut = 500;
constexpr long kDefaultGrammarTrain = 5000;
// Rejection sampling (length outside 4–14, or a sentence already drawn) gives up after this many
// draws in a row: the grammar has millions of sentences, so it never does in practice.
constexpr long kMaxRejectedDraws = 100000;

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
  unsigned objects;
};
constexpr Verb kVerbs[] = {
    {"看见", "saw", true, kAnyKind},
    {"喜欢", "liked", false, kAnyKind},
    {"找到", "found", true, kAnyKind},
    {"画", "drew", true, kAnyKind},
    {"帮助", "helped", true, kPerson | kAnimal},
    {"遇见", "met", true, kPerson | kAnimal},
    {"买", "bought", true, kThing | kAnimal},
};

// Words of either side that translate nothing on their own.
constexpr const char* kSourceParticles[] = {"的", "在", "了", "一"};
constexpr const char* kFunctionWords[] = {"the", "a", "in"};

// ---------------------------------------------------------------------------------------------
// Phrases: Chinese words in Chinese order and English words in English order, each English word
// with the indices (into this phrase's Chinese words) of the words it translates.

struct Phrase {
  std::vector<std::string> zh;
  std::vector<std::pair<std::string, std::vector<int32_t>>> en;

  int32_t add_zh(const std::string& word) {
    zh.push_back(word);
    return static_cast<int32_t>(zh.size()) - 1;
  }
  // Each space-separated word of `words`, all aligned to `aligned` (empty: function words).
  void add_en(const std::string& words, const std::vector<int32_t>& aligned) {
    size_t start = 0;
    while (start < words.size()) {
      size_t end = words.find(' ', start);
      if (end == std::string::npos) end = words.size();
      en.emplace_back(words.substr(start, end - start), aligned);
      start = end + 1;
    }
  }
};

// The phrases' Chinese in zh_order and their English in en_order (the same phrases, reordered).
Phrase combine(const std::vector<const Phrase*>& zh_order,
               const std::vector<const Phrase*>& en_order) {
  Phrase out;
  std::vector<int32_t> offset(en_order.size(), 0);
  for (const Phrase* part : zh_order) {
    for (size_t k = 0; k < en_order.size(); ++k) {
      if (en_order[k] == part) offset[k] = static_cast<int32_t>(out.zh.size());
    }
    out.zh.insert(out.zh.end(), part->zh.begin(), part->zh.end());
  }
  for (size_t k = 0; k < en_order.size(); ++k) {
    for (const auto& [word, aligned] : en_order[k]->en) {
      std::vector<int32_t> shifted;
      for (int32_t i : aligned) shifted.push_back(i + offset[k]);
      out.en.emplace_back(word, std::move(shifted));
    }
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
  return std::string(zh).size() <= 3;  // one CJK character is three UTF-8 bytes
}

// 在 公园 → "in the park"; with `modifier` the 的 of "在 公园 的 猫".
Phrase place_phrase(Rng& rng, bool modifier) {
  const Pair& place = pick(rng, kPlaces);
  Phrase p;
  p.add_zh("在");
  const int32_t noun = p.add_zh(place.zh);
  if (modifier) p.add_zh("的");
  p.add_en("in the", {});
  p.add_en(place.en, {noun});
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
    const int32_t a = det.add_zh(owner.zh), b = det.add_zh("的");
    det.add_en(owner.possessive, {a, b});
  } else if (allow_number && roll < 45) {
    const int32_t a = det.add_zh("一"), b = det.add_zh(noun->measure);
    (void)a, (void)b;
    det.add_en("a", {});
  } else if (allow_number && roll < 70) {
    const Pair& number = pick(rng, kNumbers);
    const int32_t a = det.add_zh(number.zh), b = det.add_zh(noun->measure);
    det.add_en(number.en, {a, b});
    plural = true;
  } else {
    det.add_en("the", {});
  }
  if (chance(rng, 60)) {
    const Adjective* adjective = nullptr;
    while (adjective == nullptr || (adjective->kinds & noun->kind) == 0) {
      adjective = &pick(rng, kAdjectives);
    }
    std::vector<int32_t> aligned{adj.add_zh(adjective->zh)};
    if (!is_one_character(adjective->zh)) aligned.push_back(adj.add_zh("的"));
    adj.add_en(adjective->en, aligned);
  }
  const int32_t n = head.add_zh(noun->zh);
  head.add_en(plural ? noun->plural : noun->en, {n});
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
    p.add_en(subject ? pronoun.subject : pronoun.object, {p.add_zh(pronoun.zh)});
    return p;
  }
  if ((kinds & kPerson) != 0 && roll < 45) {
    const Pair& name = pick(rng, kNames);
    p.add_en(name.en, {p.add_zh(name.zh)});
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
    time.add_en(when.en, {time.add_zh(when.zh)});
  }
  const bool has_place = chance(rng, 50);
  if (has_place) place = place_phrase(rng, false);
  std::vector<int32_t> verb_words{verb_phrase.add_zh(verb.zh)};
  if (verb.le) verb_words.push_back(verb_phrase.add_zh("了"));
  verb_phrase.add_en(verb.en, verb_words);
  const Phrase subject = argument(rng, kPerson | kAnimal, true, true);
  const Phrase object = argument(rng, verb.objects, false, !has_place);
  const std::vector<const Phrase*> en = {&subject, &verb_phrase, &object, &place, &time};
  if (chance(rng, 50)) return combine({&time, &subject, &place, &verb_phrase, &object}, en);
  return combine({&subject, &time, &place, &verb_phrase, &object}, en);
}

std::string join(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
  return text;
}

void add_words(std::vector<std::string>& tokens, const std::string& words) {
  size_t start = 0;
  while (start < words.size()) {
    size_t end = words.find(' ', start);
    if (end == std::string::npos) end = words.size();
    tokens.push_back(words.substr(start, end - start));
    start = end + 1;
  }
}

// Every word the grammar can produce, in lexicon order, so the ids do not depend on the seed.
std::pair<std::vector<std::string>, std::vector<std::string>> lexicon_words() {
  std::vector<std::string> zh, en;
  for (const char* w : kSourceParticles) zh.emplace_back(w);
  for (const char* w : kFunctionWords) en.emplace_back(w);
  for (const Noun& n : kNouns) {
    zh.insert(zh.end(), {n.zh, n.measure});
    en.insert(en.end(), {n.en, n.plural});
  }
  for (const Pronoun& p : kPronouns) {
    zh.emplace_back(p.zh);
    en.insert(en.end(), {p.subject, p.object, p.possessive});
  }
  auto add_pairs = [&](const Pair* pairs, size_t count) {
    for (size_t i = 0; i < count; ++i) zh.emplace_back(pairs[i].zh), add_words(en, pairs[i].en);
  };
  add_pairs(kNames, std::size(kNames));
  for (const Adjective& a : kAdjectives) zh.emplace_back(a.zh), en.emplace_back(a.en);
  add_pairs(kNumbers, std::size(kNumbers));
  add_pairs(kTimes, std::size(kTimes));
  add_pairs(kPlaces, std::size(kPlaces));
  for (const Verb& v : kVerbs) zh.emplace_back(v.zh), en.emplace_back(v.en);
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
      const long words = static_cast<long>(s.zh.size());
      if (words < kGrammarMinWords || words > kGrammarMaxWords) continue;
      std::string source = join(s.zh);
      if (!seen.insert(source).second) continue;
      std::vector<std::string> target;
      for (const auto& [word, aligned] : s.en) target.push_back(word);
      Example example = make_example(std::move(source), join(target));
      for (const auto& [word, aligned] : s.en) example.alignment.push_back(aligned);
      return example;
    }
    throw InputError("could not draw " + std::to_string(seen.size() + 1) +
                     " distinct sentences from the grammar; ask for fewer");
  }

  std::vector<Example> train_;
};

}  // namespace

std::unique_ptr<Task> make_grammar_task(const TaskOptions& options) {
  return std::make_unique<GrammarTask>(options);
}

}  // namespace lab
