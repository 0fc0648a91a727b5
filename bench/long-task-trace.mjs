// What the long tasks while training are made of: Chromium traces the page from navigation through
// the Play click of the translate section (clicked as soon as it can be, as the bench does), its
// recipe and `seconds` more of playing on. For every main-thread task over 50 ms after the click it
// prints its wall time, the main thread's CPU time in it (the trace's thread clock), and its
// biggest parts (script, style and layout, paint, the commit to the compositor, GC). A task whose
// CPU time is far below its wall time waited for a core: on 2 cores the training worker holds one.
//
//   npm run build:web && node bench/long-task-trace.mjs note|dates [loads] [seconds]
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, LAUNCH_ARGS } from '../tests/e2e/harness.mjs';
import { startPreview } from '../scripts/serve.mjs';
import { openTrainingPage, playRecipe, TRAIN_HASH } from './lib/browser.mjs';
import { table } from './lib/common.mjs';
import { loadsArgument } from './lib/site-ab.mjs';

const [task, loadsArg, secondsArg] = process.argv.slice(2);
if (!TRAIN_HASH[task]) throw new Error('usage: node bench/long-task-trace.mjs note|dates [loads] [seconds]');
const loads = loadsArgument(loadsArg, 5);
const seconds = Number(secondsArg ?? 5);
if (!(seconds >= 0 && seconds <= 120)) throw new Error('seconds: from 0 to 120');

/** the parts a task is reported by: trace event names → a part */
const PARTS = [
  ['script', /^(FunctionCall|EvaluateScript|v8\.evaluateModule|RunMicrotasks|TimerFire|FireAnimationFrame|FireIdleCallback|EventDispatch|HandlePostMessage)$/],
  ['style, layout', /^(UpdateLayoutTree|Layout|PrePaint|IntersectionObserverController::computeIntersections)$/],
  ['paint', /^(Paint|PaintImage|Layerize|RasterTask)$/],
  ['commit', /^Commit$/],
  ['GC', /^(MinorGC|MajorGC)$/],
];
const TRACE = join(tmpdir(), `long-task-trace-${process.pid}.json`);

async function traceOne(browser, origin) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    await browser.startTracing(page, { path: TRACE, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink.user_timing'] });
    await openTrainingPage(page, origin, task);
    await page.evaluate(() => performance.mark('bench-play'));
    await playRecipe(page, task);
    await page.click('[data-testid="s2s-play"]');
    await page.waitForTimeout(seconds * 1000);
    await page.click('[data-testid="s2s-pause"]');
    await browser.stopTracing();
  } finally {
    await context.close();
  }
  const events = JSON.parse(readFileSync(TRACE, 'utf8')).traceEvents;
  rmSync(TRACE, { force: true });
  const threadName = new Map();
  for (const e of events) if (e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, e.args.name);
  const played = events.find((e) => e.name === 'bench-play');
  const main = events.filter((e) => e.ph === 'X' && e.pid === played.pid && threadName.get(`${e.pid}:${e.tid}`) === 'CrRendererMain');
  const tasks = main.filter((e) => e.name === 'RunTask' && e.dur > 50_000 && e.ts >= played.ts);
  return tasks.map((t) => {
    const inside = main.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur);
    // each part: the time of its outermost events (a Layout inside a FunctionCall counts as script)
    const parts = {};
    let coveredUntil = -1;
    for (const e of inside.sort((a, b) => a.ts - b.ts || b.dur - a.dur)) {
      if (e.ts < coveredUntil) continue;
      const part = PARTS.find(([, re]) => re.test(e.name))?.[0];
      if (!part) continue;
      parts[part] = (parts[part] ?? 0) + e.dur / 1000;
      coveredUntil = e.ts + e.dur;
    }
    return { at: (t.ts - played.ts) / 1000, wall: t.dur / 1000, cpu: (t.tdur ?? NaN) / 1000, parts };
  });
}

const server = await startPreview({ port: 0, strictPort: true, logLevel: 'error' });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
const rows = [];
try {
  for (let i = 0; i < loads; i++) {
    const tasks = await traceOne(browser, new URL(server.url).origin);
    if (!tasks.length) rows.push([String(i + 1), '–', '', '', '']);
    for (const t of tasks) {
      const parts = Object.entries(t.parts).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ');
      rows.push([String(i + 1), String(Math.round(t.at)), String(Math.round(t.wall)), String(Math.round(t.cpu)), parts]);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
table(`Long tasks (> 50 ms) while ${task} trains, traced (${loads} loads; the recipe, then ${seconds} s)`,
  'Chromium’s trace of the page’s main thread (tracing itself slows the page). CPU: the thread’s own clock over the task; parts: wall ms of the outermost trace events of each kind.',
  ['load', 'ms after the click', 'wall ms', 'CPU ms', 'parts (wall ms)'], rows);
