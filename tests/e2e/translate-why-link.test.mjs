// §3.3's ask-why interventions in the link and its training timeline, in the built page, on the
// book's recipe (translate_task=note): an intervention writes translate_why into the address, undo and reset
// rewrite it, and the address reloaded (then trained the same way) shows the same intervened
// translation; a malformed translate_why is named under its field and nothing is applied; the timeline
// fills while training, its slider moves the heatmap and the step, and the frames download as one
// JSON file and one PNG contact sheet. Screenshots at 1280, 768 and 390 px in English and Chinese.
// Needs a build. Run: node --test tests/e2e/translate-why-link.test.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { artifactsDir, keepScreenshot, openPanel, useSite } from './harness.mjs';
import { join } from 'node:path';

const SEC = '#section-translate .translate-section';
const WHY = `${SEC} [data-testid=translate-why]`;
const TL = `${SEC} [data-testid=translate-timeline]`;
const NOTE = 'translate_task=note&translate_cell=rnn&translate_hidden=128&translate_lr=0.001';

describe('§3.3 ask why: the link and the timeline', { timeout: 600_000 }, () => {
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const data = (s) => page.evaluate((q) => ({ ...document.querySelector(q)?.dataset }), s);
  const waitData = (s, key, value) => page.waitForFunction(([q, k, v]) => document.querySelector(q)?.dataset[k] === v, [s, key, value]);
  const linkValue = () => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('translate_why'));
  // the shell coalesces its address writes: wait for the value
  const waitLink = (value) => page.waitForFunction((v) => new URLSearchParams(location.hash.slice(1)).get('translate_why') === v, value);

  /** Loads `hash`, trains the recipe's 400 steps and waits for the decoding of the trained model. */
  async function loadTrained(hash) {
    await site.load(hash);
    await openPanel(page, 'translate-panel-words');
    await openPanel(page, 'translate-panel-why');
    await openPanel(page, 'translate-panel-timeline');
    await page.waitForSelector(`${SEC} .translate-vocab-word`);
    await page.click('[data-testid=translate-play]');
    await page.waitForFunction(() => document.querySelector('.translate-section')?.dataset.step === '400', null, { timeout: 240_000 });
    await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.modelStep === '400');
    await page.waitForSelector(`${WHY}:not([hidden])`);
  }

  /** The panel and the timeline at three widths (the page scrolled to them). */
  async function screenshots(lang) {
    for (const width of [1280, 768, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.locator(WHY).scrollIntoViewIfNeeded();
      await keepScreenshot(page.locator(WHY), { path: join(artifactsDir, `translate-why-link-${lang}-${width}.png`) });
      await keepScreenshot(page.locator(TL), { path: join(artifactsDir, `translate-timeline-${lang}-${width}.png`) });
      const overflow = await page.evaluate(([w, t]) => [w, t].map((q) => {
        const el = document.querySelector(q);
        return el.scrollWidth - el.clientWidth;
      }), [WHY, TL]);
      assert.deepEqual(overflow, [0, 0], `${lang} ${width}: the panel or the timeline is wider than its card`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  test('interventions go into the link, undo and reset rewrite it, the link reloads to the same translation; the timeline replays and exports', async () => {
    await loadTrained(`#view=translate&seed=1&translate_speed=200&${NOTE}`);
    assert.equal(await linkValue(), null);
    await page.click(`${WHY} .translate-why-cell[data-step="1"][data-source="0"]`);
    await waitData(WHY, 'interventions', '1');
    await waitLink('a2:1');
    const candidate = page.locator(`${WHY} .translate-why-candidate[data-step="0"]`).first();
    const word = await candidate.getAttribute('data-token');
    await candidate.click();
    await waitData(WHY, 'interventions', '2');
    const link = `a2:1,w1:${word}`;
    await waitLink(link);
    const intervened = (await data(WHY)).intervened;
    assert.ok(intervened.startsWith(word), intervened);

    // undo takes the last one out of the link too; redo it, and reset empties the link
    await page.click(`${WHY} [data-testid=translate-why-undo]`);
    await waitData(WHY, 'interventions', '1');
    await waitLink('a2:1');
    await candidate.click();
    await waitData(WHY, 'interventions', '2');
    await waitLink(link);

    // the timeline: frames recorded while training, the slider moves the map and the step
    await page.waitForFunction((q) => Number(document.querySelector(q)?.dataset.frames) > 2, TL);
    const frames = Number((await data(TL)).frames);
    assert.ok(frames <= 100, `frames ${frames}`);
    assert.equal((await data(TL)).step, '400');
    await page.locator(`${TL} [data-testid=translate-timeline-slider]`).fill('0');
    await waitData(TL, 'frame', '0');
    assert.equal((await data(TL)).step, '0');
    assert.match(await page.locator(`${TL} [data-testid=translate-timeline-frame]`).textContent(), /^Step 0: /);
    assert.match(await page.locator(`${TL} #translate-timeline-map h3`).textContent(), /Attention at step 0/);
    await page.locator(`${TL} [data-testid=translate-timeline-slider]`).fill(String(frames - 1));
    await waitData(TL, 'step', '400');
    assert.match(await page.locator(`${TL} #translate-timeline-map h3`).textContent(), /Attention at step 400/);

    // downloads: one JSON of every frame, one PNG contact sheet
    const [json] = await Promise.all([page.waitForEvent('download'), page.click(`${TL} [data-testid=translate-timeline-json]`)]);
    assert.equal(json.suggestedFilename(), 'translate-timeline.json');
    const timeline = JSON.parse(readFileSync(await json.path(), 'utf8'));
    assert.equal(timeline.frames.length, frames);
    assert.equal(timeline.frames.at(-1).step, 400);
    assert.deepEqual(timeline.probe.map((s) => s.text), ['咖哥', '喜欢', '小冰']);
    const [png] = await Promise.all([page.waitForEvent('download'), page.click(`${TL} [data-testid=translate-timeline-png]`)]);
    assert.equal(png.suggestedFilename(), 'translate-timeline-frames.png');
    const bytes = readFileSync(await png.path());
    await png.saveAs(join(artifactsDir, 'translate-timeline-sheet.png'));
    assert.equal(bytes.subarray(1, 4).toString(), 'PNG');
    assert.equal((await data(TL)).sheetFrames, String(Math.min(12, frames)));
    await screenshots('en');

    // the same address, reloaded and trained the same way: the same intervened translation
    const hash = await page.evaluate(() => location.hash);
    assert.match(hash, /translate_why=/);
    await loadTrained(hash);
    await waitData(WHY, 'interventions', '2');
    assert.equal((await data(WHY)).intervened, intervened);
    assert.match(await page.locator(`${WHY} .translate-why-list`).textContent(), /Step 2: all attention on “咖哥”/);

    // reset empties the link
    await page.click(`${WHY} [data-testid=translate-why-reset]`);
    await waitData(WHY, 'interventions', '0');
    await page.waitForFunction(() => !new URLSearchParams(location.hash.slice(1)).has('translate_why'));
  });

  test('a malformed link is named under its field and nothing is applied; a new sentence clears the link', async () => {
    // markup in the link stays text
    const bad = encodeURIComponent('a2:1,<img src=x onerror=alert(1)>');
    await site.load(`#view=translate&lang=zh&seed=1&${NOTE}&translate_why=${bad}`);
    await page.waitForSelector(`${WHY}:not([hidden])`);
    await waitData(WHY, 'linkError', '1');
    const error = await page.locator(`${WHY} [data-testid=translate-why-link-error]`).textContent();
    assert.match(error, /链接中的干预（translate_why）：第 2 项“<img src=x onerror=alert\(1\)>”/);
    assert.equal(await page.locator(`${WHY} img`).count(), 0);
    assert.equal((await data(WHY)).interventions, '0');
    // a link with interventions opened the ask-why panel; the timeline is the reader's to open
    assert.equal(await page.locator('details[data-testid=translate-panel-why]').evaluate((d) => d.open), true);
    await openPanel(page, 'translate-panel-timeline');
    await page.waitForSelector(`${SEC} [data-testid=translate-timeline]`);
    assert.match(await page.locator(`${SEC} [data-testid=translate-timeline]`).textContent(), /训练中对齐是怎样形成的/);
    assert.match(await page.locator(`${WHY} > h3`).textContent(), /问问模型为什么/);

    await site.load(`#view=translate&seed=1&${NOTE}&translate_why=a0:1`);
    await page.waitForSelector(`${WHY}:not([hidden])`);
    await waitData(WHY, 'linkError', '1');
    assert.match(await page.locator(`${WHY} [data-testid=translate-why-link-error]`).textContent(), /Interventions in the link \(translate_why\): item 1 “a0:1”: the step must be a whole number from 1/);
    // a zero-head item is the Transformer's
    await site.load(`#view=translate&seed=1&${NOTE}&translate_why=zc1.1`);
    await page.waitForSelector(`${WHY}:not([hidden])`);
    await waitData(WHY, 'linkError', '1');
    assert.match(await page.locator(`${WHY} [data-testid=translate-why-link-error]`).textContent(), /zeroing a head needs a Transformer/);

    // a good link on the untrained model; then another sentence: the link is cleared
    await site.load(`#view=translate&seed=1&${NOTE}&translate_why=a1:1`);
    await page.waitForSelector(`${WHY}:not([hidden])`);
    await waitData(WHY, 'interventions', '1');
    await openPanel(page, 'translate-panel-words');
    await page.locator(`${SEC} .translate-vocab-word`).first().click();
    await page.waitForFunction(() => !new URLSearchParams(location.hash.slice(1)).has('translate_why'));
  });

  test('Chinese: the panel and the timeline at three widths', async () => {
    await loadTrained(`#view=translate&lang=zh&seed=1&translate_speed=200&${NOTE}&translate_why=a2:1`);
    await waitData(WHY, 'interventions', '1');
    await page.waitForFunction((q) => Number(document.querySelector(q)?.dataset.frames) > 2, TL);
    assert.match(await page.locator(`${TL} [data-testid=translate-timeline-frame]`).textContent(), /^第 400 步：/);
    await screenshots('zh');
  });
});
