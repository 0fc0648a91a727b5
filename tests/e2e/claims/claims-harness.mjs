// Shared by the claim tests (registry.mjs): claim(id, body) runs body once in English and once
// in Chinese, each a test named by the claim; the page's strings come from the same tables the
// build uses (Vite's SSR loader), so a test checks the sentence the reader sees.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWeb } from '../../web/setup.mjs';
import { switchLanguage } from '../harness.mjs';
import { CLAIMS } from './registry.mjs';

export const LANGS = /** @type {const} */ (['en', 'zh']);

const { translator } = await loadWeb('i18n');
const tables = [];
for (const file of ['i18n', 'sections/why-strings', 'sections/idea-strings', 'sections/dot-strings', 'sections/self-strings', 'sections/multihead-strings', 'sections/translate-strings', 'sections/transformer-strings', 'sections/gpt-strings']) {
  for (const value of Object.values(await loadWeb(file))) if (value && typeof value === 'object' && value.en && value.zh) tables.push(value);
}

/** The text of `key` in `lang`. */
export function text(lang, key) {
  return translator(lang, ...tables)(key);
}

/** Fills {name} placeholders as the page does. */
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
}

/**
 * One test per language for the registered claim `id`. `todo`: a language in which the page does
 * not yet do what the sentence says, and why (the test still runs and reports, without failing).
 */
export function claim(id, body, { todo = {}, ...options } = {}) {
  const entry = CLAIMS.find((c) => c.id === id);
  if (!entry) throw new Error(`claim ${id} is not in tests/e2e/claims/registry.mjs`);
  for (const lang of LANGS) test(`${id} [${lang}]: ${entry.what}`, { ...options, todo: todo[lang] }, () => body(lang));
}

/**
 * Several claims that share one expensive page (a trained model), language by language: every
 * claim in English, then every claim in Chinese, so that the page trains once per language.
 */
export function claimsByLanguage(entries) {
  for (const lang of LANGS) {
    for (const [id, body] of entries) {
      const entry = CLAIMS.find((c) => c.id === id);
      if (!entry) throw new Error(`claim ${id} is not in tests/e2e/claims/registry.mjs`);
      test(`${id} [${lang}]: ${entry.what}`, () => body(lang));
    }
  }
}

/**
 * The page of the run `key`, trained once for both languages. The first language to ask loads the
 * page in that language and trains it (`train(lang)`); the other presses the page's language button
 * instead: the trained models carry over the re-mount (lang-keep.test.mjs), so each language reads
 * the same model's outcome in its own words, and `ready()` waits for the re-mounted section (its
 * root: `root`) to show it. Training is the same computation in either language (seeded, its
 * numbers computed in the worker), and one run instead of two halves the claim's time. A page
 * reloaded since (another claim's) trains anew.
 */
export async function trainedOnce(page, key, lang, { root, train, ready }) {
  const held = await page.evaluate(() => /** @type {any} */ (window).claimRun);
  if (held === key) {
    if (!(await page.evaluate((l) => document.documentElement.lang.startsWith(l), lang))) {
      await switchLanguage(page, lang, root);
      await ready();
    }
    return;
  }
  await train(lang);
  await page.evaluate((k) => Object.assign(window, { claimRun: k }), key);
}

/**
 * §5: sets the sampling panel's Temperature (open) to `t`, starts the generation again and takes
 * one step; the candidates' "drawn with" row (their probabilities after temperature, top-k, top-p).
 */
export async function drawnWithAt(page, lang, t) {
  const temperature = fieldControl(page, text(lang, 'gpt.field.temperature'));
  await temperature.fill(String(t));
  await temperature.press('Enter');
  await page.waitForFunction((v) => location.hash.includes(`gpt_temperature=${v}`) || (v === 0.8 && !location.hash.includes('gpt_temperature')), t);
  await page.click('[data-testid=gpt-restart]');
  await page.click('[data-testid=gpt-next]');
  await page.waitForFunction(() => document.querySelector('.gpt-generate')?.dataset.generated === '1');
  return row(await heatmap(page, 'gpt-candidates'), 1);
}

/** The section's "Try this" box shows the prompt `key` in `lang`, word for word. */
export async function assertPrompt(page, lang, key) {
  const prompts = await page.locator('[data-testid=try-this] li').allTextContents();
  assert.ok(prompts.includes(text(lang, key)), `${key} is not among the prompts shown: ${JSON.stringify(prompts)}`);
}

/** The values a Heatmap last drew: {shape: [rows, cols], values}. */
export function heatmap(page, id) {
  return page.evaluate((figId) => {
    const out = document.querySelector(`#${figId} output.heatmap-data`);
    if (!(out instanceof HTMLOutputElement)) throw new Error(`no heatmap output in #${figId}`);
    return { shape: (out.dataset.shape ?? '').split(',').map(Number), values: JSON.parse(out.value) };
  }, id);
}

/** Row r of a heatmap read by heatmap(). */
export function row(map, r) {
  const cols = map.shape[1];
  return map.values.slice(r * cols, (r + 1) * cols);
}

export const argmax = (xs) => xs.reduce((best, x, i) => (x > xs[best] ? i : best), 0);

/** The control of the field labelled `label` (the field's own label text, word for word). */
export function fieldControl(page, label) {
  return page.locator('label.al-field', { has: page.locator('.al-field-label', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) }).locator('input, select').first();
}

/**
 * A section that counts its computations in data-compute-count on `root`: open(lang) loads it
 * alone in `lang` and waits for the first; after(change) runs `change` and waits for the next.
 * `env()` gives the current {site, page} (useSite fills them in before the tests).
 */
export function countedSection(env, view, root) {
  const counted = (n) => env().page.waitForFunction(([s, k]) => Number(document.querySelector(s)?.dataset.computeCount ?? 0) > k, [root, n]);
  return {
    async open(lang) {
      await env().site.load(`#view=${view}&lang=${lang}`);
      await counted(0);
    },
    async after(change) {
      const before = await env().page.evaluate((s) => Number(document.querySelector(s)?.dataset.computeCount ?? 0), root);
      await change();
      await counted(before);
    },
  };
}
