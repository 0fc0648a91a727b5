// Layout of the whole article in Debian's Chromium at 1280, 768, 390 and 320 px, in English and Chinese
// (768 px in English only):
// for every section, nothing sticks out of its card; a heatmap that hides columns (its frame
// scrolls sideways) shows a "+N columns" affordance (an element with data-more-columns inside the
// figure); at 390 px §3.3's attention map shows all 14 columns of its sentence at once; at 390
// and 320 px no box cuts its content at the side (a text box, a diagram, a formula, a row of
// examples); no panel title is broken into pieces (a glossary term in it laid out apart);
// no axis title painted in a heatmap touches a row or column label, and no painted text runs out of
// its canvas; every control carries the design system's styling (not the browser's default look);
// every section has "Try this" prompts and at most one primary action; the contents stay in sight
// at mid-page and mark the section in view; at 390 and 320 px a field focused just under the sticky
// contents bar scrolls its label clear of the bar.
// Invalid input in each section the test lists shows a message naming the field, keeps the typed
// value, marks the input aria-invalid and leaves the state alone. Switched to dark mode (the system
// setting) at 1280 px in English and 390 px in Chinese, every section's text keeps a 4.5:1 contrast
// with its background. Screenshots of every section at every width and language go to
// test-artifacts/layout-<width>-<lang>-<section>.png (dark mode: layout-dark-…).
// Needs `npm run build:web` first. Run: node --test tests/e2e/layout.test.mjs
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { describe, test } from 'node:test';
import { artifactsDir, keepScreenshot, openPanel, readUntil, startSite, useSite } from './harness.mjs';
import { overflowingOf, hiddenColumnsOf, columnsOutOfReach, titleCollisionsOf, unstyledControls, contentsAtMidPage, lowContrastOf, darkChartInkOf, lightInkOnHeatmapsOf, clippedOf, raggedTitlesOf, labelsUnderStickyBar } from './layout-probes.mjs';

const WIDTHS = [1280, 768, 390, 320];
const LANGS = ['en', 'zh'];
/** The width and language checked in dark mode too: a desktop in English, a phone in Chinese. */
const DARK = [
  [1280, 'en'],
  [390, 'zh'],
];
const SECTIONS = ['why', 'idea', 'dot', 'translate', 'self', 'multihead', 'transformer', 'gpt'];
/**
 * Boxes that scroll sideways on a phone: §3.3's intervention grid by design (a button for every
 * output step × source word, fifteen words wide); §3.4's head view and neuron table are 14 and
 * 26 px too wide at 320 px and scroll in their boxes (not yet fitted).
 */
const SCROLLS_SIDEWAYS = '.translate-why-table, .self-headview, .self-neuron-scroll';
/** The hash that opens every collapsed panel (sections/panel.ts: the *_open_* settings). */
const ALL_PANELS = ['transformer_open_positions', 'dot_open_sweep', 'multihead_open_combine', 'translate_open_settings', 'translate_open_words', 'translate_open_why', 'translate_open_timeline', 'translate_open_pairs', 'translate_open_files', 'transformer_open_settings', 'transformer_open_why', 'transformer_open_compare', 'transformer_open_files', 'gpt_open_settings', 'gpt_open_text']
  .map((name) => `${name}=1`)
  .join('&');

describe('layout at four widths, two languages, and in dark mode', { timeout: 900_000 }, () => {
  /** @type {Awaited<ReturnType<typeof startSite>>} */
  let site;
  useSite((s) => {
    site = s;
    mkdirSync(artifactsDir, { recursive: true });
  }, { viewport: { width: 1280, height: 900 } });

  /** Loads the article and waits until the computed sections have drawn. */
  async function loadArticle(width, lang) {
    const { page } = site;
    await page.setViewportSize({ width, height: 900 });
    // §4 with a map enlarged: the enlarged heatmap is laid out too; every collapsed panel open, so
    // that what they hold is laid out and checked too
    await site.load(`#lang=${lang}&transformer_zoom=cross&transformer_zoom_layer=2&transformer_zoom_head=4&${ALL_PANELS}`);
    for (const id of ['idea', 'dot', 'self']) {
      await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'ok', `.${id}-section`);
    }
    // §4's grids are drawn from its first translation
    await page.waitForFunction(() => document.querySelector('.transformer-section')?.dataset.translatedAt !== undefined, null, { timeout: 60_000 });
    await page.waitForFunction(() => document.fonts.status === 'loaded');
  }

  for (const width of WIDTHS) {
    // a tablet's width in English only; Chinese at the widths on either side of it
    for (const lang of width === 768 ? ['en'] : LANGS) {
      const dark = DARK.some(([w, l]) => w === width && l === lang);
      test(`${width} px, ${lang}: cards hold their content, heatmaps show hidden columns, controls are styled, contents follow${dark ? '; then in dark mode every section\'s text reads on its background' : ''}`, async () => {
        const { page } = site;
        await loadArticle(width, lang);
        assert.deepEqual(await page.$$eval('main section.article-section', (els) => els.map((e) => e.dataset.section)), SECTIONS);
        for (const id of SECTIONS) {
          const card = page.locator(`section.article-section[data-section="${id}"]`);
          await card.scrollIntoViewIfNeeded();
          await page.waitForTimeout(150); // charts draw when they come into view
          assert.deepEqual(await page.evaluate(overflowingOf, id), [], `${id} at ${width} px (${lang}): content past its card`);
          assert.deepEqual(await page.evaluate(hiddenColumnsOf, id), [], `${id} at ${width} px (${lang}): hidden heatmap columns`);
          if (id === 'translate' && width === 390) {
            // §3.3's map of the default sentence (the longest held-out one) has every column in
            // view on a phone: none scrolled out of sight
            await page.waitForFunction(() => {
              const shape = document.querySelector('#translate-attention output.heatmap-data')?.dataset.shape;
              const words = document.querySelectorAll('.translate-section .translate-token').length;
              return words > 10 && shape?.endsWith(`,${words}`);
            });
            assert.deepEqual(await page.evaluate(columnsOutOfReach, 'translate-attention'), [], `§3.3's map at ${width} px (${lang}): columns out of reach`);
          }
          if (id === 'transformer' && width === 390) {
            // §4's enlarged cross-attention map and the decoding's step map: every character of
            // the default date in view on a phone, as §3.3's words are
            for (const fig of ['transformer-zoom-map', 'transformer-step-cross']) {
              await page.locator(`#${fig}`).scrollIntoViewIfNeeded();
              await page.waitForFunction((f) => document.querySelector(`#${f} output.heatmap-data`)?.dataset.texts, fig);
              assert.deepEqual(await page.evaluate(columnsOutOfReach, fig), [], `§4's ${fig} at ${width} px (${lang}): columns out of reach`);
            }
          }
          // on a phone nothing is cut at the side: text boxes, diagrams, formulas, rows of examples
          if (width <= 390) assert.deepEqual(await page.evaluate(clippedOf, [id, SCROLLS_SIDEWAYS]), [], `${id} at ${width} px (${lang}): content cut at the side`);
          assert.deepEqual(await page.evaluate(raggedTitlesOf, id), [], `${id} at ${width} px (${lang}): a panel title in pieces`);
          // the computed sections' heatmaps paint when they come into view: the check must see them
          if (['dot', 'self', 'multihead'].includes(id)) {
            await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.texts, `section[data-section="${id}"] figure.heatmap output.heatmap-data`);
          }
          // guidance: "Try this" prompts in every section, and at most one primary action
          const guide = await card.evaluate((c) => ({
            prompts: c.querySelectorAll('.lab-try li').length,
            primaries: [...c.querySelectorAll('.lab-button.primary')].filter((b) => b.getClientRects().length > 0).map((b) => b.textContent),
          }));
          assert.ok(guide.prompts >= 2, `${id} (${lang}): ${guide.prompts} "Try this" prompts`);
          assert.ok(guide.primaries.length <= 1, `${id} (${lang}): several primary actions ${JSON.stringify(guide.primaries)}`);
          const titles = await page.evaluate(titleCollisionsOf, id);
          assert.deepEqual(titles.hits, [], `${id} at ${width} px (${lang}): an axis title touches a label`);
          assert.deepEqual(titles.cut, [], `${id} at ${width} px (${lang}): a heatmap's text cut by its canvas`);
          // the sticky contents bar would show up in the middle of a stitched card picture (hidden
          // through the CSSOM: the page's CSP refuses an injected stylesheet)
          await page.evaluate(() => document.getElementById('toc').style.setProperty('visibility', 'hidden'));
          await keepScreenshot(card, { path: `${artifactsDir}layout-${width}-${lang}-${id}.png` });
          await page.evaluate(() => document.getElementById('toc').style.removeProperty('visibility'));
        }
        assert.deepEqual(await page.evaluate(unstyledControls), [], `controls with the browser's default look at ${width} px (${lang})`);
        if (width < 1100) {
          // the compact contents bar: every section's link fits on the screen (a long title ends in an ellipsis)
          const wide = await page.evaluate(() => [...document.querySelectorAll('.toc-link')].filter((l) => l.getBoundingClientRect().width > innerWidth - 16).map((l) => l.textContent));
          assert.deepEqual(wide, [], `contents links wider than the screen at ${width} px (${lang})`);
        }
        if (width <= 390) {
          // a field focused just under the sticky contents bar scrolls clear of it, label and all
          const sticky = await page.evaluate(labelsUnderStickyBar);
          assert.ok(sticky.checked.includes('gpt-prompt') && sticky.checked.length >= 30, `fields checked: ${sticky.checked}`);
          assert.deepEqual(sticky.covered, [], `labels under the sticky bar at ${width} px (${lang})`);
        }

        // mid-page: the contents are on screen and mark the section at the reading line
        await page.evaluate(() => window.scrollTo(0, (document.documentElement.scrollHeight - innerHeight) / 2));
        const toc = await readUntil(() => page.evaluate(contentsAtMidPage), (t) => t.marked.length === 1 && t.marked[0] === t.inView);
        assert.ok(toc.visible && toc.top >= -1 && toc.top < 900 && toc.height > 0, `contents off screen at mid-page: ${JSON.stringify(toc)}`);
        assert.ok(toc.bottom <= 900 || width >= 1100, `the compact contents bar covers the page: ${JSON.stringify(toc)}`);
        assert.deepEqual(toc.marked, [toc.inView], `the contents mark the section in view: ${JSON.stringify(toc)}`);
        await keepScreenshot(page, { path: `${artifactsDir}layout-${width}-${lang}-midpage.png` });
        if (dark) await darkChecks(width, lang);
      });
    }
  }

  /**
   * Dark mode (the system setting), switched to on the loaded article as a phone does at dusk: every
   * section's text stands out from its background, the page itself is dark (so the check is not run
   * on the light page by mistake), and the charts, drawn on canvas, redraw with the dark tokens.
   * Screenshots: test-artifacts/layout-dark-<width>-<lang>-<section>.png.
   */
  async function darkChecks(width, lang) {
    const { page } = site;
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const pageBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.notEqual(pageBg, 'rgb(255, 255, 255)', 'the page is not dark');
      for (const id of SECTIONS) {
        const card = page.locator(`section.article-section[data-section="${id}"]`);
        await card.scrollIntoViewIfNeeded();
        await page.waitForTimeout(150);
        const { worst, low } = await page.evaluate(lowContrastOf, [id, 4.5]);
        assert.deepEqual(low, [], `${id} in dark mode at ${width} px (${lang}): text below 4.5:1 (worst ${worst})`);
        // charts are built when they come into view, after Chart.js has arrived
        await page
          .waitForFunction((sid) => [...document.querySelectorAll(`section[data-section="${sid}"] canvas`)].filter((c) => !c.closest('figure.heatmap') && c.getClientRects().length).every((c) => c.style.width !== ''), id, { timeout: 10_000 })
          .catch(() => {});
        for (const chart of await page.evaluate(darkChartInkOf, id)) {
          assert.ok(chart.black <= chart.opaque * 0.01, `${id}: chart "${chart.label}" drawn in dark ink on the dark page: ${JSON.stringify(chart)}`);
        }
        // the heatmaps painted in the light scheme repainted their labels in the dark one (a stale
        // one has a few dozen pixels of the light inks per label; a cell's colour can match one)
        const stale = (await readUntil(() => page.evaluate(lightInkOnHeatmapsOf, id), (hs) => hs.every((h) => h.light <= 8))).filter((h) => h.light > 8);
        assert.deepEqual(stale, [], `${id}: heatmaps still in the light scheme's ink`);
        // the series colours, as the legends show them (the same seriesColor as the lines): 3:1, WCAG's non-text minimum
        const { low: faint } = await page.evaluate(lowContrastOf, [id, 3, '.lab-chart-legend-line, .lab-chart-legend-box']);
        assert.deepEqual(faint, [], `${id}: series colours that do not stand out in dark mode`);
        const cardBg = await card.evaluate((c) => getComputedStyle(c).backgroundColor);
        assert.notEqual(cardBg, 'rgb(255, 255, 255)', `${id}: a white card on the dark page`);
        await page.evaluate(() => document.getElementById('toc').style.setProperty('visibility', 'hidden'));
        await keepScreenshot(card, { path: `${artifactsDir}layout-dark-${width}-${lang}-${id}.png` });
        await page.evaluate(() => document.getElementById('toc').style.removeProperty('visibility'));
      }
      // an open export menu (a white pop-up on a dark page until it used the tokens)
      const toggle = page.locator('section[data-section="dot"] .export-toggle').first();
      await toggle.scrollIntoViewIfNeeded();
      await toggle.click();
      const menu = await page.evaluate(() => {
        const list = document.querySelector('section[data-section="dot"] .export-list:not([hidden])');
        return list && { bg: getComputedStyle(list).backgroundColor, item: getComputedStyle(list.querySelector('.export-item')).color };
      });
      assert.ok(menu, 'the export menu opened');
      assert.notEqual(menu.bg, 'rgb(255, 255, 255)', `the export menu is white in dark mode: ${JSON.stringify(menu)}`);
      const { low } = await page.evaluate(lowContrastOf, ['dot', 4.5]);
      assert.deepEqual(low, [], 'the open export menu');
      await page.keyboard.press('Escape');
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
  }

  for (const [width, hash] of [
    [1280, '#view=dot&dot_n=8&dot_m=8&dot_d=8'],
    [736, '#view=dot'],
    [736, '#view=dot&dot_n=8&dot_m=8&dot_d=8'],
    [390, '#view=dot&dot_d=8'],
    [320, '#view=dot&dot_n=8&dot_m=8&dot_d=8'],
  ]) {
    test(`§3.1 editors at ${width} px (${hash.slice(1)}): side by side or stacked, never overlapping or clipped`, async () => {
      const { page } = site;
      await page.setViewportSize({ width, height: 900 });
      await site.load(hash);
      await page.waitForFunction(() => document.querySelector('.dot-section')?.dataset.state === 'ok');
      const boxes = await page.$$eval('.dot-editor-box', (els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          const table = e.querySelector('table').getBoundingClientRect();
          return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, scrolls: e.scrollWidth > e.clientWidth + 1, tableRight: table.right };
        }),
      );
      assert.equal(boxes.length, 2);
      const [a, b] = boxes;
      const overlap = a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
      assert.ok(!overlap, `the editors overlap: ${JSON.stringify(boxes)}`);
      // a table wider than its box is scrolled inside it (not cut off by, or spilling over, the card)
      for (const box of boxes) assert.ok(box.scrolls || box.tableRight <= box.right + 1, JSON.stringify(box));
      assert.deepEqual(await page.evaluate(overflowingOf, 'dot'), [], 'content past the card');
      await keepScreenshot(page.locator('.dot-editors'), { path: `${artifactsDir}layout-editors-${width}-${boxes.length}-${hash.includes('dot_n=8') ? '888' : 'default'}.png` });
    });
  }

  // Sections whose fields are checked: [section, how to make one field invalid, expected message].
  // (Every section uses the shared field errors of sections/dom.ts.)
  const INVALID = {
    en: {
      why: ['[data-testid="why-max-len"]', '80', 'Longest string: at most 60'],
      idea: ['[data-testid="idea-q-place"]', '50', 'Your question, place: at most 10'],
      self: ['.self-text', Array.from({ length: 17 }, (_, i) => `w${i}`).join(' '), 'Sentence:'],
      dot: ['.dot-query input[data-row="0"][data-col="0"]', '', 'Queries Q q1, d1'],
      translate: ['[data-testid="translate-speed"]', '500', 'Steps per frame: must be between 1 and 200'],
      multihead: ['.multihead-text', Array.from({ length: 17 }, (_, i) => `w${i}`).join(' '), 'Sentence:'],
      transformer: ['[data-testid="transformer-heads"]', '3', 'Heads: must divide the model size 32'],
    },
    zh: {
      why: ['[data-testid="why-max-len"]', '80', '最长序列：最大为 60'],
      idea: ['[data-testid="idea-q-place"]', '50', '你的问题·地点：最大为 10'],
      self: ['.self-text', Array.from({ length: 17 }, (_, i) => `w${i}`).join(' '), '句子：'],
      dot: ['.dot-query input[data-row="0"][data-col="0"]', '', '查询 Q q1, d1'],
      translate: ['[data-testid="translate-speed"]', '500', '每帧训练步数：必须在 1 到 200 之间'],
      multihead: ['.multihead-text', Array.from({ length: 17 }, (_, i) => `w${i}`).join(' '), '句子：'],
      transformer: ['[data-testid="transformer-heads"]', '3', '头数：必须整除模型维度 32'],
    },
  };

  // The collapsed panel that holds a section's checked field (the reader opens it first).
  const PANELS = { translate: 'translate-panel-settings', transformer: 'transformer-panel-settings' };
  for (const lang of LANGS) {
    test(`${lang}: invalid input names the field, keeps the typed value, marks it and leaves the state alone`, async () => {
      const { page } = site;
      await loadArticle(1280, lang);
      for (const [id, [selector, value, expected]] of Object.entries(INVALID[lang])) {
        if (PANELS[id]) await openPanel(page, PANELS[id]);
        await page.waitForTimeout(200); // the panel's hash write
        const hashBefore = await page.evaluate(() => location.hash);
        const input = page.locator(`section[data-section="${id}"] ${selector}`);
        await input.scrollIntoViewIfNeeded();
        await input.fill(value);
        await input.dispatchEvent('change');
        await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('aria-invalid') === 'true', `section[data-section="${id}"] ${selector}`);
        const text = await page.locator(`section[data-section="${id}"]`).evaluate((s) => {
          const lines = [...s.querySelectorAll('.lab-field-error, .al-message[data-kind="error"]')].map((e) => e.textContent);
          return lines.join(' | ');
        });
        assert.ok(text.includes(expected), `${id}: expected a message with "${expected}", got "${text}"`);
        assert.equal(await input.inputValue(), value, `${id}: the typed value stays in the box`);
        // the message under the box covers neither a control nor the section's message line
        const covered = await page.locator(`section[data-section="${id}"]`).evaluate((s) => {
          const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          const out = [];
          for (const m of [...s.querySelectorAll('.lab-field-error')].filter((e) => e.textContent)) {
            for (const o of s.querySelectorAll('input, select, button, textarea, .al-message')) {
              const shown = o.getClientRects().length > 0 && (!o.matches('.al-message') || o.textContent !== '');
              if (shown && meets(m.getBoundingClientRect(), o.getBoundingClientRect())) out.push(`"${m.textContent}" covers ${o.dataset.testid ?? o.className}`);
            }
          }
          return out;
        });
        assert.deepEqual(covered, [], `${id}: a field's message covers other content`);
        await page.waitForTimeout(200); // a hash write would happen within 120 ms
        assert.equal(await page.evaluate(() => location.hash), hashBefore, `${id}: the refused value must not reach the state`);
        await keepScreenshot(page.locator(`section[data-section="${id}"]`), { path: `${artifactsDir}layout-invalid-${lang}-${id}.png` });
      }
    });
  }
});
