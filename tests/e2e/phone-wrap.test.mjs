// On a phone (390 px) the Chinese page never splits a number or a word inside a table cell: every
// cell whose text is one token ("98.6%", "完全匹配", "最大权重": no space, bracket, dash or
// punctuation to break at) renders on one line; and a refused box's message covers no other box.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useSite } from './harness.mjs';

describe('cells and messages on a phone, in Chinese', { timeout: 600_000 }, () => {
  let site;
  let page;
  useSite(
    (s) => {
      site = s;
      page = s.page;
    },
    { viewport: { width: 390, height: 844 } },
  );

  /** Cells whose text is one token but renders on more than one line. */
  const splitCells = () =>
    page.evaluate(() => {
      const out = [];
      for (const cell of document.querySelectorAll('td, th')) {
        const text = (cell.textContent ?? '').trim();
        // one word or one number: no space, bracket, dash or punctuation a line may break at, and
        // no zero-width space (the break a header of two words marks between them, as §5's
        // heads table does in 上一句\u200b同位置)
        if (!/^[^\s（）()—，、；：\u200b]+$/.test(text) || !cell.getClientRects().length) continue;
        // the lines of its text (text nodes only: a button's own box is no line)
        const tops = new Set();
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(n);
          for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
        }
        if (tops.size > 1) out.push(`${text} (${tops.size} lines)`);
      }
      return out;
    });

  test('the article: a one-token cell is never split across lines', async () => {
    await site.load('#lang=zh');
    await page.waitForFunction(() => [...document.querySelectorAll('.article-section')].every((s) => s.querySelector('.section-body > *')));
    await page.waitForTimeout(1500);
    const split = await splitCells();
    assert.deepEqual(split, [], `cells split mid-token at 390 px:\n${split.join('\n')}`);
  });

  test('§3.3’s score table after training (percentages, 完全匹配): no cell split mid-token', async () => {
    await site.load('#view=translate&lang=zh&translate_speed=200&translate_open_settings=1'); // the task menu's panel, opened
    await page.selectOption('[data-testid=translate-task]', 'dates');
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-progress]')?.getAttribute('max') === '300');
    await page.click('[data-testid=translate-play]');
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-compare] tr[data-model]')?.dataset.evaluation?.includes('"step":300'), null, { timeout: 300_000 });
    const cells = await page.locator('[data-testid=translate-compare] td, [data-testid=translate-compare] th').allTextContents();
    assert.ok(cells.some((c) => /%$/.test(c.trim())), `percentages in the table: ${cells}`);
    const split = await splitCells();
    assert.deepEqual(split, [], `cells split mid-token at 390 px:\n${split.join('\n')}`);
  });

  test('§4’s refused boxes: each message takes its place under its box and covers no other control', async () => {
    await site.load('#view=transformer&lang=zh&transformer_open_settings=1');
    for (const [id, value] of [['transformer-layers', '7'], ['transformer-heads', '3']]) {
      await page.fill(`[data-testid=${id}]`, value);
      await page.dispatchEvent(`[data-testid=${id}]`, 'change');
    }
    const seen = await page.evaluate(() => {
      const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const messages = [...document.querySelectorAll('.transformer-section .lab-field-error')].filter((m) => m.textContent);
      const controls = [...document.querySelectorAll('.transformer-section :is(input, select, button, textarea)')].filter((c) => c.getClientRects().length);
      const covered = [];
      for (const m of messages) {
        for (const c of controls) if (meets(m.getBoundingClientRect(), c.getBoundingClientRect())) covered.push(`"${m.textContent}" covers ${c.dataset.testid ?? c.tagName}`);
      }
      return { messages: messages.map((m) => m.textContent), covered };
    });
    assert.equal(seen.messages.length, 2, `both messages show: ${seen.messages}`);
    assert.deepEqual(seen.covered, [], 'a message covers a control at 390 px');
  });
});
