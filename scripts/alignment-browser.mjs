#!/usr/bin/env node
// The §3.3 default recipe (zh-en, GRU 64, dot attention, lr 0.01, 800 steps) trained in the built
// page's Web Worker by Chromium, as a reader would: click Train, and read the held-out figures
// the section shows (alignment accuracy, exact match overall and by source length) for the
// attention model and its plain companion at every evaluation (every 200 steps). "train s" is the
// time the page spent waiting on the worker's train calls of that model; the two models train in
// turn in one worker, so the wall time covers both.
//
//   npx vite build --config web/vite.config.ts && node scripts/alignment-browser.mjs [--seed 1]
// The node-wasm figures of the same recipe, for the worker/Node ratio: node scripts/alignment.mjs
import { parseArgs } from 'node:util';
import { startSite } from '../tests/e2e/harness.mjs';

const { values: o } = parseArgs({ options: { seed: { type: 'string', default: '1' }, steps: { type: 'string', default: '800' } } });
const steps = Number(o.steps);
const site = await startSite();
const { page } = site;
try {
  await site.load(`#view=translate&seed=${o.seed}&translate_speed=50`);
  await page.waitForSelector('#section-translate .translate-vocab-word');
  const rows = [];
  const seen = new Set();
  const t0 = Date.now();
  await page.click('[data-testid=translate-play]');
  for (;;) {
    const figures = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid=translate-compare] tr[data-model]')].map((tr) => (tr.dataset.evaluation ? { model: tr.dataset.model, ...JSON.parse(tr.dataset.evaluation) } : null)),
    );
    for (const f of figures) {
      if (!f || seen.has(`${f.model}@${f.step}`)) continue;
      seen.add(`${f.model}@${f.step}`);
      rows.push(f);
    }
    if (figures.length === 2 && figures.every((f) => f?.step === steps)) break;
    if (Date.now() - t0 > 600_000) throw new Error('the recipe did not finish within 10 minutes');
    await page.waitForTimeout(100);
  }
  const wall = (Date.now() - t0) / 1000;
  const version = await page.evaluate(() => navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent);
  const pct = (x) => (x == null ? '—' : `${(100 * x).toFixed(1)}%`);
  const buckets = rows[0].exactMatchByLength;
  const header = ['model', 'steps', 'train s', 'alignment', 'exact match', ...buckets.map((b) => `EM ${b.minLength}–${b.maxLength} (${b.examples})`)];
  const table = rows
    .sort((a, b) => a.step - b.step || a.model.localeCompare(b.model))
    .map((r) => [r.model, r.step, (r.trainMs / 1000).toFixed(1), pct(r.alignmentAccuracy), pct(r.exactMatch), ...r.exactMatchByLength.map((b) => pct(b.exactMatch))]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => String(r[i]).length)));
  const line = (r) => `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  console.log(`zh-en, §3.3 default recipe in the page's worker (${version}, headless), seed ${o.seed}; ${rows[0].examples} held-out sentences; ${wall.toFixed(1)} s wall time from Train to both models scored at step ${steps}`);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of table) console.log(line(r));
} finally {
  await site.close();
}
