// §3.3 while it trains, as a reader finds it, in English and Chinese: the decoding shown is never a
// stale one presented as the live model's (it is decoded again while training runs and says at
// which training step; the untrained warning stays while the untrained model's decoding is shown),
// and the message that a settings change discarded the trained steps goes once the new model trains;
// a run trains on while the reader reads on to §4 and edits its settings, and finishes there.
// Needs a build (npm run build:web). Run: node --test tests/e2e/translate-live.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openPanel, useSite } from './harness.mjs';

/** How long each of the two §3.3 runs below trains before its steps are compared. */
const COMPARED_MS = 12_000;

const SEC = '#section-translate .translate-section';

describe('§3.3 while training', { timeout: 600_000 }, () => {
  /** @type {import('playwright-core').Page} */
  let page;
  let site;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const sectionStep = () => page.evaluate(() => Number(document.querySelector('.translate-section').dataset.step));

  for (const lang of ['en', 'zh']) {
    const stepWord = lang === 'en' ? /Decoded by the model at training step (\d+)/ : /模型在训练第 (\d+) 步时的解码/;

    test(`${lang}: mid-run the decoding is the model's at a named recent step, not the untrained one`, async () => {
      // one step a frame: the recipe's 800 steps take many seconds, so the run is watched mid-way
      await site.load(`#view=translate&lang=${lang}&seed=1&translate_speed=1`);
      await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.modelStep === '0');
      assert.equal(await page.locator(`${SEC} [data-testid=translate-untrained]`).isVisible(), true);
      assert.equal(await page.locator(`${SEC} [data-testid=translate-decoded-at]`).isVisible(), false);
      await page.click('[data-testid=translate-play]');
      await page.waitForFunction(() => Number(document.querySelector('.translate-section').dataset.step) >= 60, null, { timeout: 120_000 });
      // still training, and the decoding on screen comes from a trained step
      const seen = await page.waitForFunction(
        () => {
          const root = document.querySelector('.translate-section');
          const at = Number(document.querySelector('.translate-decode').dataset.modelStep);
          return root.dataset.playing === '1' && at >= 60 ? at : null;
        },
        null,
        { timeout: 30_000 },
      );
      const at = await seen.jsonValue();
      assert.equal(await page.locator(`${SEC} [data-testid=translate-untrained]`).isVisible(), false, 'the untrained warning went with the untrained decoding');
      const line = await page.locator(`${SEC} [data-testid=translate-decoded-at]`).textContent();
      const named = Number(stepWord.exec(line)?.[1]);
      assert.ok(named >= at, `the line names the decoding's step: "${line}" (decoded at ${at} or later)`);
      // it keeps up: a later decoding within a few seconds
      await page.waitForFunction((n) => Number(document.querySelector('.translate-decode').dataset.modelStep) > n, named, { timeout: 15_000 });
      await page.click('[data-testid=translate-pause]');
      // paused: the decoding is the paused model's, and the line says so
      await page.waitForFunction(() => document.querySelector('.translate-decode').dataset.modelStep === document.querySelector('.translate-section').dataset.step);
      const paused = await sectionStep();
      assert.equal(Number(stepWord.exec(await page.locator(`${SEC} [data-testid=translate-decoded-at]`).textContent())?.[1]), paused);
    });

    test(`${lang}: the "trained steps discarded" message goes when the new model trains`, async () => {
      await site.load(`#view=translate&lang=${lang}&seed=1`);
      await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.modelStep === '0');
      await page.click('[data-testid=translate-step]');
      await page.waitForFunction(() => document.querySelector('.translate-section').dataset.step === '1');
      await openPanel(page, 'translate-panel-settings');
      await page.selectOption(`${SEC} [data-testid=translate-score]`, 'cosine');
      const notice = page.locator(`${SEC} [data-testid=translate-notice]`);
      await page.waitForFunction(() => document.querySelector('.translate-section').dataset.step === '0');
      assert.match(await notice.textContent(), lang === 'en' ? /the 1 trained steps were discarded/ : /已训练的 1 步被丢弃/);
      await page.click('[data-testid=translate-step]');
      await page.waitForFunction(() => document.querySelector('.translate-section').dataset.step === '1');
      assert.equal((await notice.textContent()).trim(), '', 'the message described the model before; this one has trained');
    });
  }
  test('zh: §3.3 trains on while the reader edits §4 (heads 3, refused, then 4), as fast as a run watched in place, and finishes', async () => {
    const startRun = async () => {
      await site.load('#lang=zh&seed=1');
      await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.modelStep === '0');
      await page.locator('[data-testid=translate-play]').scrollIntoViewIfNeeded();
      await page.click('[data-testid=translate-play]');
      return Date.now();
    };
    const stepsAfter = async (started) => {
      await page.waitForTimeout(Math.max(0, started + COMPARED_MS - Date.now()));
      return sectionStep();
    };
    // the control: the same run, watched in place, nothing else touched
    const control = await stepsAfter(await startRun());
    assert.ok(control > 0, 'the run watched in place trained');
    // (on a fast, quiet machine the control may have finished its 800 steps by then, or finish
    // between a check and a click: nothing to pause, so check and click in one go)
    await page.evaluate(() => {
      const pause = document.querySelector('[data-testid=translate-pause]');
      if (pause instanceof HTMLButtonElement && !pause.disabled) pause.click();
    });
    // the reader's run: Train, then down to §4's settings
    const started = await startRun();
    await page.locator('#section-transformer').scrollIntoViewIfNeeded();
    await openPanel(page, 'transformer-panel-settings');
    const heads = page.locator('[data-testid=transformer-heads]');
    await heads.fill('3');
    await heads.press('Tab');
    assert.equal(await heads.getAttribute('aria-invalid'), 'true');
    await heads.fill('4');
    await heads.press('Tab');
    assert.notEqual(await heads.getAttribute('aria-invalid'), 'true');
    const play = await page.locator(`${SEC} [data-testid=translate-play]`).boundingBox();
    assert.ok(play.y + play.height < 0, `§3.3's Train is scrolled off screen (at y ${play.y})`);
    const edited = await stepsAfter(started);
    // on a loaded machine the two runs differ by chance; a paused or starved one reaches a few percent
    assert.ok(edited >= control / 3, `§3.3 reached step ${edited} while §4 was edited, against ${control} in the run watched in place`);
    // it finishes its recipe (800 steps) without being watched: paused at the end, scored there
    await page.waitForFunction(() => document.querySelector('.translate-section').dataset.playing === '0', null, { timeout: 240_000 });
    assert.equal(await sectionStep(), 800);
  });
});
