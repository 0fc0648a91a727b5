// §3.3's decoding shows one step at a time, as a reader finds it, in English and Chinese: pointing
// at (or tapping) a cell of the attention map moves the header ("Output token k of n") with the
// source shading, the candidates and the step line, so the panel never shows two steps; and Next
// token on a translation shown whole (where training leaves it) starts over at its first token.
// Needs a build (npm run build:web). Run: node --test tests/e2e/translate-decode-step.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useSite } from './harness.mjs';

const SEC = '#section-translate .translate-section';
const MAP = '#translate-attention';
const HEADER = { en: (k, n) => `Output token ${k} of ${n}`, zh: (k, n) => `输出第 ${k} / ${n} 个词元` };
const LINE = { en: (k) => `Step ${k} wrote`, zh: (k) => `第 ${k} 步` };

describe('§3.3 decoding: one step on screen', { timeout: 300_000 }, () => {
  /** @type {import('playwright-core').Page} */
  let page;
  let site;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const view = () => page.evaluate(() => ({ ...document.querySelector('.translate-decode').dataset }));
  const header = () => page.locator(`${SEC} .translate-decode-progress`).textContent();
  const stepLine = () => page.locator(`${SEC} [data-testid=translate-step-link]`).textContent();

  /** The viewport point of cell (row, col) of the map, from its drawn grid. */
  async function cellPoint(row, col) {
    await page.locator(MAP).scrollIntoViewIfNeeded();
    await page.waitForFunction((sel) => document.querySelector(`${sel} output.heatmap-data`)?.dataset.grid, MAP);
    return page.evaluate(
      ([sel, r, c]) => {
        const [left, top, colWidth, rowHeight] = document.querySelector(`${sel} output.heatmap-data`).dataset.grid.split(',').map(Number);
        const rect = document.querySelector(`${sel} canvas`).getBoundingClientRect();
        return { x: rect.left + left + (c + 0.5) * colWidth, y: rect.top + top + (r + 0.5) * rowHeight };
      },
      [MAP, row, col],
    );
  }

  for (const lang of ['en', 'zh']) {
    test(`${lang}: pointing at step 2's cell moves the header to step 2; leaving it, back to the step played; Next token on a whole translation goes to token 1`, async () => {
      await site.load(`#view=translate&lang=${lang}&seed=1`);
      await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.done === '1');
      const { steps } = await view();
      const n = Number(steps);
      assert.ok(n >= 3, `a translation of ${n} steps`);
      assert.equal(await header(), HEADER[lang](n, n));
      // the reader points at a cell of the second row
      const { x, y } = await cellPoint(1, 0);
      await page.mouse.move(x, y);
      await page.waitForFunction((k) => document.querySelector('.translate-section .translate-topk-title')?.textContent.includes(` ${k} `), 2);
      assert.equal(await header(), HEADER[lang](2, n), 'the header names the step the map shows');
      assert.ok((await stepLine()).startsWith(LINE[lang](2)), await stepLine());
      assert.equal((await view()).step, String(n), 'the decoding itself stays where it was');
      // the pointer leaves: the step played is shown again, header included
      await page.mouse.move(1, 1);
      await page.waitForFunction((t) => document.querySelector('.translate-section .translate-decode-progress')?.textContent === t, HEADER[lang](n, n));
      // a tap (click) keeps the step, header included
      await page.mouse.click(x, y);
      await page.mouse.move(1, 1);
      assert.equal(await header(), HEADER[lang](2, n));

      // the Try-this prompt: "press Next token" on the translation shown whole starts at its first token
      await page.click(`${SEC} [data-testid=translate-decode-step]`);
      await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.step === '1');
      assert.equal(await header(), HEADER[lang](1, n));
      assert.ok((await stepLine()).startsWith(LINE[lang](1)), await stepLine());
      await page.click(`${SEC} [data-testid=translate-decode-step]`);
      await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.step === '2');
      assert.equal(await header(), HEADER[lang](2, n));
    });
  }
});
