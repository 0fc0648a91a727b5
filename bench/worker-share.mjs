// Where a core goes while §3.3 trains in the page (the diagnostic behind the bench's "page ÷ Node"):
// the same model trained three ways, one after another in this process:
//   Node:       train(n) calls on the wasm build (what the bench compares with);
//   idle page:  the app's worker in a page with no section, streaming train calls (the worker's own
//               speed in Chromium, with nothing drawn);
//   app page:   the translate section playing, as the bench times it.
// For the two pages: steps/s from the worker's progress messages, the worker's speed inside its
// slices (its own clock), and the CPU each Chromium thread and process used over the window, as a
// share of one core (from /proc: Linux only).
//
//   npm run build:web && node bench/worker-share.mjs note|dates [seconds]
import { readdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM, LAUNCH_ARGS } from '../tests/e2e/harness.mjs';
import { openProbedContext } from '../scripts/page-probe.mjs';
import { distDir, startPreview } from '../scripts/serve.mjs';
import { loadAttentionLab } from '../wasm/js/attention-lab.mjs';
import { APP_CONFIGS, RECIPE_STEPS, nodeStepsPerSecond, openTrainingPage, playRecipe } from './lib/browser.mjs';
import { fmt, table } from './lib/common.mjs';

const [task = 'dates', secondsArg = '6'] = process.argv.slice(2);
const seconds = Number(secondsArg);
if (!['note', 'dates'].includes(task) || !(seconds >= 1 && seconds <= 120)) {
  throw new Error('usage: node bench/worker-share.mjs note|dates [seconds from 1 to 120]');
}
const CLOCK_TICKS = 100; // USER_HZ: /proc's CPU times are in 1/100 s

/** CPU ticks so far of every Chromium process (by its --type) and of each renderer thread (by name). */
function chromiumTicks() {
  const ticks = new Map();
  const add = (key, stat) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks.set(key, (ticks.get(key) ?? 0) + Number(fields[11]) + Number(fields[12])); // utime + stime
  };
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('chromium')) continue;
      const type = /--type=([\w-]+)/.exec(cmd)?.[1] ?? 'browser';
      add(`process: ${type}`, readFileSync(`/proc/${pid}/stat`, 'utf8'));
      if (type !== 'renderer') continue;
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = /\((.*)\)/.exec(stat)[1];
        add(`  renderer thread: ${name === 'chromium' ? 'main' : name}`, stat); // the main thread keeps the program's name
      }
    } catch {
      // a process that ended meanwhile
    }
  }
  return ticks;
}

/** The share of one core each key used between two chromiumTicks() readings, over `s` seconds. */
function shares(before, after, s) {
  return [...after].map(([key, t]) => [key, (t - (before.get(key) ?? 0)) / CLOCK_TICKS / s]).filter(([, share]) => share >= 0.005);
}

/** Steps/s of `task` in Node: the bench's own measure (median of 9 train() calls after the recipe's steps). */
const nodeRate = (lab) => 1 / nodeStepsPerSecond(lab, task).median_s;

/** Records the worker's progress messages: [time, steps, ms the worker spent training them]. */
const recordProgress = () => {
  const Base = window.Worker;
  window.__progress = [];
  window.Worker = class extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        const [slice, ms] = e.data?.progress ?? [];
        if (slice?.losses) window.__progress.push([performance.now(), slice.losses.length, ms]);
      });
    }
  };
};

/** Trains for `seconds` once `start(page)` has the worker streaming; returns rates and CPU shares. */
async function timedWindow(page, start) {
  await start(page);
  await page.waitForTimeout(1000);
  await page.evaluate(() => (window.__progress.length = 0));
  const before = chromiumTicks();
  await page.waitForTimeout(seconds * 1000);
  const after = chromiumTicks();
  const progress = await page.evaluate(() => window.__progress);
  if (progress.length < 3) throw new Error(`${task}: ${progress.length} progress messages in ${seconds} s`);
  const timed = progress.slice(1);
  const steps = timed.reduce((a, p) => a + p[1], 0);
  const wall = (progress[progress.length - 1][0] - progress[0][0]) / 1000;
  const inSlices = timed.reduce((a, p) => a + p[2], 0) / 1000;
  return { perSecond: steps / wall, inSlices: steps / inSlices, cpu: shares(before, after, seconds) };
}

const lab = await loadAttentionLab();
const server = await startPreview({ port: 0, strictPort: true, logLevel: 'error' });
const origin = new URL(server.url).origin;
const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
const results = {};
try {
  const node = [nodeRate(lab)];
  const workerFile = readdirSync(`${distDir}/assets`).find((f) => f.startsWith('lab-worker'));
  {
    const context = await browser.newContext();
    await context.addInitScript(recordProgress);
    const page = await context.newPage();
    await page.goto(`${origin}/examples/test-one-heatmap.html`);
    results.idle = await timedWindow(page, (p) =>
      p.evaluate(
        async ({ url, config, warm }) => {
          const worker = new Worker(url, { type: 'module', name: 'attention-lab:full' });
          let next = 1;
          const waiting = new Map();
          worker.addEventListener('message', (e) => waiting.get(e.data.id)?.(e.data));
          // `progress`: the index of the argument that stands for the page's progress callback
          const call = (method, args, progress) => new Promise((resolve) => {
            const id = next++;
            waiting.set(id, resolve);
            worker.postMessage({ id, method, args, progress });
          });
          const made = await call('seq2seq.create', [config]);
          if (!made.ok) throw new Error(made.error?.message);
          await call('seq2seq.train', [made.result.model, warm]);
          void call('seq2seq.trainStream', [made.result.model, 10_000_000, {}, null], 3);
        },
        { url: `/assets/${workerFile}`, config: APP_CONFIGS[task], warm: RECIPE_STEPS[task] },
      ),
    );
    await context.close();
  }
  {
    const { context } = await openProbedContext(browser);
    await context.addInitScript(recordProgress);
    const page = await context.newPage();
    await openTrainingPage(page, origin, task);
    results.app = await timedWindow(page, async (p) => {
      await playRecipe(p, task);
      await p.click('[data-testid="s2s-play"]');
    });
    await context.close();
  }
  node.push(nodeRate(lab));
  const nodeMean = (node[0] + node[1]) / 2;
  table(`Where a core goes while ${task} trains (${seconds} s windows)`,
    `Node: the bench's train(n) samples, before and after the pages (${node.map((r) => fmt(r, 0)).join(', ')} steps/s). Steps/s from the worker's progress messages; "in its slices": over the time the worker reports training. CPU: share of one core over the window.`,
    ['', 'idle page (worker only)', 'app page (§3.3 playing)'],
    [
      ['steps/s', fmt(results.idle.perSecond, 0), fmt(results.app.perSecond, 0)],
      ['÷ Node', fmt(results.idle.perSecond / nodeMean, 2), fmt(results.app.perSecond / nodeMean, 2)],
      ['steps/s in its slices', fmt(results.idle.inSlices, 0), fmt(results.app.inSlices, 0)],
      ...[...new Set([...results.idle.cpu, ...results.app.cpu].map(([k]) => k))].sort().map((key) => {
        const of = (r) => r.cpu.find(([k]) => k === key)?.[1];
        const pct = (v) => (v === undefined ? '–' : `${fmt(100 * v, 0)}%`);
        return [`CPU ${key}`, pct(of(results.idle)), pct(of(results.app))];
      }),
    ]);
} finally {
  await browser.close();
  await server.close();
}
