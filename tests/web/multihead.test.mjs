// The head-count rules of the multi-head section (web/src/sections/multihead.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { headChoices, nearestHeads, okMessage, strongestLinks, MAX_HEADS } = await loadWeb('sections/multihead');
const { PROPS } = await loadWeb('state-table');
const { MULTIHEAD_STRINGS } = await loadWeb('sections/multihead-strings');
const { translator } = await loadWeb('i18n');

test('headChoices: the divisors of d up to MAX_HEADS (the state table limit)', () => {
  assert.deepEqual(headChoices(4), [1, 2, 4]);
  assert.deepEqual(headChoices(12), [1, 2, 3, 4, 6, 12]);
  assert.deepEqual(headChoices(7), [1, 7]);
  assert.deepEqual(headChoices(64), [1, 2, 4, 8, 16]);
  assert.equal(PROPS.find((p) => p.name === 'multihead_heads').max, MAX_HEADS);
  for (let d = 2; d <= 64; d++) for (const h of headChoices(d)) assert.equal(d % h, 0);
});

test('nearestHeads: the largest valid count not above the current one', () => {
  assert.equal(nearestHeads(10, 4), 2);
  assert.equal(nearestHeads(12, 4), 4);
  assert.equal(nearestHeads(7, 4), 1);
  assert.equal(nearestHeads(64, 32), 16);
});

test('the status line counts in words: singular for 1 in English, "每个头 1 维" in Chinese', () => {
  const en = translator('en', MULTIHEAD_STRINGS);
  const zh = translator('zh', MULTIHEAD_STRINGS);
  assert.equal(okMessage(en, { count: 3, d: 8, heads: 8, dh: 1 }), 'Computed by the wasm core: 3 tokens, d = 8, 8 heads of 1 feature.');
  assert.equal(okMessage(en, { count: 1, d: 4, heads: 1, dh: 4 }), 'Computed by the wasm core: 1 token, d = 4, 1 head of 4 features.');
  assert.equal(okMessage(zh, { count: 3, d: 8, heads: 8, dh: 1 }), '由计算内核算出：3 个词，d = 8，8 个头，每个头 1 维。');
});

test('multihead_scale: shared (the default) or per-head', () => {
  const prop = PROPS.find((p) => p.name === 'multihead_scale');
  assert.equal(prop.default, 'shared');
  assert.deepEqual(prop.values, ['shared', 'per-head']);
});

test('the narration names each head’s largest weight and says whether the heads agree', () => {
  const en = translator('en', MULTIHEAD_STRINGS);
  const zh = translator('zh', MULTIHEAD_STRINGS);
  const tokens = ['咖哥', '喜欢', '小冰'];
  // head 1 (rows: queries): largest at (咖哥, 喜欢); head 2: largest at (小冰, 咖哥)
  const w = [0.1, 0.7, 0.2, 0.3, 0.3, 0.4, 0.2, 0.3, 0.5, 0.3, 0.3, 0.4, 0.2, 0.2, 0.6, 0.8, 0.1, 0.1];
  assert.equal(strongestLinks(en, w, 2, tokens), 'Strongest link of each head: head 1: 咖哥 → 喜欢 (0.70); head 2: 小冰 → 咖哥 (0.80). Each head’s strongest link is a different pair of words.');
  assert.equal(strongestLinks(zh, w, 2, tokens), '每个头最强的连接：第 1 个头：咖哥 → 喜欢（0.70）；第 2 个头：小冰 → 咖哥（0.80）。每个头最强的连接都是不同的一对词。');
  assert.equal(strongestLinks(en, w.slice(0, 9), 1, tokens), 'Strongest link of each head: head 1: 咖哥 → 喜欢 (0.70).');
  const same = [...w.slice(0, 9), ...w.slice(0, 9)];
  assert.match(strongestLinks(en, same, 2, tokens), /same pair\.$/);
  // two of three heads share a pair: the verdict names them instead of calling the heads different
  const three = [...w, ...w.slice(0, 9)];
  assert.match(strongestLinks(en, three, 3, tokens), /\(0\.70\)\. Heads 1 and 3 share their strongest link\.$/);
  assert.match(strongestLinks(zh, three, 3, tokens), /第 1、3 个头的最强连接相同。$/);
  // three heads sharing a pair are listed as a list, not "2 and 3 and 4"
  const four = [...w.slice(9), ...w.slice(0, 9), ...w.slice(0, 9), ...w.slice(0, 9)];
  assert.match(strongestLinks(en, four, 4, tokens), /Heads 2, 3 and 4 share their strongest link\.$/);
  assert.match(strongestLinks(zh, four, 4, tokens), /第 2、3、4 个头的最强连接相同。$/);
  // a nearly flat head (0.31/0.39/0.31 at most) and a tie (我 and its copy) have no strongest link and share nothing
  const flat = [0.31, 0.39, 0.3, 0.33, 0.34, 0.33, 0.33, 0.33, 0.34];
  const tie = [0.42, 0.16, 0.42, 0.3, 0.4, 0.3, 0.42, 0.16, 0.42];
  assert.equal(
    strongestLinks(en, [...w.slice(0, 9), ...flat, ...w.slice(0, 9)], 3, tokens),
    'Strongest link of each head: head 1: 咖哥 → 喜欢 (0.70); head 2: none (its largest weight, 0.39, is near an even split, 0.33); head 3: 咖哥 → 喜欢 (0.70). Heads 1 and 3 share their strongest link.',
  );
  // the copies of 我 are one word: their four cells are one link, 我 → 我, named by its words
  const wo = ['我', '爱', '我 (3)'];
  const words = ['我', '爱', '我'];
  assert.equal(strongestLinks(en, [...tie, ...tie], 2, wo, words), 'Strongest link of each head: head 1: 我 → 我 (0.42); head 2: 我 → 我 (0.42). Every head puts its largest weight on the same pair.');
  assert.equal(strongestLinks(zh, tie, 1, wo, words), '每个头最强的连接：第 1 个头：我 → 我（0.42）。');
  // 我 → 爱 from both copies (0.65) is one link; 爱 → 我 at 0.65 too is another: a tie of two
  const toAi = [0.2, 0.65, 0.15, 0.3, 0.4, 0.3, 0.2, 0.65, 0.15];
  assert.equal(strongestLinks(en, toAi, 1, wo, words), 'Strongest link of each head: head 1: 我 → 爱 (0.65).');
  const both = [0.2, 0.65, 0.15, 0.65, 0.2, 0.15, 0.2, 0.65, 0.15];
  assert.equal(strongestLinks(en, both, 1, wo, words), 'Strongest link of each head: head 1: none (2 pairs tie at 0.65).');
  assert.equal(strongestLinks(zh, both, 1, wo, words), '每个头最强的连接：第 1 个头：没有（2 对词并列 0.65）。');
  // without the words (all different), cells of equal weight are different links
  assert.equal(strongestLinks(en, toAi, 1, wo), 'Strongest link of each head: head 1: none (2 pairs tie at 0.65).');
  // more heads than are named: the rest are counted
  const six = Array.from({ length: 6 }, () => w.slice(0, 9)).flat();
  assert.match(strongestLinks(en, six, 6, tokens), /head 4: [^;]+; … \(2 more heads\)\. Every head/);
});
