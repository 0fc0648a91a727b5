// Every run of the other language carries its own `lang`, so a screen reader reads it with the right
// voice: on the English article no text with Chinese characters sits outside an element whose lang
// starts with zh, and on the Chinese article no English words (two letters or more, without Chinese
// characters) sit outside one whose lang starts with en. Checked after the page has been scrolled
// through (every section drawn) and again after §3.3 translated a typed sentence.
// Needs a build. Run: node --test tests/e2e/lang.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readUntil, scrollThrough, useSite } from './harness.mjs';

/** The text nodes of the page whose language is not marked (up to 10 of them, and the count). */
const unmarked = (page) =>
  page.evaluate(() => {
    const zhPage = document.documentElement.lang.startsWith('zh');
    const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
    const WORD = /[A-Za-z]{2,}/;
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (!parent || parent.closest('script, style, [hidden], output.heatmap-data')) continue;
      const text = n.data.trim();
      if (!text) continue;
      const lang = (parent.closest('[lang]')?.getAttribute('lang') ?? '').toLowerCase();
      const bad = zhPage ? WORD.test(text) && !HAN.test(text) && !lang.startsWith('en') : HAN.test(text) && !lang.startsWith('zh');
      if (bad) found.push(`${parent.tagName.toLowerCase()}.${parent.className}: ${text.slice(0, 50)}`);
    }
    return { count: found.length, some: found.slice(0, 10) };
  });

/**
 * The unmarked runs once the page has had time to mark them: text written in the last frame (§5's
 * corpus line arrives from the worker whenever its poems are read) is marked by the next one, so a
 * run counts only if it stays unmarked for 3 s.
 */
const settled = (page) => readUntil(() => unmarked(page), (found) => found.count === 0, 3_000);

describe('the other language marked with its lang', { timeout: 300_000 }, () => {
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  for (const [lang, sentence] of [['en', '咖哥 喜欢 小冰'], ['zh', '小冰 喜欢 咖哥']]) {
    test(`the ${lang === 'en' ? 'English' : 'Chinese'} article`, async () => {
      await site.load(`#lang=${lang}&translate_open_why=1&translate_open_words=1&translate_open_settings=1`); // the panels whose words and task menu it uses, opened
      await page.waitForSelector('[data-testid=translate-why] .translate-why-cell', { state: 'attached', timeout: 60_000 });
      await scrollThrough(page);
      const loaded = await settled(page);
      console.log(`${lang} article: ${loaded.count} text runs of the other language without their lang`);
      assert.deepEqual(loaded.some, [], `${loaded.count} unmarked`);

      await page.selectOption('[data-testid=translate-task]', 'note');
      await page.waitForSelector('#section-translate .translate-vocab-word');
      await page.fill('[data-testid=translate-text]', sentence);
      await page.press('[data-testid=translate-text]', 'Enter');
      await page.waitForFunction((s) => document.querySelector('[data-testid=translate-why]')?.dataset.intervened !== undefined && document.querySelector('[data-testid=translate-text]').value === s, sentence);
      const translated = await settled(page);
      assert.deepEqual(translated.some, [], `after a translation: ${translated.count} unmarked`);
    });
  }
});

describe('a widget marks the other language in its own box', { timeout: 120_000 }, () => {
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  test('the multi-head widget on an English page: its Chinese tokens carry lang zh', async () => {
    await site.load('', '/examples/test-one-multihead.html');
    await page.waitForFunction(() => document.querySelector('multihead-view')?.dataset.ready === 'true');
    await page.waitForTimeout(500); // the runs are marked once per frame
    const found = await page.evaluate(() => {
      const root = document.querySelector('multihead-view').shadowRoot;
      const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
      const out = { zh: 0, unmarked: [] };
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const parent = n.parentElement;
        if (!parent || parent.closest('style, [hidden], output.heatmap-data') || !HAN.test(n.data)) continue;
        if ((parent.closest('[lang]')?.getAttribute('lang') ?? '').startsWith('zh')) out.zh++;
        else out.unmarked.push(n.data.trim().slice(0, 40));
      }
      return { ...out, box: root.querySelector('.widget-body')?.getAttribute('lang') };
    });
    assert.equal(found.box, 'en', 'the widget box says its language');
    assert.ok(found.zh > 0, 'no Chinese text found to check');
    assert.deepEqual(found.unmarked, []);
  });
});
