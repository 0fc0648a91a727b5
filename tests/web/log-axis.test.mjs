// web/src/charts/log-axis.ts: the log axes (the §3.1 sweep's d, the Performance page's figures) are
// linear axes over log10 of the values; their ticks must land on the values and say them exactly.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { fromLog, logTickLabel, logTicks, logScaleOptions, toLog } = await loadWeb('charts/log-axis');

test('tick labels give the value back exactly, for the sweep grid and decimal figures', () => {
  for (const d of [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]) assert.equal(logTickLabel(toLog(d)), String(d));
  for (const v of [0.1, 0.2, 0.5, 2, 5, 20, 50, 2000]) assert.equal(logTickLabel(toLog(v)), String(v));
  assert.ok(Math.abs(fromLog(toLog(37.5)) - 37.5) < 1e-9);
});

test('ticks: the given values, else 1, 2, 5 × each power of ten in range (powers only over more than 4 decades)', () => {
  assert.deepEqual(logTicks(1, 1024, [1, 16, 1024]).map(logTickLabel), ['1', '16', '1024']);
  assert.deepEqual(logTicks(0.1, 100).map(logTickLabel), ['0.1', '0.2', '0.5', '1', '2', '5', '10', '20', '50', '100']);
  assert.deepEqual(logTicks(1, 1e6).map(logTickLabel), ['1', '10', '100', '1000', '10000', '100000', '1000000']);
  const o = logScaleOptions(0.1, 100);
  assert.equal(o.type, 'linear');
  assert.equal(o.min, -1);
  assert.equal(o.max, 2);
  const axis = { ticks: [] };
  o.afterBuildTicks(axis);
  assert.deepEqual(axis.ticks.map((t) => o.ticks.callback(t.value)), ['0.1', '0.2', '0.5', '1', '2', '5', '10', '20', '50', '100']);
});
