// The heatmap component in headless Chromium, in the article's sections: a matrix wider than its box
// keeps readable columns and says how many are out of view ("+N columns →", a button that scrolls
// there), the row labels stay in view while it scrolls, cell values have one font size, no axis
// text touches another (English and Chinese, 1280 / 768 / 390 / 320 px: the painted texts' boxes,
// measured by the browser's own fonts), §3.6's heads share one colour scale unless switched to one
// per head, and every figure has one export menu whose PNG and SVG carry title, every column and
// the legend.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { openPanel, startSite, useSite } from './harness.mjs';

/** Every heatmap's painted text boxes: [{id, boxes: [[kind, x, y, w, h]…], canvasWidth}]. */
const textBoxes = (page) =>
  page.$$eval('figure.heatmap', (figs) =>
    figs
      .filter((f) => f.querySelector('output.heatmap-data')?.dataset.texts && f.getClientRects().length > 0)
      .map((f) => ({
        id: f.id,
        boxes: JSON.parse(f.querySelector('output.heatmap-data').dataset.texts),
        canvasWidth: f.querySelector('canvas').getBoundingClientRect().width,
      })),
  );

/** Pairs of painted texts that overlap (slanted column labels may share their bounding boxes). */
function collisions(boxes) {
  const hits = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [ka, ax, ay, aw, ah] = boxes[i];
      const [kb, bx, by, bw, bh] = boxes[j];
      if (ka === 'col' && kb === 'col') continue;
      // 1 px of rounding slack
      const overlapX = Math.min(ax + aw, bx + bw) - Math.max(ax, bx);
      const overlapY = Math.min(ay + ah, by + bh) - Math.max(ay, by);
      if (overlapX > 1 && overlapY > 1) hits.push(`${ka} ${JSON.stringify(boxes[i])} × ${kb} ${JSON.stringify(boxes[j])}`);
    }
  }
  return hits;
}

describe('heatmap component', { timeout: 300_000 }, () => {
  /** @type {Awaited<ReturnType<typeof startSite>>} */
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  /** Loads `hash` and waits until every visible heatmap has been painted. */
  async function loadDrawn(hash, root) {
    await site.load(hash);
    // a section that says when it is ready, or the element that appears when it is
    await page.waitForSelector(root.includes('[') ? root : `${root}[data-state="ok"]`);
    await page.waitForFunction(() => {
      const figs = [...document.querySelectorAll('figure.heatmap')].filter((f) => !f.hidden && f.getClientRects().length > 0);
      return figs.length > 0 && figs.every((f) => f.querySelector('output.heatmap-data')?.dataset.texts);
    });
  }

  test('a wide matrix (d = 64) at 390 px: readable columns, "+N columns →" scrolls, row labels stay', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await loadDrawn('#view=self&self_d=64&seed=2', '.self-section');
      const fig = page.locator('#self-q');
      await fig.scrollIntoViewIfNeeded();
      const more = fig.locator('.heatmap-more');
      assert.ok(await more.isVisible(), 'the cut is announced');
      const [before0, after0] = (await more.getAttribute('data-hidden-columns')).split(',').map(Number);
      assert.equal(before0, 0);
      assert.ok(after0 > 0 && after0 < 64, `${after0} columns out of view`);
      const right = fig.locator('.heatmap-more-right');
      assert.equal(await right.textContent(), `+${after0} columns →`);
      assert.match(await right.getAttribute('aria-label'), new RegExp(`${after0} more columns \\(1–${64 - after0} of 64 shown\\)`));
      assert.ok((await right.getAttribute('aria-label')).startsWith(`+${after0} columns →`), 'the name starts with the visible text');
      assert.ok(!(await fig.locator('.heatmap-more-left').isVisible()), 'nothing is cut on the left yet');
      assert.ok(Number(await fig.locator('output.heatmap-data').getAttribute('data-value-font')) >= 9, 'values stay readable');
      await site.screenshot('heatmap-wide-390', { target: fig });

      await right.click();
      await page.waitForFunction(() => document.querySelector('#self-q .chart-box').scrollLeft > 0);
      // the smooth scroll has ended and the frame after it is painted
      await page.waitForFunction(async () => {
        const box = document.querySelector('#self-q .chart-box');
        const at = box.scrollLeft;
        await new Promise((r) => setTimeout(r, 250));
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return at > 0 && box.scrollLeft === at;
      });
      const [before1, after1] = (await more.getAttribute('data-hidden-columns')).split(',').map(Number);
      assert.ok(before1 > 0 && after1 < after0, `scrolled: ${before1} before, ${after1} after`);
      assert.ok(await fig.locator('.heatmap-more-left').isVisible());
      // the row labels moved with the scroll: still at the box's left edge
      const rows = JSON.parse(await fig.locator('output.heatmap-data').getAttribute('data-texts')).filter((b) => b[0] === 'row');
      const scrollLeft = await fig.locator('.chart-box').evaluate((b) => b.scrollLeft);
      for (const [, x] of rows) assert.ok(x >= scrollLeft - 1, `row label at ${x} scrolled out (box at ${scrollLeft})`);
      await site.screenshot('heatmap-wide-390-scrolled', { target: fig });
      await fig.locator('.heatmap-more-left').click();
      await page.waitForFunction(() => document.querySelector('#self-q .chart-box').scrollLeft === 0);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  /**
   * Every heatmap a reader can see has been painted at its canvas's present size (after a resize:
   * redrawn). One in a closed panel redraws when the panel opens (a closed <details> hides its
   * content from resize observers).
   */
  function drawnAtSize() {
    return page.waitForFunction(() =>
      [...document.querySelectorAll('figure.heatmap')]
        .filter((f) => !f.hidden && f.getClientRects().length > 0 && !f.closest('details:not([open])'))
        .every((f) => {
          const canvas = f.querySelector('canvas');
          const r = canvas.getBoundingClientRect();
          const ratio = devicePixelRatio || 1;
          return f.querySelector('output.heatmap-data')?.dataset.texts && canvas.width === Math.round(Math.round(r.width) * ratio) && canvas.height === Math.round(Math.round(r.height) * ratio);
        }),
    );
  }

  test('no axis text touches another, in English and Chinese, from 1280 to 320 px; no page overflow', async () => {
    const pages = [
      ['#view=dot&seed=3', '.dot-section'],
      ['#view=self&seed=1&self_text=自然 语言 处理 很 强大 的 模型', '.self-section'],
      ['#view=multihead&multihead_heads=4&multihead_d=8', '.multihead-section'],
      // the untrained translator's 32 output rows: on a phone its row labels shrink, never touch
      ['#view=translate&seed=1', '.translate-decode[data-model-step]'],
    ];
    // each page loaded once, at 1280 px, then narrowed as a reader narrows a window (the maps redraw
    // at their new size); layout.test.mjs loads the article at each width
    for (const lang of ['en', 'zh']) {
      for (const [hash, root] of pages) {
        for (const width of [1280, 768, 390, 320]) {
          await page.setViewportSize({ width, height: 900 });
          if (width === 1280) await loadDrawn(`${hash}&lang=${lang}`, root);
          await drawnAtSize();
          const figs = await textBoxes(page);
          assert.ok(figs.length > 0);
          for (const f of figs) {
            assert.deepEqual(collisions(f.boxes), [], `${lang} ${width}px ${f.id}`);
            if (lang === 'zh' && f.boxes.some((b) => b[0] === 'yTitle')) {
              const title = f.boxes.find((b) => b[0] === 'yTitle');
              const rowsTop = Math.min(...f.boxes.filter((b) => b[0] === 'row').map((b) => b[2]));
              assert.ok(title[2] + title[4] <= rowsTop + 1, `${f.id}: the row title sits above the row labels`);
            }
          }
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 0, `${hash} ${lang} scrolls sideways at ${width}px by ${overflow}px`);
          if (root === '.multihead-section') {
            // every visible formula fits its box: none is cut (MathML does not wrap: a phone gets two lines)
            const cut = await page.$$eval('.multihead-section .al-formula math', (ms) => ms.filter((m) => m.getClientRects().length && m.getBoundingClientRect().right > m.closest('.al-formula').getBoundingClientRect().right + 1).length);
            assert.equal(cut, 0, `${lang} ${width}px: a §3.6 formula is wider than its box`);
          }
          if (hash.includes('multihead') && (width === 1280 || width === 768 || width === 390)) await site.screenshot(`heatmap-multihead-${lang}-${width}`);
        }
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('§3.6: heads share one colour scale by default; multihead_scale=per-head gives each its own', async () => {
    const legends = () =>
      page.$$eval('.multihead-head figure.heatmap[id^="multihead-head-"]', (figs) =>
        figs.map((f) => {
          const values = JSON.parse(f.querySelector('output.heatmap-data').value);
          const [min, max] = [...f.querySelectorAll('.legend > span:not(.legend-bar):not(.legend-note)')].map((s) => Number(s.textContent));
          return { values, min, max };
        }),
      );
    await loadDrawn('#view=multihead&multihead_heads=4&multihead_d=8&seed=4', '.multihead-section');
    const shared = await legends();
    assert.equal(shared.length, 4);
    const all = Math.max(...shared.flatMap((h) => h.values.map(Math.abs)));
    for (const h of shared) {
      assert.equal(h.max, Number(all.toFixed(2)), 'every head is coloured on the union of the heads');
      assert.equal(h.min, -h.max);
    }
    // the fifth (the concatenation) is in the closed “How the heads combine” panel: the note says where
    assert.equal(await page.locator('#multihead-head-1 .legend-note').textContent(), 'shared by 5 heatmaps, 1 below');

    const count = await page.evaluate(() => Number(document.querySelector('.multihead-section').dataset.computeCount));
    await page.selectOption('.multihead-section select >> nth=2', 'per-head');
    await page.waitForFunction((n) => Number(document.querySelector('.multihead-section').dataset.computeCount) > n, count);
    await page.waitForFunction(() => location.hash.includes('multihead_scale=per-head'));
    const own = await legends();
    for (const h of own) assert.equal(h.max, Number(Math.max(...h.values.map(Math.abs)).toFixed(2)), 'each head on its own range');
    assert.ok(new Set(own.map((h) => h.max)).size > 1, 'the heads have different ranges');
    assert.ok(!(await page.locator('#multihead-head-1 .legend-note').isVisible()));
    await loadDrawn('#view=multihead&lang=zh&multihead_heads=4&multihead_d=8&seed=4', '.multihead-section');
    assert.equal(await page.locator('#multihead-head-1 .legend-note').textContent(), '5 张热力图共用此色标，其中 1 张在下方');
  });

  test('one export menu per figure (8 heads: no rows of buttons); PNG and SVG carry title, every column and the legend', async () => {
    await loadDrawn('#view=multihead&multihead_heads=8&multihead_d=16&seed=1', '.multihead-section');
    const figures = await page.locator('.multihead-section figure.heatmap').count();
    assert.equal(figures, 8 * 2 + 2);
    assert.equal(await page.locator('.multihead-section .export-toggle').count(), figures, 'one menu button per figure');
    assert.equal(await page.locator('.multihead-section .export-item:visible').count(), 0, 'menus start closed');

    // each menu button is named after its figure (a head's title is set after it is built)
    const headTitle = await page.locator('#multihead-head-3 h3').textContent();
    assert.equal(await page.locator('#multihead-head-3 .export-toggle').getAttribute('aria-label'), `Export ${headTitle}`);
    await openPanel(page, 'multihead-panel-combine');
    const fig = page.locator('#multihead-context');
    const toggle = fig.locator('.export-toggle');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.deepEqual(await fig.locator('.export-item:visible').evaluateAll((els) => els.map((e) => e.dataset.export)), ['png', 'svg', 'csv', 'json', 'html', 'embed']);
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.export), 'svg', 'arrow keys move in the menu');
    await page.keyboard.press('Escape');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('export-toggle')), true, 'Escape returns focus to the button');

    const download = async (kind) => {
      await toggle.click();
      const wait = page.waitForEvent('download');
      await fig.locator(`.export-item[data-export="${kind}"]`).click();
      const d = await wait;
      return { name: d.suggestedFilename(), bytes: readFileSync(await d.path()) };
    };
    const title = await fig.locator('h3').textContent();
    const svg = await download('svg');
    assert.equal(svg.name, 'multihead-context.svg');
    const text = svg.bytes.toString('utf8');
    assert.match(text, /^<\?xml[^]*<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const escaped = (s) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
    assert.ok(text.includes(`>${escaped(title)}</text>`), 'the title is in the picture');
    for (let h = 1; h <= 8; h++) assert.ok(text.includes(`>h${h}·d2</text>`), `column h${h}·d2 is in the picture`);
    const legendMax = await fig.locator('.legend > span:nth-child(3)').textContent();
    assert.ok(text.includes(`>${legendMax}</text>`), 'the legend values are in the picture');
    assert.ok((text.match(/<rect /g) ?? []).length >= 3 * 16 + 60, 'every cell and the legend ramp');

    const png = await download('png');
    assert.equal(png.bytes.subarray(1, 4).toString('latin1'), 'PNG');
    const [w, h] = [png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)];
    const canvas = await fig.locator('canvas').evaluate((c) => [c.width, c.height]);
    assert.ok(h > canvas[1], `the PNG (${w}×${h}) holds more than the canvas (${canvas.join('×')}): title and legend`);
  });

  test('charts: Chart.js arrives after the first heatmap has drawn; a chart\'s SVG has its title, ticks, axis title, legend and marker', async () => {
    await loadDrawn('#view=dot&seed=3', '.dot-section');
    await openPanel(page, 'dot-panel-sweep');
    const chartBox = page.locator('.dot-sweep-figure');
    await chartBox.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /chart-setup/.test(e.name)));
    const order = await page.evaluate(() => {
      const setup = performance.getEntriesByType('resource').find((e) => /chart-setup/.test(e.name));
      const heatmaps = performance.getEntriesByType('measure').filter((m) => m.name.startsWith('chart ') && /heatmap/.test(m.name));
      return { fetched: setup.startTime, firstHeatmap: Math.min(...heatmaps.map((m) => m.startTime + m.duration)) };
    });
    assert.ok(Number.isFinite(order.firstHeatmap), 'a heatmap drew');
    assert.ok(order.fetched >= order.firstHeatmap, `Chart.js fetched at ${order.fetched} ms, before the first heatmap drew (${order.firstHeatmap} ms)`);

    const toggle = chartBox.locator('.export-toggle');
    await page.waitForFunction(() => performance.getEntriesByType('measure').some((m) => m.name.startsWith('chart ') && !/heatmap/.test(m.name)));
    await toggle.click();
    const wait = page.waitForEvent('download');
    await chartBox.locator('.export-item[data-export="svg"]').click();
    const svg = readFileSync(await (await wait).path()).toString('utf8');
    assert.match(svg, /<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    for (const tick of ['1', '16', '1024']) assert.ok(svg.includes(`>${tick}</text>`), `x tick ${tick}`);
    assert.ok(svg.includes('>d (log scale)</text>'), 'the x axis title, saying its scale');
    assert.ok(svg.includes('max weight (scaled)</text>'), 'the legend');
    assert.ok(/>d = \d+<\/text>/.test(svg), "the marker at the slider's d");
    assert.ok((svg.match(/<polyline /g) ?? []).length === 6, 'six series');

    await toggle.click();
    const waitPng = page.waitForEvent('download');
    await chartBox.locator('.export-item[data-export="png"]').click();
    const png = readFileSync(await (await waitPng).path());
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    const canvas = await chartBox.locator('canvas').evaluate((c) => [c.width, c.height]);
    assert.ok(png.readUInt32BE(20) > canvas[1], 'the PNG has the title above the chart');

    // the hover readout (the project's own, not Chart.js's tooltip): the d under the pointer and every series' value there
    await page.keyboard.press('Escape');
    const box = await chartBox.locator('canvas').boundingBox();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    const readout = chartBox.locator('.lab-chart-readout');
    await readout.waitFor({ state: 'visible' });
    const text = await readout.innerText();
    assert.match(text, /^d = \d+\n/, `the readout names the hovered d: ${JSON.stringify(text)}`);
    assert.equal((text.match(/: \d/g) ?? []).length, 6, `a value for each of the six series: ${JSON.stringify(text)}`);
    assert.ok(text.includes('max weight (scaled): '), text);
    const [r, c] = [await readout.boundingBox(), box];
    assert.ok(r.x >= c.x - 1 && r.x + r.width <= c.x + c.width + 1, 'the readout stays over the chart');
    await page.mouse.move(box.x + box.width + 40, box.y - 40);
    await readout.waitFor({ state: 'hidden' });
  });
});
