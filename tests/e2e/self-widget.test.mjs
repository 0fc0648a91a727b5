// <attention-heatmap mechanism="self"> (the embeddable widget) and §3.5 show the same weights for the
// same sentence, feature size and seed, read as a reader reads them: every cell's value on the
// keyboard's focus line (4 digits) and the screen reader's table (the cells' 2 digits), in English
// and in Chinese, on the defaults and on a sentence with a repeated word.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { distDir as dist, startSite } from './harness.mjs';

const WIDGET_PAGE = '/examples/test-one-live-heatmap.html';

const CASES = [
  { name: 'the defaults (the note’s sentence, d = 4, seed 1)', text: '咖哥 喜欢 小冰', d: 4, seed: 1, lang: 'en' },
  { name: 'a repeated word, d = 8, seed 3, in Chinese', text: 'the cat sat on the mat', d: 8, seed: 3, lang: 'zh' },
];

describe('the self-attention widget and §3.5 agree', { timeout: 240_000 }, () => {
  /** @type {Awaited<ReturnType<typeof startSite>>} */
  let site;
  before(async () => {
    site = await startSite({ dist });
  });
  after(() => site?.close());

  /**
   * What the heatmap under `root` (the page, or the widget's shadow root) prints: its table's rows
   * (label and 2-digit cells) and, from the canvas's focus, every cell's focus line, walked with the
   * arrow keys row by row.
   */
  async function readHeatmap(root, n) {
    const table = await root.locator('table.heatmap-table tbody tr').evaluateAll((rows) =>
      rows.map((tr) => Array.from(tr.children, (c) => c.textContent)),
    );
    const canvas = root.locator('canvas').first();
    const focusLine = root.locator('.focus-text');
    await canvas.focus();
    const lines = [];
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        lines.push(await focusLine.textContent());
        if (c < n - 1) await canvas.press(r % 2 === 0 ? 'ArrowRight' : 'ArrowLeft');
      }
      if (r < n - 1) await canvas.press('ArrowDown');
    }
    return { table, lines };
  }

  for (const { name, text, d, seed, lang } of CASES) {
    test(name, async () => {
      const n = text.split(' ').length;
      await site.load(`#view=self&lang=${lang}&self_text=${encodeURIComponent(text)}&self_d=${d}&seed=${seed}`);
      await site.page.waitForFunction(() => document.querySelector('.self-section')?.getAttribute('data-state') === 'ok');
      const fromSection = await readHeatmap(site.page.locator('#self-weights'), n);

      await site.load('', WIDGET_PAGE);
      await site.page.evaluate(
        ({ text, d, seed, lang }) => {
          const widget = document.createElement('attention-heatmap');
          for (const [k, v] of Object.entries({ mechanism: 'self', text, self_d: String(d), seed: String(seed), lang })) widget.setAttribute(k, v);
          document.querySelector('attention-heatmap').replaceWith(widget);
        },
        { text, d, seed, lang },
      );
      await site.page.waitForFunction(() => {
        const root = document.querySelector('attention-heatmap')?.shadowRoot;
        return root?.querySelector('output.heatmap-data')?.value && root.querySelector('table.heatmap-table tbody tr');
      });
      const fromWidget = await readHeatmap(site.page.locator('attention-heatmap'), n);

      assert.equal(fromSection.table.length, n);
      assert.equal(fromSection.lines.length, n * n);
      for (const line of fromSection.lines) assert.match(line, /[:：]\s*\d\.\d{4}$/);
      assert.deepEqual(fromWidget.table, fromSection.table, 'the screen reader’s table');
      assert.deepEqual(fromWidget.lines, fromSection.lines, 'the focus line, cell by cell');
      site.problems.assertNone();
    });
  }
});
