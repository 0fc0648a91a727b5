// web/src/charts/step-series.ts: the training curves' points. Checked against a direct computation
// over the whole run (every bucket's lowest and highest value, the trailing mean), fed in pieces
// of every size as a trainer's history grows, so the incremental code cannot drift from it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';
import { mulberry32 } from '../../web/src/mulberry32.mjs';

const { RunningAverage, StepThinning } = await loadWeb('charts/step-series');

/** What the thinning must draw: per bucket of `size` steps, its lowest and highest point in step order. */
function expectedPoints(values, size) {
  const out = [];
  for (let start = 0; start < values.length; start += size) {
    let lo = -1;
    let hi = -1;
    for (let i = start; i < Math.min(start + size, values.length); i++) {
      if (!Number.isFinite(values[i])) continue;
      if (lo < 0 || values[i] < values[lo]) lo = i;
      if (hi < 0 || values[i] > values[hi]) hi = i;
    }
    if (lo < 0) out.push({ x: start + 1, y: null });
    else if (lo === hi) out.push({ x: lo + 1, y: values[lo] });
    else for (const i of lo < hi ? [lo, hi] : [hi, lo]) out.push({ x: i + 1, y: values[i] });
  }
  return out;
}

test('few steps: every step is drawn as it is', () => {
  const thinning = new StepThinning(8);
  const values = [3, 1, 4, 1, 5];
  assert.deepEqual(thinning.points(values), values.map((y, i) => ({ x: i + 1, y })));
  assert.equal(thinning.bucketSize, 1);
});

test('a growing run, read in pieces: each bucket drawn as its extremes, at most 2 points per bucket', () => {
  const random = mulberry32(7);
  const thinning = new StepThinning(16);
  const values = [];
  for (let round = 0; round < 60; round++) {
    const add = Math.floor(random() * 40);
    for (let i = 0; i < add; i++) values.push(random() < 0.02 ? NaN : Math.sin(values.length / 9) + random());
    const points = thinning.points(values);
    assert.deepEqual(points, expectedPoints(values, thinning.bucketSize), `after ${values.length} steps`);
    assert.ok(points.length <= 2 * 17, `${points.length} points`);
  }
  assert.ok(thinning.bucketSize >= 64, `buckets grew to ${thinning.bucketSize} steps`);
});

test('the spikes survive thinning: the run’s highest and lowest values are drawn', () => {
  const values = Array.from({ length: 10_000 }, (_, i) => (i === 4321 ? 50 : i === 777 ? -50 : 1));
  const ys = new StepThinning(32).points(values).map((p) => p.y);
  assert.ok(ys.includes(50) && ys.includes(-50));
});

test('another history (a new model) or a shorter one starts over', () => {
  const thinning = new StepThinning(4);
  thinning.points(Array.from({ length: 100 }, (_, i) => i));
  assert.ok(thinning.bucketSize > 1);
  const fresh = [9, 8];
  assert.deepEqual(thinning.points(fresh), [{ x: 1, y: 9 }, { x: 2, y: 8 }]);
  assert.equal(thinning.bucketSize, 1);
});

test('RunningAverage is the trailing mean, extended as the values grow', () => {
  const average = new RunningAverage();
  assert.deepEqual([...average.of([2, 4, 6, 8], 2)], [2, 3, 5, 7]);
  const values = [1];
  assert.deepEqual([...average.of(values, 20)], [1]);
  const random = mulberry32(3);
  for (let round = 0; round < 20; round++) {
    for (let i = 0; i < 7; i++) values.push(random());
    const got = average.of(values, 5);
    const want = values.map((_, i) => {
      const from = Math.max(0, i - 4);
      return values.slice(from, i + 1).reduce((a, b) => a + b, 0) / (i + 1 - from);
    });
    assert.equal(got.length, want.length);
    got.forEach((v, i) => assert.ok(Math.abs(v - want[i]) < 1e-12, `step ${i + 1}: ${v} vs ${want[i]}`));
  }
  // another window starts over, in a new array
  const before = average.of(values, 5);
  const after = average.of(values, 3);
  assert.notEqual(before, after);
  assert.ok(Math.abs(after[2] - (values[0] + values[1] + values[2]) / 3) < 1e-12);
});
