// Shared set-up of the dot / self / multihead e2e tests: a vite preview of a built site (dist/, or
// ATTENTION_LAB_DIST=<outDir>) with the strict CSP header, Debian's Chromium, and the shell harness's
// ProblemCollector (console errors, page errors, failed requests, HTTP errors, other hosts, dialogs)
// that each test asserts empty; plus readers for the sections' numbers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distDir as dist, startSite } from './harness.mjs';

/** `view`: the section id; every load shows only that section (#view=<id>&…). */
export function openSections(view) {
  const env = {
    /** @type {import('playwright-core').Page} */
    page: undefined,
    /** @type {import('./harness.mjs').ProblemCollector} */
    problems: undefined,
  };
  /** @type {Awaited<ReturnType<typeof startSite>> | undefined} */
  let site;

  env.start = async () => {
    site = await startSite({ dist });
    env.page = site.page;
    env.problems = site.problems;
  };

  env.stop = async () => site?.close();

  /** Asserts (and clears) that nothing went wrong since the last check. */
  env.assertNoProblems = () => env.problems.assertNone();

  /** A fresh load of the sections page at `hash`; waits for `rootSelector` to report a computation. */
  env.load = async (hash, rootSelector) => {
    const rest = hash.replace(/^#/, '');
    await site.load(`#view=${view}${rest ? `&${rest}` : ''}`);
    if (rootSelector) await env.page.waitForSelector(`${rootSelector}[data-state]`, { state: 'attached' });
  };

  /** A fresh load at `hash` whose computation finished without an error. */
  env.loadOk = async (hash, rootSelector) => {
    await env.load(hash, rootSelector);
    await env.waitComputed(rootSelector);
    assert.equal(await env.page.getAttribute(rootSelector, 'data-state'), 'ok');
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

  env.screenshot = (name, selector) =>
    site.screenshot(name, selector ? { target: env.page.locator(selector).first() } : {});

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

/**
 * §3.4's and §3.6's sentence box, in both languages: "我爱我" (no spaces) is one word, and the spaced
 * form is offered; its button uses it. `prefix`: the section's (self, multihead); `map`: a token × token map.
 */
export function splitHintTests(env, root, prefix, map) {
  for (const [lang, said] of [
    ['en', 'Separate words with spaces: did you mean “我 爱 我”?'],
    ['zh', '单词之间要用空格分开：你是想输入“我 爱 我”吗？'],
  ]) {
    test(`(${lang}) a sentence typed without spaces ("我爱我") is one word, and the spaced form is offered; its button uses it`, async () => {
      await env.loadOk(`#seed=1&lang=${lang}&${prefix}_text=${encodeURIComponent('我爱我')}`, root);
      assert.deepEqual((await env.heatmap(map)).shape.slice(0, 1), [1]);
      const message = env.page.locator(`${root} .${prefix}-message`);
      assert.ok((await message.textContent()).includes(said), await message.textContent());
      const count = await env.computeCount(root);
      await env.page.click(`${root} [data-testid=${prefix}-split]`);
      await env.waitComputed(root, count);
      assert.deepEqual((await env.heatmap(map)).shape.slice(0, 1), [3]);
      assert.equal(await env.page.inputValue(`${root} input.${prefix}-text`), '我 爱 我');
      assert.ok(!(await message.textContent()).includes(said), 'the hint is gone');
      await env.page.waitForFunction((k) => new URLSearchParams(location.hash.slice(1)).get(k) === '我 爱 我', `${prefix}_text`);
    });
  }
}
