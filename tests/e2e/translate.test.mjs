// §3.3 in the built page (#view=translate). The default, the grammar corpus: the untrained model
// is labelled, training both models makes the attention model line the words up (alignment
// accuracy from the held-out table, and the heatmap's argmax on the long default sentence) while
// the plain one fails the long sentences; bad input (a number out of range, an empty or unspaced
// sentence, an unknown word) is named and leaves the model alone. Under translate_task=note, the book's
// recipe: the loss falls, decoding advances one word per step to "KaGe likes XiaoBing", an unknown
// word is marked, beam search shows its beams; and the dates task translates a typed date.
// Needs a build (npm run build:web, or ATTENTION_LAB_DIST=<outDir>). Run: node --test tests/e2e/translate.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { horizontalOverflow, openPanel, startSite, typedFieldOutlivesAnotherSetting, useSite } from './harness.mjs';

const SEC = '#section-translate .translate-section';
// The note's five sentences with the book's recipe (the section's defaults are the grammar's).
const NOTE = 'translate_task=note&translate_cell=rnn&translate_hidden=128&translate_lr=0.001';
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('§3.3 encoder-decoder attention', { timeout: 400_000 }, () => {
  /** @type {Awaited<ReturnType<typeof startSite>>} */
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  /** Loads the section and waits until its model exists (the vocabulary is listed, in its panel). */
  async function open(hash) {
    await site.load(hash);
    await openPanel(page, 'translate-panel-words');
    await page.waitForSelector(`${SEC} .translate-vocab-word`);
  }
  const dataset = (selector) => page.evaluate((s) => ({ ...document.querySelector(s)?.dataset }), selector);
  const losses = () => page.evaluate(() => JSON.parse(document.querySelector('[data-testid=translate-losses]').value));
  const output = () => page.locator(`${SEC} [data-testid=translate-output]`).textContent();

  /** Trains until the recipe's end (the section pauses there) and waits for its decoding. */
  async function trainRecipe(steps) {
    await page.click('[data-testid=translate-play]');
    await page.waitForFunction((n) => document.querySelector('.translate-section')?.dataset.step === String(n), steps, { timeout: 240_000 });
    await page.waitForFunction(() => document.querySelector('.translate-section')?.dataset.playing === '0');
    await page.waitForFunction((n) => document.querySelector('.translate-decode')?.dataset.modelStep === String(n), steps);
  }

  /** Restarts the decoding and steps it to the end, checking that each click adds one step. */
  async function stepDecoding() {
    await page.click('[data-testid=translate-decode-restart]');
    const { steps } = await dataset('.translate-decode');
    const total = Number(steps);
    assert.ok(total >= 1);
    assert.equal((await dataset('.translate-decode')).step, '0');
    assert.equal(await output(), '');
    const seen = [];
    for (let k = 1; k <= total; k++) {
      await page.click('[data-testid=translate-decode-step]');
      assert.equal((await dataset('.translate-decode')).step, String(k));
      seen.push(await output());
    }
    assert.equal((await dataset('.translate-decode')).done, '1');
    return seen;
  }

  const evaluation = (model) =>
    page.evaluate((m) => {
      const row = document.querySelector(`[data-testid=translate-compare] tr[data-model=${m}]`);
      return row?.dataset.evaluation ? JSON.parse(row.dataset.evaluation) : null;
    }, model);

  test('grammar corpus (the default): attention lines the words up, the plain model fails the long sentences', async () => {
    await open('#view=translate&seed=1&translate_speed=50');
    assert.equal(await page.locator(`${SEC} [data-testid=translate-task]`).inputValue(), 'zh-en');
    assert.equal(await page.locator(`${SEC} [data-testid=translate-progress]`).getAttribute('max'), '800');
    assert.match(await page.locator(`${SEC} [data-testid=translate-intro]`).textContent(), /GRU, hidden size 64, dot attention, Adam at 0.01, 32 sentence pairs per step, 800 steps/);
    assert.equal(await page.locator(`${SEC} [data-testid=translate-caption]`).isVisible(), false);
    // before training: labelled, and the empty charts and table say what will fill them
    assert.equal(await page.locator(`${SEC} [data-testid=translate-untrained]`).isVisible(), true);
    assert.equal(await page.locator(`${SEC} [data-testid=translate-charts-empty]`).isVisible(), true);
    assert.match(await page.locator(`${SEC} [data-testid=translate-compare]`).textContent(), /Train to fill this table/);
    assert.ok((await page.locator('[data-testid=translate-play]').getAttribute('class')).includes('primary'));
    await site.screenshot('translate-grammar-untrained');
    // the default sentence is a long held-out one
    await page.waitForFunction(() => document.querySelectorAll('.translate-token').length >= 10);

    await trainRecipe(800);
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-compare] tr[data-model=plain]')?.dataset.evaluation?.includes('"step":800'));
    const attention = await evaluation('attention');
    const plain = await evaluation('plain');
    assert.equal(attention.step, 800);
    assert.ok(attention.alignmentAccuracy >= 0.9, `alignment accuracy ${attention.alignmentAccuracy}`);
    assert.equal(plain.alignmentAccuracy, null);
    const longest = (e) => e.exactMatchByLength.at(-1);
    assert.equal(longest(attention).minLength, 12);
    assert.ok(longest(attention).exactMatch > longest(plain).exactMatch + 0.3, `12–14 words: ${longest(attention).exactMatch} vs ${longest(plain).exactMatch}`);
    console.log(`# browser, zh-en default recipe: attention ${(attention.trainMs / 1000).toFixed(1)} s of training, alignment ${(100 * attention.alignmentAccuracy).toFixed(1)}%, exact match ${(100 * attention.exactMatch).toFixed(1)}%; plain ${(plain.trainMs / 1000).toFixed(1)} s, exact match ${(100 * plain.exactMatch).toFixed(1)}%`);
    assert.equal(await page.locator(`${SEC} [data-testid=translate-untrained]`).isVisible(), false);
    assert.equal(await page.locator(`${SEC} [data-testid=translate-charts-empty]`).isVisible(), false);

    // the heatmap of the long held-out sentence: each content word's attention peaks on its source word
    await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.done === '1');
    const readout = await dataset('[data-testid=translate-sentence-alignment]');
    assert.ok(Number(readout.scored) >= 5, `scored ${readout.scored}`);
    assert.ok(Number(readout.hits) >= 0.8 * Number(readout.scored), `${readout.hits} of ${readout.scored}`);
    const map = await page.evaluate(() => {
      const out = document.querySelector('#translate-attention output.heatmap-data');
      return { shape: out.dataset.shape.split(',').map(Number), values: JSON.parse(out.value) };
    });
    assert.equal(map.shape[1], await page.locator(`${SEC} .translate-token`).count());
    await site.screenshot('translate-grammar');

    // the timeline records "the attention of the sentence above": the held-out one in the box, not
    // the box's text before the held-out sentences were known
    await openPanel(page, 'translate-panel-timeline');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=translate-timeline]')?.dataset.frames) > 1);
    const probe = await page.locator(`${SEC} [data-testid=translate-timeline]`).getAttribute('data-probe');
    assert.equal(probe, await page.locator(`${SEC} [data-testid=translate-text]`).inputValue(), 'the timeline records the sentence in the box');

    // on a phone the comparison table scrolls sideways, and its cut edge says so (it fades)
    await page.setViewportSize({ width: 390, height: 844 });
    const compare = page.locator(`${SEC} .translate-compare-scroll`);
    await page.waitForFunction((q) => document.querySelector(q)?.dataset.cut === 'right', `${SEC} .translate-compare-scroll`);
    assert.notEqual(await compare.evaluate((e) => getComputedStyle(e).maskImage), 'none', 'the cut edge fades');
    await compare.evaluate((e) => e.scrollTo({ left: e.scrollWidth }));
    await page.waitForFunction((q) => document.querySelector(q)?.dataset.cut === 'left', `${SEC} .translate-compare-scroll`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForFunction((q) => document.querySelector(q)?.dataset.cut === '', `${SEC} .translate-compare-scroll`);

    // changing a model setting throws the trained model away, and says so
    await openPanel(page, 'translate-panel-settings');
    // the line under the menu says what the chosen score computes, and the menu points at it
    const scoreNote = page.locator(`${SEC} [data-testid=translate-score-note]`);
    assert.match(await scoreNote.textContent(), /^Dot: .*q · kⱼ/);
    await page.selectOption('[data-testid=translate-score]', 'scaled');
    await page.waitForFunction(() => document.querySelector('.translate-section')?.dataset.step === '0');
    assert.match(await scoreNote.textContent(), /^Scaled dot: q · kⱼ \/ √d/);
    assert.equal(await page.getAttribute('[data-testid=translate-score]', 'aria-describedby'), await scoreNote.getAttribute('id'));
    assert.match(await page.locator(`${SEC} [data-testid=translate-notice]`).textContent(), /Attention score.*800 trained steps were discarded/);
    assert.equal(await page.locator(`${SEC} [data-testid=translate-untrained]`).isVisible(), true);
  });

  test('while playing, the time left to the recipe end at the measured speed shows beside the progress', async () => {
    // one step a frame: the note's 400-step recipe takes several seconds
    await open('#view=translate&seed=1&translate_speed=1');
    await page.click('[data-testid=translate-play]');
    await page.waitForFunction(() => /^about \d+ (s|min \d+ s) left at the measured speed$/.test(document.querySelector('[data-testid=translate-time-left]')?.textContent ?? ''), null, { timeout: 60_000 });
    await page.click('[data-testid=translate-pause]');
    await page.waitForFunction(() => document.querySelector('.translate-section')?.dataset.playing === '0');
    assert.equal(await page.locator('[data-testid=translate-time-left]').textContent(), '');
  });

  test('bad input is named by its field, keeps what was typed and leaves the model alone', async () => {
    await open('#view=translate&seed=1&translate_speed=50&translate_open_settings=1'); // the settings panel, where the speed is
    await page.click('[data-testid=translate-step]');
    await page.waitForFunction(() => document.querySelector('.translate-section')?.dataset.step === '1');
    // a number out of range
    await page.fill('[data-testid=translate-speed]', '500');
    await page.press('[data-testid=translate-speed]', 'Enter');
    await page.locator('[data-testid=translate-speed]').dispatchEvent('change');
    // the shared field error under the box (sections/dom.ts setFieldError)
    const error = page.locator(`${SEC} label:has([data-testid=translate-speed]) .lab-field-error`);
    await page.waitForFunction(() => /Steps per frame/.test(document.querySelector('.translate-section label:has([data-testid=translate-speed]) .lab-field-error')?.textContent ?? ''));
    assert.equal(await page.getAttribute('[data-testid=translate-speed]', 'aria-invalid'), 'true');
    assert.match(await error.textContent(), /Steps per frame: must be between 1 and 200 \(you typed 500\)/);
    assert.doesNotMatch(await error.textContent(), /translate_/);
    assert.equal(await page.inputValue('[data-testid=translate-speed]'), '500');
    assert.equal((await dataset('.translate-section')).step, '1');
    // an empty sentence clears the old result and says what to do
    await page.fill('[data-testid=translate-text]', '');
    await page.press('[data-testid=translate-text]', 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('.translate-token').length === 0);
    assert.equal(await output(), '');
    assert.match(await page.locator(`${SEC} [data-testid=translate-input-note]`).textContent(), /Type a sentence/);
    // the decoding asks for a sentence, not for training: this model has trained
    assert.equal(await page.locator(`${SEC} .translate-decode-progress`).textContent(), 'Type a sentence the model can translate (above), then watch it translate one token at a time.');
    // a sentence without spaces: the unknown word is named, and the spaced form offered
    await page.fill('[data-testid=translate-text]', '咖哥喜欢小冰');
    await page.press('[data-testid=translate-text]', 'Enter');
    await page.waitForSelector(`${SEC} [data-testid=translate-split]`);
    assert.match(await page.locator(`${SEC} [data-testid=translate-input-note]`).textContent(), /vocabulary: “咖哥喜欢小冰”.*did you mean “咖哥 喜欢 小冰”/);
    await page.click(`${SEC} [data-testid=translate-split]`);
    await page.waitForFunction(() => document.querySelectorAll('.translate-token').length === 3 && !document.querySelector('.translate-token.unknown'));
    assert.equal(await page.inputValue('[data-testid=translate-text]'), '咖哥 喜欢 小冰');
    assert.equal(await page.locator(`${SEC} [data-testid=translate-input-note]`).textContent(), '');
    assert.equal((await dataset('.translate-section')).step, '1');
    // a sentence longer than the model takes: said in the reader's words, the old result cleared
    await page.fill('[data-testid=translate-text]', '我 '.repeat(70));
    await page.press('[data-testid=translate-text]', 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('.translate-token').length === 0);
    assert.equal(await page.locator(`${SEC} [data-testid=translate-input-error]`).textContent(), 'Sentence: at most 64 words (this one has 70 words); shorten it');
    // longer than the setting keeps (200 characters): the box keeps it all and says so, nothing cut
    await page.fill('[data-testid=translate-text]', '我'.repeat(201));
    await page.press('[data-testid=translate-text]', 'Enter');
    assert.equal(await page.locator(`${SEC} [data-testid=translate-input-error]`).textContent(), 'Sentence: at most 200 characters (you typed 201)');
    assert.equal(await page.inputValue('[data-testid=translate-text]'), '我'.repeat(201));
  });

  test('a number typed in a field stays while another setting changes, and applies when the reader leaves the field', async () => {
    await site.load('#view=translate&seed=1');
    await openPanel(page, 'translate-panel-settings');
    await typedFieldOutlivesAnotherSetting(page, { field: 'translate-beam', name: 'translate_beam', value: '3', openSetting: 'translate_open_settings', panel: 'translate-panel-words', panelSetting: 'translate_open_words' });
  });

  test('grammar corpus in Chinese at 1280 and 390 px', async () => {
    await open('#view=translate&lang=zh&seed=1');
    assert.match(await page.locator(`${SEC} [data-testid=translate-intro]`).textContent(), /语序不同/);
    assert.match(await page.locator(`${SEC} [data-testid=translate-untrained]`).textContent(), /未训练/);
    // a score named in a word in its menu is defined under it (general: a matrix the model learns)
    await openPanel(page, 'translate-panel-settings');
    await page.selectOption('[data-testid=translate-score]', 'general');
    await page.waitForFunction(() => /^一般：qᵀ W kⱼ/.test(document.querySelector('[data-testid=translate-score-note]')?.textContent ?? ''));
    await site.screenshot('translate-grammar-zh');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    assert.ok((await horizontalOverflow(page)) <= 0, 'the section scrolls sideways at 390 px');
    await site.screenshot('translate-grammar-zh-390');
    await page.setViewportSize({ width: 1280, height: 900 });
    // a sentence longer than the model takes, named in Chinese
    await page.fill('[data-testid=translate-text]', '我 '.repeat(70));
    await page.press('[data-testid=translate-text]', 'Enter');
    await page.waitForFunction(() => /70/.test(document.querySelector('[data-testid=translate-input-error]')?.textContent ?? ''));
    assert.equal(await page.locator(`${SEC} [data-testid=translate-input-error]`).textContent(), '句子：最多 64 个词（这句有 70 个词），请缩短');
  });

  test("training the note's recipe lowers the loss; decoding steps to “KaGe likes XiaoBing”", async () => {
    await open(`#view=translate&seed=1&translate_speed=50&${NOTE}`);
    assert.equal(await page.locator(`${SEC} [data-testid=translate-progress]`).getAttribute('max'), '400');
    // the honest caption: five memorised sentences need no alignment
    assert.match(await page.locator(`${SEC} [data-testid=translate-caption]`).textContent(), /need no alignment/);
    assert.match(await page.locator(`${SEC} [data-testid=translate-intro]`).textContent(), /RNN, hidden size 128, dot attention, Adam at 0.001, one sentence pair per step, 400 steps/);
    // step trains exactly one step
    await page.click('[data-testid=translate-step]');
    await page.waitForFunction(() => document.querySelector('.translate-section')?.dataset.step === '1');
    await trainRecipe(400);
    const l = await losses();
    assert.equal(l.length, 400);
    assert.ok(l.every(Number.isFinite));
    assert.ok(mean(l.slice(-50)) < 0.25 * mean(l.slice(0, 50)), `loss ${mean(l.slice(0, 50))} → ${mean(l.slice(-50))}`);
    assert.equal(await page.locator(`${SEC} [data-testid=translate-progress]`).evaluate((p) => p.value), 400);

    const words = await stepDecoding();
    assert.deepEqual(words, ['KaGe', 'KaGe likes', 'KaGe likes XiaoBing', 'KaGe likes XiaoBing']);
    assert.equal((await dataset('[data-testid=translate-output]')).eos, '1'); // the last step chose <eos>
    // the heatmap grew to 4 rows (3 words and <eos>) over the 3 source words; rows sum to 1
    const map = await page.evaluate(() => {
      const out = document.querySelector('#translate-attention output.heatmap-data');
      return { shape: out.dataset.shape, values: JSON.parse(out.value) };
    });
    assert.equal(map.shape, '4,3');
    for (let r = 0; r < 4; r++) assert.ok(Math.abs(mean(map.values.slice(3 * r, 3 * r + 3)) * 3 - 1) < 1e-4);
    // the source words carry this step's attention; none is unknown
    assert.equal(await page.locator(`${SEC} .translate-token`).count(), 3);
    assert.equal(await page.locator(`${SEC} .translate-token.unknown`).count(), 0);
    await site.screenshot('translate');

    // another of the note's sentences, picked with its button
    await page.click('[data-testid=translate-example-1]');
    await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.done === '1' && document.querySelectorAll('.translate-token').length === 4);
    assert.equal(await output(), 'I love studying AI');
  });

  test('an unknown word is marked and read as <unk>, not a crash; clicking a vocabulary word adds it', async () => {
    await open(`#view=translate&seed=1&translate_speed=50&${NOTE}&translate_text=咖哥 讨厌 小冰`);
    await trainRecipe(400);
    const unknown = page.locator(`${SEC} .translate-token.unknown`);
    assert.equal(await unknown.count(), 1);
    assert.equal(await unknown.locator('.translate-token-text').textContent(), '讨厌');
    assert.equal(await page.locator(`${SEC} .translate-token`).count(), 3);
    await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.done === '1');
    assert.ok(((await output()) ?? '').length > 0);
    // …and said in words next to the sentence
    assert.match(await page.locator(`${SEC} [data-testid=translate-input-note]`).textContent(), /vocabulary: “讨厌”.*<unk>/);
    // a paste (the text set at once, no Enter, the box keeping the focus) translates too
    await page.fill('[data-testid=translate-text]', '咖哥 喜欢 大冰');
    await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('translate_text') === '咖哥 喜欢 大冰');
    await page.waitForFunction(() => document.querySelector('.translate-token.unknown .translate-token-text')?.textContent === '大冰');

    await page.fill('[data-testid=translate-text]', '咖哥');
    await page.press('[data-testid=translate-text]', 'Enter');
    await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('translate_text') === '咖哥');
    await page.locator(`${SEC} [data-testid=translate-vocab-word]`, { hasText: '喜欢' }).click();
    await page.locator(`${SEC} [data-testid=translate-vocab-word]`, { hasText: '小冰' }).click();
    assert.equal(await page.inputValue('[data-testid=translate-text]'), '咖哥 喜欢 小冰');
    await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.done === '1' && !document.querySelector('.translate-token.unknown'));
    assert.equal(await output(), 'KaGe likes XiaoBing');
  });

  test('beam search shows the beams kept at each step, with scores and parents', async () => {
    await open(`#view=translate&seed=1&translate_speed=50&translate_beam=3&${NOTE}`);
    await trainRecipe(400);
    await stepDecoding();
    const tables = page.locator(`${SEC} [data-testid=translate-beams] table`);
    const n = await tables.count();
    assert.equal(String(n), (await dataset('.translate-decode')).steps);
    // step 1 keeps 3 beams, all from <sos>; later beams name a parent of the previous step
    assert.equal(await tables.nth(0).locator('tr:has(td)').count(), 3);
    assert.match((await tables.nth(1).locator('td').nth(2).textContent()) ?? '', /^#\d /);
    assert.equal(await page.locator(`${SEC} [data-testid=translate-beams] tr.best`).count(), n);
    assert.equal(await output(), 'KaGe likes XiaoBing');
    await site.screenshot('translate-beam');
  });

  test('the dates task translates a typed date', async () => {
    await open('#view=translate&seed=1&translate_task=dates&translate_cell=lstm&translate_hidden=64&translate_lr=0.005&translate_speed=200');
    assert.equal(await page.locator(`${SEC} [data-testid=translate-progress]`).getAttribute('max'), '300');
    await trainRecipe(300);
    const l = await losses();
    assert.ok(mean(l.slice(-20)) < 0.2 * mean(l.slice(0, 20)), `loss ${mean(l.slice(0, 20))} → ${mean(l.slice(-20))}`);
    await page.fill('[data-testid=translate-text]', 'March 7, 2021');
    await page.press('[data-testid=translate-text]', 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('.translate-token').length === 13 && document.querySelector('.translate-decode')?.dataset.done === '1');
    assert.equal(await output(), '2021-03-07');
    await site.screenshot('translate-dates');
  });
  test('a hostile sentence in the address is only ever text; Chinese at phone width', async () => {
    const hostile = '<img src=x onerror=alert(1)> 咖哥';
    await open(`#view=translate&lang=zh&${NOTE}&translate_text=${encodeURIComponent(hostile)}`);
    await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.modelStep === '0');
    assert.equal(await page.locator('#section-translate img').count(), 0);
    assert.equal(await page.inputValue('[data-testid=translate-text]'), hostile);
    const tokens = await page.locator(`${SEC} .translate-token .translate-token-text`).allTextContents();
    assert.deepEqual(tokens, ['<img', 'src=x', 'onerror=alert(1)>', '咖哥']);
    assert.equal(await page.locator(`${SEC} .translate-token.unknown`).count(), 3);
    assert.equal(await page.locator('[data-testid=translate-play]').textContent(), '训练');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    assert.ok((await horizontalOverflow(page)) <= 0, 'the section scrolls sideways at 390 px');
    await site.screenshot('translate-zh-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
