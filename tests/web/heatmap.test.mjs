// The heatmap's colour ramps and labels (web/src/heatmap.ts): the sequential ramp reads in greyscale
// (luminance falls monotonically with the value); the diverging ramp is symmetric in lightness
// around 0 and tells the sign by hue; long tokens are shortened on the axes only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { rampColor, divergingColor, tickLabel, formatValue } = await loadWeb('heatmap');

/** WCAG relative luminance of 'rgb(r, g, b)' */
function luminance(css) {
  const m = /^rgb\((\d+), (\d+), (\d+)\)$/.exec(css);
  assert.ok(m, css);
  const lin = (c) => {
    const s = Number(c) / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(m[1]) + 0.7152 * lin(m[2]) + 0.0722 * lin(m[3]);
}

const steps = Array.from({ length: 41 }, (_, i) => i / 40);

test('sequential ramp: luminance strictly falls from 0 to 1 (greyscale-readable), clamps outside', () => {
  const l = steps.map((t) => luminance(rampColor(t)));
  for (let i = 1; i < l.length; i++) assert.ok(l[i] < l[i - 1], `not darker at t=${steps[i]}`);
  assert.ok(l[0] / l.at(-1) > 10, 'light and dark ends differ strongly');
  assert.equal(rampColor(-5), rampColor(0));
  assert.equal(rampColor(7), rampColor(1));
  assert.equal(rampColor(Number.NaN), rampColor(0));
});

test('diverging ramp: lightest at 0, darker with |value| on both sides, hue tells the sign', () => {
  const centre = luminance(divergingColor(0.5));
  for (const d of [0.1, 0.2, 0.3, 0.4, 0.5]) {
    const neg = luminance(divergingColor(0.5 - d));
    const pos = luminance(divergingColor(0.5 + d));
    assert.ok(neg < centre && pos < centre, `|v| = ${d} is not darker than 0`);
    if (d > 0.1) {
      assert.ok(neg < luminance(divergingColor(0.6 - d)), 'negative side darkens monotonically');
      assert.ok(pos < luminance(divergingColor(0.4 + d)), 'positive side darkens monotonically');
    }
  }
  const rgb = (css) => css.match(/\d+/g).map(Number);
  const [nr, , nb] = rgb(divergingColor(0));
  const [pr, , pb] = rgb(divergingColor(1));
  assert.ok(nr > nb, 'negative end is orange (red > blue)');
  assert.ok(pb > pr, 'positive end is purple (blue > red)');
});

test('tick labels: whole when short, shortened with … by code point (Chinese and emoji safe)', () => {
  assert.equal(tickLabel('小冰'), '小冰');
  assert.equal(tickLabel('abcdefghijk'), 'abcdefghi…');
  assert.equal(tickLabel('😀'.repeat(12)), `${'😀'.repeat(9)}…`);
  assert.equal(tickLabel('<img src=x>', 4), '<im…', 'labels are text; the axis draws them on a canvas');
});

test('cell values: fixed decimals, no "-0.00", exponent for large values', () => {
  assert.equal(formatValue(0.12345), '0.12');
  assert.equal(formatValue(0.12345, 4), '0.1235');
  assert.equal(formatValue(-0.001), '0.00');
  assert.equal(formatValue(12345), '1.2e+4');
  assert.equal(formatValue(Number.NaN), 'NaN');
});
