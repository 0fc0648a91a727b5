#!/usr/bin/env node
// Times asking why in the built page, in Chromium, as a reader meets it: from the click to the
// panel's text and markers updated (the worker's re-decode or attribution, the transfer, the
// table and lists rebuilt; the heatmaps then paint on the next animation frame).
// §3.3 on the book's recipe (RNN 128, dot attention, 400 steps): a forced attention, gradient ×
// input, integrated gradients (32 steps). §4 on dates after 300 steps (1 layer, 4 heads, d_model
// 32): a forced cross-attention and a zeroed head. Prints a markdown table of medians over RUNS
// clicks (each followed by a reset); not a test (tests never time anything).
//   npm run build:web && node scripts/measure-why-browser.mjs
import { startSite } from '../tests/e2e/harness.mjs';

const RUNS = 15;
const site = await startSite();
const { page } = site;

/** ms from clicking `click` to `attr` of `root` reading `value` (the panel's own marker). */
function timeClick(root, click, attr, value) {
  return page.evaluate(([r, c, a, v]) => new Promise((resolve) => {
    const el = document.querySelector(r);
    const t0 = performance.now();
    const obs = new MutationObserver(() => {
      if (el.getAttribute(a) !== v) return;
      obs.disconnect();
      resolve(performance.now() - t0);
    });
    obs.observe(el, { attributes: true, attributeFilter: [a] });
    document.querySelector(c).click();
  }), [root, click, attr, value]);
}

async function median(fn) {
  const times = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const ms = await fn();
    if (i >= 2) times.push(ms); // the first clicks warm up
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

const rows = [];
try {
  const WHY = '[data-testid=translate-why]';
  await site.load('#view=translate&seed=1&translate_speed=200&translate_task=note&translate_cell=rnn&translate_hidden=128&translate_lr=0.001');
  await page.waitForSelector('.translate-section .translate-vocab-word');
  await page.click('[data-testid=translate-play]');
  await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.modelStep === '400', null, { timeout: 300_000 });
  await page.waitForFunction((w) => document.querySelector(w)?.dataset.attribution === 'gradient-input', WHY);
  const force = await median(async () => {
    const ms = await timeClick(WHY, `${WHY} .translate-why-cell[data-step="1"][data-source="0"]`, 'data-interventions', '1');
    await timeClick(WHY, `${WHY} [data-testid=translate-why-reset]`, 'data-interventions', '0');
    return ms;
  });
  const gxi = [], ig = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const a = await timeClick(WHY, `${WHY} [data-testid=translate-why-ig]`, 'data-attribution', 'integrated-gradients');
    const b = await timeClick(WHY, `${WHY} [data-testid=translate-why-gxi]`, 'data-attribution', 'gradient-input');
    if (i >= 2) ig.push(a), gxi.push(b);
  }
  const mid = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  rows.push(['§3.3 note, RNN 128, dot, 3 → 4 tokens', force, '', mid(gxi), mid(ig)]);

  const TF = '[data-testid=transformer-why]';
  await site.load('#view=transformer&seed=1&transformer_steps=300');
  await page.waitForFunction(() => document.querySelector('.transformer-section')?.dataset.translatedAt !== undefined, null, { timeout: 60_000 });
  await page.click('[data-testid=transformer-train]');
  await page.waitForFunction(() => document.querySelector('.transformer-section')?.dataset.translatedAt === '300', null, { timeout: 300_000 });
  await page.waitForSelector(`${TF}:not([hidden])`);
  const tfForce = await median(async () => {
    const ms = await timeClick(TF, `${TF} .translate-why-cell[data-step="0"][data-source="0"]`, 'data-interventions', '1');
    await timeClick(TF, `${TF} [data-testid=transformer-why-reset]`, 'data-interventions', '0');
    return ms;
  });
  const tfZero = await median(async () => {
    const ms = await timeClick(TF, `${TF} [data-testid=transformer-why-zero]`, 'data-interventions', '1');
    await timeClick(TF, `${TF} [data-testid=transformer-why-reset]`, 'data-interventions', '0');
    return ms;
  });
  rows.push(['§4 dates, Transformer 1 layer × 4 heads, d_model 32, 12 → 11 tokens', tfForce, tfZero, '', '']);
} finally {
  await site.close();
}
const f = (v) => (typeof v === 'number' ? v.toFixed(1) : '—');
console.log(`Click to the panel updated in Chromium (ms, median of ${RUNS}):\n`);
console.log('| model | force attention | zero a head | gradient × input | integrated gradients (32) |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, ...v] of rows) console.log(`| ${name} | ${v.map(f).join(' | ')} |`);
