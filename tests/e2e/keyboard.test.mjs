// The article by keyboard alone. From the top of the page to §3.4 takes at most 120 presses of Tab
// (a grid or a list of buttons is one Tab stop, arrow keys move inside it); a skip link leads to
// the content and each section's "skip this figure" link to the next section. §3.3 is walked with
// the keyboard only: Train (the focus stays on a control while the pressed button disables itself),
// Pause, train on to the end, translate a typed sentence, step the decoding, read a heatmap cell,
// force an attention in the ask-why grid, export a figure; what its live regions said meanwhile is
// recorded and printed (what a screen-reader user hears). Needs a build. Run: node --test tests/e2e/keyboard.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useSite } from './harness.mjs';

const SEC = '#section-translate .translate-section';
const WHY = `${SEC} [data-testid=translate-why]`;
const NOTE = 'translate_task=note&translate_cell=rnn&translate_hidden=128&translate_lr=0.001';
const MAX_TAB_STOPS_TO_SELF = 120;

describe('the article by keyboard', { timeout: 400_000 }, () => {
  /** @type {import('playwright-core').Page} */
  let page;
  let site;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  /** What has the focus: test id, class and text of the active element (the body: 'BODY'). */
  const focused = () =>
    page.evaluate(() => {
      const a = document.activeElement;
      if (!a || a === document.body) return { tag: 'BODY', testid: '', className: '', text: '' };
      return { tag: a.tagName, testid: a.dataset?.testid ?? '', className: String(a.className), text: (a.textContent ?? '').trim().slice(0, 60) };
    });

  /** Presses Tab until `matches(active element)` holds (evaluated in the page); returns the number of presses. */
  async function tabUntil(matches, limit = 400) {
    for (let n = 1; n <= limit; n++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(matches)) return n;
    }
    throw new Error(`no match after ${limit} presses of Tab; the focus is on ${JSON.stringify(await focused())}`);
  }

  const fromTop = () =>
    page.evaluate(() => {
      window.scrollTo(0, 0);
      document.activeElement?.blur?.();
      // the next Tab starts at the top of the document
      document.body.tabIndex = -1;
      document.body.focus();
      document.body.removeAttribute('tabindex');
    });

  test(`from the top to §3.4 in at most ${MAX_TAB_STOPS_TO_SELF} Tab stops; the skip links lead on`, async () => {
    // §3.3's ask-why and vocabulary panels open and filled: the most stops a reader can meet
    await site.load('#lang=en&translate_open_why=1&translate_open_words=1');
    await page.waitForSelector(`${WHY} .translate-why-cell`, { state: 'attached', timeout: 60_000 });
    await fromTop();
    const stops = await tabUntil(() => document.activeElement?.closest('#section-self') !== null, 2000);
    console.log(`Tab stops from the top of the article to §3.4: ${stops}`);
    assert.ok(stops <= MAX_TAB_STOPS_TO_SELF, `${stops} Tab stops to §3.4`);

    // the first stop is the skip link; it moves the focus to the content
    await fromTop();
    await page.keyboard.press('Tab');
    assert.equal((await focused()).className.includes('skip-link'), true, 'the first Tab stop is the skip link');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'article');
    // each section starts with a link past its figure, to the next section's heading
    await tabUntil(() => document.activeElement?.closest('#section-translate') !== null);
    const skip = await focused();
    assert.match(skip.className, /skip-figure/);
    assert.match(skip.text, /3\.4–3\.5 QKV and self-attention/);
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'section-self-title');
    assert.equal(await page.evaluate(() => location.hash.includes('section')), false, 'the app state in the hash is left alone');
  });

  test('§4: Train and Pause hand the focus to each other', async () => {
    // A run the measured speed predicts at over a minute asks first, and the question takes the
    // focus; whether the default run asks depends on this machine's speed. So the run here is one
    // that always asks (100000 steps), answered before the keys are pressed: Train them all, then
    // Pause. Train resumes the same run and never asks again.
    await site.load('#view=transformer&seed=1&transformer_steps=100000');
    await page.waitForSelector('[data-testid=transformer-status][data-params]', { state: 'attached', timeout: 120_000 }); // the model is made
    await page.click('[data-testid=transformer-train]');
    await page.locator('[data-testid=transformer-confirm]').waitFor({ state: 'visible', timeout: 60_000 });
    await page.click('[data-testid=transformer-confirm-run]');
    await page.click('[data-testid=transformer-pause]');
    await page.waitForFunction(() => document.querySelector('.transformer-section')?.dataset.playing === '0');
    await page.focus('[data-testid=transformer-train]');
    await page.keyboard.press('Enter');
    assert.equal((await focused()).testid, 'transformer-pause', 'Train disabled itself: the focus moved to Pause');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.transformer-section')?.dataset.playing === '0');
    assert.equal((await focused()).testid, 'transformer-train', 'Pause disabled itself: the focus moved back to Train');
    assert.equal(await page.locator('[data-testid=transformer-confirm]').isVisible(), false, 'not asked again');
  });

  test('reduced motion: the decodings stay still after load, the contents jump without a smooth scroll', async () => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    try {
      await site.load('#lang=en');
      for (const view of ['.translate-decode', '.transformer-decode']) {
        await page.waitForFunction((s) => document.querySelector(s)?.dataset.done === '1', view, { timeout: 60_000 });
        const shown = await page.evaluate((s) => ({ ...document.querySelector(s).dataset }), view);
        assert.equal(shown.step, shown.steps, `${view} shows the whole translation`);
        await page.waitForTimeout(1000);
        assert.equal(await page.evaluate((s) => document.querySelector(s).dataset.step, view), shown.step, `${view} did not move by itself`);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.click('.toc-link[data-section=transformer]');
      // no smooth scroll: the heading is at the top at once, not a few frames later
      const top = await page.evaluate(() => document.getElementById('section-transformer-title').getBoundingClientRect().top);
      assert.ok(top < 200, `the heading is ${top} px down right after the click`);
    } finally {
      await page.emulateMedia({ reducedMotion: null });
    }
  });

  test('§3.3 by keyboard alone: train, pause, translate, step the decoding, read a cell, ask why, export', async () => {
    await site.load(`#view=translate&seed=1&translate_speed=1&${NOTE}&translate_open_why=1&translate_open_words=1`); // the panels the walk uses, opened
    await page.waitForSelector(`${SEC} .translate-vocab-word`);
    // record every live region's announcements from now on
    await page.evaluate(() => {
      window.__heard = [];
      const t0 = performance.now();
      const observer = new MutationObserver((records) => {
        for (const r of records) {
          const region = (r.target.nodeType === 1 ? r.target : r.target.parentElement)?.closest('[aria-live], [role=status], [role=alert], output');
          if (!region || region.closest('[hidden]') || region.getAttribute('aria-live') === 'off') continue;
          const text = (region.textContent ?? '').trim();
          const last = window.__heard.at(-1);
          if (text && !(last && last.text === text && last.region === region.className)) window.__heard.push({ ms: Math.round(performance.now() - t0), region: String(region.className), text });
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    });

    await fromTop();
    await tabUntil(() => document.activeElement?.dataset.testid === 'translate-play');
    await page.keyboard.press('Enter');
    assert.equal((await focused()).testid, 'translate-pause', 'Train disabled itself: the focus moved to Pause');
    await page.waitForFunction(() => Number(document.querySelector('.translate-section')?.dataset.step) >= 340, null, { timeout: 120_000 });
    await page.keyboard.press('Enter'); // Pause
    await page.waitForFunction(() => document.querySelector('.translate-section')?.dataset.playing === '0');
    assert.equal((await focused()).testid, 'translate-play', 'Pause disabled itself: the focus moved back to Train');
    await page.keyboard.press('Enter'); // on to the end of the recipe
    await page.waitForFunction(() => document.querySelector('.translate-section')?.dataset.step === '400', null, { timeout: 120_000 });
    await page.waitForFunction(() => document.querySelector('.translate-section')?.dataset.playing === '0');
    assert.notEqual((await focused()).tag, 'BODY', 'the run ended: the focus is still on a control');
    await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.modelStep === '400');

    // translate a typed sentence
    await tabUntil(() => document.activeElement?.dataset.testid === 'translate-text');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('咖哥 喜欢 小冰');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-output]')?.value === 'KaGe likes XiaoBing', null, { timeout: 30_000 });
    // the decoding does not play by itself: it shows the whole translation
    assert.equal(await page.evaluate(() => document.querySelector('.translate-decode').dataset.done), '1');

    // step the decoding from the start
    await tabUntil(() => document.activeElement?.dataset.testid === 'translate-decode-step');
    await page.keyboard.press('Shift+Tab'); // Play
    await page.keyboard.press('Tab'); // Next token
    await page.keyboard.press('Tab'); // From the start
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.querySelector('.translate-decode').dataset.step), '0');
    await page.keyboard.press('Shift+Tab'); // Next token
    const outputs = [];
    for (let k = 1; k <= 3; k++) {
      await page.keyboard.press('Enter');
      outputs.push(await page.evaluate(() => document.querySelector('[data-testid=translate-output]').value));
    }
    assert.deepEqual(outputs, ['KaGe', 'KaGe likes', 'KaGe likes XiaoBing']);
    // Play disables itself while it plays: the focus goes to Next token
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    assert.equal((await focused()).testid, 'translate-decode-step');
    await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.done === '1');

    // read a cell of the decoding's heatmap
    await tabUntil(() => document.activeElement?.closest('#translate-attention') !== null && document.activeElement.tagName === 'CANVAS');
    await page.keyboard.press('ArrowRight');
    const cell = await page.evaluate(() => document.activeElement.closest('figure, .heatmap, [id=translate-attention]')?.querySelector('.focus-text')?.textContent ?? '');
    assert.match(cell, /\d\.\d\d/, `the cell read out: "${cell}"`);

    // ask why: the grid is one Tab stop; arrows move; Enter forces the cell
    await tabUntil(() => document.activeElement?.classList.contains('translate-why-cell'));
    const first = await page.evaluate(() => [document.activeElement.dataset.step, document.activeElement.dataset.source]);
    assert.deepEqual(first, ['0', '0']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    assert.deepEqual(await page.evaluate(() => [document.activeElement.dataset.step, document.activeElement.dataset.source]), ['1', '1']);
    const name = await page.evaluate(() => document.activeElement.getAttribute('aria-label') ?? '');
    const shown = await page.evaluate(() => document.activeElement.textContent);
    assert.ok(name.startsWith(shown), `the cell's name "${name}" starts with what it shows, "${shown}"`);
    await page.keyboard.press('Enter');
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.interventions === '1', WHY);
    // one more Tab leaves the grid for the candidates (also one stop)
    await page.keyboard.press('Tab');
    assert.equal((await focused()).className.includes('translate-why-candidate'), true, 'after the grid: the candidates');
    await page.keyboard.press('Tab');
    assert.equal((await focused()).className.includes('translate-why-candidate'), false, 'the candidates are one Tab stop');

    // export: the next figure's menu, by keyboard
    await tabUntil(() => document.activeElement?.classList.contains('export-toggle'));
    const download = page.waitForEvent('download');
    await page.keyboard.press('Enter'); // opens the menu on its first item
    for (let i = 0; i < 4 && (await page.evaluate(() => document.activeElement?.dataset.export)) !== 'csv'; i++) await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.export), 'csv');
    await page.keyboard.press('Enter');
    const file = await download;
    assert.match(file.suggestedFilename(), /\.csv$/);

    const heard = await page.evaluate(() => window.__heard);
    console.log(`what a screen reader heard in §3.3:\n${heard.map((h) => `  ${String(h.ms).padStart(6)} ms  [${h.region}] ${h.text}`).join('\n')}`);
    const training = heard.filter((h) => h.region.includes('lab-announcer'));
    assert.match(training[0]?.text ?? '', /^Training: Step 0 of the 400-step recipe/);
    assert.ok(training.some((h) => /^Paused: Step \d+ of the 400-step recipe/.test(h.text)), 'the pause was announced');
    assert.ok(training.some((h) => /^Training done: Step 400/.test(h.text)), 'the end was announced');
    const progress = training.filter((h, i) => i > 0 && h.text.startsWith('Training: ') && training[i - 1].text.startsWith('Training: '));
    assert.ok(progress.length >= 1, 'progress was announced while training');
    for (let i = 1; i < training.length; i++) {
      if (training[i].text.startsWith('Training: ') && training[i - 1].text.startsWith('Training: ')) {
        assert.ok(training[i].ms - training[i - 1].ms >= 4000, `progress announced ${training[i].ms - training[i - 1].ms} ms after the last`);
      }
    }
    assert.ok(heard.some((h) => h.region.includes('translate-output') && h.text === 'KaGe likes XiaoBing'), 'the translation was announced');
  });
});
