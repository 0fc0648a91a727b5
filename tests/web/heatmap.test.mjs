// The heatmap's colour ramps and labels (web/src/heatmap/heatmap.ts): the sequential ramp reads in greyscale
// (luminance falls monotonically with the value); the diverging ramp is symmetric in lightness
// around 0 and tells the sign by hue; long tokens are shortened on the axes only. The canvas
// painting (heatmap-paint.ts) against a recording 2D context: cells, values, labels, a lit row, hit test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from './setup.mjs';

const { rampColor, divergingColor, tickLabel, formatValue } = await loadWeb('heatmap/heatmap');
const { paintHeatmap, cellAt, cellRect, preferredHeight, minimumWidth, visibleColumns, MIN_COLUMN_WIDTH } = await loadWeb('heatmap/heatmap-paint');
const { HeatmapScaleGroup } = await loadWeb('heatmap/heatmap');
const { SvgRecorder } = await loadWeb('heatmap/heatmap-export');
const { ColorScale, NAN_COLOR } = await loadWeb('heatmap/heatmap-color');

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

/** A recording context whose text is about as wide as a browser's: CJK 1 em per character, Latin 0.6 em. */
function measuringContext() {
  const ctx = recordingContext();
  ctx.measureText = function (text) {
    const size = Number(/(\d+(?:\.\d+)?)px/.exec(this.font)?.[1] ?? 10);
    return { width: [...text].reduce((w, ch) => w + (/[\u2e80-\u9fff\uff00-\uffef]/u.test(ch) ? 1 : 0.6) * size, 0) };
  };
  const fillText = ctx.fillText;
  ctx.fillText = function (text, x, y) {
    fillText.call(this, text, x, y);
    this.calls.at(-1).font = this.font;
  };
  return ctx;
}


test('cell values: one font size for the whole grid, negatives included; none when they cannot fit', () => {
  const values = [-0.5, 0.25, -12.75, 3, 0.001, -0.3];
  const scene = { rows: 2, cols: 3, values, rowLabels: ['a', 'b'], colLabels: ['x', 'y', 'z'], scale: new ColorScale(-13, 13, true), digits: 2, active: null };
  const ctx = measuringContext();
  const layout = paintHeatmap(ctx, 400, 160, scene);
  const texts = new Set(values.map((v) => formatValue(v)));
  const fonts = ctx.calls.filter((c) => c.op === 'fillText' && texts.has(c.text)).map((c) => c.font);
  assert.equal(fonts.length, values.length);
  assert.equal(new Set(fonts).size, 1, `one value font, got ${[...new Set(fonts)]}`);
  assert.ok(layout.valueFont >= 9 && fonts[0].startsWith(`${layout.valueFont}px`));
  const narrow = measuringContext();
  const squeezed = paintHeatmap(narrow, 60, 160, scene);
  assert.equal(squeezed.valueFont, 0, 'too narrow: colour only, never a smaller font for some cells');
  assert.ok(!narrow.calls.some((c) => c.op === 'fillText' && texts.has(c.text)));
});

test('axis titles never touch a label: CJK titles and labels of any length, no rotated title', () => {
  const cases = [
    { rowLabels: ['咖哥', '喜欢', '小冰'], colLabels: ['咖哥', '喜欢', '小冰'], xTitle: '词元', yTitle: '查询' },
    { rowLabels: ['a', 'b'], colLabels: ['internationalization', 'x', 'yy'], xTitle: 'keys', yTitle: 'a very long row title' },
    { rowLabels: Array.from({ length: 16 }, (_, i) => `词${i}`), colLabels: Array.from({ length: 16 }, (_, i) => `自然语言${i}`), xTitle: '键', yTitle: '查询（词）' },
  ];
  for (const c of cases) {
    for (const width of [220, 400, 900]) {
      const ctx = measuringContext();
      let rotated = 0;
      ctx.rotate = () => rotated++;
      const rows = c.rowLabels.length;
      const cols = c.colLabels.length;
      const scene = { rows, cols, values: new Array(rows * cols).fill(0.5), scale: new ColorScale(0, 1, false), digits: 2, active: null, ...c };
      // the component's box height for this scene
      const layout = paintHeatmap(ctx, width, preferredHeight(measuringContext(), scene), { rows, cols, values: new Array(rows * cols).fill(0.5), scale: new ColorScale(0, 1, false), digits: 2, active: null, ...c });
      const boxes = layout.texts;
      assert.equal(boxes.filter((b) => b.kind === 'row').length, rows);
      assert.equal(boxes.filter((b) => b.kind === 'col').length, cols);
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i], boxes[j]];
          if (a.kind === 'col' && b.kind === 'col') continue;
          const ox = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
          const oy = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
          assert.ok(!(ox > 0.01 && oy > 0.01), `${width}px: ${a.kind} "${a.text}" overlaps ${b.kind} "${b.text}"`);
        }
      }
      // only slanted column labels rotate (one save/rotate each), never a title
      const slanted = boxes.filter((b) => b.kind === 'col').length;
      assert.ok(rotated === 0 || rotated === slanted, `${rotated} rotations for ${slanted} column labels`);
      // cells sit right of every row label and the row title, below every column label and title
      for (const b of boxes) {
        if (b.kind === 'row' || b.kind === 'yTitle') assert.ok(b.x + b.width <= layout.left + 0.01, `${b.kind} "${b.text}" reaches into the cells`);
        if (b.kind !== 'row') assert.ok(b.y + b.height <= layout.top + 0.01, `${b.kind} "${b.text}" reaches into the cells`);
      }
    }
  }
});

test('a wide matrix: the minimum width gives every column its readable width; visible columns; sticky row labels', () => {
  const ctx = measuringContext();
  const cols = 64;
  const scene = { rows: 3, cols, values: new Array(3 * cols).fill(0.1), rowLabels: ['咖哥', '喜欢', '小冰'], colLabels: Array.from({ length: cols }, (_, i) => `d${i + 1}`), scale: new ColorScale(0, 1, false), digits: 2, yTitle: 'tokens', active: null };
  const width = minimumWidth(ctx, scene);
  const layout = paintHeatmap(measuringContext(), width, 160, scene);
  assert.ok(Math.abs(layout.colWidth - MIN_COLUMN_WIDTH) < 0.5, `columns ${layout.colWidth} px wide at the minimum width`);
  assert.ok(layout.valueFont >= 9, 'values readable at the minimum width');
  // a 340 px box shows the first columns; the rest are counted as out of view
  const [first, end] = visibleColumns(layout, 0, 340);
  assert.equal(first, 0);
  assert.equal(end, Math.floor((340 - layout.left) / layout.colWidth));
  const [first2, end2] = visibleColumns(layout, 600, 340);
  assert.ok(first2 > 0 && end2 > end && end2 <= cols);
  // scrolled 600 px: row labels are painted at the visible left edge, and no cell is hit under them
  const scrolled = paintHeatmap(measuringContext(), width, 160, { ...scene, stickyX: 600 });
  for (const b of scrolled.texts.filter((t) => t.kind === 'row' || t.kind === 'yTitle')) assert.ok(b.x >= 600 && b.x + b.width <= 600 + scrolled.left);
  assert.equal(cellAt(scrolled, 600 + scrolled.left - 2, scrolled.top + 5), null);
  assert.notEqual(cellAt(scrolled, 600 + scrolled.left + 2, scrolled.top + 5), null);
});

test('columns too narrow for slanted labels: the labels run down their columns, Chinese upright, apart', () => {
  const colLabels = ['在 (1)', '图书馆', '了', '在 (4)', '<eos>'];
  const cols = colLabels.length;
  const scene = { rows: 2, cols, values: new Array(2 * cols).fill(0.1), rowLabels: ['in', 'the'], colLabels, scale: new ColorScale(0, 1, false), digits: 2, active: null };
  const ctx = measuringContext();
  const layout = paintHeatmap(ctx, 4 + 16 * cols + 30, 200, scene);
  assert.ok(layout.colWidth >= 15 && layout.colWidth < 18, `columns ${layout.colWidth} px`);
  const labels = layout.texts.filter((t) => t.kind === 'col');
  assert.equal(labels.length, cols);
  labels.forEach((b, c) => {
    const centre = layout.left + (c + 0.5) * layout.colWidth;
    assert.ok(b.x >= centre - layout.colWidth / 2 - 0.01 && b.x + b.width <= centre + layout.colWidth / 2 + 0.01, `${b.text} stays in its column`);
    assert.ok(b.y >= 0 && b.y + b.height <= layout.top, `${b.text} above the cells`);
  });
  // 图书馆: three characters, one under the other, each at its column's centre
  const painted = ctx.calls.filter((c) => c.op === 'fillText');
  const tower = ['图', '书', '馆'].map((ch) => painted.find((c) => c.text === ch));
  assert.ok(tower.every((c) => c && Math.abs(c.x - (layout.left + 1.5 * layout.colWidth)) < 0.01), 'upright, centred');
  assert.ok(tower[0].y < tower[1].y && tower[1].y < tower[2].y, 'top to bottom');
  assert.ok(painted.some((c) => c.text === ' (1)') && painted.some((c) => c.text === '<eos>'), 'other text turned, in one run');
  // columns wide enough keep their labels slanted (drawn whole)
  const wide = measuringContext();
  paintHeatmap(wide, 4 + 30 * cols + 60, 200, scene);
  assert.ok(wide.calls.some((c) => c.op === 'fillText' && c.text === '图书馆'));
});

test('a shared colour scale: the union of its members’ ranges; a member that widens it rescales the others', () => {
  const group = new HeatmapScaleGroup();
  const member = (name) => ({ name, rescaled: 0, rescale() { this.rescaled++; } });
  const [a, b, c] = [member('a'), member('b'), member('c')];
  assert.deepEqual(group.report(a, -1, 2), [-1, 2]);
  assert.deepEqual(group.report(b, 0, 5), [-1, 5]);
  assert.equal(a.rescaled, 1, 'a is recoloured by the wider range');
  assert.deepEqual(group.report(c, -0.5, 0.5), [-1, 5]);
  assert.equal(group.size, 3);
  const before = b.rescaled;
  group.report(b, 0, 1); // b's data shrinks: the union shrinks to a's range
  assert.deepEqual(group.range, [-1, 2]);
  assert.equal(b.rescaled, before, 'the reporter recolours itself');
  group.leave(a);
  assert.deepEqual(group.range, [-0.5, 1]);
  assert.equal(group.size, 2);
});

test('SVG export: the painter recorded as <rect> and <text>, text escaped, transforms kept', () => {
  const svg = new SvgRecorder({ font: '', measureText: (t) => ({ width: [...t].length * 7 }) });
  svg.fillStyle = 'rgb(1, 2, 3)';
  svg.fillRect(1, 2, 3, 4);
  svg.font = 'italic 600 12px system-ui, sans-serif';
  svg.textAlign = 'right';
  svg.textBaseline = 'middle';
  svg.save();
  svg.translate(10, 20);
  svg.rotate(-Math.PI / 2);
  svg.fillText('<b>小冰</b> & "x"', 5, 6);
  svg.restore();
  svg.fillText('after', 0, 0);
  const doc = svg.svg(100, 50, 'a <title>');
  assert.match(doc, /<rect x="1" y="2" width="3" height="4" fill="rgb\(1, 2, 3\)"\/>/);
  assert.ok(doc.includes('>&#60;b&#62;小冰&#60;/b&#62; &#38; &#34;x&#34;</text>'), 'label text is escaped, never markup');
  assert.match(doc, /font-style="italic" font-weight="600"[^>]*text-anchor="end" dominant-baseline="central" transform="translate\(10 20\) rotate\(-90\)"/);
  assert.match(doc, /<text x="0" y="0"[^>]*>after<\/text>/, 'restore() drops the transform');
  assert.ok(!/<text x="0" y="0"[^>]*transform/.test(doc));
  assert.ok(doc.includes('<title>a &#60;title&#62;</title>'));
});

test('figure strings: the same keys and placeholders in English and Chinese; a section translator is extended in its language', async () => {
  const { FIGURE_STRINGS, figureTranslator } = await loadWeb('figure-strings');
  const { SHELL_STRINGS, translator } = await loadWeb('i18n');
  assert.deepEqual(Object.keys(FIGURE_STRINGS.zh).sort(), Object.keys(FIGURE_STRINGS.en).sort());
  const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const [k, v] of Object.entries(FIGURE_STRINGS.en)) assert.deepEqual(holes(FIGURE_STRINGS.zh[k]), holes(v), k);
  const zh = figureTranslator(translator('zh', SHELL_STRINGS));
  assert.equal(zh('export.menu'), '导出');
  assert.equal(zh('export.png'), SHELL_STRINGS.zh['export.png']);
  assert.equal(figureTranslator(translator('en', SHELL_STRINGS))('heatmap.more.right.one'), '+1 column →');
  assert.equal(figureTranslator(undefined, 'zh')('heatmap.legend.label'), '颜色图例');
});

test('cell text: white or dark ink, whichever contrasts more with the cell (WCAG ratio), on both ramps', () => {
  const lum = (css) => {
    const hex = /^#(..)(..)(..)$/.exec(css);
    const [r, g, b] = hex ? hex.slice(1).map((x) => parseInt(x, 16)) : /rgb\((\d+), (\d+), (\d+)\)/.exec(css).slice(1).map(Number);
    const lin = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const ratio = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  for (const diverging of [false, true]) {
    const scale = new ColorScale(-1, 1, diverging);
    for (let i = 0; i <= 100; i++) {
      const v = -1 + i / 50;
      const cell = scale.color(v);
      const ink = scale.textColor(v);
      const other = ink === '#ffffff' ? '#0f172a' : '#ffffff';
      assert.ok(ratio(ink, cell) >= ratio(other, cell), `${cell}: ${ink} (${ratio(ink, cell).toFixed(2)}) over ${other} (${ratio(other, cell).toFixed(2)})`);
      // the best of the two is never below 4.2:1 (the worst case of any colour)
      assert.ok(ratio(ink, cell) >= 4.2, `${cell}: ${ink} only ${ratio(ink, cell).toFixed(2)}:1`);
    }
  }
  // the mid purple a neuron-view cell of 0.6 × max takes: white was 3.1:1 on it
  assert.equal(new ColorScale(-1, 1, true).textColor(0.6), '#0f172a');
});

test('row labels: one that fits the row title is painted whole, a longer token shortened; the column is no wider', () => {
  const scene = {
    rows: 3,
    cols: 2,
    values: new Array(6).fill(0.5),
    rowLabels: ['Doing what?', 'Who?', 'internationalization and more'],
    colLabels: ['a', 'b'],
    scale: new ColorScale(0, 1, false),
    digits: 2,
    yTitle: 'questions (queries)',
    active: null,
  };
  const ctx = measuringContext();
  const layout = paintHeatmap(ctx, 400, 200, scene);
  const rows = layout.texts.filter((b) => b.kind === 'row').map((b) => b.text);
  assert.deepEqual(rows, ['Doing what?', 'Who?', tickLabel('internationalization and more')]);
  const title = layout.texts.find((b) => b.kind === 'yTitle');
  assert.ok(layout.left <= title.width + 2 + 6 + 0.01, 'the row-label column is as wide as its title');
  // without a title the column has no room to spare: the ten-character rule
  const bare = paintHeatmap(measuringContext(), 400, 200, { ...scene, yTitle: undefined });
  assert.equal(bare.texts.find((b) => b.kind === 'row').text, tickLabel('Doing what?'));
});

test('a lit row: one outline round the whole row; none for a row out of range', () => {
  const scene = { rows: 3, cols: 4, values: new Array(12).fill(0.5), rowLabels: ['a', 'b', 'c'], colLabels: ['w', 'x', 'y', 'z'], scale: new ColorScale(0, 1, false), digits: 2, active: null };
  const ctx = recordingContext();
  const layout = paintHeatmap(ctx, 400, 200, { ...scene, litRow: 1 });
  assert.equal(layout.litRow, 1);
  const outlines = ctx.calls.filter((c) => c.op === 'strokeRect');
  assert.equal(outlines.length, 1);
  const [first, last] = [cellRect(layout, 4), cellRect(layout, 7)];
  const o = outlines[0];
  assert.ok(o.x >= first.x && o.x + o.w <= last.x + last.width && o.x + o.w > last.x + last.width / 2, 'it spans the row');
  assert.ok(o.y >= first.y && o.y + o.h <= first.y + first.height, 'and only that row');
  for (const litRow of [null, -1, 3]) {
    const none = recordingContext();
    assert.equal(paintHeatmap(none, 400, 200, { ...scene, litRow }).litRow, null);
    assert.equal(none.calls.filter((c) => c.op === 'strokeRect').length, 0, `litRow ${litRow}`);
  }
});

test('slanted column labels in a font taller than its line: the canvas keeps room for their tops', () => {
  // glyphs reaching 11 px above and 5 px below their middle line (a tall fallback font for Chinese)
  const tall = () => {
    const ctx = measuringContext();
    const width = ctx.measureText;
    ctx.measureText = function (text) {
      return { ...width.call(this, text), actualBoundingBoxAscent: 11, actualBoundingBoxDescent: 5 };
    };
    // where each slanted label's glyphs reach up to: its origin and slant, as painted
    let origin = null;
    let angle = 0;
    ctx.translate = (x, y) => (origin = { x, y });
    ctx.rotate = (a) => (angle = a);
    ctx.restore = () => (origin = null);
    const fillText = ctx.fillText;
    ctx.tops = [];
    ctx.fillText = function (text, x, y) {
      fillText.call(this, text, x, y);
      if (origin) ctx.tops.push(origin.y - this.measureText(text).width * Math.sin(-angle) - 11 * Math.cos(angle));
    };
    return ctx;
  };
  const colLabels = Array.from({ length: 12 }, (_, i) => `在（${i + 1}）`);
  for (const xTitle of [undefined, '源词元']) {
    const scene = { rows: 3, cols: 12, values: new Array(36).fill(0.5), rowLabels: ['a', 'b', 'c'], colLabels, scale: new ColorScale(0, 1, false), digits: 2, active: null, xTitle };
    for (const width of [360, 420, 560]) {
      const ctx = tall();
      paintHeatmap(ctx, width, preferredHeight(tall(), scene), scene);
      assert.equal(ctx.tops.length, 12, `${width} px: the labels are slanted`);
      const floor = xTitle ? 2 + 16 : 0; // under the column title's line, or inside the canvas
      for (const top of ctx.tops) assert.ok(top >= floor - 0.01, `${width} px, title ${xTitle}: a label's top at ${top.toFixed(1)} (above ${floor})`);
    }
  }
});
