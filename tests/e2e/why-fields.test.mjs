// §1's controls as a reader who tries silly values meets them: every refused box at once (empty,
// too large, negative) shows its message under the box, at 1280 and 390 px, in English and Chinese,
// and no message covers another, a box, a label, a button or the status line. And the line that
// says "Cell is now LSTM: both models start again" goes once the run it asked for starts. Start
// with a refused box trains nothing (it would train the last accepted value) and names the box.
// Needs `npm run build:web` first. Run: node --test tests/e2e/why-fields.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useSite } from './harness.mjs';
import { text } from './claims/claims-harness.mjs';

const SEC = '#section-why .why-section';
const SILLY = { 'why-hidden': '', 'why-max-len': '10000', 'why-steps': '-1' };

describe('§1 fields and their messages', { timeout: 300_000 }, () => {
  let site;
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  for (const width of [1280, 390]) {
    for (const lang of ['en', 'zh']) {
      test(`silly values in all three boxes at ${width} px [${lang}]: the messages overlap nothing`, async () => {
        await page.setViewportSize({ width, height: 900 });
        await site.load(`#view=why&lang=${lang}`);
        await page.waitForSelector(SEC);
        for (const [id, value] of Object.entries(SILLY)) {
          await page.fill(`[data-testid=${id}]`, value);
          await page.dispatchEvent(`[data-testid=${id}]`, 'change');
        }
        await page.evaluate((sel) => document.querySelector(`${sel} .why-controls`).scrollIntoView({ block: 'center' }), SEC);
        const boxes = await page.evaluate((sel) => {
          const root = document.querySelector(sel);
          const box = (e, kind) => {
            const r = e.getBoundingClientRect();
            return { kind, text: e.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom, cut: e.scrollWidth > e.clientWidth + 1 };
          };
          const shown = (e) => e.getClientRects().length > 0;
          return [
            ...[...root.querySelectorAll('.lab-field-error')].filter(shown).map((e) => box(e, 'error')),
            ...[...root.querySelectorAll('.al-controls input, .al-controls select, .al-controls button, .al-field-label')].filter(shown).map((e) => box(e, 'control')),
            box(root.querySelector('.why-status'), 'status'),
          ];
        }, SEC);
        const errors = boxes.filter((b) => b.kind === 'error');
        assert.equal(errors.length, 3, `three messages: ${JSON.stringify(errors.map((e) => e.text))}`);
        for (const label of ['why.hidden', 'why.maxLen', 'why.steps']) {
          assert.ok(errors.some((e) => e.text.startsWith(text(lang, label))), `a message names ${text(lang, label)}`);
        }
        for (const e of errors) assert.ok(!e.cut && e.left >= 0 && e.right <= width, `“${e.text}” is shown whole`);
        const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
        for (const e of errors) {
          for (const other of boxes) {
            if (other !== e) assert.ok(!overlap(e, other), `“${e.text}” overlaps ${other.kind} “${other.text}”`);
          }
        }
        await site.screenshot(`why-fields-${width}-${lang}`, { fullPage: false });
      });
    }
  }

  for (const lang of ['en', 'zh']) {
    test(`Start with a refused box trains nothing and names the box; fixed, it trains [${lang}]`, async () => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await site.load(`#view=why&lang=${lang}`);
      await page.waitForSelector(SEC);
      await page.fill('[data-testid=why-hidden]', '10000');
      await page.click('[data-testid=why-start]'); // the box's change comes first, as a reader's click makes it
      const error = page.locator(`${SEC} .why-error`);
      assert.equal(await error.textContent(), text(lang, 'field.fixFirst').replace('{labels}', text(lang, 'why.hidden')));
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'why-hidden', 'the refused box has the focus');
      await page.waitForTimeout(300);
      assert.notEqual(await page.getAttribute(SEC, 'data-state'), 'running', 'nothing trains');
      await page.fill('[data-testid=why-hidden]', '32');
      await page.click('[data-testid=why-start]');
      await page.waitForFunction(() => document.querySelector('.why-section')?.dataset.state === 'running');
      assert.equal(await error.textContent(), '', 'the message goes with the run');
      await page.click('[data-testid=why-start]'); // pause
    });

    test(`the "now LSTM: start again" line goes when the new run starts [${lang}]`, async () => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await site.load(`#view=why&lang=${lang}`);
      await page.waitForSelector(SEC);
      await page.selectOption('[data-testid=why-cell]', 'lstm');
      const narration = page.locator(`${SEC} [data-testid=narration]`);
      assert.ok(((await narration.textContent()) ?? '').startsWith(text(lang, 'why.cell')), 'the change is said');
      await page.click('[data-testid=why-start]');
      await page.waitForFunction(() => document.querySelector('.why-section')?.dataset.state === 'running');
      assert.equal(await narration.textContent(), '', 'the line is gone once the run it asked for runs');
      await page.click('[data-testid=why-start]'); // pause: the test needs no trained models
    });
  }
});
