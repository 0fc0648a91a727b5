// The head-count rules of the multi-head section (web/src/sections/multihead.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { headChoices, nearestHeads, okMessage, MAX_HEADS } = await loadWeb('sections/multihead');
const { PROPS } = await loadWeb('state-table');
const { MULTIHEAD_STRINGS } = await loadWeb('sections/multihead-strings');
const { translator } = await loadWeb('i18n');

test('headChoices: the divisors of d up to MAX_HEADS (the state table limit)', () => {
  assert.deepEqual(headChoices(4), [1, 2, 4]);
  assert.deepEqual(headChoices(12), [1, 2, 3, 4, 6, 12]);
  assert.deepEqual(headChoices(7), [1, 7]);
  assert.deepEqual(headChoices(64), [1, 2, 4, 8, 16]);
  assert.equal(PROPS.find((p) => p.name === 'mh_heads').max, MAX_HEADS);
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
  assert.equal(okMessage(zh, { count: 3, d: 8, heads: 8, dh: 1 }), '由 wasm 核心计算：3 个词，d = 8，8 个头，每个头 1 维。');
});

test('mh_scale: shared (the default) or per-head', () => {
  const prop = PROPS.find((p) => p.name === 'mh_scale');
  assert.equal(prop.default, 'shared');
  assert.deepEqual(prop.values, ['shared', 'per-head']);
});
