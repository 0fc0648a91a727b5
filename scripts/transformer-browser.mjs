#!/usr/bin/env node
// §4's Transformer trained in the built page's Web Worker by Chromium, as a reader would: Train
// (and "Train them all" when a run over a minute asks), then the held-out exact match the section
// shows once the run has ended (500 held-out examples, greedy). "train s" is the worker's own time
// inside its training slices; the wall time runs from Train to the run's end (before scoring).
//
//   npx vite build --config web/vite.config.ts && node scripts/transformer-browser.mjs [--steps 2500] [--seed 1] [--task dates]
// The section's defaults: 1 layer, 4 heads, d_model 32, d_ff 64, pre-norm, peak lr 0.01 after 200
// warm-up steps, batch 32 (the recipe of node scripts/transformer-dates.mjs, which measures it in Node).
import { parseArgs } from 'node:util';
import { startSite } from '../tests/e2e/harness.mjs';

const { values: o } = parseArgs({
  options: { seed: { type: 'string', default: '1' }, steps: { type: 'string', default: '2500' }, task: { type: 'string', default: 'dates' } },
});
const steps = Number(o.steps);
const site = await startSite();
const { page } = site;
try {
  await site.load(`#view=transformer&seed=${o.seed}&transformer_task=${o.task}&transformer_steps=${steps}`);
  await page.waitForFunction(() => document.querySelector('.transformer-section')?.dataset.translatedAt !== undefined, null, { timeout: 60_000 });
  const t0 = Date.now();
  await page.click('[data-testid=transformer-train]');
  for (;;) {
    const s = await page.evaluate(() => ({ ...document.querySelector('.transformer-section').dataset, asking: document.querySelector('[data-testid=transformer-confirm]')?.hidden === false }));
    if (s.asking) await page.click('[data-testid=transformer-confirm-run]');
    else if (Number(s.step) >= steps && s.playing === '0') break;
    if (Date.now() - t0 > 900_000) throw new Error('the run did not finish within 15 minutes');
    await page.waitForTimeout(100);
  }
  const wall = (Date.now() - t0) / 1000;
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=transformer-status]')?.dataset.evaluatedAt) >= n, steps, { timeout: 120_000 });
  const status = await page.locator('[data-testid=transformer-status]').textContent();
  const estimate = await page.locator('[data-testid=transformer-estimate]').textContent();
  const version = await page.evaluate(() => navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? navigator.userAgent);
  console.log(`${o.task}, §4 defaults in the page's worker (${version}, headless), seed ${o.seed}, ${steps} steps: ${wall.toFixed(1)} s wall time from Train to the run's end`);
  console.log(status);
  console.log(estimate);
} finally {
  await site.close();
}
