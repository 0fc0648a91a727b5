#!/usr/bin/env node
// Measures the built article in headless Chromium and prints a markdown table (not a test: the
// figures depend on the machine). Needs a build (npm run build:web, or ATTENTION_LAB_DIST=<dir>).
//   node scripts/measure-page.mjs [--runs 3] [--train-seconds 10]
// - navigation → first heatmap drawn: from the navigation start to the first animation frame in
//   which a .heatmap canvas has ink (the worker loaded the wasm, computed, and a section drew);
// - transfer: every response of the page and its worker, each gzip-compressed here (level 9), summed
//   (what a static host with gzip sends; vite preview itself does not compress);
// - long tasks (> 50 ms, PerformanceObserver 'longtask') on the main thread during page load, and
//   during N seconds of training in the translate section (its [data-testid="s2s-play"] button).
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM, LAUNCH_ARGS } from '../tests/e2e/harness.mjs';
import { distDir, startPreview } from './serve.mjs';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} needs a positive number`);
  return v;
}

/** Runs in the page before its own scripts: records long tasks and the first drawn heatmap. */
function instrument() {
  const w = /** @type {any} */ (window);
  w.__measure = { longTasks: [], firstHeatmap: null };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__measure.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const inked = (c) => {
    if (c.width < 20 || c.height < 20) return false;
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    for (let i = 3; i < data.length; i += 16) if (data[i] > 0) return true;
    return false;
  };
  const poll = () => {
    if ([...document.querySelectorAll('.heatmap canvas')].some(inked)) w.__measure.firstHeatmap = performance.now();
    else requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
}

const summarize = (tasks) => ({
  count: tasks.length,
  total: tasks.reduce((a, t) => a + t.duration, 0),
  max: tasks.reduce((a, t) => Math.max(a, t.duration), 0),
});

async function measureOnce(browser, url, trainSeconds) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(instrument);
  const bodies = [];
  page.on('response', (res) => {
    bodies.push(
      res.body().then(
        (b) => ({ url: res.url(), raw: b.length, gzip: gzipSync(b, { level: 9 }).length }),
        () => null, // redirects and aborted requests have no body
      ),
    );
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__measure.firstHeatmap !== null, null, { timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  const firstHeatmap = await page.evaluate(() => window.__measure.firstHeatmap);
  const loadTasks = summarize(await page.evaluate(() => window.__measure.longTasks));
  const mounts = await page.evaluate(() =>
    performance.getEntriesByType('measure').filter((m) => m.name.startsWith('mount ')).map((m) => [m.name.slice(6), m.duration]),
  );

  const play = page.locator('[data-testid="s2s-play"]');
  await play.scrollIntoViewIfNeeded();
  await page.waitForTimeout(500);
  const startedAt = await page.evaluate(() => performance.now());
  await play.click();
  await page.waitForTimeout(trainSeconds * 1000);
  const progress = await page.locator('[data-testid="s2s-progress"]').evaluate((e) => `step ${e.value} of ${e.max}`);
  const trainTasks = summarize(
    (await page.evaluate(() => window.__measure.longTasks)).filter((t) => t.start >= startedAt),
  );
  await page.locator('[data-testid="s2s-pause"]').click().catch(() => {});

  const responses = (await Promise.all(bodies)).filter(Boolean);
  await context.close();
  return {
    firstHeatmap,
    loadTasks,
    mounts,
    trainTasks,
    progress,
    raw: responses.reduce((a, r) => a + r.raw, 0),
    gzip: responses.reduce((a, r) => a + r.gzip, 0),
    responses,
  };
}

async function main() {
  const runs = option('runs', 3);
  const trainSeconds = option('train-seconds', 10);
  const server = await startPreview({ port: 0, strictPort: true, logLevel: 'error' });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  try {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await measureOnce(browser, server.url, trainSeconds));
    const median = (f) => {
      const v = results.map(f).sort((a, b) => a - b);
      return v[Math.floor(v.length / 2)];
    };
    const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
    const ms = (n) => `${Math.round(n)} ms`;
    const last = results.at(-1);
    console.log(`\nAttentionLab page, headless Chromium, ${distDir}, ${runs} run(s), median:\n`);
    console.log('| measure | value |');
    console.log('|---|---|');
    console.log(`| navigation → first heatmap drawn | ${ms(median((r) => r.firstHeatmap))} (runs: ${results.map((r) => ms(r.firstHeatmap)).join(', ')}) |`);
    console.log(`| transfer, gzip level 9 (${last.responses.length} responses) | ${kb(median((r) => r.gzip))} (uncompressed ${kb(median((r) => r.raw))}) |`);
    console.log(`| long tasks during load | ${median((r) => r.loadTasks.count)} (total ${ms(median((r) => r.loadTasks.total))}, longest ${ms(median((r) => r.loadTasks.max))}) |`);
    const mountTimes = last.mounts.map(([id, d]) => `${id} ${Math.round(d)}`).join(', ');
    console.log(`| main-thread time to mount each section (last run, ms) | ${mountTimes} |`);
    console.log(`| long tasks during ${trainSeconds} s of training (translate section) | ${median((r) => r.trainTasks.count)} (total ${ms(median((r) => r.trainTasks.total))}, longest ${ms(median((r) => r.trainTasks.max))}) |`);
    console.log(`| training progress after ${trainSeconds} s | ${last.progress} |`);
    console.log('\nLargest responses (gzip):\n');
    console.log('| file | gzip | raw |');
    console.log('|---|---|---|');
    for (const r of [...last.responses].sort((a, b) => b.gzip - a.gzip).slice(0, 8)) {
      console.log(`| ${new URL(r.url).pathname} | ${kb(r.gzip)} | ${kb(r.raw)} |`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((err) => {
  console.error(`measure-page: ${err instanceof Error ? err.stack : err}`);
  process.exit(1);
});
