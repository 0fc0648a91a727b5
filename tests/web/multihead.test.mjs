// The head-count rules of the multi-head section (web/src/sections/multihead.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { headChoices, nearestHeads, MAX_HEADS } = await loadWeb('sections/multihead');
const { PROPS } = await loadWeb('state-table');

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
