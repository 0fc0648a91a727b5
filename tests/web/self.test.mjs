// Inputs of the self-attention and multi-head sections (web/src/sections/self-tokens.ts): tokens,
// per-word seeded embeddings, PyTorch-default Linear init; and the sections' string tables.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { tokenize, embed, linearParams, projectionParams, SentenceError, MAX_TOKENS } = await loadWeb('sections/self-tokens');
const { SELF_STRINGS, sentenceErrorText } = await loadWeb('sections/self-strings');
const { fill } = await loadWeb('i18n');
const { MULTIHEAD_STRINGS } = await loadWeb('sections/multihead-strings');
const { DOT_STRINGS } = await loadWeb('sections/dot-strings');

test('tokenize: whitespace-separated words (any script), empty and >16 tokens are SentenceErrors', () => {
  assert.deepEqual(tokenize('  咖哥 喜欢\t小冰 '), ['咖哥', '喜欢', '小冰']);
  assert.deepEqual(tokenize('<b>x</b>'), ['<b>x</b>']);
  assert.equal(MAX_TOKENS, 16);
  assert.equal(tokenize(Array(16).fill('a').join(' ')).length, 16);
  for (const [text, problem, count] of [['', 'empty', 0], ['   ', 'empty', 0], [Array(17).fill('词').join(' '), 'tooMany', 17]]) {
    assert.throws(() => tokenize(text), (err) => err instanceof SentenceError && err.problem === problem && err.count === count);
  }
  const t = (key) => SELF_STRINGS.en[key];
  let caught;
  try {
    tokenize(Array(20).fill('x').join(' '));
  } catch (err) {
    caught = err;
  }
  assert.equal(sentenceErrorText(t, caught, 'self'), 'the sentence has 20 tokens; at most 16 fit the views');
  assert.equal(sentenceErrorText(t, new Error('other'), 'self'), null);
});

test('embed: one N(0,1) vector per word, the same for the same word and seed, different otherwise', () => {
  const x = embed(['我', '爱', '我'], 6, 7);
  assert.deepEqual(x.shape, [1, 3, 6]);
  const row = (t, i) => Array.from(t.data.slice(i * 6, i * 6 + 6));
  assert.deepEqual(row(x, 0), row(x, 2));
  assert.notDeepEqual(row(x, 0), row(x, 1));
  assert.deepEqual(row(embed(['爱'], 6, 7), 0), row(x, 1), 'independent of position and sentence');
  assert.notDeepEqual(row(embed(['爱'], 6, 8), 0), row(x, 1), 'depends on the seed');
  // a broad sanity check of the distribution over many words
  const many = embed(Array.from({ length: 16 }, (_, i) => `w${i}`), 64, 1).data;
  const mean = many.reduce((a, b) => a + b, 0) / many.length;
  const variance = many.reduce((a, b) => a + (b - mean) ** 2, 0) / many.length;
  assert.ok(Math.abs(mean) < 0.1 && Math.abs(variance - 1) < 0.15, `mean ${mean}, variance ${variance}`);
});

test('linearParams: PyTorch default init, uniform on ±1/√d, deterministic per (seed, name, d)', () => {
  const d = 16;
  const { weight, bias } = linearParams(3, 'self.q', d);
  assert.deepEqual(weight.shape, [d, d]);
  assert.deepEqual(bias.shape, [d]);
  const bound = 1 / Math.sqrt(d);
  for (const v of [...weight.data, ...bias.data]) assert.ok(Math.abs(v) <= bound);
  const spread = Math.max(...weight.data) - Math.min(...weight.data);
  assert.ok(spread > 1.8 * bound, 'fills the range');
  assert.deepEqual(Array.from(linearParams(3, 'self.q', d).weight.data), Array.from(weight.data));
  assert.notDeepEqual(Array.from(linearParams(3, 'self.k', d).weight.data), Array.from(weight.data));
  const p = projectionParams(3, 'mh', 4, ['q', 'k', 'v', 'o']);
  assert.deepEqual(Object.keys(p).sort(), ['bk', 'bo', 'bq', 'bv', 'wk', 'wo', 'wq', 'wv']);
});

test('string tables: the same keys in English and Chinese, placeholders kept', () => {
  for (const [name, table] of [['dot', DOT_STRINGS], ['self', SELF_STRINGS], ['multihead', MULTIHEAD_STRINGS]]) {
    assert.deepEqual(Object.keys(table.zh).sort(), Object.keys(table.en).sort(), `${name}: key sets differ`);
    for (const key of Object.keys(table.en)) {
      const holes = (s) => (s.match(/\{\w+\}/g) ?? []).sort();
      assert.deepEqual(holes(table.zh[key]), holes(table.en[key]), `${name}: ${key} placeholders`);
    }
  }
  assert.equal(fill('{a} of {b}, {c}', { a: 1, b: 'x' }), '1 of x, {c}');
});
