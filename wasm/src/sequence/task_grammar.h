// The zh-en task: Chinese → English sentences generated from a small grammar, deterministic from
// the seed, with the aligned source word(s) of every target word.
//
// Chinese puts time and place before the verb and modifiers before the noun; English puts them
// after the object or after the noun, so the decoder has to look back and forth:
//
//   昨天 小明 在 公园 看见 了 两 只 白 猫   Xiaoming saw two white cats in the park yesterday
//   我 的 朋友 喜欢 在 商店 的 书          my friend liked the book in the shop
//
// Sources have 4–14 words (tokens are words, split on spaces). Training and held-out sentences
// are disjoint. Function words (the, a, in and <eos>) carry no alignment; every other
// target word is aligned to the source word(s) it translates.
#pragma once

#include <memory>

#include "sequence/tasks.h"

namespace lab {

constexpr long kGrammarMinWords = 4;
constexpr long kGrammarMaxWords = 14;

// The task named "zh-en" ("grammar" corpus). Options: seed, held_out (default 500), train
// (default 5000 distinct sentences).
std::unique_ptr<Task> make_grammar_task(const TaskOptions& options);

}  // namespace lab
