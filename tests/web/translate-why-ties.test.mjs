// Attribution rows that are all ties rank nothing (web/src/sections/translate-why.ts, tiedRows):
// the page then says so instead of printing a rank correlation of the ties' rounding.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { tiedRows } = await loadWeb('sections/translate-why');

test('a row is tied when its scores print alike at three decimals', () => {
  const scores = [0.0001, 0.0002, 0.0, /* row 2 */ 0.3, 0.1, 0.0, /* row 3 */ -0.0002, 0.0002, 0.0];
  assert.deepEqual(tiedRows(scores, 3, 3), [true, false, true]);
  assert.deepEqual(tiedRows([0.2, 0.2004], 1, 2), [true]);
  assert.deepEqual(tiedRows([0.2, 0.201], 1, 2), [false]);
  // each side of 0 prints 0.000: ties, though they lie 0.0008 apart
  assert.deepEqual(tiedRows([-0.0004, 0.0004, 0.0], 1, 3), [true]);
  assert.deepEqual(tiedRows([0.0004, 0.0006], 1, 2), [false]);
});
