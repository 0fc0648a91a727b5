// The focus ring (--lab-focus, design.css; design-dark.css in the dark scheme) stands out at least
// 3:1 (WCAG 2.2, 1.4.11 and 2.4.13) against every background a focused control can sit on, in
// both schemes: the panel, the page, the subtle and soft-accent fills, a selected row, and the
// warning and error notes. The tokens are read from the stylesheets themselves.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const css = (name) => readFileSync(new URL(`../../web/src/${name}`, import.meta.url), 'utf8');
const BACKGROUNDS = ['--lab-panel', '--lab-bg', '--lab-subtle', '--lab-accent-soft', '--lab-selected', '--lab-warn-soft', '--lab-error-soft'];

/** The `--lab-*: #rrggbb` tokens of a stylesheet. */
function tokens(text) {
  return Object.fromEntries(Array.from(text.matchAll(/(--lab-[\w-]+):\s*(#[0-9a-fA-F]{6})\s*;/g), (m) => [m[1], m[2]]));
}

function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

test('the focus ring is at least 3:1 against every background, light and dark', () => {
  const light = tokens(css('design.css'));
  const dark = { ...light, ...tokens(css('design-dark.css')) };
  for (const [scheme, t] of [['light', light], ['dark', dark]]) {
    assert.ok(t['--lab-focus'], `${scheme}: --lab-focus is a #rrggbb token`);
    for (const bg of BACKGROUNDS) {
      assert.ok(t[bg], `${scheme}: ${bg} is a #rrggbb token`);
      const ratio = contrast(t['--lab-focus'], t[bg]);
      assert.ok(ratio >= 3, `${scheme}: the focus ring ${t['--lab-focus']} on ${bg} ${t[bg]} is ${ratio.toFixed(2)}:1`);
    }
  }
});
