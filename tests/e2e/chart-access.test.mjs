// Charts for every reader (web/src/charts/): a chart takes focus, the arrow keys walk its points and
// show each one's readout (a box readable by assistive technology), the choice is said in a polite
// live region, a tap on a phone shows and says the point under the finger, and the accessible name
// says more than the title (the kind of chart, its series, its axes). On §3.2's saturation chart
// (Chart.js, loaded after the heatmaps); its series differ by marker too. §3.3's candidates are a
// list, not a chart: its text is what every reader gets (the list's name, each word and probability).
// Needs a build (npm run build:web). Run: node --test tests/e2e/chart-access.test.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { usePhone, useSite, waitForCanvasInk } from './harness.mjs';
import { text } from './claims/claims-harness.mjs';

const SWEEP = '.dot-sweep canvas';

describe('charts: focus, keys, touch and names', { timeout: 300_000 }, () => {
  /** @type {Awaited<ReturnType<import('./harness.mjs').startSite>>} */
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const phone = usePhone(() => site);

  /** Opens §3.2 and waits until the sweep chart has drawn its series (its legend lists six). */
  async function openSweep(p) {
    await (p === page ? site.load('#view=dot&seed=1&dot_open_sweep=1') : phone.open('#view=dot&seed=1&dot_open_sweep=1'));
    await p.locator(SWEEP).scrollIntoViewIfNeeded();
    await p.waitForFunction(() => document.querySelectorAll('.dot-sweep .lab-chart-legend li').length === 6);
    // Chart.js has built and drawn the chart (it builds in a task of its own once in view)
    assert.ok((await waitForCanvasInk(p, SWEEP)) > 0, 'the chart is drawn');
  }

  const readout = (p) =>
    p.evaluate(() => {
      const box = document.querySelector('.dot-sweep .lab-chart-readout');
      const live = document.querySelector('.dot-sweep .lab-chart-live');
      return { shown: Boolean(box && !box.hidden), hiddenFromAt: box?.closest('[aria-hidden="true"]') !== null, text: box?.querySelector('.lab-chart-readout-title')?.textContent ?? '', live: live?.textContent ?? '', politeness: live?.getAttribute('aria-live') };
    });

  /** Waits until the readout's heading says `title` (the keyboard's code loads with the first key). */
  const readoutSays = (p, title) =>
    p.waitForFunction((t) => document.querySelector('.dot-sweep .lab-chart-readout-title')?.textContent === t && !document.querySelector('.dot-sweep .lab-chart-readout').hidden, title);

  test('§3.2 sweep: one Tab stop, arrow keys walk d = 1 … 1024, the readout is shown and said politely', async () => {
    await openSweep(page);
    const canvas = page.locator(SWEEP);
    assert.equal(await canvas.getAttribute('tabindex'), '0');
    const name = await canvas.getAttribute('aria-label');
    assert.match(name, /^Max weight, entropy and softmax gradient size against d.*: line chart of .*max weight.*; x: d \(log scale\), y: max weight, .*, entropy \(nats\)\.$/i);
    await canvas.focus();
    await page.keyboard.press('Home');
    await readoutSays(page, 'd = 1');
    let r = await readout(page);
    assert.ok(r.shown, 'the readout shows for the keyboard');
    assert.equal(r.hiddenFromAt, false, 'the readout is not hidden from assistive technology');
    assert.equal(r.text, 'd = 1');
    assert.equal(r.politeness, 'polite');
    assert.match(r.live, /^d = 1; /);
    await page.keyboard.press('ArrowRight');
    await readoutSays(page, 'd = 2');
    r = await readout(page);
    assert.equal(r.text, 'd = 2');
    assert.match(r.live, /^d = 2; /);
    await page.keyboard.press('End');
    await readoutSays(page, 'd = 1024');
    r = await readout(page);
    assert.equal(r.text, 'd = 1024');
    // six series at each d: every one is read
    assert.equal(r.live.split('; ').length, 7, r.live);
    // the mouse passing over the chart does not speak
    const box = await canvas.boundingBox();
    const before = r.live;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width / 2 + 30, box.y + box.height / 2);
    assert.equal((await readout(page)).live, before);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.querySelector('.dot-sweep .lab-chart-readout').hidden);
    // the same numbers as a table, behind "Data table"
    await page.locator('.dot-sweep details.lab-chart-table summary').click();
    await page.locator('.dot-sweep details.lab-chart-table table').waitFor(); // its code loads on the first opening
    const table = await page.$$eval('.dot-sweep details.lab-chart-table tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.equal(table[0].length, 7, 'd and six series');
    const last = table.find((row) => row[0] === '1024');
    assert.ok(last, 'a row for d = 1024');
    assert.deepEqual(last.slice(1), before.split('; ').slice(1).map((line) => line.split(': ').at(-1)));
  });

  test('§3.2 sweep: each metric has its own marker, each variant its own dash (not colour alone)', async () => {
    await openSweep(page);
    const entries = await page.$$eval('.dot-sweep .lab-chart-legend li', (lis) =>
      lis.map((li) => ({ marker: li.querySelector('.lab-chart-legend-marker')?.className.replace('lab-chart-legend-marker', '').trim(), dashed: li.querySelector('.lab-chart-legend-line').dataset.dash !== undefined })),
    );
    const markers = new Set(entries.map((e) => e.marker));
    assert.equal(markers.size, 3, `one marker per metric: ${JSON.stringify(entries)}`);
    // the same metric's two variants: same marker, one dashed and one solid
    for (const m of markers) assert.deepEqual(entries.filter((e) => e.marker === m).map((e) => e.dashed).sort(), [false, true]);
  });

  for (const lang of ['en', 'zh']) {
    test(`§3.2 sweep, exported as SVG [${lang}]: the d axis is titled as logarithmic; entropy (nats) reads against a right-hand axis, max weight and gradient size against the left`, async () => {
      await site.load(`#view=dot&seed=1&dot_open_sweep=1&lang=${lang}`);
      await page.locator(SWEEP).scrollIntoViewIfNeeded();
      await page.waitForFunction(() => document.querySelectorAll('.dot-sweep .lab-chart-legend li').length === 6);
      assert.ok((await waitForCanvasInk(page, SWEEP)) > 0, 'the chart is drawn');
      await site.screenshot(`dot-sweep-axes-${lang}`, { target: page.locator('.dot-sweep-chart') });
      await page.locator('.dot-sweep .export-toggle').first().click();
      const download = page.waitForEvent('download');
      await page.locator('.dot-sweep .export-item[data-export="svg"]').first().click();
      const svg = readFileSync(await (await download).path()).toString('utf8');
      const [, left, , right] = /<path d="M([\d.]+) ([\d.]+)V[\d.]+H([\d.]+)"/.exec(svg).map(Number);
      const texts = [...svg.matchAll(/<text x="([\d.-]+)" y="[\d.-]+"[^>]*>([^<]*)<\/text>/g)].map((m) => ({ x: Number(m[1]), s: m[2] }));
      const has = (s) => texts.find((t) => t.s === s);
      assert.ok(has(text(lang, 'dot.sweep.axis.d')), `the d axis title “${text(lang, 'dot.sweep.axis.d')}”`);
      assert.match(text(lang, 'dot.sweep.axis.d'), lang === 'en' ? /log scale/ : /对数刻度/);
      const entropy = has(text(lang, 'dot.metric.entropy'));
      assert.ok(entropy && entropy.x > right, `entropy's title right of the plot (${right}): ${JSON.stringify(entropy)}`);
      const leftTitle = texts.find((t) => t.s.includes(text(lang, 'dot.metric.maxWeight')) && t.s.includes(text(lang, 'dot.metric.jacobian')));
      assert.ok(leftTitle && leftTitle.x < left, `max weight and gradient size titled left of the plot (${left}): ${JSON.stringify(leftTitle)}`);
      const ticks = (side) => texts.filter((t) => /^\d+(\.\d+)?$/.test(t.s) && side(t.x)).map((t) => Number(t.s));
      const leftTicks = ticks((x) => x < left);
      const rightTicks = ticks((x) => x > right);
      assert.equal(Math.max(...leftTicks), 1, `the left axis runs to 1: ${leftTicks}`);
      assert.ok(Math.max(...rightTicks) >= 1.8 && Math.max(...rightTicks) <= 2.2, `the right axis runs to about ln 8 ≈ 2.08: ${rightTicks}`);
    });
  }

  test('390 px, touch: a tap on the sweep chart shows and says the point under the finger', async () => {
    await openSweep(phone.page);
    const box = await phone.page.locator(SWEEP).boundingBox();
    await phone.page.touchscreen.tap(box.x + box.width * 0.8, box.y + box.height / 2); // inside the plot (entropy's axis is at the right)
    // Chart.js handles events in the next animation frame
    await phone.page.waitForFunction(() => document.querySelector('.dot-sweep .lab-chart-live')?.textContent);
    const r = await readout(phone.page);
    assert.ok(r.shown);
    assert.match(r.text, /^d = \d+/);
    assert.equal(r.live.split('; ')[0], r.text, 'the live region says the tapped point');
  });

  /** §3.3 (opened in `p`) with one decoding step played: its candidates' list. */
  async function stepCandidates(p) {
    await p.waitForFunction(() => Number(document.querySelector('.translate-section .translate-decode')?.dataset.steps) > 0);
    await p.click('.translate-section [data-testid=translate-decode-step]');
    await p.waitForFunction(() => document.querySelectorAll('.translate-section [data-testid=translate-candidates] li').length > 0);
    return p.locator('.translate-section [data-testid=translate-candidates]').first();
  }

  test('§3.3 candidates: a named list, each word with its probability as text, most probable first, the chosen one said', async () => {
    await site.load('#view=translate&seed=1');
    const list = await stepCandidates(page);
    const items = await list.evaluate((ol) =>
      [...ol.querySelectorAll('li')].map((li) => ({
        token: li.querySelector('.translate-topk-token').textContent,
        prob: Number(li.querySelector('.translate-topk-prob').textContent),
        bar: Number(getComputedStyle(li.querySelector('.translate-topk-bar')).getPropertyValue('--p')),
        chosen: li.classList.contains('chosen'),
      })),
    );
    assert.ok(items.length >= 2, JSON.stringify(items));
    for (const [i, it] of items.entries()) {
      assert.ok(it.prob >= 0 && it.prob <= 1, JSON.stringify(it));
      assert.ok(Math.abs(it.bar - it.prob) < 0.0006, `the bar is as wide as the probability: ${JSON.stringify(it)}`);
      if (i > 0) assert.ok(it.prob <= items[i - 1].prob, `most probable first: ${JSON.stringify(items)}`);
    }
    // greedy decoding: the step wrote the most probable word, the one marked, the one its title names
    const chosen = items.filter((it) => it.chosen);
    assert.equal(chosen.length, 1);
    assert.equal(chosen[0].token, items[0].token);
    const title = await page.locator('.translate-section .translate-topk-title').first().textContent();
    assert.ok(/^Candidates at step \d+ /.test(title) && title.endsWith(`(“${chosen[0].token}”)`), title);
    // what a screen reader gets: the list's name, each item's word and probability, the chosen one in words
    const tree = await list.ariaSnapshot();
    assert.match(tree, /^- list "The most probable next tokens and their probabilities"/);
    const first = `${items[0].token} ${items[0].prob.toFixed(3)} (chosen)`;
    assert.ok(tree.includes(`- listitem: ${first}`), `“${first}” in ${tree}`);
    assert.ok(tree.includes(`- listitem: ${items[1].token} ${items[1].prob.toFixed(3)}\n`), tree);
    assert.equal(await list.locator('..').locator('canvas').count(), 0, 'no canvas: nothing to focus or walk');

    // the Export menu gives the step's candidates as CSV and JSON, every digit (the list shows three)
    const fig = page.locator('.translate-section .translate-topk').first();
    const download = async (kind) => {
      await fig.locator('.export-toggle').click();
      const wait = page.waitForEvent('download');
      await fig.locator(`.export-item[data-export="${kind}"]`).click();
      const d = await wait;
      return { name: d.suggestedFilename(), text: readFileSync(await d.path(), 'utf8').replace(/^\ufeff/, '') };
    };
    const step = /step (\d+)/.exec(title)[1];
    const csv = await download('csv');
    assert.equal(csv.name, `translate-candidates-step-${step}.csv`);
    const lines = csv.text.trim().split('\r\n');
    assert.equal(lines[0], ',probability,chosen');
    const json = await download('json');
    assert.equal(json.name, `translate-candidates-step-${step}.json`);
    const data = JSON.parse(json.text);
    assert.equal(data.step, Number(step));
    assert.equal(data.chosen, chosen[0].token);
    assert.deepEqual(data.candidates.map((c) => [c.token, c.prob.toFixed(3)]), items.map((it) => [it.token, it.prob.toFixed(3)]));
    // the CSV writes each probability in its shortest float32 form (the JSON keeps the double):
    // the same float32, and no digit more than reading it back needs
    const rows = lines.slice(1).map((line) => line.split(','));
    assert.deepEqual(rows.map(([token, , chosen]) => [token, chosen]), data.candidates.map((c) => [c.token, c.token === data.chosen ? '1' : '0']));
    rows.forEach(([, prob], i) => {
      assert.equal(Math.fround(Number(prob)), Math.fround(data.candidates[i].prob), `${prob} is candidate ${i}'s float32`);
      assert.ok(prob.replace(/^0\.0*|\./g, '').length <= 9, `${prob}: at most 9 significant digits`);
    });
  });

  test('390 px, touch: the candidates show every word and probability on the screen, no sideways scroll', async () => {
    await phone.open('#view=translate&seed=1');
    const list = await stepCandidates(phone.page);
    await list.scrollIntoViewIfNeeded();
    const boxes = await list.evaluate((ol) => [...ol.querySelectorAll('.translate-topk-token, .translate-topk-prob')].map((e) => e.getBoundingClientRect().toJSON()));
    assert.ok(boxes.length >= 4);
    for (const b of boxes) assert.ok(b.left >= 0 && b.right <= 390 && b.width > 0, JSON.stringify(b));
  });
});
