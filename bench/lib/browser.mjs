// Part 5 of `npm run bench`: the built site (dist/) in headless Chromium (Debian's /usr/bin/chromium
// via playwright-core, served by `vite preview` with its CSP header, scripts/serve.mjs).
//   first heatmap: navigation start → the first animation frame in which a heatmap's canvas has
//     ink, on five pages (FIRST_HEATMAP): the browser's floor (a page whose one script fills a
//     canvas), a widget given its matrix (no wasm), a widget computing in the worker (the smallest
//     build), the article opened at §3.1–3.2, and the article from its top (§3.1–3.2's heatmap is then below
//     the fold and is drawn when the browser is idle);
//   transfer: every response of a page and its worker, each body gzip -9 here, summed (what a static
//     host with gzip sends: vite preview itself does not compress), for the app and one-widget pages;
//   training: steps per second as §3.3 plays (note and dates, with translate_speed high enough that the
//     worker, not the frame rate, is the limit) and as §4 trains its Transformer, from the
//     section's step counter (data-step); the same model config trained through the Node wasm
//     build in this run gives the ratio;
//   long tasks: main-thread tasks > 50 ms (PerformanceObserver 'longtask', buffered) while training;
//   main thread busy: the share of the timed play the page's main thread spent in tasks (the
//     DevTools protocol's Performance.getMetrics TaskDuration), which the worker competes with for
//     the machine's cores.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM, LAUNCH_ARGS } from '../../tests/e2e/harness.mjs';
import { loadOneWidgetPage, ONE_WIDGET_PAGES } from '../../tests/e2e/one-widget-pages.mjs';
import { gotoFirstHeatmap, openProbedContext } from '../../scripts/page-probe.mjs';
import { distDir, startPreview } from '../../scripts/serve.mjs';
import { fmt, spread, stats, table } from './common.mjs';

// The app's model for each task, with the state table's defaults (seed 1, dot score): §3.3's
// trainConfig() and RECIPES (web/src/sections/translate-train.ts), §4's transformerConfig()
// (web/src/sections/transformer-recipes.ts). Node trains exactly this; each training run checks
// that the page asked its worker for this very model.
export const APP_CONFIGS = {
  note: { task: 'note', cell: 'rnn', hidden: 128, attention: true, score: 'dot', seed: 1, learningRate: 0.001 },
  dates: { task: 'dates', cell: 'lstm', hidden: 64, attention: true, score: 'dot', seed: 1, learningRate: 0.005, batchSize: 16, clipNorm: 1, attentionalTanh: true },
  transformer: { arch: 'transformer', task: 'dates', layers: 1, heads: 4, dModel: 32, dFF: 64, normFirst: true, warmup: 200, seed: 1, batchSize: 32, learningRate: 0.01, clipNorm: 1 },
};
// The same settings through the URL hash; translate_speed = steps per frame, its cap (× 60 frames a
// second) above what Node trains of each (note: 200 = 12 000 steps/s), so the worker sets the pace.
export const TRAIN_HASH = {
  note: '#view=translate&seed=1&translate_task=note&translate_cell=rnn&translate_hidden=128&translate_lr=0.001&translate_speed=200',
  dates: '#view=translate&seed=1&translate_task=dates&translate_cell=lstm&translate_hidden=64&translate_lr=0.005&translate_speed=10',
};
export const RECIPE_STEPS = { note: 400, dates: 300, transformer: 300 };
// §4 trains one run to transformer_steps, paused once the timed windows are over: long enough for its
// warm-up (RECIPE_STEPS) and those windows on any machine (about 280 s at the 180 steps/s seen
// here, where warm-up and windows take about 15).
const TRANSFORMER_HASH = '#view=transformer&seed=1&transformer_steps=50000';

/** The translate section of the app at `origin` with `task`'s settings (TRAIN_HASH), ready to play. */
export async function openTrainingPage(page, origin, task) {
  await page.goto(`${origin}/${TRAIN_HASH[task]}`, { waitUntil: 'load' });
  await page.waitForSelector('#section-translate .translate-vocab-word');
}

/** Clicks Play and waits for the recipe's end (the section stops at its last step). */
export async function playRecipe(page, task) {
  await page.click('[data-testid="translate-play"]');
  await page.waitForFunction((n) => {
    const s = document.querySelector('#section-translate .translate-section');
    return s?.dataset.step === String(n) && s.dataset.playing === '0';
  }, RECIPE_STEPS[task]);
}

// The pages whose first heatmap is timed (the floor page is served by the bench itself).
const FLOOR_PATH = '/bench-floor.html';
const FIRST_HEATMAP = [
  { label: 'a canvas filled by the page’s one script (the browser’s floor)', path: FLOOR_PATH, selector: 'canvas' },
  { label: '`<attention-heatmap data=…>` (given matrix, no wasm)', path: '/examples/test-one-heatmap.html', selector: '.heatmap canvas', inWidgets: true },
  { label: '`<attention-heatmap mechanism=self>` (the attention build, in a worker)', path: '/examples/test-one-live-heatmap.html', selector: '.heatmap canvas', inWidgets: true },
  { label: 'the article opened at §3.1–3.2 (`#view=dot`): its first heatmap', path: '/#view=dot', selector: '#section-dot .heatmap canvas' },
  { label: 'the article from the top: §3.1–3.2’s heatmap, below the fold (drawn when idle)', path: '/', selector: '#section-dot .heatmap canvas' },
];


/**
 * A fresh probed context (scripts/page-probe.mjs): by default the dot section's heatmap is the one
 * timed. `tally`: the loads that measure a download. `path`: the page it opens; only the floor page
 * is routed (served by the bench itself), since a route makes Playwright intercept every request of
 * the context: the article's first heatmap measured 485 ms with a route against 432 without (10
 * loads each, alternating order).
 */
async function openContext(browser, { selector = '#section-dot .heatmap canvas', inWidgets = false, tally = false, path = '' } = {}) {
  const { context, transfer: tallied } = await openProbedContext(browser, { heatmapSelector: selector, inWidgets, tally });
  if (path === FLOOR_PATH) {
    await context.route(`**${FLOOR_PATH}`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><canvas width="200" height="100"></canvas><script>document.querySelector("canvas").getContext("2d").fillRect(0, 0, 200, 100)</script>',
      }),
    );
  }
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  const problems = [];
  page.on('pageerror', (err) => problems.push(err.message));
  const transfer = async () => {
    const { files, raw, gzip } = await tallied();
    return { responses: files.length, raw, gzip };
  };
  return { context, page, problems, transfer };
}

/** The app (index.html, every section mounted): its download. */
async function loadApp(browser, origin) {
  const { context, page, problems, transfer } = await openContext(browser, { tally: true });
  try {
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    await page.waitForLoadState('networkidle');
    if (problems.length) throw new Error(`the app reported errors: ${problems.join('; ')}`);
    return transfer();
  } finally {
    await context.close();
  }
}

/** ms from navigation to the first frame with ink in a heatmap of `target` (FIRST_HEATMAP). */
async function firstHeatmapMs(browser, origin, target) {
  const { context, page, problems } = await openContext(browser, target);
  try {
    const ms = await gotoFirstHeatmap(page, `${origin}${target.path}`);
    if (problems.length) throw new Error(`${target.path} reported errors: ${problems.join('; ')}`);
    return ms;
  } finally {
    await context.close();
  }
}

/** The download of one widget page (tests/e2e/one-widget-pages.mjs: everything it needs, wasm included). */
async function loadWidgetPage(browser, origin, spec) {
  const { context, page, problems, transfer } = await openContext(browser, { tally: true });
  try {
    const ready = await loadOneWidgetPage(page, origin, spec);
    if (ready !== 'true') throw new Error(`${spec.path}: <${spec.element}> did not start (data-ready=${ready})`);
    if (problems.length) throw new Error(`${spec.path} reported errors: ${problems.join('; ')}`);
    return transfer();
  } finally {
    await context.close();
  }
}

/**
 * How the bench trains each task in the page: how it opens the page; how it warms up (the wasm
 * tiers up, the charts fill) and leaves training going; the root whose data-step counts the steps;
 * the pause button's test id; the steps per frame (§3.3's translate_speed; §4 has none: its worker
 * trains in time slices).
 */
const translateTraining = (task) => ({
  section: '#section-translate .translate-section',
  pause: 'translate-pause',
  stepsPerFrame: Number(/translate_speed=(\d+)/.exec(TRAIN_HASH[task])[1]),
  open: (page, origin) => openTrainingPage(page, origin, task),
  // §3.3 plays its recipe to the end, then plays on
  warmUp: async (page) => {
    await playRecipe(page, task);
    await page.click('[data-testid="translate-play"]');
  },
});
const TRAINING = {
  note: translateTraining('note'),
  dates: translateTraining('dates'),
  transformer: {
    section: '#section-transformer .transformer-section',
    pause: 'transformer-pause',
    stepsPerFrame: null,
    open: async (page, origin) => {
      await page.goto(`${origin}/${TRANSFORMER_HASH}`, { waitUntil: 'load' });
      await page.waitForSelector('[data-testid="transformer-train"]:not([disabled])');
      // Train once the page's code is in, as a reader would (its curves are Chart.js's first
      // charts, built as the code arrives: clicked at once, Chart.js's first build, ~60 ms on
      // 2 cores with the worker training, could be the measured long task)
      await page.waitForLoadState('networkidle');
    },
    // §4 trains one run of transformer_steps (a run it judges long asks first: all of it)
    warmUp: async (page) => {
      await page.click('[data-testid="transformer-train"]');
      await page.waitForFunction((n) => {
        document.querySelector('[data-testid="transformer-confirm-run"]:not([hidden] *)')?.click();
        return Number(document.querySelector('#section-transformer .transformer-section')?.dataset.step) >= n;
      }, RECIPE_STEPS.transformer, { polling: 100 });
    },
  },
};

/** Fails unless the page asked its worker for APP_CONFIGS[task] (recorded by recordCreates). */
async function checkConfig(page, task) {
  const asked = await page.evaluate(() => window.__creates);
  const canonical = (c) => JSON.stringify(Object.fromEntries(Object.entries(c).sort(([a], [b]) => a.localeCompare(b))));
  if (!asked.some((c) => canonical(c) === canonical(APP_CONFIGS[task]))) {
    throw new Error(`training ${task}: the page's models are not the one Node trains (APP_CONFIGS.${task}): ${asked.map(canonical).join('; ')}`);
  }
}

/** Records every model the page asks its workers to create (window.__creates). */
function recordCreates(context) {
  return context.addInitScript(() => {
    const post = Worker.prototype.postMessage;
    window.__creates = [];
    Worker.prototype.postMessage = function (message, ...rest) {
      if (message?.method === 'seq2seq.create') window.__creates.push(message.args[0]);
      return post.call(this, message, ...rest);
    };
  });
}

/**
 * One training run of `task` in its section, opened and warmed up as TRAINING[task] says, then
 * `windows` × `windowS` seconds of training on; returns the steps per second of each window (from
 * the section's data-step, read at each redraw) and the long tasks.
 */
async function trainInPage(browser, origin, task, windows, windowS) {
  const { context, page, problems } = await openContext(browser);
  const how = TRAINING[task];
  try {
    await recordCreates(context);
    await how.open(page, origin);
    await page.evaluate((selector) => {
      const w = /** @type {any} */ (window);
      const section = document.querySelector(selector);
      w.__probe.steps = [];
      new MutationObserver(() => w.__probe.steps.push([performance.now(), Number(section.dataset.step)])).observe(section, { attributes: true, attributeFilter: ['data-step'] });
    }, how.section);
    const playedAt = await page.evaluate(() => performance.now());
    await how.warmUp(page);
    await checkConfig(page, task);
    const timedFrom = await page.evaluate(() => performance.now());
    // the main thread's busy time (its tasks' CPU time, Chrome's own metric) while playing on
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const taskSeconds = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
    const busy0 = await taskSeconds();
    const wall0 = performance.now();
    await page.waitForTimeout(windows * windowS * 1000 + 500);
    const mainThreadBusy = (await taskSeconds() - busy0) / ((performance.now() - wall0) / 1000);
    await page.click(`[data-testid="${how.pause}"]`);
    const { steps, longTasks } = await page.evaluate(() => window.__probe);
    if (problems.length) throw new Error(`training ${task} reported errors: ${problems.join('; ')}`);
    // consecutive windows of equal numbers of redraws, each timed from its first to its last redraw
    const timed = steps.filter(([t], i) => t >= timedFrom && (i === 0 || steps[i - 1][1] !== steps[i][1]));
    if (timed.length < windows + 1) throw new Error(`training ${task}: ${timed.length} redraws in ${windows * windowS} s, need ${windows + 1} (lower translate_speed)`);
    const rates = [];
    for (let w = 0; w < windows; w++) {
      const [ta, sa] = timed[Math.round((w * (timed.length - 1)) / windows)];
      const [tb, sb] = timed[Math.round(((w + 1) * (timed.length - 1)) / windows)];
      rates.push((sb - sa) / ((tb - ta) / 1000));
    }
    const training = longTasks.filter((t) => t.start >= playedAt);
    return {
      rates,
      main_thread_busy: mainThreadBusy,
      longest_task_ms: training.reduce((a, t) => Math.max(a, t.duration), 0),
      long_tasks: training.length,
      training_s: (steps[steps.length - 1][0] - playedAt) / 1000,
    };
  } finally {
    await context.close();
  }
}

/** Steps per second of the same config in Node (one train(block) call per sample, after a warm-up). */
export function nodeStepsPerSecond(lab, task) {
  const block = task === 'note' ? 200 : 20;
  const model = lab.createSeq2Seq(APP_CONFIGS[task]);
  try {
    model.train(RECIPE_STEPS[task]);
    const samples = [];
    for (let r = 0; r < 9; r++) {
      const t0 = performance.now();
      model.train(block);
      samples.push((performance.now() - t0) / 1000 / block);
    }
    return stats(samples);
  } finally {
    model.delete();
  }
}

// seconds per step (median, spread) from steps-per-second samples
const perStep = (rates) => stats(rates.map((r) => 1 / r));
const kib = (n) => `${fmt(n / 1024, 1)} KiB`;

export async function browserPart(lab, { loads = 7, trainRuns = 3, windows = 5, windowS = 2 } = {}) {
  if (!existsSync(CHROMIUM)) {
    const skipped = `${CHROMIUM} not found (apt-get install chromium)`;
    console.log(`\n### Browser\n\nSkipped: ${skipped}.`);
    return { skipped };
  }
  if (!existsSync(`${distDir}/index.html`)) throw new Error(`${distDir}/index.html is missing: npm run build:web first`);
  const server = await startPreview({ port: 0, strictPort: true, logLevel: 'error' });
  const origin = new URL(server.url).origin;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS, timeout: 30_000 });
  try {
    const chromiumVersion = browser.version();
    await loadApp(browser, origin); // warm-up: the server's and the OS's file caches
    const appLoads = [];
    for (let i = 0; i < 3; i++) appLoads.push(await loadApp(browser, origin));
    const appGzip = appLoads.map((l) => l.gzip);
    const app = { ...appLoads[appLoads.length - 1], gzip_min: Math.min(...appGzip), gzip_max: Math.max(...appGzip) };
    // the pages in turn, load after load, so that a noisy moment falls on every one alike
    const heatmapSamples = FIRST_HEATMAP.map(() => []);
    for (let i = 0; i < loads; i++) {
      for (const [k, target] of FIRST_HEATMAP.entries()) heatmapSamples[k].push((await firstHeatmapMs(browser, origin, target)) / 1000);
    }
    const firstHeatmap = FIRST_HEATMAP.map((target, k) => ({ page: target.label, path: target.path, ...stats(heatmapSamples[k]) }));

    const widgets = [];
    for (const w of ONE_WIDGET_PAGES) widgets.push({ page: w.label, path: w.path, ...(await loadWidgetPage(browser, origin, w)) });

    const training = {};
    for (const task of Object.keys(TRAINING)) {
      const runs = [];
      for (let r = 0; r < trainRuns; r++) runs.push(await trainInPage(browser, origin, task, windows, windowS));
      const rates = runs.flatMap((r) => r.rates);
      const browserStep = perStep(rates);
      const nodeStep = nodeStepsPerSecond(lab, task);
      const longest = runs.map((r) => r.longest_task_ms);
      training[task] = {
        config: APP_CONFIGS[task],
        translate_speed: TRAINING[task].stepsPerFrame,
        browser_step: browserStep,
        browser_steps_per_s: 1 / browserStep.median_s,
        node_step: nodeStep,
        node_steps_per_s: 1 / nodeStep.median_s,
        browser_vs_node: nodeStep.median_s / browserStep.median_s,
        longest_task_ms: { median: stats(longest).median_s, max: Math.max(...longest), runs: longest },
        main_thread_busy: runs.map((r) => Number(r.main_thread_busy.toFixed(3))),
        long_tasks_over_50ms: runs.map((r) => r.long_tasks),
        seconds_per_run: runs.map((r) => Number(r.training_s.toFixed(1))),
      };
    }

    table('Browser: navigation → first heatmap drawn',
      `Chromium ${chromiumVersion}, vite preview over dist/ (CSP header), a fresh context per load (empty cache); ${loads} loads of each page, the pages in turn, after a warm-up. The first frame in which a heatmap's canvas has ink; the floor page fills a canvas from its one script.`,
      ['page', 'ms (median ± spread)'],
      firstHeatmap.map((h) => [h.page, `${fmt(h.median_s * 1000, 0)} ± ${spread(h)}`]));
    table('Browser: the app\'s download',
      'Every response body of the page and its worker until every section is mounted and the network is idle, gzip -9 each, summed.',
      ['measure', 'value'],
      [[`app download, gzip (${app.responses} responses)`, `${kib(app.gzip)} (raw ${kib(app.raw)})${app.gzip_min !== app.gzip_max ? `, varied ${app.gzip_min}–${app.gzip_max} B` : ''}`]]);
    table('Browser: download of a page with one widget',
      'Everything the page fetches until the widget is ready and the network is idle, gzip -9 per response.',
      ['page', 'responses', 'gzip', 'raw'],
      widgets.map((w) => [`\`${w.page}\``, String(w.responses), kib(w.gzip), kib(w.raw)]));
    table('Browser: training in the worker while a section trains (§3.3 plays, §4 trains)',
      `Steps/s from the section's step counter after a warm-up (§3.3: one recipe; §4: ${RECIPE_STEPS.transformer} steps): ${trainRuns} page loads × ${windows} windows of ${windowS} s, median ± spread. Node: the same config, train(n) calls on the wasm build in this run. Main thread busy: its tasks' time over the timed seconds (Chrome's TaskDuration metric; per load). Long tasks: main thread, > 50 ms, from the first Play or Train click (the longest of all runs, each run's in brackets; counts per run).`,
      ['task', 'config', 'browser steps/s', 'Node wasm steps/s', 'browser / Node', 'main thread busy', 'longest main-thread task (ms)', 'tasks > 50 ms'],
      Object.keys(TRAINING).map((task) => {
        const t = training[task];
        const c = t.config;
        const model = c.arch === 'transformer'
          ? `§4 Transformer (${c.task}) ${c.layers} layer, ${c.heads} heads, d ${c.dModel}, batch ${c.batchSize}`
          : `${c.cell.toUpperCase()} ${c.hidden}, batch ${c.batchSize ?? 1}, speed ${t.translate_speed}/frame`;
        return [task, model,
          `${fmt(t.browser_steps_per_s, 0)} ± ${spread(t.browser_step)}`, `${fmt(t.node_steps_per_s, 0)} ± ${spread(t.node_step)}`,
          fmt(t.browser_vs_node, 2), t.main_thread_busy.map((b) => `${fmt(100 * b, 0)}%`).join(', '), `${fmt(t.longest_task_ms.max, 0)} (${t.longest_task_ms.runs.map((ms) => fmt(ms, 0)).join(', ')})`, t.long_tasks_over_50ms.join(', ')];
      }));
    return { chromium: chromiumVersion, loads, first_heatmap: firstHeatmap, app, widgets, training };
  } finally {
    await browser.close();
    await server.close();
  }
}
