// A selected cell's readout line follows the data, as a reader meets it: click the weights cell
// 喜欢 (query) · 小冰 (key) of §3.4–3.5, then change the sentence to "我 爱 我": the line under the map
// names the same row and column with the new sentence's words and value (never 喜欢 · 小冰 any more);
// a sentence too short for that cell clears it. In English and in Chinese.
// Needs a build (npm run build:web). Run: node --test tests/e2e/readouts.test.mjs
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { openSections } from './sections-harness.mjs';

const ROOT = '.self-section';

/** Clicks cell (row, col) of the heatmap `fig` where its last draw put it. */
async function clickCell(page, fig, row, col) {
  await page.locator(fig).scrollIntoViewIfNeeded();
  await page.waitForFunction((sel) => document.querySelector(`${sel} output.heatmap-data`)?.dataset.grid, fig);
  const p = await page.evaluate(
    ([sel, r, c]) => {
      const [left, top, colWidth, rowHeight] = document.querySelector(`${sel} output.heatmap-data`).dataset.grid.split(',').map(Number);
      const rect = document.querySelector(`${sel} canvas`).getBoundingClientRect();
      return { x: rect.left + left + (c + 0.5) * colWidth, y: rect.top + top + (r + 0.5) * rowHeight };
    },
    [fig, row, col],
  );
  await page.mouse.click(p.x, p.y);
}

describe('a selected cell’s readout follows a changed sentence', { timeout: 120_000 }, () => {
  const env = openSections('self');
  before(() => env.start());
  after(() => env.stop());
  afterEach(() => env.assertNoProblems());

  for (const lang of ['en', 'zh']) {
    test(`§3.4–3.5 (${lang}): 喜欢 · 小冰, then "我 爱 我", then "我 爱"`, async () => {
      await env.loadOk(`#seed=1&lang=${lang}`, ROOT);
      const line = env.page.locator('#self-weights-focus');
      await clickCell(env.page, '#self-weights', 1, 2);
      await assert.doesNotReject(line.filter({ hasText: /^喜欢 · 小冰[:：] ?0\.\d{4}$/ }).waitFor());
      const input = env.page.locator(`${ROOT} input.self-text`);
      let count = await env.computeCount(ROOT);
      await input.fill('我 爱 我');
      await env.waitComputed(ROOT, count);
      const { values } = await env.heatmap('self-weights');
      const text = await line.textContent();
      assert.match(text, /^爱 · 我(?: ?[(（]3[)）])?[:：] ?0\.\d{4}$/, `the readout names the new words: ${text}`);
      assert.equal(text.split(/[:：] ?/)[1], values[1 * 3 + 2].toFixed(4), 'the readout shows the new value');
      count = await env.computeCount(ROOT);
      await input.fill('我 爱');
      await env.waitComputed(ROOT, count);
      assert.equal(await line.textContent(), '', 'a cell no longer in the sentence has no readout');
    });
  }
});
