// §4 as a first-time reader meets it, in English and Chinese: typing into the sentence box
// translates (no Enter, no Tab) even with a refused setting beside it; unknown tokens are listed
// once each with a count and the output says it is a guess; the untrained model's 1 × 1 maps say
// what they are and the decoding shows its result, not a waiting message (at 1280 and 390 px); the
// line that says where the last run ended goes when the next run starts; a run goes on off screen; a run's end says
// "being scored" until its score comes, never "not scored yet", and the score is on the page once; a
// long run's estimate is given once, with one measured speed; and the "Try this" prompts use no
// word the article explains only further down.
// Needs a build (npm run build:web). Run: node --test tests/e2e/transformer-reader.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keepScreenshot, usePhone, useSite } from './harness.mjs';

const SEC = '.transformer-section';
const LANGS = ['en', 'zh'];
const WORDS = {
  en: { notScored: 'not scored yet', scoring: 'being scored', empty: /^Type a date to convert, in any format \(e\.g\. JAN 23, 2015\)/, more: / and 1 more\./, guess: /^1 of the 6 source tokens .*this output is a guess\.$/, all: /^200 of the 200 /, waiting: /Waiting/, single: /1 × 1 maps: the untrained model wrote one token/, trained: /Trained to step (\d+)/, ms: /([\d.]+) ms per step/g },
  zh: { notScored: '尚未评估', scoring: '正在评估', empty: /^请输入要转换的日期，格式不限（例如 JAN 23, 2015）/, more: /，另有 1 个。/, guess: /^源序列的 6 个词元中有 1 个不在模型词表中.*只是猜测。$/, all: /^源序列的 200 个词元中有 200 个/, waiting: /等待/, single: /1 × 1：未训练的模型只写出一个词元/, trained: /已训练到第 (\d+) 步/, ms: /每步 ([\d.]+) 毫秒/g },
};

describe('§4 as a first-time reader finds it', { timeout: 600_000 }, () => {
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });
  const phone = usePhone(() => site);

  const dataset = (selector, p = page) => p.evaluate((s) => ({ ...document.querySelector(s)?.dataset }), selector);
  const text = async (testid, p = page) => ((await p.locator(`[data-testid="${testid}"]`).first().textContent()) ?? '').trim();
  /** the source tokens as drawn (a space as ␣) */
  const sourceTokens = () => page.locator(`${SEC} [data-testid=transformer-source] .transformer-token-text`).allTextContents();

  async function open(lang, extra = '', p = page) {
    if (p === page) await site.load(`#view=transformer&lang=${lang}${extra}`);
    else await phone.open(`#view=transformer&lang=${lang}${extra}`);
    await p.waitForFunction((s) => document.querySelector(s)?.dataset.translatedAt !== undefined, SEC, { timeout: 60_000 });
  }

  /** Trains towards 100000 steps: after its first seconds of measuring, the run pauses and asks. */
  async function askLongRun(lang) {
    await open(lang, '&transformer_steps=100000');
    await page.click('[data-testid=transformer-train]');
    await page.waitForFunction(() => document.querySelector('[data-testid=transformer-confirm]')?.hidden === false, null, { timeout: 60_000 });
  }

  /** Types into the sentence box as a reader does: fill, then wait; no Enter, no Tab, no change event. */
  async function type(value) {
    await page.locator('[data-testid=transformer-text]').fill(value);
  }

  test('typing translates at once, even beside a refused setting; unknown tokens are listed once each, and the output says it is a guess', async () => {
    for (const lang of LANGS) {
      const w = WORDS[lang];
      await open(lang, '&transformer_open_settings=1');
      // heads = 3 does not divide d_model 32: the field says so and the model stays as it was
      await page.locator('[data-testid=transformer-heads]').fill('3');
      await page.locator('[data-testid=transformer-heads]').press('Tab');
      assert.equal(await page.locator('[data-testid=transformer-heads]').getAttribute('aria-invalid'), 'true', lang);
      await page.locator('[data-testid=transformer-text]').focus();

      // a new date: its own tokens are translated, with the focus still in the box
      await type('31 FEB 2020');
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=transformer-source] .transformer-token-text')].map((c) => c.textContent).join('') === '31␣FEB␣2020');
      assert.deepEqual(await sourceTokens(), [...'31␣FEB␣2020'], lang);
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'transformer-text', `${lang}: the focus stays in the box`);
      assert.equal(await text('transformer-output-unknown'), '', `${lang}: every token known`);

      // an emoji: named as unknown, and the output says it is a guess
      await type('😀 2015');
      await page.waitForFunction(() => document.querySelector('[data-testid=transformer-source] .transformer-token-text')?.textContent === '😀');
      assert.match(await text('transformer-notice'), /😀/, lang);
      assert.match(await text('transformer-output-unknown'), w.guess, lang);
      assert.equal(await page.locator('[data-testid=transformer-output-unknown]').isVisible(), true, lang);

      // an empty box says what to type, right under the box
      await type('');
      await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('[data-testid=transformer-text-note]')?.textContent ?? ''), w.empty.source);
      const box = await page.locator('[data-testid=transformer-text]').boundingBox();
      const note = await page.locator('[data-testid=transformer-text-note]').boundingBox();
      assert.ok(note.y >= box.y + box.height && note.y - (box.y + box.height) < 40, `${lang}: the note ${JSON.stringify(note)} under the box ${JSON.stringify(box)}`);

      // 200 × "x": one "x", with its count, not 200 of them
      await type('x'.repeat(200));
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=transformer-source] .transformer-token').length === 200);
      const notice = await text('transformer-notice');
      assert.match(notice, /x ×200/, lang);
      assert.ok(notice.length < 120, `${lang}: ${notice}`);
      assert.match(await text('transformer-output-unknown'), w.all, lang);

      // seven different unknown tokens: six named, then how many more
      await type('★☆♠♣♥♦♪ 2015');
      await page.waitForFunction(() => document.querySelector('[data-testid=transformer-source] .transformer-token-text')?.textContent === '★');
      const seven = await text('transformer-notice');
      assert.match(seven, w.more, `${lang}: ${seven}`);
      assert.doesNotMatch(seven, /♪/, lang);
      await site.screenshot(`transformer-reader-typing-${lang}`);
    }
  });

  test('before training: the 1 × 1 decoder maps say what they are, and the decoding shows its result (1280 and 390 px)', async () => {
    for (const lang of LANGS) {
      const w = WORDS[lang];
      for (const p of [page, phone.page]) {
        // the default model (seed 1) writes a single token before it is trained
        await open(lang, '', p);
        await p.waitForFunction(() => document.querySelector('[data-testid="transformer-grid-decoder"]')?.dataset.drawn === '1');
        assert.equal((await dataset('[data-testid="transformer-grid-decoder"] [data-testid=transformer-thumb]', p)).shape, '1,1', lang);
        // the maps are drawn, so the decoding is too: no waiting message beside them
        await p.waitForTimeout(1500);
        const progress = (await p.locator('.transformer-decode-progress').textContent()) ?? '';
        assert.doesNotMatch(progress, w.waiting, `${lang} ${p === page ? 1280 : 390} px: ${progress}`);
        assert.equal((await dataset('.transformer-decode', p)).done, '1', lang);
        const note = p.locator('[data-testid="transformer-grid-decoder"] [data-testid=transformer-single-note]');
        assert.equal(await note.isVisible(), true, lang);
        assert.match((await note.textContent()) ?? '', w.single, lang);
        // the encoder's maps are S × S: no note there
        assert.equal(await p.locator('[data-testid="transformer-grid-encoder"] [data-testid=transformer-single-note]').isVisible(), false, lang);
        if (p === phone.page) await keepScreenshot(p.locator('[data-testid="transformer-grid-decoder"]'), { path: `${process.cwd()}/test-artifacts/transformer-reader-single-${lang}-390.png` });
      }
    }
  });

  test('the line saying where the last run ended goes when the next run starts', async () => {
    for (const lang of LANGS) {
      const w = WORDS[lang];
      // the run's end (it paused to ask) is narrated at the step it reached
      await askLongRun(lang);
      await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('.transformer-section .transformer-narration')?.textContent ?? ''), w.trained.source);
      const asked = Number((await page.locator('.transformer-section .transformer-narration').textContent()).match(w.trained)?.[1]);
      assert.equal(asked, Number((await dataset(SEC)).step), lang);
      // "train them all": once the run is under way, no line says the model is at the step it asked at
      await page.click('[data-testid=transformer-confirm-run]');
      await page.waitForFunction(([s, n]) => Number(document.querySelector(s)?.dataset.step) >= n && document.querySelector(s)?.dataset.playing === '1', [SEC, asked + 10]);
      const during = await page.locator('.transformer-section .transformer-narration').textContent();
      assert.doesNotMatch(during, w.trained, `${lang} at step ${(await dataset(SEC)).step}: ${during}`);
      await page.click('[data-testid=transformer-pause]');
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.playing === '0', SEC);
      // paused: the line is back, with the step the run reached
      await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('.transformer-section .transformer-narration')?.textContent ?? ''), w.trained.source);
      assert.equal((await page.locator('.transformer-section .transformer-narration').textContent()).match(w.trained)?.[1], (await dataset(SEC)).step, lang);
    }
  });

  test('a long run is estimated once, at one measured speed: the question while it asks, the line under the bar after', async () => {
    for (const lang of LANGS) {
      const w = WORDS[lang];
      await askLongRun(lang);
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.playing === '0', SEC);
      await page.waitForTimeout(300);
      // one estimate on the screen: the question's
      const section = (await page.locator(SEC).innerText()).replace(/\n/g, ' ');
      const speeds = [...section.matchAll(w.ms)].map((m) => m[1]);
      assert.equal(speeds.length, 1, `${lang}: ${speeds.join(', ')}`);
      assert.equal(await page.locator('[data-testid=transformer-estimate]').isVisible(), false, lang);
      // declined: the line under the bar quotes the same speed
      await page.click('[data-testid=transformer-confirm-cancel]');
      await page.waitForFunction(() => document.querySelector('[data-testid=transformer-estimate]')?.textContent !== '');
      assert.deepEqual([...(await text('transformer-estimate')).matchAll(w.ms)].map((m) => m[1]), speeds, lang);
    }
  });
  test('a finished run says "being scored" until its held-out score comes, never "not scored yet", and the score is said once', async () => {
    for (const lang of LANGS) {
      const w = WORDS[lang];
      await open(lang, '&transformer_steps=30');
      // the status line at every change of it or of the section's step and running state
      await page.evaluate((sel) => {
        const root = document.querySelector(sel);
        const status = document.querySelector('[data-testid=transformer-status]');
        window.seenStatus = [];
        const record = () => window.seenStatus.push([Number(root.dataset.step), root.dataset.playing, status.textContent]);
        new MutationObserver(record).observe(status, { childList: true, characterData: true, subtree: true });
        new MutationObserver(record).observe(root, { attributes: true, attributeFilter: ['data-step', 'data-playing'] });
      }, SEC);
      await page.click('[data-testid=transformer-train]');
      await page.waitForFunction((s) => {
        const root = document.querySelector(s);
        return root?.dataset.playing === '0' && root.dataset.step === '30' && document.querySelector('[data-testid=transformer-status]')?.dataset.evaluatedAt === '30';
      }, SEC);
      const seen = await page.evaluate(() => window.seenStatus);
      const stale = seen.filter(([step, playing, t]) => step > 0 && playing === '0' && t.includes(w.notScored));
      assert.deepEqual(stale, [], `${lang}: the status once the run had ended`);
      assert.ok(seen.some(([, , t]) => t.includes(w.scoring)), `${lang}: the run's end was being scored: ${JSON.stringify(seen.slice(-3))}`);
      const status = await text('transformer-status');
      const score = /(\d+\.\d)%/.exec(status)?.[1];
      assert.ok(score !== undefined, `${lang}: ${status}`);
      const section = await page.locator(SEC).innerText();
      assert.equal(section.split(`${score}%`).length - 1, 1, `${lang}: the score ${score}% once on the page`);
      assert.match(await page.locator('.transformer-section .transformer-narration').textContent(), w.trained, lang);
    }
  });
  test('a run goes on while the reader scrolls back up the article, and finishes there', async () => {
    await site.load('#lang=en&transformer_steps=200');
    await page.locator('[data-testid=transformer-train]').scrollIntoViewIfNeeded();
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.translatedAt !== undefined, SEC, { timeout: 60_000 });
    await page.click('[data-testid=transformer-train]');
    await page.evaluate(() => scrollTo(0, 0));
    const train = await page.locator('[data-testid=transformer-train]').boundingBox();
    assert.ok(train.y > (await page.evaluate(() => innerHeight)), `§4 is off screen (Train at y ${train.y})`);
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.step === '200' && document.querySelector(s)?.dataset.playing === '0', SEC, { timeout: 120_000 });
  });

  // Words §4 explains only below its "Try this" prompts (the architecture diagram's residual
  // connections): the prompts must not lean on them.
  const LATER = { en: ['residual'], zh: ['残差'] };
  test('the "Try this" prompts use no word the article explains only further down', async () => {
    for (const lang of LANGS) {
      await site.load(`#lang=${lang}`);
      await page.waitForSelector(`${SEC} [data-testid=try-this] li`, { state: 'attached' });
      const first = await page.evaluate((words) => {
        // the article's text in reading order: where the reader first meets each word
        const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
        const found = {};
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          for (const word of words) {
            if (found[word] === undefined && n.data.toLowerCase().includes(word)) found[word] = n.parentElement.closest('[data-testid=try-this]') ? n.parentElement.closest('li').textContent : null;
          }
        }
        return found;
      }, LATER[lang]);
      for (const word of LATER[lang]) assert.equal(first[word] ?? null, null, `${lang}: “${word}” is first met in a prompt: ${first[word]}`);
    }
  });
});
