// Buttons stay readable in every state: the language buttons and each section's primary action,
// at rest, hovered, focused and after a tap, keep a text-to-background contrast of at least 4.5:1
// (WCAG AA). The design system's hover (pale blue) once turned the pressed language button's
// white text invisible.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useSite } from './harness.mjs';

/** Contrast ratio of an element's text colour against its own background colour (both opaque). */
function contrastOf(page, selector) {
  return page.$eval(selector, (el) => {
    const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => {
      const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const style = getComputedStyle(el);
    const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))];
    return { ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), text: `${style.color} on ${style.backgroundColor}` };
  });
}

describe('buttons in every state', { timeout: 120_000 }, () => {
  let site;
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  async function checkStates(selector, name) {
    const states = {
      rest: async () => page.mouse.move(0, 0),
      hover: async () => page.hover(selector),
      focus: async () => {
        await page.mouse.move(0, 0);
        await page.focus(selector);
      },
    };
    for (const [state, enter] of Object.entries(states)) {
      await enter();
      const { ratio, text } = await contrastOf(page, selector);
      assert.ok(ratio >= 4.5, `${name}, ${state}: contrast ${ratio.toFixed(2)} (${text})`);
    }
  }

  test('the language buttons: pressed and not, at rest, hovered, focused, and after a tap', async () => {
    for (const lang of ['en', 'zh']) {
      await site.load(`#view=idea&lang=${lang}`);
      for (const pressed of ['true', 'false']) await checkStates(`#lang-switch button[aria-pressed=${pressed}]`, `${lang}, pressed=${pressed}`);
    }
    // a tap on the other language: the button just tapped is now the pressed one, under the finger
    await site.load('#view=idea&lang=en');
    await page.click('#lang-switch button[data-lang=zh]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    const { ratio, text } = await contrastOf(page, '#lang-switch button[data-lang=zh]');
    assert.ok(ratio >= 4.5, `after the tap: contrast ${ratio.toFixed(2)} (${text})`);
  });

  test('each section’s primary action', async () => {
    await site.load('#lang=en');
    await page.waitForFunction(() => [...document.querySelectorAll('.article-section')].every((s) => s.querySelector('.section-body > *')));
    const ids = await page.$$eval('.article-section .lab-button.primary', (bs) => bs.filter((b) => b.offsetParent).map((b) => b.dataset.testid).filter(Boolean));
    assert.ok(ids.length >= 3, `primary buttons: ${ids}`);
    for (const id of ids) await checkStates(`[data-testid="${id}"]`, id);
  });
});
