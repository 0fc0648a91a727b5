// The pure parts of the plain-canvas charts (web/src/chart-axes.ts): nice linear ticks and axis
// bounds, log ticks, scales, tick-label thinning, the nearest point under the pointer, and label
// shortening. Run: node --test tests/web/chart-axes.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { niceStep, niceAxis, linearTicks, logTicks, formatTick, stepDecimals, linearScale, logScale, labelsThatFit, nearestIndex, fitLabel } =
  await loadWeb('chart-axes');

describe('linear ticks', () => {
  test('niceStep picks 1, 2 or 5 × 10^k, never more intervals than asked', () => {
    assert.equal(niceStep(10, 5), 2);
    assert.equal(niceStep(1, 5), 0.2);
    assert.equal(niceStep(400, 6), 100); // raw 66.7 → 100
    assert.equal(niceStep(400, 8), 50);
    assert.equal(niceStep(3, 10), 0.5);
    assert.equal(niceStep(7, 1), 10);
    for (const [span, n] of [[1, 5], [2.08, 5], [987, 7], [0.003, 4], [1e6, 3]]) {
      const step = niceStep(span, n);
      assert.ok(span / step <= n + 1e-9, `${span} in ${n}: step ${step}`);
      const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-12);
      assert.ok([1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-9), `step ${step} is 1/2/5 × 10^k`);
    }
    assert.throws(() => niceStep(0, 5), /span 0/);
    assert.throws(() => niceStep(Number.NaN, 5), /span NaN/);
  });

  test('niceAxis keeps fixed ends and rounds free ends out to the step', () => {
    assert.deepEqual(niceAxis(0, 1, 5, { min: 0, max: 1 }), { min: 0, max: 1, step: 0.2, ticks: [0, 0.2, 0.4, 0.6, 0.8, 1] });
    // an entropy of 2.08 nats with min fixed at 0: the top goes up to 2.5
    assert.deepEqual(niceAxis(0.1, 2.08, 5, { min: 0 }), { min: 0, max: 2.5, step: 0.5, ticks: [0, 0.5, 1, 1.5, 2, 2.5] });
    assert.deepEqual(niceAxis(-3.2, 7.1, 6), { min: -4, max: 8, step: 2, ticks: [-4, -2, 0, 2, 4, 6, 8] });
    assert.deepEqual(niceAxis(-3.2, 7.1, 5).ticks, [-5, 0, 5, 10], "a 2.06 raw step rounds up to 5");
    // training steps: 1 … 3 with an integer step; an empty series still gets an axis
    assert.deepEqual(niceAxis(1, 3, 8, { min: 0, integerStep: true }).ticks, [0, 1, 2, 3]);
    assert.deepEqual(niceAxis(0, 0, 5, { min: 0, integerStep: true }).ticks, [0, 1]);
    assert.throws(() => niceAxis(2, 1, 5), /max below min/);
    assert.throws(() => niceAxis(0, Number.POSITIVE_INFINITY, 5), /not finite/);
  });

  test('tick values print without float noise, with the decimals their step needs', () => {
    assert.deepEqual(linearTicks(0, 1, 0.1), [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    assert.deepEqual(linearTicks(0.05, 0.35, 0.1), [0.1, 0.2, 0.3]);
    assert.equal(stepDecimals(0.25), 2);
    assert.equal(stepDecimals(50), 0);
    assert.equal(formatTick(0.30000000000000004, 0.1), '0.3');
    assert.equal(formatTick(400, 100), '400');
    assert.equal(formatTick(-0.00001, 0.5), '0.0');
  });
});

describe('log ticks and scales', () => {
  test('powers of the base inside the range', () => {
    assert.deepEqual(logTicks(1, 1000), [1, 10, 100, 1000]);
    assert.deepEqual(logTicks(1, 1024, 2), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
    assert.deepEqual(logTicks(0.5, 200), [1, 10, 100]);
  });

  test('under one decade: the 1-2-5 values too', () => {
    assert.deepEqual(logTicks(3, 40), [5, 10, 20]);
    assert.deepEqual(logTicks(0.01, 0.05), [0.01, 0.02, 0.05]);
  });

  test('a log axis needs positive bounds', () => {
    assert.throws(() => logTicks(0, 10), /min > 0/);
    assert.throws(() => logScale(0, 10, 0, 100), /positive/);
  });

  test('scales map the domain ends onto the pixel ends', () => {
    const y = linearScale(0, 1, 200, 10); // y grows upwards
    assert.equal(y(0), 200);
    assert.equal(y(1), 10);
    assert.equal(y(0.5), 105);
    const x = logScale(1, 1024, 50, 550);
    assert.equal(x(1), 50);
    assert.ok(Math.abs(x(1024) - 550) < 1e-9);
    assert.ok(Math.abs(x(32) - 300) < 1e-9, 'powers of two are equally spaced');
    assert.ok(Number.isNaN(x(0)));
  });
});

describe('pointer and labels', () => {
  test('nearestIndex finds the closest value by binary search', () => {
    const xs = [10, 20, 40, 80];
    assert.equal(nearestIndex(xs, -5), 0);
    assert.equal(nearestIndex(xs, 14), 0);
    assert.equal(nearestIndex(xs, 15), 0, 'a tie goes to the lower value');
    assert.equal(nearestIndex(xs, 16), 1);
    assert.equal(nearestIndex(xs, 61), 3);
    assert.equal(nearestIndex(xs, 1e9), 3);
    assert.equal(nearestIndex([5], 100), 0);
    assert.equal(nearestIndex([], 3), -1);
    assert.equal(nearestIndex(xs, Number.NaN), -1);
    // against a linear scan on many points
    const many = Array.from({ length: 257 }, (_, i) => i * i * 0.37);
    for (const target of [0, 1.3, 99.9, 5000, 12345.6, 30000]) {
      const scan = many.reduce((best, v, i) => (Math.abs(v - target) < Math.abs(many[best] - target) ? i : best), 0);
      assert.equal(nearestIndex(many, target), scan, `target ${target}`);
    }
  });

  test('labelsThatFit keeps every k-th label, the smallest k with no overlap', () => {
    // 11 labels every 25 px: 20 px wide with a 6 px gap → every other one; 30 px → every 3rd
    const centers = Array.from({ length: 11 }, (_, i) => 30 + 25 * i);
    assert.deepEqual(labelsThatFit(centers, centers.map(() => 20), 6), [0, 2, 4, 6, 8, 10]);
    assert.deepEqual(labelsThatFit(centers, centers.map(() => 50), 6), [0, 3, 6, 9]);
    assert.deepEqual(labelsThatFit(centers, centers.map(() => 10), 6), centers.map((_, i) => i));
    // one wide label forces a stride that skips it
    assert.deepEqual(labelsThatFit([0, 20, 40, 60], [10, 40, 10, 10], 4), [0, 2]);
    assert.deepEqual(labelsThatFit([0], [1000], 4), [0]);
    assert.deepEqual(labelsThatFit([], [], 6), []);
    assert.throws(() => labelsThatFit([1, 2], [3], 6), /2 centres but 1 widths/);
  });

  test('fitLabel shortens by whole characters, any script', () => {
    const width = (s) => [...s].length * 10;
    assert.equal(fitLabel('喜欢', 40, width), '喜欢');
    assert.equal(fitLabel('XiaoBing', 50, width), 'Xiao…');
    assert.equal(fitLabel('咖哥喜欢小冰', 30, width), '咖哥…');
    assert.equal(fitLabel('<eos>', 5, width), '…');
  });
});
