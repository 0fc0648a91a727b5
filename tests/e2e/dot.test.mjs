// §3.1/§3.2 section in headless Chromium: the numbers drawn equal an independent plain-JS computation
// from the Q/K values read back from the page; the saturation sweep's numbers too; edits and sizes
// round-trip through the URL; a bad cell gives an inline error and the section recovers; a focused
// cell's tooltip leaves the cells around it in sight at 1280 and 390 px.
// Build first: npx vite build --config web/vite.config.ts --outDir /tmp/x && ATTENTION_LAB_DIST=/tmp/x node --test tests/e2e/dot.test.mjs
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertClose, assertRowsSumToOne, openSections } from './sections-harness.mjs';

const ROOT = '.dot-section';

/** softmax(q kᵀ / scale) per query row, in float64; returns {scores, weights, output} row-major. */
function attention(q, k, n, m, d, scale) {
  const scores = [];
  const weights = [];
  const output = [];
  for (let i = 0; i < n; i++) {
    const row = [];
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let c = 0; c < d; c++) s += q[i * d + c] * k[j * d + c];
      row.push(s);
    }
    scores.push(...row);
    const max = Math.max(...row);
    const e = row.map((s) => Math.exp((s - max) / scale));
    const sum = e.reduce((a, b) => a + b, 0);
    const w = e.map((x) => x / sum);
    weights.push(...w);
    for (let c = 0; c < d; c++) output.push(w.reduce((acc, wj, j) => acc + wj * k[j * d + c], 0));
  }
  return { scores, weights, output };
}

/**
 * The tooltip of heatmap `id`, the boxes (viewport pixels) of the cells around cell (row, col) and
 * the band of the column labels: where the figure drew its grid (its output's data-grid) on its
 * canvas's box on screen.
 */
function tooltipAndNeighbours([id, row, col]) {
  const fig = document.getElementById(id);
  const tip = fig.querySelector('.heatmap-tooltip');
  const out = fig.querySelector('output.heatmap-data');
  const [left, top, colWidth, rowHeight] = out.dataset.grid.split(',').map(Number);
  const [rows, cols] = out.dataset.shape.split(',').map(Number);
  const canvas = fig.querySelector('canvas').getBoundingClientRect();
  const cells = [];
  for (let r = Math.max(0, row - 1); r <= Math.min(rows - 1, row + 1); r++) {
    for (let c = Math.max(0, col - 1); c <= Math.min(cols - 1, col + 1); c++) {
      if (r === row && c === col) continue;
      const x = canvas.left + left + c * colWidth;
      const y = canvas.top + top + r * rowHeight;
      cells.push({ r, c, left: x, top: y, right: x + colWidth, bottom: y + rowHeight });
    }
  }
  const t = tip.getBoundingClientRect();
  // the column labels: the band of the canvas above the first row of cells
  const labels = { top: canvas.top, bottom: canvas.top + top };
  return { shown: !tip.hidden && t.width > 0, tip: { left: t.left, top: t.top, right: t.right, bottom: t.bottom }, cells, labels };
}

describe('§3.1/§3.2 dot-product section', { timeout: 180_000 }, () => {
  const env = openSections('dot');
  before(() => env.start());
  after(() => env.stop());
  afterEach(() => env.assertNoProblems());

  const editorValues = (cls) =>
    env.page.$$eval(`${ROOT} table.${cls} input`, (inputs) => inputs.map((i) => Number(/** @type {HTMLInputElement} */ (i).value)));

  const loadOk = (hash) => env.loadOk(hash, ROOT);

  test("the note's shapes: weights, scores and output equal a plain-JS computation from the page's Q and K", async () => {
    await loadOk('#seed=1');
    const q = await editorValues('dot-query');
    const k = await editorValues('dot-key');
    assert.equal(q.length, 3 * 4);
    assert.equal(k.length, 5 * 4);
    const expected = attention(q, k, 3, 5, 4, Math.sqrt(4));
    const weights = await env.heatmap('dot-weights');
    assert.deepEqual(weights.shape, [3, 5]);
    assertRowsSumToOne(weights.values, 3, 5, 'weights');
    assertClose(weights.values, expected.weights, 'weights');
    assertClose((await env.heatmap('dot-scores')).values, expected.scores, 'scores');
    assertClose((await env.heatmap('dot-scaled')).values, expected.scores.map((s) => s / 2), 'scaled');
    assertClose((await env.heatmap('dot-output')).values, expected.output, 'output');
    // MathML formula present (rendered natively), four charts drawn
    assert.ok((await env.page.locator(`${ROOT} math`).count()) >= 2);
    assert.equal(await env.page.locator(`${ROOT} .al-heatmaps canvas`).count(), 4);
    await env.screenshot('dot-section', '.dot-section');
  });

  test('linked views: a focused weight cell lights its query and key rows and shows the arithmetic with the page\'s numbers', async () => {
    await loadOk('#seed=1');
    const q = await editorValues('dot-query');
    const k = await editorValues('dot-key');
    const expected = attention(q, k, 3, 5, 4, Math.sqrt(4));
    await env.page.locator('#dot-weights canvas').focus();
    await env.page.keyboard.press('ArrowDown'); // q2
    await env.page.keyboard.press('ArrowRight'); // k2
    await env.page.waitForFunction((root) => document.querySelector(root)?.dataset.linked === '1,1', ROOT);
    assert.equal(await env.page.locator(`${ROOT} table.dot-query tr.matrix-row-linked th`).textContent(), 'q2');
    assert.equal(await env.page.locator(`${ROOT} table.dot-key tr.matrix-row-linked th`).textContent(), 'k2');
    const text = (await env.page.locator('[data-testid="dot-link"]').textContent()) ?? '';
    assert.match(text, /q2·k2 = /);
    assert.ok(text.includes(`= ${expected.scores[1 * 5 + 1].toFixed(2)}`), `the raw score in: ${text}`);
    assert.ok(text.includes(expected.weights[1 * 5 + 1].toFixed(4)), `the weight in: ${text}`);
    // the narration says what the weights look like
    assert.match((await env.page.locator('.dot-narration').textContent()) ?? '', /largest weight/);
    // the raw and the scaled scores share one colour scale (the raw one's range), so dividing by √d
    // shows as a paler map, not as the same colours with other numbers
    const legend = (id) => env.page.locator(`#${id} .legend`).evaluate((l) => [...l.children].map((c) => c.textContent));
    const [raw, scaled] = [await legend('dot-scores'), await legend('dot-scaled')];
    assert.deepEqual(scaled, raw);
    const largest = Math.max(...expected.scores.map(Math.abs));
    assert.ok(raw.includes(largest.toFixed(2)), `the raw scores' largest magnitude ${largest.toFixed(2)} bounds the scale: ${raw}`);
    // the focused cell's tooltip leaves the eight cells around it and the column labels in sight,
    // on a desktop and a phone
    for (const width of [1280, 390]) {
      await env.page.setViewportSize({ width, height: 900 });
      await env.page.locator('#dot-weights canvas').focus();
      await env.page.waitForFunction((root) => document.querySelector(root)?.dataset.linked === '1,1' && !document.querySelector('#dot-weights .heatmap-tooltip').hidden, ROOT);
      await env.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const { shown, tip, cells, labels } = await env.page.evaluate(tooltipAndNeighbours, ['dot-weights', 1, 1]);
      assert.ok(shown, `the tooltip at ${width} px`);
      assert.equal(cells.length, 8);
      const covered = cells.filter((c) => tip.left < c.right && tip.right > c.left && tip.top < c.bottom && tip.bottom > c.top);
      assert.deepEqual(covered.map((c) => `q${c.r + 1}·k${c.c + 1}`), [], `at ${width} px the tooltip ${JSON.stringify(tip)} covers neighbours`);
      assert.ok(tip.top >= labels.bottom - 1 || tip.bottom <= labels.top + 1, `at ${width} px the tooltip ${JSON.stringify(tip)} covers the column labels ${JSON.stringify(labels)}`);
    }
    await env.page.setViewportSize({ width: 1280, height: 900 });
  });

  test('score=dot: no scaling; the softmax takes the raw scores', async () => {
    await loadOk('#seed=5&dot_score=dot&dot_n=2&dot_m=6&dot_d=3');
    const q = await editorValues('dot-query');
    const k = await editorValues('dot-key');
    const expected = attention(q, k, 2, 6, 3, 1);
    assertClose((await env.heatmap('dot-weights')).values, expected.weights, 'weights');
    assertClose((await env.heatmap('dot-scaled')).values, expected.scores, 'scaled = raw');
  });

  test('an edit goes into the URL and a reload of that URL gives the same numbers', async () => {
    await loadOk('#seed=7');
    const before = await env.heatmap('dot-weights');
    const count = await env.computeCount(ROOT);
    await env.page.locator(`${ROOT} table.dot-query input`).first().fill('4.5');
    await env.waitComputed(ROOT, count);
    await env.page.waitForFunction(() => location.hash.includes('dot_q='));
    const edited = await env.heatmap('dot-weights');
    assert.notDeepEqual(edited.values, before.values);
    assert.deepEqual(edited.values.slice(5), before.values.slice(5), 'only the first query row changes');
    const q = await editorValues('dot-query');
    assert.equal(q[0], 4.5);
    assertClose(edited.values, attention(q, await editorValues('dot-key'), 3, 5, 4, 2).weights, 'edited weights');

    const hash = await env.page.evaluate(() => location.hash);
    await loadOk(hash);
    assert.deepEqual(await env.heatmap('dot-weights'), edited);
    assert.equal((await editorValues('dot-query'))[0], 4.5);
    assert.ok(await env.page.locator(`${ROOT} .dot-edited`).isVisible());

    // a smaller d keeps the edited values that still fit (the first d features of every row)
    const c2 = await env.computeCount(ROOT);
    await env.page.selectOption(`${ROOT} select >> nth=3`, '2');
    await env.waitComputed(ROOT, c2);
    assert.deepEqual((await env.heatmap('dot-weights')).shape, [3, 5]);
    const small = await editorValues('dot-query');
    assert.deepEqual(small, [0, 1, 2].flatMap((r) => q.slice(r * 4, r * 4 + 2)));
    assert.ok(await env.page.locator(`${ROOT} .dot-edited`).isVisible());
    await env.page.waitForFunction(() => location.hash.includes('dot_q=4.5') && location.hash.includes('dot_d=2'));
  });

  test('typed q1 = 5, then Features d from 4 to 8: the typed values stay, the edit banner too', async () => {
    await loadOk('#seed=1');
    let count = await env.computeCount(ROOT);
    await env.page.locator(`${ROOT} table.dot-query input`).first().fill('5');
    await env.waitComputed(ROOT, count);
    const q = await editorValues('dot-query');
    const k = await editorValues('dot-key');
    assert.ok(await env.page.locator(`${ROOT} .dot-edited`).isVisible());
    count = await env.computeCount(ROOT);
    await env.page.selectOption(`${ROOT} select >> nth=3`, '8');
    await env.waitComputed(ROOT, count);
    const q8 = await editorValues('dot-query');
    const k8 = await editorValues('dot-key');
    assert.equal(q8.length, 3 * 8);
    for (let r = 0; r < 3; r++) assert.deepEqual(q8.slice(r * 8, r * 8 + 4), q.slice(r * 4, r * 4 + 4), `query row ${r + 1} keeps its 4 values`);
    for (let r = 0; r < 5; r++) assert.deepEqual(k8.slice(r * 8, r * 8 + 4), k.slice(r * 4, r * 4 + 4), `key row ${r + 1} keeps its 4 values`);
    assert.equal(q8[0], 5);
    assert.ok(await env.page.locator(`${ROOT} .dot-edited`).isVisible(), 'the “Edited values” banner stays');
    assertClose((await env.heatmap('dot-weights')).values, attention(q8, k8, 3, 5, 8, Math.sqrt(8)).weights, 'weights of the kept values');
  });

  test('Features d from 4 to 8, nothing typed: the drawn values stay and the new features are fresh draws, not other rows’ values', async () => {
    await loadOk('#seed=1');
    const q = await editorValues('dot-query');
    const k = await editorValues('dot-key');
    const count = await env.computeCount(ROOT);
    await env.page.selectOption(`${ROOT} select >> nth=3`, '8');
    await env.waitComputed(ROOT, count);
    const q8 = await editorValues('dot-query');
    const k8 = await editorValues('dot-key');
    const old = new Set([...q, ...k]);
    for (const [name, was, now, rows] of [['query', q, q8, 3], ['key', k, k8, 5]]) {
      for (let r = 0; r < rows; r++) {
        assert.deepEqual(now.slice(r * 8, r * 8 + 4), was.slice(r * 4, r * 4 + 4), `${name} row ${r + 1} keeps its 4 values`);
        for (const v of now.slice(r * 8 + 4, r * 8 + 8)) assert.ok(!old.has(v), `${name} row ${r + 1}: new value ${v} is an old one moved over`);
      }
    }
    assert.equal(await env.page.locator(`${ROOT} .dot-edited`).isVisible(), false, 'nothing typed: no “Edited values” banner');
  });

  test('Randomise draws a new seed and drops the edits', async () => {
    await loadOk('#seed=1&dot_q=1,2,3,4,5,6,7,8,9,10,11,12');
    assert.deepEqual((await editorValues('dot-query')).slice(0, 3), [1, 2, 3]);
    const count = await env.computeCount(ROOT);
    await env.page.locator(`${ROOT} .al-controls button`).first().click();
    await env.waitComputed(ROOT, count);
    await env.page.waitForFunction(() => !location.hash.includes('dot_q=') && !/seed=1(&|$)/.test(location.hash));
    const q = await editorValues('dot-query');
    assert.notDeepEqual(q.slice(0, 3), [1, 2, 3]);
    assert.ok(await env.page.locator(`${ROOT} .dot-edited`).isHidden());
  });

  test('stored values that do not fit the shape fall back to the seed', async () => {
    await loadOk('#seed=1&dot_n=2&dot_d=2&dot_q=1,2,3');
    assert.equal((await editorValues('dot-query')).length, 4);
    assert.notDeepEqual((await editorValues('dot-query')).slice(0, 3), [1, 2, 3]);
  });

  test('an empty cell: inline error, last result kept; a number again: recovered', async () => {
    await loadOk('#seed=2');
    const good = await env.heatmap('dot-weights');
    const cell = env.page.locator(`${ROOT} table.dot-key input`).nth(5);
    await cell.fill('');
    await env.page.waitForSelector(`${ROOT}[data-state="error"]`);
    assert.match(await env.page.locator(`${ROOT} .dot-message`).textContent(), /k2, d2: empty or not a number/);
    // the line under the maps says they still show the numbers from before, not that the edit is in
    assert.equal(await env.page.locator(`${ROOT} .dot-narration`).textContent(), 'The maps still show the numbers from before this edit.');
    assert.equal(await cell.getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await env.heatmap('dot-weights'), good);
    const count = await env.computeCount(ROOT);
    await cell.fill('0.5');
    await env.waitComputed(ROOT, count);
    assert.equal(await env.page.getAttribute(ROOT, 'data-state'), 'ok');
    const k = await editorValues('dot-key');
    assert.equal(k[5], 0.5);
    assertClose((await env.heatmap('dot-weights')).values, attention(await editorValues('dot-query'), k, 3, 5, 4, 2).weights, 'recovered');
  });

  test('a cell emptied, then given back the value the maps show: the error goes though nothing recomputes', async () => {
    await loadOk('#seed=2');
    const cell = env.page.locator(`${ROOT} table.dot-key input`).nth(5);
    let count = await env.computeCount(ROOT);
    await cell.fill('5');
    await env.waitComputed(ROOT, count);
    count = await env.computeCount(ROOT);
    await cell.fill('');
    await env.page.waitForSelector(`${ROOT}[data-state="error"]`);
    await cell.fill('5');
    await env.page.waitForSelector(`${ROOT}[data-state="ok"]`);
    assert.doesNotMatch(await env.page.locator(`${ROOT} .dot-message`).textContent(), /empty or not a number/);
    assert.match((await env.page.locator(`${ROOT} .dot-narration`).textContent()) ?? '', /largest weight/);
    assert.equal(await cell.getAttribute('aria-invalid'), null);
    assert.equal(await env.computeCount(ROOT), count, 'the same values: no new computation');
  });

  test('the saturation sweep: numbers equal a plain-JS computation, and scaling prevents saturation', async () => {
    await loadOk('#seed=1&dot_sweep_d=1024');
    await env.page.waitForFunction(() => document.querySelector('.dot-sweep-data')?.getAttribute('data-d') === '1024');
    await env.page.waitForSelector('.dot-sweep[data-grid="ok"]');
    const point = JSON.parse(await env.page.locator('.dot-sweep-data').evaluate((o) => /** @type {HTMLOutputElement} */ (o).value));
    const shown = await env.page.$$eval('.dot-sweep-table td', (tds) =>
      Object.fromEntries(tds.map((td) => [`${td.dataset.metric}:${td.dataset.variant}`, Number(td.dataset.value)])),
    );
    const { d, n, m } = point;
    assert.deepEqual([d, n, m], [1024, 16, 8]);
    for (const [variant, scale] of [['unscaled', 1], ['scaled', Math.sqrt(d)]]) {
      const { weights } = attention(point.q, point.k, n, m, d, scale);
      let maxWeight = 0;
      let entropy = 0;
      let jacobian = 0;
      for (let i = 0; i < n; i++) {
        const p = weights.slice(i * m, (i + 1) * m);
        maxWeight += Math.max(...p) / n;
        entropy += -p.reduce((acc, x) => acc + (x > 0 ? x * Math.log(x) : 0), 0) / n;
        // ‖diag(p) − ppᵀ‖_F, the softmax Jacobian
        let f = 0;
        for (let a = 0; a < m; a++) for (let b = 0; b < m; b++) f += ((a === b ? p[a] : 0) - p[a] * p[b]) ** 2;
        jacobian += Math.sqrt(f) / n;
      }
      // float32 scores of size 1024 (unscaled up to ~100): tolerances at float32 level
      assert.ok(Math.abs(shown[`maxWeight:${variant}`] - maxWeight) < 1e-4, `${variant} max weight`);
      assert.ok(Math.abs(shown[`entropy:${variant}`] - entropy) < 1e-3, `${variant} entropy`);
      assert.ok(Math.abs(shown[`jacobian:${variant}`] - jacobian) < 1e-4, `${variant} jacobian ${shown[`jacobian:${variant}`]} vs ${jacobian}`);
    }
    // the point of §3.2: unscaled saturates at d = 1024, scaled does not
    assert.ok(shown['maxWeight:unscaled'] > 0.95, `unscaled max weight ${shown['maxWeight:unscaled']}`);
    assert.ok(shown['maxWeight:scaled'] < 0.8, `scaled max weight ${shown['maxWeight:scaled']}`);
    assert.ok(shown['jacobian:unscaled'] < shown['jacobian:scaled'] / 4, 'the unscaled gradient has shrunk');

    // the slider moves d (log steps) and the URL follows
    await env.page.locator('.dot-sweep-slider').fill('30'); // 2^3
    await env.page.waitForFunction(() => document.querySelector('.dot-sweep-data')?.getAttribute('data-d') === '8');
    await env.page.waitForFunction(() => /dot_sweep_d=8(&|$)/.test(location.hash));
    await env.screenshot('dot-sweep', '.dot-sweep');

    // a d the box cannot take stays in it, named by the field's label; d, the URL and the numbers stay
    const box = env.page.locator('.dot-sweep-number');
    for (const [typed, says] of [['10000', /Feature size d: at most 1024/], ['0', /Feature size d: at least 1/], ['', /Feature size d: enter a value/], ['2.5', /Feature size d: must be a whole number/]]) {
      await box.fill(typed);
      await box.dispatchEvent('change');
      const error = env.page.locator(`#${await box.getAttribute('aria-errormessage')}`);
      assert.match(await error.textContent(), says, `typed ${JSON.stringify(typed)}`);
      assert.equal(await box.inputValue(), typed, 'what was typed stays in the box');
      assert.equal(await box.getAttribute('aria-invalid'), 'true');
      assert.equal(await env.page.locator('.dot-sweep-data').getAttribute('data-d'), '8');
      assert.match(await env.page.evaluate(() => location.hash), /dot_sweep_d=8(&|$)/);
    }
    await box.fill('16');
    await box.dispatchEvent('change');
    await env.page.waitForFunction(() => document.querySelector('.dot-sweep-data')?.getAttribute('data-d') === '16');
    assert.equal(await box.getAttribute('aria-invalid'), null, 'a good value clears the error');
  });

  test('in Chinese, and at phone width', async () => {
    await env.checkChineseAndPhone(ROOT, 'dot', 'dot');
  });
});
