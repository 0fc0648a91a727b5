// Linked views, as a reader uses them: in every section with more than one view, the mouse (hover,
// then click) at 1280 px, a finger (a tap on a touch phone) at 390 px and the keyboard (focus the
// map, arrow keys) each select the cell under them in the section's largest map, and the linked
// view shows that cell: §3.1–3.2's arithmetic and editor rows, §3.4–3.5's neuron view and the
// query's and key's rows of its Q and K maps, §3.6's head/concatenation line, §3.3's and §4's
// source words and step line; §4's enlarged map moves its decoding to the cell's step. The last cell is used (a selection that fell back to the first cell,
// or to the one selected before, fails), and a repeated token (the second 我 of "我 爱 我") stays
// its own row. The cell's point on screen comes from the heatmap's drawn grid (its output's
// data-grid), after scrolling it into view, sideways too.
// Needs a build (npm run build:web). Run: node --test tests/e2e/linked-views.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { artifactsDir, keepScreenshot, usePhone, useSite } from './harness.mjs';

/** Waits for two frames (a heatmap redraws once a frame). */
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** The numbers a heatmap last drew: {rows, cols, values}. */
async function mapData(page, fig) {
  return page.evaluate((sel) => {
    const out = document.querySelector(`${sel} output.heatmap-data`);
    const [rows, cols] = out.dataset.shape.split(',').map(Number);
    return { rows, cols, values: JSON.parse(out.value) };
  }, fig);
}

/**
 * The viewport point of cell (row, col) of the heatmap `fig`, after scrolling the page and the map's
 * sideways scroller so that the cell is in view (the scroller as a reader would: to its end for a
 * last column).
 */
async function cellPoint(page, fig, row, col) {
  await page.locator(fig).scrollIntoViewIfNeeded();
  await page.evaluate(
    ([sel, c]) => {
      const box = document.querySelector(`${sel} .chart-box`);
      const [, cols] = document.querySelector(`${sel} output.heatmap-data`).dataset.shape.split(',').map(Number);
      if (c === cols - 1) box.scrollLeft = box.scrollWidth;
    },
    [fig, col],
  );
  await frames(page);
  // the map places its cells when it first draws in view
  await page.waitForFunction((sel) => document.querySelector(`${sel} output.heatmap-data`)?.dataset.grid, fig);
  const point = () =>
    page.evaluate(
      ([sel, r, c]) => {
        const [left, top, colWidth, rowHeight] = document.querySelector(`${sel} output.heatmap-data`).dataset.grid.split(',').map(Number);
        const rect = document.querySelector(`${sel} canvas`).getBoundingClientRect();
        return { x: rect.left + left + (c + 0.5) * colWidth, y: rect.top + top + (r + 0.5) * rowHeight };
      },
      [fig, row, col],
    );
  let p = await point();
  if (p.y < 40 || p.y > (await page.evaluate(() => innerHeight)) - 40) {
    await page.evaluate((dy) => scrollBy(0, dy), p.y - (await page.evaluate(() => innerHeight)) / 2);
    await frames(page);
    p = await point();
  }
  return p;
}

/** Waits for the decoding view's translation, then shows it to its end as a reader does (Step). */
async function stepToEnd(page, view, stepButton) {
  await page.waitForFunction((v) => Number(document.querySelector(v)?.dataset.steps) > 0, view);
  for (let i = 0; i < 80 && (await page.evaluate((v) => document.querySelector(v).dataset.done, view)) !== '1'; i++) await page.click(stepButton);
}

/**
 * §3.4's linked views: the neuron view's pair, and the rows of the Q and K maps lit as last painted
 * ('' when none; the maps paint in the next frame, once they have drawn at all).
 */
async function selfLinked(page) {
  await page.waitForFunction(() => ['#self-q', '#self-k'].every((id) => document.querySelector(`${id} output.heatmap-data`)?.dataset.grid));
  await frames(page);
  return page.evaluate(() => ({
    ...JSON.parse(document.querySelector('.self-section .self-neuron-data').value),
    lit: ['#self-q', '#self-k'].map((id) => document.querySelector(`${id} output.heatmap-data`).dataset.litRow),
  }));
}

/** Each section: how to open it, its largest linked map, and what its linked view says of a cell. */
const SECTIONS = {
  dot: {
    hash: '#view=dot&seed=1',
    ready: (page) => page.waitForSelector('.dot-section[data-state="ok"]'),
    map: '#dot-weights',
    /** the cell the linked views show, and the value they print for it */
    linked: (page) =>
      page.evaluate(() => {
        const root = document.querySelector('.dot-section');
        const [row, col] = (root.dataset.linked || '-1,-1').split(',').map(Number);
        return {
          row,
          col,
          text: document.querySelector('[data-testid="dot-link"]').textContent,
          editors: [...document.querySelectorAll('.dot-section tr.matrix-row-linked th')].map((th) => th.textContent),
        };
      }),
    check(seen, row, col, value) {
      assert.deepEqual([seen.row, seen.col], [row, col]);
      assert.ok(seen.text.includes(`q${row + 1}·k${col + 1} = `), seen.text);
      assert.ok(seen.text.includes(value.toFixed(4)), `the weight ${value.toFixed(4)} in: ${seen.text}`);
      assert.deepEqual(seen.editors, [`q${row + 1}`, `k${col + 1}`], 'the query and key rows light up in the editors');
    },
  },
  self: {
    hash: '#view=self&seed=1',
    ready: (page) => page.waitForSelector('.self-section[data-state="ok"]'),
    map: '#self-weights',
    linked: (page) => selfLinked(page),
    check(seen, row, col, value) {
      assert.deepEqual([seen.query, seen.key], [row, col], 'the neuron view shows the query and key of the cell');
      assert.equal(seen.weight, value);
      assert.deepEqual(seen.lit, [String(row), String(col)], 'the query’s row of Q and the key’s row of K light up');
    },
  },
  multihead: {
    hash: '#view=multihead&seed=1&multihead_heads=2&multihead_d=8&multihead_open_combine=1', // the concatenation's panel, opened
    ready: (page) => page.waitForSelector('.multihead-section[data-state="ok"]'),
    map: '#multihead-context',
    linked: (page) =>
      page.evaluate(() => {
        const line = document.querySelector('[data-testid="multihead-link"]');
        return { cell: line.dataset.cell ? JSON.parse(line.dataset.cell) : null, text: line.textContent, head: document.querySelector('.multihead-head.multihead-head-linked')?.dataset.head ?? null };
      }),
    check(seen, row, col, value, data) {
      const heads = 2;
      const dh = data.cols / heads;
      assert.deepEqual(seen.cell, { head: Math.floor(col / dh), row, feature: col % dh });
      assert.equal(seen.head, String(Math.floor(col / dh) + 1), 'the head of the column is marked');
      // the same number in the head's output and in the concatenation
      assert.equal(seen.text.split(value.toFixed(4)).length - 1, 2, `${value.toFixed(4)} twice in: ${seen.text}`);
    },
  },
  translate: {
    hash: '#view=translate&seed=1',
    async ready(page) {
      await stepToEnd(page, '.translate-section .translate-decode', '.translate-section [data-testid=translate-decode-step]');
    },
    map: '#translate-attention',
    linked: (page) =>
      page.evaluate(() => {
        const line = document.querySelector('.translate-section [data-testid="translate-step-link"]');
        const chips = [...document.querySelectorAll('.translate-section [data-testid=translate-source] .translate-token')];
        const candidates = document.querySelector('.translate-section .translate-topk-title')?.textContent;
        return { cell: line.dataset.cell ?? '', text: line.textContent, marked: chips.findIndex((c) => c.classList.contains('linked')), weights: chips.map((c) => c.querySelector('.translate-token-weight')?.textContent), candidates };
      }),
    check(seen, row, col, value, data) {
      assert.equal(seen.cell, `${row},${col}`);
      assert.ok(seen.text.startsWith(`Step ${row + 1} wrote`), seen.text);
      assert.ok(seen.candidates.startsWith(`Candidates at step ${row + 1} `), `the candidates are the chosen step's: ${seen.candidates}`);
      assert.ok(seen.text.includes(value.toFixed(4)), `${value.toFixed(4)} in: ${seen.text}`);
      assert.equal(seen.marked, col, 'the source word of the cell is marked');
      // the source is shaded by that step's attention (the map's row)
      assert.deepEqual(seen.weights, data.values.slice(row * data.cols, (row + 1) * data.cols).map((w) => w.toFixed(2)));
    },
  },
  transformer: {
    hash: '#view=transformer&seed=1&transformer_layers=2',
    async ready(page) {
      await page.waitForFunction(() => document.querySelector('.transformer-section')?.dataset.translatedAt !== undefined, null, { timeout: 60_000 });
      await stepToEnd(page, '.transformer-decode', '[data-testid=transformer-decode-step]');
    },
    map: '#transformer-step-cross',
    linked: (page) =>
      page.evaluate(() => {
        const line = document.querySelector('[data-testid="transformer-link"]');
        const chips = [...document.querySelectorAll('[data-testid=transformer-source] .transformer-token')];
        return { cell: line.dataset.cell ?? '', text: line.textContent, marked: chips.findIndex((c) => c.classList.contains('linked')), lit: JSON.parse(document.querySelector('.transformer-decode').dataset.light || '[]') };
      }),
    check(seen, row, col, value, data) {
      assert.equal(seen.cell, `${row},${col}`);
      const heads = (data.rows - 1) / 2;
      const which = row === data.rows - 1 ? 'rollout (all layers)' : `layer ${Math.floor(row / heads) + 1}, head ${(row % heads) + 1}`;
      assert.ok(seen.text.startsWith(`${which}, step `), `the row is what lights the source: ${seen.text}`);
      assert.ok(seen.text.includes(value.toFixed(4)), `${value.toFixed(4)} in: ${seen.text}`);
      assert.equal(seen.marked, col);
      const row0 = data.values.slice(row * data.cols, (row + 1) * data.cols);
      seen.lit.forEach((w, i) => assert.ok(Math.abs(w - row0[i]) < 1e-4, `source word ${i} lit ${w}, map ${row0[i]}`));
    },
  },
};

describe('linked views: mouse, touch and keyboard select the cell under them', { timeout: 400_000 }, () => {
  /** @type {Awaited<ReturnType<import('./harness.mjs').startSite>>} */
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  /** a phone: 390 px, touch, its own page and problem collector */
  const phone = usePhone(() => site);

  async function open(p, hash, section) {
    await (p === page ? site.load(hash) : phone.open(hash));
    await section.ready(p);
  }

  for (const [name, section] of Object.entries(SECTIONS)) {
    test(`${name}, 1280 px, mouse: hovering the last cell of ${section.map} shows it in the linked view; a click keeps it`, async () => {
      await open(page, section.hash, section);
      const data = await mapData(page, section.map);
      const row = data.rows - 1;
      const col = data.cols - 1;
      const value = data.values[row * data.cols + col];
      const { x, y } = await cellPoint(page, section.map, row, col);
      await page.mouse.move(x, y);
      await frames(page);
      section.check(await section.linked(page), row, col, value, data);
      await page.mouse.click(x, y);
      await frames(page);
      section.check(await section.linked(page), row, col, value, data);
      // the pointer leaves: the clicked cell stays selected
      await page.mouse.move(1, 1);
      await frames(page);
      section.check(await section.linked(page), row, col, value, data);
      if (name === 'dot' || name === 'translate') await site.screenshot(`linked-${name}-1280`, { fullPage: false });
    });

    test(`${name}, 390 px, touch: a tap on the last cell of ${section.map} shows its value in the linked view`, async () => {
      await open(phone.page, section.hash, section);
      const data = await mapData(phone.page, section.map);
      const row = data.rows - 1;
      const col = data.cols - 1;
      const { x, y } = await cellPoint(phone.page, section.map, row, col);
      await phone.page.touchscreen.tap(x, y);
      await frames(phone.page);
      section.check(await section.linked(phone.page), row, col, data.values[row * data.cols + col], data);
      // the heatmap's own readout (a polite live region) says the same cell
      const readout = await phone.page.locator(`${section.map} .focus-text`).textContent();
      assert.ok(readout.endsWith(data.values[row * data.cols + col].toFixed(4)), readout);
      // and no tooltip covers the cells around the finger
      assert.equal(await phone.page.locator(`${section.map} .heatmap-tooltip`).isVisible(), false, 'a tooltip after a tap');
      await keepScreenshot(phone.page, { path: `${artifactsDir}linked-${name}-390.png` });
    });
  }

  test('§3.3: the cell pointed at, clicked or tapped marks the word its step wrote in the translation line', async () => {
    const section = SECTIONS.translate;
    const words = (p) =>
      p.evaluate(() => {
        const ws = [...document.querySelectorAll('.translate-section [data-testid=translate-output] .translate-output-word')];
        const line = document.querySelector('.translate-section [data-testid="translate-step-link"]').textContent;
        return { words: ws.map((w) => w.textContent), marked: ws.flatMap((w, i) => (w.classList.contains('linked') ? [i] : [])), line };
      });
    const expectMarked = (seen, row) => {
      assert.deepEqual(seen.marked, [row], `only word ${row} of ${JSON.stringify(seen.words)} is marked`);
      assert.ok(seen.line.startsWith(`Step ${row + 1} wrote`) && seen.line.includes(seen.words[row]), `the line names that word: ${seen.line}`);
    };
    await open(page, section.hash, section);
    const { rows } = await mapData(page, section.map);
    const before = await words(page);
    assert.ok(before.words.length >= 2 && before.words.length >= rows - 1, `the translation's words: ${JSON.stringify(before.words)}`);
    for (const row of [0, 1]) {
      const { x, y } = await cellPoint(page, section.map, row, 0);
      await page.mouse.move(x, y);
      await frames(page);
      expectMarked(await words(page), row);
    }
    const { x, y } = await cellPoint(page, section.map, 0, 0);
    await page.mouse.click(x, y);
    await page.mouse.move(1, 1);
    await frames(page);
    expectMarked(await words(page), 0);
    // the translation reads as before: the words joined, one line
    assert.equal(await page.locator('.translate-section [data-testid=translate-output]').textContent(), before.words.join(' '));

    await open(phone.page, section.hash, section);
    const tap = await cellPoint(phone.page, section.map, 1, 0);
    await phone.page.touchscreen.tap(tap.x, tap.y);
    await frames(phone.page);
    expectMarked(await words(phone.page), 1);
  });

  test('keyboard: focus a map, arrow to a cell; each linked view follows', async () => {
    for (const [name, section] of Object.entries(SECTIONS)) {
      await open(page, section.hash, section);
      const data = await mapData(page, section.map);
      await page.locator(`${section.map} canvas`).focus();
      // from wherever the section's selection is: End and ArrowDown (clamped at the edge) reach the last cell
      for (let r = 0; r < data.rows; r++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('End');
      let row = data.rows - 1;
      let col = data.cols - 1;
      section.check(await section.linked(page), row, col, data.values[row * data.cols + col], data);
      if (data.rows > 1) {
        await page.keyboard.press('ArrowUp');
        row -= 1;
      }
      if (data.cols > 1) {
        await page.keyboard.press('ArrowLeft');
        col -= 1;
      }
      section.check(await section.linked(page), row, col, data.values[row * data.cols + col], data);
      const readout = await page.locator(`${section.map} .focus-text`).textContent();
      assert.ok(readout.endsWith(data.values[row * data.cols + col].toFixed(4)), `${name}: ${readout}`);
    }
  });

  test('screen readers get each heatmap as a table: caption, headers and the numbers the cells show', async () => {
    await open(page, '#view=self&seed=4&self_text=我 爱 我', SECTIONS.self);
    const data = await mapData(page, '#self-weights');
    const table = await page.evaluate(() => {
      const t = document.querySelector('#self-weights table.heatmap-table');
      return { caption: t.caption.textContent, title: document.querySelector('#self-weights h3').textContent, rows: [...t.rows].map((tr) => [...tr.cells].map((c) => [c.tagName, c.scope || '', c.textContent])) };
    });
    assert.equal(table.caption, table.title);
    // the two 我 are told apart by their positions, as in every view of the section
    const names = ['我 (1)', '爱', '我 (3)']; // the English page's brackets, whatever the token's script
    assert.deepEqual(table.rows[0].slice(1), names.map((w) => ['TH', 'col', w]));
    table.rows.slice(1).forEach((row, r) => {
      assert.deepEqual(row[0], ['TH', 'row', names[r]]);
      assert.deepEqual(row.slice(1).map((c) => c[2]), data.values.slice(r * 3, r * 3 + 3).map((v) => v.toFixed(2)));
    });
  });

  test('§3.1–3.2 editors → maps: a focused query box and a pointed-at key row pick that side of the pair', async () => {
    await open(page, SECTIONS.dot.hash, SECTIONS.dot);
    await page.locator('.dot-section table.dot-query tbody tr').nth(1).locator('input').first().focus();
    await page.locator('.dot-section table.dot-key tbody tr').nth(3).locator('input').first().hover();
    const data = await mapData(page, '#dot-weights');
    SECTIONS.dot.check(await SECTIONS.dot.linked(page), 1, 3, data.values[1 * data.cols + 3], data);
    // the mouse leaves the keys: back to the focused query's pair
    await page.mouse.move(1, 1);
    assert.deepEqual((await SECTIONS.dot.linked(page)).editors[0], 'q2');
  });

  test('a repeated token stays its own cell: the second 我 of "我 爱 我" opens the neuron view on 我 (3)', async () => {
    await open(page, '#view=self&seed=4&self_text=我 爱 我', SECTIONS.self);
    const data = await mapData(page, '#self-weights');
    const { x, y } = await cellPoint(page, '#self-weights', 2, 1);
    await page.mouse.click(x, y);
    await page.waitForFunction(() => /self_focus=2/.test(location.hash) && /self_key=1/.test(location.hash));
    const pair = await SECTIONS.self.linked(page);
    assert.deepEqual([pair.query, pair.key], [2, 1]);
    assert.equal(pair.weight, data.values[2 * 3 + 1]);
    assert.equal(await page.locator('.self-section .self-neuron select >> nth=0').evaluate((s) => s.selectedOptions[0].textContent), '我 (3)');
    assert.equal(await page.locator('.self-section .self-headview').getAttribute('data-focus'), '2', 'the head view follows: the second 我');
    // a feature of Q: that query and feature in the neuron view
    const q = await mapData(page, '#self-q');
    const p = await cellPoint(page, '#self-q', 2, q.cols - 1);
    await page.mouse.click(p.x, p.y);
    await frames(page);
    const withFeature = await SECTIONS.self.linked(page);
    assert.deepEqual([withFeature.query, withFeature.feature], [2, q.cols - 1]);
    assert.equal(withFeature.q[q.cols - 1], q.values[2 * q.cols + q.cols - 1]);
    assert.equal(await page.locator('.self-section .self-neuron-table td.linked').count(), 3, 'the feature is marked in q, k and q∘k');
  });

  test('§3.4 in English and Chinese: hovering, then clicking a weight lights its query’s row of Q and its key’s row of K; “Show all” puts them out', async () => {
    for (const lang of ['en', 'zh']) {
      await open(page, `#view=self&seed=1&lang=${lang}`, SECTIONS.self);
      assert.deepEqual((await selfLinked(page)).lit, ['', ''], `${lang}: no pair chosen, no row lit`);
      const { x, y } = await cellPoint(page, '#self-weights', 2, 1);
      await page.mouse.move(x, y);
      assert.deepEqual((await selfLinked(page)).lit, ['2', '1'], `${lang}: hover`);
      await page.mouse.click(x, y);
      await page.mouse.move(1, 1);
      assert.deepEqual((await selfLinked(page)).lit, ['2', '1'], `${lang}: the click keeps them lit`);
      await page.locator('.self-section .self-head > button').click();
      assert.deepEqual((await selfLinked(page)).lit, ['', ''], `${lang}: “Show all” chooses no word`);
    }
  });

  test('§3.4 at 1280 × 900: a click or Enter on a weight brings the neuron view (above the maps) into view', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page, SECTIONS.self.hash, SECTIONS.self);
    // within a pixel: a smooth scroll can end a fraction of a pixel short (-0.34 px in Chromium's
    // headless shell), which no reader sees
    const inViewHere = () => {
      const r = document.querySelector('.self-section .self-neuron-box').getBoundingClientRect();
      return r.top > -1 && r.bottom < innerHeight + 1;
    };
    const inView = () => page.evaluate(inViewHere);
    const { x, y } = await cellPoint(page, '#self-weights', 2, 1);
    assert.equal(await inView(), false, 'the neuron view starts off screen, above the weights');
    await page.mouse.click(x, y);
    await page.waitForFunction(() => /self_focus=2/.test(location.hash) && /self_key=1/.test(location.hash));
    await page.waitForFunction(inViewHere);
    assert.deepEqual(await SECTIONS.self.linked(page).then((p) => [p.query, p.key]), [2, 1]);
    // the keyboard: arrows walk the scores without moving the page; Enter shows the neuron view
    await page.locator('#self-scores').scrollIntoViewIfNeeded();
    await page.evaluate(() => scrollBy(0, 300));
    assert.equal(await inView(), false);
    await page.locator('#self-scores canvas').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForFunction(inViewHere);
  });

  test('§5: the attention row pointed at, clicked, tapped or walked to shows that step’s candidates', async () => {
    /** Four characters drawn with Next, and the candidates the figure showed after each (its step's own). */
    const drawFour = async (p) => {
      await p.waitForFunction(() => document.querySelector('.gpt-section')?.dataset.samples === '1', null, { timeout: 60_000 });
      const seen = [];
      for (let n = 1; n <= 4; n++) {
        await p.click('[data-testid=gpt-next]');
        await p.waitForFunction((k) => document.querySelector('.gpt-generate')?.dataset.generated === String(k), n);
        await frames(p);
        seen.push(await mapData(p, '#gpt-candidates'));
      }
      assert.notDeepEqual(seen[1], seen[2], 'two steps, two sets of candidates');
      return seen;
    };
    const candidates = async (p) => ({ step: await p.evaluate(() => document.querySelector('.gpt-generate').dataset.candidatesStep), data: await mapData(p, '#gpt-candidates') });
    const expectStep = async (p, seen, row, how) => {
      await frames(p);
      const shown = await candidates(p);
      assert.equal(shown.step, String(row + 1), `${how}: the candidates are not step ${row + 1}'s`);
      assert.deepEqual(shown.data, seen[row], `${how}: step ${row + 1}'s candidates, as they were when it was drawn`);
      assert.ok((await p.locator('#gpt-candidates').textContent()).includes(`for character ${row + 1} (`), `${how}: the title names the step`);
    };
    await site.load('#view=gpt&lang=en&seed=1');
    const seen = await drawFour(page);
    await expectStep(page, seen, 3, 'at first, the last step');
    const at = (row) => cellPoint(page, '#gpt-attention', row, 0);
    let p = await at(1);
    await page.mouse.move(p.x, p.y);
    await expectStep(page, seen, 1, 'hovering row 2');
    p = await at(0);
    await page.mouse.click(p.x, p.y);
    await page.mouse.move(1, 1);
    await expectStep(page, seen, 0, 'row 1 clicked, the pointer gone');
    // the keyboard walks from the clicked row; Escape lets it go, back to the last step
    await page.locator('#gpt-attention canvas').focus();
    await page.keyboard.press('ArrowDown');
    await expectStep(page, seen, 1, 'ArrowDown from row 1');
    await page.keyboard.press('Escape');
    await expectStep(page, seen, 3, 'Escape');
    // a finger on a phone
    await phone.open('#view=gpt&lang=en&seed=1');
    const seenPhone = await drawFour(phone.page);
    const tap = await cellPoint(phone.page, '#gpt-attention', 2, 0);
    await phone.page.touchscreen.tap(tap.x, tap.y);
    await expectStep(phone.page, seenPhone, 2, 'a tap on row 3');
  });

  test('§4: a cell of the enlarged cross map pointed at, clicked, tapped or walked to moves the decoding to its step, lit by that map', async () => {
    // two layers: the untrained model then writes more than one step
    const hash = '#view=transformer&seed=1&transformer_layers=2&transformer_zoom=cross&transformer_zoom_layer=1&transformer_zoom_head=2';
    const ready = async (p) => {
      await p.waitForFunction(() => document.querySelector('.transformer-section')?.dataset.translatedAt !== undefined, null, { timeout: 60_000 });
      await p.waitForFunction(() => document.querySelector('[data-testid=transformer-zoom]')?.dataset.kind === 'cross');
    };
    const decode = (p) => p.evaluate(() => ({ ...document.querySelector('.transformer-decode').dataset }));
    const expectStep = async (p, step, how) => {
      await frames(p);
      assert.equal((await decode(p)).step, String(step), `${how}: the decoding is not at step ${step}`);
    };
    await site.load(hash);
    await ready(page);
    const data = await mapData(page, '#transformer-zoom-map');
    const total = Number((await decode(page)).steps);
    assert.equal(data.rows, total, 'a row of the map per output step');
    await expectStep(page, total, 'at first, the whole translation');
    let p = await cellPoint(page, '#transformer-zoom-map', 1, 0);
    await page.mouse.move(p.x, p.y);
    await expectStep(page, 2, 'hovering row 2');
    await page.mouse.move(1, 1);
    await expectStep(page, total, 'the pointer gone without a click');
    p = await cellPoint(page, '#transformer-zoom-map', 0, data.cols - 1);
    await page.mouse.click(p.x, p.y);
    await page.mouse.move(1, 1);
    await expectStep(page, 1, 'row 1 clicked, the pointer gone');
    // lit by the map's head: layer 1, head 2, its first row
    await page.waitForFunction(() => /transformer_light_head=2(&|$)/.test(location.hash) && !/transformer_light_layer/.test(location.hash)); // layer 1 is the default
    const lit = JSON.parse((await decode(page)).light || '[]');
    assert.equal(lit.length, data.cols);
    lit.forEach((w, i) => assert.ok(Math.abs(w - data.values[i]) < 1e-4, `source word ${i} lit ${w}, map ${data.values[i]}`));
    // the keyboard walks from the clicked cell
    await page.locator('#transformer-zoom-map canvas').focus();
    await page.keyboard.press('ArrowDown');
    await expectStep(page, 2, 'ArrowDown from row 1');
    // a finger on a phone
    await phone.open(hash);
    await ready(phone.page);
    const tap = await cellPoint(phone.page, '#transformer-zoom-map', 2, 0);
    await phone.page.touchscreen.tap(tap.x, tap.y);
    await expectStep(phone.page, 3, 'a tap on row 3');
  });

  test('§4: each layer × head grid is one Tab stop; the arrow keys move between its maps', async () => {
    await open(page, SECTIONS.transformer.hash, SECTIONS.transformer);
    const stops = await page.$$eval('[data-testid^="transformer-grid-"]', (grids) => grids.map((g) => g.querySelectorAll('button.transformer-thumb[tabindex="0"]').length));
    assert.deepEqual(stops, [1, 1, 1]);
    await page.locator('[data-testid="transformer-grid-encoder"] button.transformer-thumb[tabindex="0"]').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    const focused = await page.evaluate(() => ({ ...document.activeElement.dataset }));
    assert.deepEqual([focused.layer, focused.head], ['2', '2']);
    assert.equal(await page.$$eval('[data-testid="transformer-grid-encoder"] button.transformer-thumb[tabindex="0"]', (b) => b.length), 1);
  });
});
