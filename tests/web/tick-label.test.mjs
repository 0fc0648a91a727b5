// web/src/charts/tick-label.ts: a linear axis's tick labels, written without Intl. The reference is
// what Chart.js 4's own numeric formatter writes (its decimals rule, through Intl.NumberFormat),
// computed here independently with Intl, grouping off: the two must agree on every axis the
// charts draw and on the edges of the rule.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { linearTickLabel } = await loadWeb('charts/tick-label');

/** Chart.js 4.6's Ticks.formatters.numeric with locale en-US and no grouping. */
function chartJsLabel(value, ticks) {
  if (value === 0) return '0';
  let notation;
  let delta = value;
  if (ticks.length > 1) {
    const maxTick = Math.max(Math.abs(ticks[0].value), Math.abs(ticks[ticks.length - 1].value));
    if (maxTick < 1e-4 || maxTick > 1e15) notation = 'scientific';
    delta = ticks.length > 3 ? ticks[2].value - ticks[1].value : ticks[1].value - ticks[0].value;
    if (Math.abs(delta) >= 1 && value !== Math.floor(value)) delta = value - Math.floor(value);
  }
  const logDelta = Math.log10(Math.abs(delta));
  const numDecimal = Number.isNaN(logDelta) ? 1 : Math.max(Math.min(-1 * Math.floor(logDelta), 20), 0);
  return new Intl.NumberFormat('en-US', { notation, minimumFractionDigits: numDecimal, maximumFractionDigits: numDecimal, useGrouping: false }).format(value);
}

/** `count` ticks from `start` by `step`, as Chart.js's linear scale builds them (rounded to the step's decimals). */
function axis(start, step, count) {
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  return Array.from({ length: count }, (_, i) => ({ value: Number((start + i * step).toFixed(Math.min(decimals, 20))) }));
}

test('every tick of the axes the charts draw reads as Chart.js would write it', () => {
  const axes = [
    axis(0, 0.1, 11), // accuracy 0–1
    axis(0, 0.2, 6),
    axis(0, 0.5, 9), // a loss
    axis(0, 50, 9), // steps
    axis(0, 200, 11),
    axis(0, 1000, 6), // steps of a long run: no grouping
    axis(0, 2500, 9),
    axis(-1, 0.25, 9), // a sweep's score
    axis(0, 0.02, 6),
    axis(0.001, 0.001, 6),
    axis(0, 1e-5, 5), // scientific: every tick below 1e-4
    axis(0, 5e15, 4), // scientific: above 1e15
  ];
  for (const ticks of axes) {
    for (const { value } of ticks) assert.equal(linearTickLabel(value, ticks), chartJsLabel(value, ticks), `${value} on ${ticks.map((t) => t.value)}`);
  }
});

test('a lone tick, a non-integer tick on an integer axis, zero and non-finite values', () => {
  for (const v of [0.3, 7, 1234.5, -0.05]) assert.equal(linearTickLabel(v, [{ value: v }]), chartJsLabel(v, [{ value: v }]));
  const ticks = [{ value: 0 }, { value: 2.5 }, { value: 5 }];
  assert.equal(linearTickLabel(2.5, ticks), chartJsLabel(2.5, ticks));
  assert.equal(linearTickLabel(2.5, ticks), '2.5');
  assert.equal(linearTickLabel(0, ticks), '0');
  assert.equal(linearTickLabel(1000, axis(0, 1000, 4)), '1000');
  assert.equal(linearTickLabel(Number.NaN, ticks), 'NaN');
});
