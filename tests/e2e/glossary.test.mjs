// The glossary (web/src/shell/glossary.ts), in English and Chinese: no term appears in the
// article's prose before its definition point (its first appearance is the button that defines
// it), the definition shows on hover, keyboard focus and a tap, screen readers get it through
// aria-describedby, and the whole list closes the article.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadWeb } from '../web/setup.mjs';
import { useSite } from './harness.mjs';

const { GLOSSARY, PROSE, NOT_PROSE } = await loadWeb('shell/glossary');

/** words readers met undefined: each must have an entry (the test below then checks where it is defined) */
const REQUIRED = { en: ['softmax', 'hidden state', 'token', 'feed-forward', 'residual'], zh: ['softmax', '隐藏状态', '词元', '前馈', '残差'] };

test('every term readers met undefined has a glossary entry', () => {
  for (const lang of ['en', 'zh']) {
    const terms = GLOSSARY.map((e) => e.term[lang].toLowerCase());
    const missing = REQUIRED[lang].filter((word) => !terms.includes(word.toLowerCase()));
    assert.deepEqual(missing, [], `${lang}: not in the glossary`);
  }
});

describe('glossary', { timeout: 240_000 }, () => {
  let site;
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  for (const lang of ['en', 'zh']) {
    test(`${lang}: every term's first appearance in the prose is where it is defined`, async () => {
      await site.load(`#lang=${lang}`);
      await page.waitForSelector('#section-glossary .gloss-list');
      await page.waitForTimeout(4500); // the marking passes that follow the sections' later prose
      const report = await page.evaluate(
        ({ entries, lang, prose, notProse }) => {
          const article = document.getElementById('article');
          const out = [];
          for (const e of entries) {
            const term = e.term[lang];
            const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            const pattern = lang === 'zh' ? new RegExp(escaped) : new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, 'i');
            const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
            let first = null;
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              const p = n.parentElement;
              if (!p?.closest(prose)) continue;
              if (!p.classList.contains('gloss-term') && (p.closest(notProse) || p.closest('[lang]') !== document.documentElement)) continue;
              if (pattern.test(n.data)) {
                first = p.closest('.gloss-term')?.dataset.term === e.id ? 'defined' : `before its definition: “${(p.closest('p, li')?.textContent ?? '').slice(0, 80)}”`;
                break;
              }
            }
            out.push({ id: e.id, first });
          }
          return out;
        },
        { entries: GLOSSARY, lang, prose: PROSE, notProse: NOT_PROSE },
      );
      const wrong = report.filter((r) => r.first !== null && r.first !== 'defined');
      assert.deepEqual(wrong, [], JSON.stringify(wrong, null, 1));
      const defined = report.filter((r) => r.first === 'defined').map((r) => r.id);
      console.log(`# glossary ${lang}: defined in the prose: ${defined.join(', ')}; only in the list: ${report.filter((r) => r.first === null).map((r) => r.id).join(', ')}`);
      assert.ok(defined.length >= 10, `terms defined where they appear: ${defined}`);
      // the list at the end has every term, with its definition
      const listed = await page.locator('#section-glossary dt').allTextContents();
      assert.deepEqual(listed, GLOSSARY.map((e) => e.term[lang]));
      // the neuron view's products are named as its row, q∘k (a subscript ᵢ after q collided with its tail)
      const neuron = await page.locator('#section-glossary dd').nth(GLOSSARY.findIndex((e) => e.id === 'neuron-view')).textContent();
      assert.ok(neuron.includes('q∘k') && !neuron.includes('ᵢ'), neuron);
    });
  }

  test('a definition shows on hover, on keyboard focus and on a tap, and screen readers get it', async () => {
    await site.load('#lang=en');
    await page.waitForSelector('.gloss-term');
    const term = page.locator('.gloss-term').first();
    const tip = page.locator('.gloss-term + .gloss-tip').first();
    const id = await term.getAttribute('data-term');
    const definition = GLOSSARY.find((e) => e.id === id).definition.en;
    assert.equal(await page.locator(`#${await term.getAttribute('aria-describedby')}`).textContent(), definition);
    assert.equal(await tip.isVisible(), false);
    await term.hover();
    assert.equal(await tip.isVisible(), true, 'hover');
    await page.mouse.move(0, 0);
    assert.equal(await tip.isVisible(), false);
    await term.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    assert.equal(await tip.isVisible(), true, 'keyboard focus');
    await page.keyboard.press('Escape');
    await term.blur();
    // a tap pins it open (no hover on a touch screen); a second tap closes it
    await term.dispatchEvent('click');
    await page.mouse.move(0, 0);
    assert.equal(await term.getAttribute('aria-expanded'), 'true');
    assert.equal(await tip.isVisible(), true, 'tap');
    await term.dispatchEvent('click');
    assert.equal(await tip.isVisible(), false);
  });
});
