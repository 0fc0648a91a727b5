#!/usr/bin/env node
// Measures the built article in headless Chromium and prints a markdown table (not a test: the
// figures depend on the machine). Needs a build (npm run build:web, or ATTENTION_LAB_DIST=<dir>).
//   node scripts/measure-page.mjs [--runs 3] [--train-seconds 10]
// - navigation → first heatmap drawn: from the navigation start to the first animation frame in
//   which a .heatmap canvas has ink (the worker loaded the wasm, computed, and a section drew);
// - transfer: every response of the page and its worker, each gzip-compressed here (level 9), summed
//   (what a static host with gzip sends; vite preview itself does not compress);
// - long tasks (> 50 ms, PerformanceObserver 'longtask') on the main thread during page load, and
//   during N seconds of training in the translate section (its [data-testid="translate-play"] button) and
//   in the why section (its [data-testid="why-start"] button), with the charts' redraws per second
//   (canvas clearRect calls: Chart.js clears before every draw) and wasm instantiations on the main
//   thread (must be 0: all wasm runs in the worker);
// - main-thread time to mount each section and to build each chart (the app's performance.measure
//   entries "mount <id>" and "chart <label>"), median over the runs.
import { chromium } from 'playwright-core';
import { CHROMIUM, LAUNCH_ARGS } from '../tests/e2e/harness.mjs';
import { gotoFirstHeatmap, openProbedContext } from './page-probe.mjs';
import { distDir, startPreview } from './serve.mjs';

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} needs a positive number`);
  return v;
}

const summarize = (tasks) => ({
  count: tasks.length,
  total: tasks.reduce((a, t) => a + t.duration, 0),
  max: tasks.reduce((a, t) => Math.max(a, t.duration), 0),
});

async function measureOnce(browser, url, trainSeconds) {
  const { context, transfer } = await openProbedContext(browser, { tally: true }); // its first heatmap includes the tally's cost (page-probe.mjs)
  const page = await context.newPage();
  const firstHeatmap = await gotoFirstHeatmap(page, url);
  await page.waitForLoadState('networkidle');
  const loadTasks = summarize(await page.evaluate(() => window.__probe.longTasks));
  await page.waitForTimeout(3000); // charts off screen are built when the browser is idle
  const { mounts, charts } = await page.evaluate(() => {
    const measures = performance.getEntriesByType('measure');
    const pick = (prefix) => measures.filter((m) => m.name.startsWith(prefix)).map((m) => [m.name.slice(prefix.length), m.duration]);
    return { mounts: pick('mount '), charts: pick('chart ') };
  });

  const translate = await measureTraining(page, {
    start: '[data-testid="translate-play"]',
    stop: '[data-testid="translate-pause"]',
    progress: () => page.locator('[data-testid="translate-progress"]').evaluate((e) => `step ${e.value} of ${e.max}`),
    seconds: trainSeconds,
  });
  const why = await measureTraining(page, {
    start: '[data-testid="why-start"]',
    stop: '[data-testid="why-start"]', // the same button pauses
    progress: () =>
      page.locator('[data-testid="why-data"]').evaluate((e) => {
        const s = JSON.parse(e.value);
        return `step ${s.step} of ${s.total}`;
      }),
    seconds: trainSeconds,
  });
  const wasmOnMain = await page.evaluate(() => window.__probe.wasm);

  const { files: responses, raw, gzip } = await transfer();
  await context.close();
  return {
    firstHeatmap,
    loadTasks,
    mounts,
    charts,
    translate,
    why,
    wasmOnMain,
    raw,
    gzip,
    responses,
  };
}

/** Clicks `start`, waits, clicks `stop`: long tasks, canvas redraws per second and progress meanwhile. */
async function measureTraining(page, { start, stop, progress, seconds }) {
  const button = page.locator(start);
  await button.scrollIntoViewIfNeeded();
  await page.waitForTimeout(500);
  const [startedAt, clears0] = await page.evaluate(() => [performance.now(), window.__probe.clears]);
  await button.click();
  await page.waitForTimeout(seconds * 1000);
  const [endedAt, clears1] = await page.evaluate(() => [performance.now(), window.__probe.clears]);
  const text = await progress();
  const tasks = summarize((await page.evaluate(() => window.__probe.longTasks)).filter((t) => t.start >= startedAt));
  await page.locator(stop).click({ timeout: 2000 }).catch(() => {}); // disabled once the run is done
  return { tasks, progress: text, redrawsPerSecond: ((clears1 - clears0) * 1000) / (endedAt - startedAt) };
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
    const medianOf = (key) => (id) => median((r) => r[key].find(([x]) => x === id)?.[1] ?? NaN);
    const mountTimes = last.mounts.map(([id]) => `${id} ${Math.round(medianOf('mounts')(id))}`).join(', ');
    console.log(`| main-thread time to mount each section (median, ms) | ${mountTimes} |`);
    const chartTimes = last.charts.map(([id]) => medianOf('charts')(id));
    console.log(
      `| main-thread time to build one chart (${chartTimes.length} charts, each in its own task) | ` +
        `median ${ms(chartTimes.sort((a, b) => a - b)[chartTimes.length >> 1] ?? 0)}, longest ${ms(Math.max(0, ...chartTimes))} |`,
    );
    for (const [key, label] of [['translate', 'translate section'], ['why', 'why section']]) {
      console.log(
        `| long tasks during ${trainSeconds} s of training (${label}) | ${median((r) => r[key].tasks.count)} ` +
          `(total ${ms(median((r) => r[key].tasks.total))}, longest ${ms(median((r) => r[key].tasks.max))}; longest in any run ${ms(Math.max(...results.map((r) => r[key].tasks.max)))}) |`,
      );
      console.log(`| canvas redraws per second while training (${label}) | ${median((r) => r[key].redrawsPerSecond).toFixed(1)} |`);
      console.log(`| training progress after ${trainSeconds} s (${label}, last run) | ${last[key].progress} |`);
    }
    console.log(`| wasm compiled/instantiated on the main thread | ${Math.max(...results.map((r) => r.wasmOnMain))} (all runs) |`);
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
