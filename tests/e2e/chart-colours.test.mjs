// A chart takes every colour from its own canvas (web/src/charts: canvasColor, seriesColor): the
// √d sweep chart of <attention-playground theme="dark"> on a light page resolves its text, grid,
// axis line and series to the dark tokens and exports a PNG on the dark panel with light ink; the
// same widget light resolves and exports the light ones. Needs a build (npm run build:web).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { distDir as dist, startSite } from './harness.mjs';

// The widget page has a light host page and the sweep chart open (dot_open_sweep=1).
const PAGE = '/examples/test-one-playground.html';
// design.css and design-dark.css: --lab-ink-soft, --lab-line, --lab-panel, --lab-ink
const LOOKS = {
  light: { ink: '#334155', line: 'rgba(0,0,0,0.1)', panel: [255, 255, 255], title: [15, 23, 42] },
  dark: { ink: '#cbd5e1', line: '#334155', panel: [17, 24, 39], title: [226, 232, 240] },
};

describe('chart colours come from the chart’s own canvas', { timeout: 240_000 }, () => {
  /** @type {Awaited<ReturnType<typeof startSite>>} */
  let site;
  before(async () => {
    site = await startSite({ dist });
  });
  after(() => site?.close());

  /** The widget with `theme` on the light page, its sweep chart built; the chart's figure. */
  async function openChart(theme) {
    const { page } = site;
    await site.load('', PAGE);
    await page.evaluate((look) => {
      const widget = document.createElement('attention-playground');
      for (const [k, v] of Object.entries({ mechanism: 'scaled-dot', seed: '3', dot_open_sweep: '1', theme: look })) widget.setAttribute(k, v);
      document.querySelector('attention-playground').replaceWith(widget);
    }, theme);
    const figure = page.locator('attention-playground .dot-sweep-figure');
    await figure.scrollIntoViewIfNeeded();
    return figure;
  }

  /** What the chart resolved once built: its global colours, each scale's and each series' colour. */
  const resolvedColours = (figure) =>
    figure.locator('canvas').evaluate(async (canvas) => {
      // the page's own Chart.js module (the same instance the widget builds the chart with), once
      // it has arrived and built this canvas's chart with its series
      const deadline = Date.now() + 60_000;
      let chart;
      while (!chart?.data.datasets.length) {
        if (Date.now() > deadline) throw new Error('the sweep chart was not built');
        await new Promise((resolve) => setTimeout(resolve, 100));
        const url = performance.getEntriesByType('resource').map((e) => e.name).find((n) => /\/chart-setup[^/]*\.js$/.test(n));
        if (url) chart = (await import(url)).Chart.getChart(canvas);
      }
      return {
        color: chart.options.color,
        borderColor: chart.options.borderColor,
        scales: Object.values(chart.scales).map((s) => ({ ticks: s.options.ticks.color, grid: s.options.grid.color, border: s.options.border.color, title: s.options.title.color })),
        series: chart.data.datasets.map((d) => d.borderColor),
      };
    });

  /** The PNG export's pixels: the top-left corner and the title block's (first 30 rows). */
  async function exportedPng(figure) {
    const { page } = site;
    await figure.locator('.export-toggle').click();
    const wait = page.waitForEvent('download');
    await figure.locator('.export-item[data-export="png"]').click();
    const bytes = [...readFileSync(await (await wait).path())];
    return page.evaluate(async (png) => {
      const bitmap = await createImageBitmap(new Blob([new Uint8Array(png)], { type: 'image/png' }));
      const ctx = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
      ctx.drawImage(bitmap, 0, 0);
      const { data } = ctx.getImageData(0, 0, bitmap.width, 30);
      const pixels = [];
      for (let i = 0; i < data.length; i += 4) pixels.push([data[i], data[i + 1], data[i + 2]]);
      return { corner: pixels[0], title: pixels };
    }, bytes);
  }

  const near = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 8);

  test('a dark widget on a light page draws and exports dark; a light one light', async () => {
    const series = {};
    for (const theme of ['light', 'dark']) {
      const want = LOOKS[theme];
      const figure = await openChart(theme);
      const got = await resolvedColours(figure);
      assert.equal(got.color, want.ink, `${theme}: the chart's text colour`);
      assert.equal(got.borderColor, want.line, `${theme}: the chart's line colour`);
      assert.ok(got.scales.length >= 2);
      for (const s of got.scales) assert.deepEqual(s, { ticks: want.ink, grid: want.line, border: want.line, title: want.ink }, `${theme}: a scale's colours`);
      series[theme] = got.series;

      const png = await exportedPng(figure);
      assert.deepEqual(png.corner, want.panel, `${theme}: the PNG's background is the widget's panel`);
      assert.ok(png.title.some((p) => near(p, want.title)), `${theme}: the PNG's title is in the widget's ink`);
      site.problems.assertNone();
    }
    // the series: each one's dark twin in the dark widget (charts/deferred-chart.ts DARK_SERIES)
    assert.equal(series.dark.length, series.light.length);
    series.dark.forEach((c, i) => assert.notEqual(c, series.light[i], `series ${i} keeps its light colour in the dark widget`));
  });
});
