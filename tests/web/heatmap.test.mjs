// The heatmap's colour ramps and labels (web/src/heatmap.ts): the sequential ramp reads in greyscale
// (luminance falls monotonically with the value); the diverging ramp is symmetric in lightness
// around 0 and tells the sign by hue; long tokens are shortened on the axes only. The canvas
// painting (heatmap-paint.ts) against a recording 2D context: cells, values, labels, hit test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { rampColor, divergingColor, tickLabel, formatValue } = await loadWeb('heatmap');
const { paintHeatmap, cellAt, cellRect } = await loadWeb('heatmap-paint');
const { ColorScale, NAN_COLOR } = await loadWeb('heatmap-color');

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

/** A 2D context that records what is painted (measureText: 7 px per code point). */
function recordingContext() {
  const calls = [];
  const state = { fillStyle: '', font: '', textAlign: '', textBaseline: '', lineWidth: 1, strokeStyle: '' };
  const ctx = {
    ...state,
    calls,
    save() {},
    restore() {},
    translate() {},
    rotate() {},
    measureText: (text) => ({ width: [...text].length * 7 }),
    fillRect(x, y, w, h) {
      calls.push({ op: 'fillRect', x, y, w, h, fill: this.fillStyle });
    },
    fillText(text, x, y) {
      calls.push({ op: 'fillText', text, x, y, fill: this.fillStyle });
    },
    strokeRect(x, y, w, h) {
      calls.push({ op: 'strokeRect', x, y, w, h, stroke: this.strokeStyle });
    },
    clearRect() {
      calls.push({ op: 'clearRect' });
    },
  };
  return ctx;
}

test('a NaN cell is grey, on neither ramp, with readable text; ±∞ take the ends', () => {
  for (const diverging of [false, true]) {
    const scale = new ColorScale(-1, 1, diverging);
    const ramp = steps.map((t) => (diverging ? divergingColor(t) : rampColor(t)));
    assert.equal(scale.color(Number.NaN), NAN_COLOR);
    assert.ok(!ramp.includes(NAN_COLOR), 'NaN must not look like a value');
    assert.equal(scale.color(Number.POSITIVE_INFINITY), scale.color(1));
    assert.equal(scale.color(Number.NEGATIVE_INFINITY), scale.color(-1));
    assert.ok(luminance(NAN_COLOR) > 0.2, 'dark text stays readable on it');
    assert.equal(scale.textColor(Number.NaN), scale.textColor(diverging ? 0 : -1));
  }
});

test('painting: one cell per value in the scale colour, values and whole-or-shortened labels, no clearing', () => {
  const rowLabels = ['我', '我', 'internationalization'];
  const colLabels = ['a', 'b'];
  const values = [0, 0.25, 0.5, 0.75, 1, Number.NaN];
  const scale = new ColorScale(0, 1, false);
  const ctx = recordingContext();
  const layout = paintHeatmap(ctx, 400, 200, { rows: 3, cols: 2, values, rowLabels, colLabels, scale, digits: 2, active: 4 });
  const cells = ctx.calls.filter((c) => c.op === 'fillRect');
  assert.equal(cells.length, 6, 'repeated tokens keep their own cells');
  assert.deepEqual(cells.map((c) => c.fill), values.map((v) => scale.color(v)));
  const texts = ctx.calls.filter((c) => c.op === 'fillText').map((c) => c.text);
  for (const v of ['0.00', '0.25', '0.50', '0.75', '1.00', 'NaN']) assert.ok(texts.includes(v), `value ${v} drawn`);
  assert.equal(texts.filter((t) => t === '我').length, 2);
  assert.ok(texts.includes(tickLabel('internationalization')), 'long label shortened');
  assert.ok(!texts.includes('internationalization'));
  // dark text on the darkest cell, light-cell text on the lightest
  const label = (v) => ctx.calls.find((c) => c.op === 'fillText' && c.text === v);
  assert.equal(label('1.00').fill, scale.textColor(1));
  assert.notEqual(label('1.00').fill, label('0.00').fill);
  const highlight = ctx.calls.filter((c) => c.op === 'strokeRect');
  assert.equal(highlight.length, 1, 'the active cell is outlined');
  const active = cellRect(layout, 4);
  assert.ok(highlight[0].x >= active.x && highlight[0].x + highlight[0].w <= active.x + active.width);
  assert.equal(ctx.calls.filter((c) => c.op === 'clearRect').length, 0, 'clearing is the scheduler’s (one per draw)');
  // the grid fits in the canvas
  assert.ok(layout.left > 0 && layout.top > 0);
  assert.ok(layout.left + layout.cols * layout.colWidth <= 400 && layout.top + layout.rows * layout.rowHeight <= 200);
});

test('hit test: the centre of every painted cell maps back to its index; outside the grid is no cell', () => {
  const ctx = recordingContext();
  const rows = 4;
  const cols = 7;
  const labels = (n, p) => Array.from({ length: n }, (_, i) => `${p}${i} long token`);
  const layout = paintHeatmap(ctx, 520, 260, {
    rows,
    cols,
    values: Array.from({ length: rows * cols }, (_, i) => i - 10),
    rowLabels: labels(rows, 'q'),
    colLabels: labels(cols, 'k'),
    scale: new ColorScale(-20, 20, true),
    digits: 2,
    xTitle: 'keys',
    yTitle: 'queries',
    active: null,
  });
  for (let i = 0; i < rows * cols; i++) {
    const r = cellRect(layout, i);
    assert.equal(cellAt(layout, r.x + r.width / 2, r.y + r.height / 2), i);
  }
  assert.equal(cellAt(layout, layout.left - 1, layout.top + 1), null);
  assert.equal(cellAt(layout, layout.left + 1, layout.top - 1), null);
  assert.equal(cellAt(layout, layout.left + cols * layout.colWidth + 1, layout.top + 1), null);
  assert.equal(cellAt(layout, layout.left + 1, layout.top + rows * layout.rowHeight + 1), null);
  // slanted column labels stay inside the canvas on the right
  assert.ok(layout.left + cols * layout.colWidth <= 520);
});
