// The charts' keyboard walk (web/src/charts/chart-keys.ts): which point a key moves to, clamped
// to the chart's points; the first key lands on the first point (or, going back, on the last).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { stopAfterKey } = await loadWeb('charts/chart-keys');

test('arrow keys walk the points one at a time, Home and End jump to the ends, clamped', () => {
  assert.equal(stopAfterKey('ArrowRight', -1, 5), 0, 'the first key lands on the first point');
  assert.equal(stopAfterKey('ArrowLeft', -1, 5), 4, '… or, going back, on the last');
  assert.equal(stopAfterKey('ArrowRight', 1, 5), 2);
  assert.equal(stopAfterKey('ArrowDown', 1, 5), 2, 'down walks the bars of a bar chart');
  assert.equal(stopAfterKey('ArrowUp', 1, 5), 0);
  assert.equal(stopAfterKey('ArrowRight', 4, 5), 4, 'clamped at the last point');
  assert.equal(stopAfterKey('ArrowLeft', 0, 5), 0, 'clamped at the first');
  assert.equal(stopAfterKey('Home', 3, 5), 0);
  assert.equal(stopAfterKey('End', 0, 5), 4);
  assert.equal(stopAfterKey('Enter', 0, 5), null, 'other keys are not the walk’s');
  assert.equal(stopAfterKey('ArrowRight', -1, 0), null, 'no points: nothing to walk');
  assert.equal(stopAfterKey('ArrowRight', 9, 5), 4, 'a stop of an older, longer series is clamped');
});
