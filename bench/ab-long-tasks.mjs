// A/B of two builds of the site on the long-tasks measure (bench/lib/browser.mjs): main-thread
// tasks over 50 ms from the Play click of the translate section (clicked as soon as it can be, as
// the bench does) through its recipe and `seconds` more of playing on. Each build is served by its
// own `vite preview`, one Chromium, loads interleaved A, B, A, B, … so that both see the same
// moments of a noisy machine; prints every load's long tasks (start after the click, duration).
//
//   npx vite build --config web/vite.config.ts --outDir /tmp/site-before   (on the "before" tree)
//   npm run build:web                                                       (the "after" tree → dist/)
//   node bench/ab-long-tasks.mjs /tmp/site-before dist note|dates [loads] [seconds]
import { openProbedContext } from '../scripts/page-probe.mjs';
import { openTrainingPage, playRecipe, TRAIN_HASH } from './lib/browser.mjs';
import { table } from './lib/common.mjs';
import { interleavedLoads, loadsArgument } from './lib/site-ab.mjs';

const [distA, distB, task, loadsArg, secondsArg] = process.argv.slice(2);
if (!distA || !distB || !TRAIN_HASH[task]) throw new Error('usage: node bench/ab-long-tasks.mjs <before dist> <after dist> note|dates [loads] [seconds]');
const loads = loadsArgument(loadsArg, 7);
const seconds = Number(secondsArg ?? 5);
if (!(seconds >= 0 && seconds <= 600)) throw new Error('seconds: from 0 to 600');

/** One load: the long tasks (start after the click, duration), in ms. */
async function longTasks(browser, origin) {
  const { context } = await openProbedContext(browser);
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    await openTrainingPage(page, origin, task);
    const playedAt = await page.evaluate(() => performance.now());
    await playRecipe(page, task);
    await page.click('[data-testid="s2s-play"]');
    await page.waitForTimeout(seconds * 1000);
    await page.click('[data-testid="s2s-pause"]');
    const tasks = await page.evaluate(() => window.__probe.longTasks);
    return tasks.filter((t) => t.start >= playedAt).map((t) => [Math.round(t.start - playedAt), Math.round(t.duration)]);
  } finally {
    await context.close();
  }
}

const runs = await interleavedLoads(distA, distB, loads, longTasks);
const row = (name, r) => [
  name,
  r.map((tasks) => tasks.length).join(', '),
  String(Math.max(0, ...r.flat().map(([, d]) => d))),
  r.map((tasks) => tasks.map(([s, d]) => `${d}@${s}`).join(' ') || '–').join(' · '),
];
table(`A/B: long tasks (> 50 ms) while ${task} trains (${loads} loads each, interleaved; the recipe, then ${seconds} s)`, `A: ${distA}; B: ${distB}.`,
  ['build', 'tasks a load', 'longest ms', 'every load: duration@ms after the click'],
  [row('A (before)', runs[0]), row('B (after)', runs[1])]);
