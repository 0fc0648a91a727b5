// Progressive disclosure: the article opens on each section's one idea, with everything else in
// named, collapsed panels (sections/panel.ts). On the defaults, the article's eight sections (from
// the top of §1 to the bottom of §5) are at most 12,000 px tall at 1280 px, and §3.3 is at most
// 4,200 px on a 390 px phone; the heights are printed. A panel opens by its title, its state goes
// into the link and comes back with it, and its heavy content (the ask-why grid, the vocabulary's
// buttons) exists only once it has been opened.
// Needs `npm run build:web` first. Run: node --test tests/e2e/page-height.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openPanel, useSite } from './harness.mjs';

const SECTIONS = ['why', 'idea', 'dot', 'translate', 'self', 'multihead', 'transformer', 'gpt'];
// The seven sections of §1–§4 were at most 11,000 px; §5 adds its card (869 px at 1280 in English,
// its settings panel closed, after its first sample; 848 in Chinese) and the 20 px gap above it:
// 889 px, rounded up to 900. Its generation figures appear only once the reader draws a character.
// Then 100 px for what first-time readers asked to be said where it is used (what q and k are in
// §2, the even-spread weight in §3.1's narration, that attention is not an explanation in §3.3's
// panel title), and for the prompt that says why §3.3's dot score needs no √d: 11,995 px in
// English with them.
const ARTICLE_MAX = 12_000;
// §3.3 on a phone: 4,146 px in English with that prompt (3,987 without it).
const TRANSLATE_PHONE_MAX = 4_200;

describe('progressive disclosure: page heights and collapsed panels', { timeout: 400_000 }, () => {
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  /** Loads the article at `width` on the defaults and waits until every section has drawn. */
  async function loadArticle(width, lang) {
    await page.setViewportSize({ width, height: 900 });
    await site.load(`#lang=${lang}`);
    for (const id of ['idea', 'dot', 'self']) {
      await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'ok', `.${id}-section`);
    }
    await page.waitForFunction(() => document.querySelector('.transformer-section')?.dataset.translatedAt !== undefined, null, { timeout: 90_000 });
    await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.modelStep !== undefined, null, { timeout: 90_000 });
    // §5 starts (its corpus and model lines, the step-0 sample) when it comes into view
    await page.locator('#section-gpt').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('.gpt-section')?.dataset.samples === '1', null, { timeout: 90_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() => document.fonts.status === 'loaded');
  }

  /** The article's height (top of the first section to the bottom of the last) and each section's. */
  const heights = () =>
    page.evaluate((ids) => {
      const rects = ids.map((id) => document.querySelector(`section.article-section[data-section="${id}"]`).getBoundingClientRect());
      return {
        article: Math.round(rects.at(-1).bottom - rects[0].top),
        document: document.documentElement.scrollHeight,
        sections: Object.fromEntries(ids.map((id, i) => [id, Math.round(rects[i].height)])),
      };
    }, SECTIONS);

  for (const lang of ['en', 'zh']) {
    test(`${lang}: the article at 1280 px and §3.3 at 390 px stay within their heights`, async () => {
      await loadArticle(1280, lang);
      const wide = await heights();
      console.log(`${lang} 1280 px: article ${wide.article} px (document ${wide.document} px), sections ${JSON.stringify(wide.sections)}`);
      assert.ok(wide.article <= ARTICLE_MAX, `${lang}: the article is ${wide.article} px tall at 1280 px (at most ${ARTICLE_MAX})`);
      // every panel starts closed on the defaults
      const open = await page.$$eval('details.lab-panel', (ds) => ds.filter((d) => d.open).map((d) => d.dataset.testid));
      assert.deepEqual(open, [], 'panels open on the defaults');

      await loadArticle(390, lang);
      const phone = await heights();
      console.log(`${lang} 390 px: article ${phone.article} px (document ${phone.document} px), sections ${JSON.stringify(phone.sections)}`);
      assert.ok(phone.sections.translate <= TRANSLATE_PHONE_MAX, `${lang}: §3.3 is ${phone.sections.translate} px tall at 390 px (at most ${TRANSLATE_PHONE_MAX})`);
    });
  }

  test('a panel opens by its title, renders its heavy content then, and its state travels in the link', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await site.load('#view=translate&seed=1');
    const SEC = '#section-translate .translate-section';
    await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.modelStep !== undefined, null, { timeout: 90_000 });
    // closed: neither the vocabulary's buttons nor the intervention grid exist, and few Tab stops
    assert.equal(await page.locator(`${SEC} .translate-vocab-word`).count(), 0, 'the vocabulary is rendered while its panel is closed');
    assert.equal(await page.locator(`${SEC} .translate-why-cell`).count(), 0, 'the intervention grid is rendered while its panel is closed');
    const tabStops = () =>
      page.$$eval(`${SEC} :is(button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"]))`, (els) =>
        els.filter((e) => !e.disabled && e.getClientRects().length > 0 && !e.closest('details:not([open]) > :not(summary)')).length,
      );
    const closedStops = await tabStops();
    console.log(`§3.3 Tab stops with its panels closed: ${closedStops}`);
    assert.ok(closedStops <= 60, `§3.3 has ${closedStops} Tab stops with its panels closed`);

    await openPanel(page, 'translate-panel-words');
    await page.waitForSelector(`${SEC} .translate-vocab-word`);
    assert.ok((await page.locator(`${SEC} .translate-vocab-word`).count()) > 10);
    await openPanel(page, 'translate-panel-why');
    await page.waitForSelector(`${SEC} .translate-why-cell`);
    await page.waitForFunction(() => /translate_open_words=1/.test(location.hash) && /translate_open_why=1/.test(location.hash));
    assert.ok((await tabStops()) > closedStops + 10, 'the opened panels add their controls');

    // the link reloads with the same panels open; a click on the title closes one again
    const hash = await page.evaluate(() => location.hash);
    await site.load(hash);
    await page.waitForSelector(`${SEC} .translate-why-cell`, { timeout: 90_000 });
    assert.equal(await page.locator('details[data-testid=translate-panel-words]').evaluate((d) => d.open), true);
    assert.equal(await page.locator('details[data-testid=translate-panel-settings]').evaluate((d) => d.open), false);
    await page.locator('details[data-testid=translate-panel-why] > summary').click();
    await page.waitForFunction(() => !/translate_open_why=/.test(location.hash));
    // and by keyboard: Enter on a focused title opens it
    await page.locator('details[data-testid=translate-panel-settings] > summary').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /translate_open_settings=1/.test(location.hash));
    assert.equal(await page.locator('[data-testid=translate-score]').isVisible(), true);
  });
});
