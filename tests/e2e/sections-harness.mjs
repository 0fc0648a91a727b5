// Shared set-up of the dot / self / multihead e2e tests: a vite preview of a built site (dist/, or
// ATTENTION_LAB_DIST=<outDir>) with the strict CSP header, Debian's Chromium, and the shell harness's
// ProblemCollector (console errors, page errors, failed requests, HTTP errors, other hosts, dialogs)
// that each test asserts empty; plus readers for the sections' numbers.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startPreview } from '../../scripts/serve.mjs';
import { artifactsDir as artifacts, CHROMIUM, distDir as dist, LAUNCH_ARGS, ProblemCollector } from './harness.mjs';

/** `view`: the section id; every load shows only that section (#view=<id>&…). */
export function openSections(view) {
  const env = {
    /** @type {import('playwright-core').Page} */
    page: undefined,
    problems: new ProblemCollector(),
    baseUrl: '',
  };
  let server;
  let browser;
  let context;

  env.start = async () => {
    if (!existsSync(`${dist}/index.html`)) throw new Error(`${dist}/index.html is missing: build the site first`);
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install -y chromium`);
    server = await startPreview({ port: 0, strictPort: true, logLevel: 'error', dist });
    env.baseUrl = server.url.replace(/\/$/, '');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS, timeout: 30_000 });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    env.problems.attach(page, new URL(env.baseUrl).origin);
    env.page = page;
  };

  env.stop = async () => {
    try {
      await context?.close();
      await browser?.close();
    } finally {
      await server?.close();
    }
  };

  /** Asserts (and clears) that nothing went wrong since the last check. */
  env.assertNoProblems = () => env.problems.assertNone();

  /** A fresh load of the sections page at `hash`; waits for `rootSelector` to report a computation. */
  env.load = async (hash, rootSelector) => {
    // Requests the old page had in flight are aborted by leaving it: no fault. Its favicon request
    // may even start while about:blank loads, so the epoch moves on both before and after.
    env.problems.nextPage();
    await env.page.goto('about:blank');
    env.problems.nextPage();
    const rest = hash.replace(/^#/, '');
    await env.page.goto(`${env.baseUrl}/#view=${view}${rest ? `&${rest}` : ''}`, { waitUntil: 'load' });
    if (rootSelector) await env.page.waitForSelector(`${rootSelector}[data-state]`, { state: 'attached' });
  };

  /** Waits until the section at `rootSelector` finished more computations than `after`. */
  env.waitComputed = (rootSelector, after = 0) =>
    env.page.waitForFunction(
      ([sel, n]) => Number(document.querySelector(sel)?.getAttribute('data-compute-count') ?? 0) > n,
      [rootSelector, after],
    );

  env.computeCount = (rootSelector) =>
    env.page.evaluate((sel) => Number(document.querySelector(sel)?.getAttribute('data-compute-count') ?? 0), rootSelector);

  /** The values a Heatmap last drew (its hidden <output>): {shape: [rows, cols], values}. */
  env.heatmap = (id) =>
    env.page.evaluate((figId) => {
      const out = document.querySelector(`#${figId} output.heatmap-data`);
      if (!(out instanceof HTMLOutputElement)) throw new Error(`no heatmap output in #${figId}`);
      return { shape: (out.dataset.shape ?? '').split(',').map(Number), values: JSON.parse(out.value) };
    }, id);

  /**
   * The section in Chinese shows Chinese text and no untranslated key (e.g. "dot.map.scores"), and at
   * phone width (390 px) the page does not scroll sideways. Screenshots of both.
   */
  env.checkChineseAndPhone = async (rootSelector, keyPrefix, name) => {
    await env.load('#lang=zh', rootSelector);
    await env.waitComputed(rootSelector);
    const text = (await env.page.locator(rootSelector).innerText()) ?? '';
    assert.match(text, /注意力|权重/);
    assert.doesNotMatch(text, new RegExp(`\\b${keyPrefix}\\.[a-z]`), 'an untranslated string key is visible');
    await env.screenshot(`${name}-zh`, rootSelector);
    await env.page.setViewportSize({ width: 390, height: 844 });
    try {
      await env.load('', rootSelector);
      await env.waitComputed(rootSelector);
      await env.page.waitForTimeout(200); // let charts settle to the new width
      const overflow = await env.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page scrolls sideways at 390px by ${overflow}px`);
      await env.screenshot(`${name}-390`);
    } finally {
      await env.page.setViewportSize({ width: 1280, height: 900 });
    }
  };

  env.screenshot = async (name, selector) => {
    mkdirSync(artifacts, { recursive: true });
    const target = selector ? env.page.locator(selector).first() : env.page;
    await target.screenshot({ path: `${artifacts}${name}.png`, ...(selector ? {} : { fullPage: true }) });
  };

  return env;
}

/** |a − e| ≤ rtol·(|e| + max|e|) + atol elementwise (the project's tolerance rule). */
export function assertClose(actual, expected, message, rtol = 1e-5, atol = 1e-6) {
  assert.equal(actual.length, expected.length, `${message}: length`);
  const scale = Math.max(0, ...expected.map(Math.abs));
  for (let i = 0; i < expected.length; i++) {
    const bound = rtol * (Math.abs(expected[i]) + scale) + atol;
    assert.ok(Math.abs(actual[i] - expected[i]) <= bound, `${message}[${i}]: ${actual[i]} vs ${expected[i]}`);
  }
}

export function assertRowsSumToOne(values, rows, cols, message) {
  assert.equal(values.length, rows * cols, `${message}: size`);
  for (let r = 0; r < rows; r++) {
    const row = values.slice(r * cols, (r + 1) * cols);
    assert.ok(row.every((w) => w >= 0 && w <= 1), `${message}: row ${r} has weights outside [0, 1]`);
    const sum = row.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-5, `${message}: row ${r} sums to ${sum}`);
  }
}
