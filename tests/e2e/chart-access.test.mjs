// Charts for every reader (web/src/charts/): a chart takes focus, the arrow keys walk its points and
// show each one's readout (a box readable by assistive technology), the choice is said in a polite
// live region, a tap on a phone shows and says the point under the finger, and the accessible name
// says more than the title (the kind of chart, its series, its axes). On §3.2's saturation chart
// (Chart.js, loaded after the heatmaps) and §3.3's top-k bars; §3.2's series differ by marker too.
// Needs a build (npm run build:web). Run: node --test tests/e2e/chart-access.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { usePhone, useSite, waitForCanvasInk } from './harness.mjs';

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
    assert.match(name, /^Max weight, entropy and softmax gradient size against d.*: line chart of .*max weight.*; x: d, y: /i);
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
      lis.map((li) => ({ marker: li.querySelector('.lab-chart-legend-marker')?.className.replace('lab-chart-legend-marker', '').trim(), dashed: li.querySelector('.lab-chart-legend-line').style.borderTopStyle === 'dashed' })),
    );
    const markers = new Set(entries.map((e) => e.marker));
    assert.equal(markers.size, 3, `one marker per metric: ${JSON.stringify(entries)}`);
    // the same metric's two variants: same marker, one dashed and one solid
    for (const m of markers) assert.deepEqual(entries.filter((e) => e.marker === m).map((e) => e.dashed).sort(), [false, true]);
  });

  test('390 px, touch: a tap on the sweep chart shows and says the point under the finger', async () => {
    await openSweep(phone.page);
    const box = await phone.page.locator(SWEEP).boundingBox();
    await phone.page.touchscreen.tap(box.x + box.width * 0.9, box.y + box.height / 2);
    // Chart.js handles events in the next animation frame
    await phone.page.waitForFunction(() => document.querySelector('.dot-sweep .lab-chart-live')?.textContent);
    const r = await readout(phone.page);
    assert.ok(r.shown);
    assert.match(r.text, /^d = \d+/);
    assert.equal(r.live.split('; ')[0], r.text, 'the live region says the tapped point');
  });

  test('§3.3 top-k bars: focusable, the arrow keys read each bar, the name lists the bars', async () => {
    await site.load('#view=translate&seed=1');
    const canvas = page.locator('.tr-section .tr-topk-chart canvas').first();
    await page.waitForFunction(() => Number(document.querySelector('.tr-section .tr-decode')?.dataset.steps) > 0);
    await page.click('.tr-section [data-testid=s2s-decode-step]');
    await page.waitForFunction(() => /bar chart, \d+ bars/.test(document.querySelector('.tr-section .tr-topk-chart canvas').getAttribute('aria-label')));
    assert.equal(await canvas.getAttribute('tabindex'), '0');
    await canvas.scrollIntoViewIfNeeded();
    await canvas.focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => document.querySelector('.tr-section .tr-topk-chart .lab-chart-live')?.textContent);
    const text = await page.locator('.tr-section .tr-topk-chart .lab-chart-live').first().textContent();
    const name = await canvas.getAttribute('aria-label');
    // the first bar: its word and probability, as the name lists it first
    const [word, prob] = text.split('; ');
    assert.ok(name.includes(`${word} ${prob}`), `“${text}” in “${name}”`);
  });
});
