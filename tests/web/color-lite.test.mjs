// web/src/charts/color-lite.ts, the build's stand-in for @kurkle/color (Chart.js's colour helper),
// against the package itself: the same channels for every colour form the app and Chart.js's
// defaults use, the same hover colour (Chart.js's getHoverColor: saturate(0.5).darken(0.1)), the
// same mix (colour animations), and "not valid" where the stand-in does not parse (names, hsl()).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Color as Reference } from '@kurkle/color';
import { loadWeb } from './setup.mjs';

const { Color } = await loadWeb('charts/color-lite');

const COLOURS = [
  '#1d4ed8', '#c2410c', '#15803d', '#475569', '#94a3b8', '#93c5fd', '#0f172a', '#ffffff', '#000000',
  '#60a5fa', '#fb923c', '#4ade80', '#334e7e', '#e2e8f0', '#cbd5e1', '#334155', '#64748b', '#a3b1c6',
  '#666', '#abc', '#abcd', '#11223344', '#FFAA00',
  'rgba(0,0,0,0.1)', 'rgba(0, 0, 0, 0.1)', 'rgb(15, 23, 42)', 'rgba(15, 23, 42, 0.92)', 'rgb(100%, 50%, 0%)', 'transparent',
];

/** channels of a colour, alpha to 2 decimals (the package keeps 0…255 internally as well) */
const channels = (c) => {
  const v = c.rgb;
  return v && { r: v.r, g: v.g, b: v.b, a: Math.round(v.a * 100) / 100 };
};
/** a hex string back to channels (the package writes #abc where it can, the stand-in #aabbcc) */
const hexChannels = (hex) => channels(new Reference(hex));

test('parses every colour form the charts use as the package does', () => {
  for (const text of COLOURS) {
    const ours = new Color(text);
    const ref = new Reference(text);
    assert.equal(ours.valid, ref.valid, text);
    assert.deepEqual(channels(ours), channels(ref), text);
    assert.deepEqual(hexChannels(ours.hexString()), hexChannels(ref.hexString()), `${text}: hexString`);
  }
});

test("Chart.js's hover colour (saturate 0.5, darken 0.1) and lighten/desaturate match the package", () => {
  for (const text of COLOURS) {
    const hover = (C) => new C(text).saturate(0.5).darken(0.1).hexString();
    assert.deepEqual(hexChannels(hover(Color)), hexChannels(hover(Reference)), `${text}: hover`);
    const other = (C) => new C(text).lighten(0.2).desaturate(0.3).hexString();
    assert.deepEqual(hexChannels(other(Color)), hexChannels(other(Reference)), `${text}: lighten/desaturate`);
  }
});

test('mix (colour animations) matches the package', () => {
  for (const [a, b] of [['#1d4ed8', '#c2410c'], ['#ffffff', 'rgba(0,0,0,0.1)'], ['transparent', '#15803d']]) {
    for (const w of [0, 0.25, 0.5, 0.9, 1]) {
      const ours = new Color(a).mix(new Color(b), w);
      const ref = new Reference(a).mix(new Reference(b), w);
      assert.deepEqual(channels(ours), channels(ref), `${a} mix ${b} at ${w}`);
    }
  }
});

test('text it does not parse is not valid, and its operations are harmless', () => {
  for (const text of ['red', 'hsl(120, 50%, 50%)', 'not a colour', '#12345', '']) {
    const c = new Color(text);
    assert.equal(c.valid, false, text);
    assert.equal(c.saturate(0.5).darken(0.1).hexString(), undefined, text);
  }
  const same = new Color('#123456');
  assert.equal(new Color(same), same, 'a Color passes through');
  assert.equal(new Color({ r: 1, g: 2, b: 3, a: 0.5 }).hexString(), '#01020380');
});
