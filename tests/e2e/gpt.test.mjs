// §5 as a reader meets it, in English and in Chinese: the poems and the GPT build arrive only when
// the section comes into view; Train shows the loss fall and poems every 100 steps, each marked
// for the form, with the share that has it; the reader's own text is trained on, and each bad one
// (empty, too big, not text, too few characters, too short) refused naming the field with the
// model kept; a typed
// prompt is generated from one character at a time; the temperature changes the probability the
// candidates are drawn with; a candidate is read by keyboard and by a tap; a typo in a field is
// refused naming the field, and the model and the text are kept; the model outlives a switch of
// language. Needs a build (npm run build:web).
// Run: node --test tests/e2e/gpt.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sampleForm } from '../../wasm/js/gpt-form.mjs';
import { openPanel, usePhone, useSite } from './harness.mjs';
import { drawnWithAt, fieldControl, fill, heatmap, text } from './claims/claims-harness.mjs';

const SEC = '.gpt-section';
const GEN = '.gpt-generate';

describe('§5: train a GPT on the Tang poems and generate from it', { timeout: 900_000 }, () => {
  let site;
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });
  const phone = usePhone(() => site);

  const data = (p = page, selector = SEC) => p.evaluate((s) => ({ ...document.querySelector(s)?.dataset }), selector);
  /** the requests for the corpus and the GPT build (the worker's too) since `requests` was armed */
  let requests = [];
  const fetched = () => requests.filter((n) => /tang300\.txt|attention_lab_gpt/.test(n));
  /** the message under a field (its aria-errormessage line) */
  const fieldError = async (control) => page.locator(`[id="${await control.getAttribute('aria-errormessage')}"]`).textContent();
  async function generated(n, p = page) {
    await p.waitForFunction(([s, k]) => document.querySelector(s)?.dataset.generated === String(k), [GEN, n]);
  }

  test('the poems and the GPT build load when §5 comes into view, not with the page', async () => {
    const record = (request) => requests.push(request.url());
    page.on('request', record);
    page.context().on('request', record);
    requests = [];
    await site.load('#lang=en');
    await page.waitForTimeout(1500); // the page's own loads settle
    assert.deepEqual(await fetched(), [], 'fetched before §5 was in view');
    await page.locator('#section-gpt').scrollIntoViewIfNeeded();
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.samples === '1', SEC);
    const names = await fetched();
    assert.ok(names.some((n) => n.endsWith('/poems/tang300.txt')), `the corpus was not fetched: ${names}`);
    assert.ok(names.some((n) => /attention_lab_gpt.*\.wasm$/.test(n)), `the GPT build was not fetched: ${names}`);
    // §5 has its Embed button, as every section: <gpt-demo> (tests/e2e/embed-kit.test.mjs)
    assert.equal(await page.locator('#section-gpt > [data-testid=embed-open]').count(), 1);
    page.off('request', record);
    page.context().off('request', record);
  });

  for (const [lang, steps] of [
    ['en', 100],
    ['zh', 100],
  ]) {
    test(`(${lang}) train, see the loss fall and samples appear; generate from a prompt; refused typos keep the model`, async () => {
      await site.load(`#view=gpt&lang=${lang}&gpt_steps=${steps}`);
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.samples === '1', SEC);
      const corpus = await page.locator('[data-testid=gpt-corpus]').textContent();
      for (const part of ['唐诗三百首', 'fortunes-zh', 'GPL-3.0', '242', '11,663']) assert.ok(corpus.includes(part), `${part} not in ${corpus}`);
      const before = await data();
      assert.equal(before.step, '0');

      // Train: the held-out loss falls, a sample every 100 steps
      await page.click('[data-testid=gpt-train]');
      await page.waitForFunction(([s, n]) => document.querySelector(s)?.dataset.evaluatedAt === String(n) && document.querySelector(s)?.dataset.playing === '0', [SEC, steps], { timeout: 300_000 });
      const after = await data();
      assert.ok(Number(after.valLoss) < Number(before.valLoss) - 1, `held-out loss ${before.valLoss} → ${after.valLoss}`);
      const samples = await page.locator('[data-testid=gpt-samples] .gpt-sample-poem').allTextContents();
      assert.equal(samples.length, steps / 100 + 1, JSON.stringify(samples));
      assert.equal(new Set(samples).size, samples.length, 'the samples did not change');
      // each sample's mark is the checker's verdict on the poem shown (⏎: a line break)
      const items = await page.locator('[data-testid=gpt-samples] li').evaluateAll((lis) => lis.map((li) => ({ form: li.dataset.form, mark: li.querySelector('.gpt-form-mark').textContent, poem: li.querySelector('.gpt-sample-poem').textContent })));
      for (const { form, mark, poem } of items) {
        const ok = sampleForm(`${poem.replaceAll(text(lang, 'gpt.newline'), '\n')}\n\n`).ok;
        assert.equal(form, ok ? '1' : '0', poem);
        assert.equal(mark, ok ? '✓' : '✗');
      }
      assert.ok(Number(after.formRate) >= 0 && Number(after.formRate) <= 1, after.formRate);
      // the legend: the baselines with the chart's own dashes, the held-out loss as dots without a line
      const legend = await page.locator('.gpt-chart .lab-chart-legend li').evaluateAll((lis) => lis.map((li) => {
        const line = li.querySelector('.lab-chart-legend-line');
        return { label: li.textContent, dash: line.dataset.dash ?? null, marker: li.querySelector('.lab-chart-legend-marker')?.className ?? null, line: getComputedStyle(line).borderTopColor };
      }));
      const entry = (key) => legend.find((e) => e.label === text(lang, key));
      assert.equal(entry('gpt.series.unigram').dash, '6 4');
      assert.equal(entry('gpt.series.bigram').dash, '2 3');
      assert.match(entry('gpt.series.val').marker, /circle/);
      assert.equal(entry('gpt.series.val').line, 'rgba(0, 0, 0, 0)', 'the held-out loss has no line in the legend');

      // a typed prompt, stepped one character at a time
      await page.fill('[data-testid=gpt-prompt]', '月下');
      await page.press('[data-testid=gpt-prompt]', 'Enter');
      await page.waitForFunction(() => /gpt_prompt=%E6%9C%88%E4%B8%8B/.test(location.hash));
      for (let n = 1; n <= 3; n++) {
        await page.click('[data-testid=gpt-next]');
        await generated(n);
      }
      const written = await page.locator('[data-testid=gpt-text]').textContent();
      assert.ok(written.startsWith('月下') && Array.from(written).length === 5, written);
      // the five most likely, and the drawn character after them when it ranks lower
      const candidates = await heatmap(page, 'gpt-candidates');
      const labels = await page.locator('#gpt-candidates thead th').allTextContents();
      const drawn = labels.indexOf(Array.from(written).at(-1).replace('\n', text(lang, 'gpt.newline')));
      assert.ok(drawn >= 0, `${written}: the drawn character is not among ${labels}`);
      assert.deepEqual(candidates.shape, [2, drawn < 5 ? 5 : 6]);
      // one row a step over what the model read but its newest character: the blank line a poem
      // starts after (⏎⏎), the prompt and what was drawn; each row reads only up to its own character
      const attention = await heatmap(page, 'gpt-attention');
      assert.deepEqual(attention.shape, [3, 6]);
      const newline = text(lang, 'gpt.newline');
      assert.deepEqual((await page.locator('#gpt-attention thead th').allTextContents()).slice(0, 4), [newline, newline, '月', '下']);
      for (let r = 0; r < 3; r++) {
        const row = attention.values.slice(r * 6, r * 6 + 6);
        assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-3, `row ${r + 1} sums to 1: ${row}`);
        assert.ok(row.slice(r + 4).every((v) => v === 0), `row ${r + 1} reads no later character: ${row}`);
        assert.ok(row[r + 3] > 0, `row ${r + 1} reads its own character: ${row}`);
      }

      // another head shows other weights
      await page.selectOption('[data-testid=gpt-head]', '3');
      await page.waitForFunction(() => /gpt_head=3/.test(location.hash));
      assert.notDeepEqual((await heatmap(page, 'gpt-attention')).values, attention.values);

      // Write the poem: one press draws on to the poem's end (a blank line) or 120 characters,
      // every step kept: one attention row a character
      await page.click('[data-testid=gpt-write]');
      await page.waitForFunction(() => Number(document.querySelector('.gpt-generate').dataset.generated) > 3);
      const poem = Array.from(await page.locator('[data-testid=gpt-text]').textContent());
      assert.equal(poem.slice(0, 5).join(''), written, 'Write the poem goes on from the text so far');
      const drew = poem.length - 5;
      assert.ok(poem.slice(-2).join('') === '\n\n' || drew === 120, `to the poem's end or 120 characters: ${poem.join('')}`);
      assert.equal(poem.slice(5, -2).join('').includes('\n\n'), false, 'nothing after the poem end');
      assert.equal((await heatmap(page, 'gpt-attention')).shape[0], 3 + drew, 'an attention row for every character drawn');
      assert.ok((await page.locator('.gpt-chosen').textContent()).includes(text(lang, 'gpt.gen.wrote').split('{count}')[0]), 'the line says how many it wrote');

      // the temperature: drawn-with probabilities of the same step sharpen at 0.2
      await openPanel(page, 'gpt-panel-settings');
      const temperature = fieldControl(page, text(lang, 'gpt.field.temperature'));
      const sharp = await drawnWithAt(page, lang, 0.2);
      const flat = await drawnWithAt(page, lang, 1.5);
      assert.ok(sharp[0] > flat[0], `top candidate drawn with ${sharp[0]} at 0.2, ${flat[0]} at 1.5`);

      // a candidate read by keyboard: its character and numbers in the heatmap's live line
      const canvas = page.locator('#gpt-candidates canvas').first();
      await canvas.focus();
      await page.keyboard.press('ArrowRight');
      const cols = (await heatmap(page, 'gpt-candidates'));
      const said = await page.locator('#gpt-candidates .focus-text').textContent();
      assert.ok(said.includes(cols.values[1].toFixed(2).slice(0, 4)) || said.includes(cols.values[1].toFixed(3)) || said.includes(cols.values[1].toPrecision(3)), `${said} does not read cell 2`);

      // typos: refused naming the field; the model, the setting and the text stay
      const kept = await page.locator('[data-testid=gpt-text]').textContent();
      const hash = await page.evaluate(() => location.hash);
      await temperature.fill('0');
      await temperature.press('Enter');
      const temperatureError = await fieldError(temperature);
      assert.ok(temperatureError.startsWith(text(lang, 'gpt.field.temperature')), temperatureError);
      const topP = fieldControl(page, text(lang, 'gpt.field.topP'));
      await topP.fill('1.5');
      await topP.press('Enter');
      assert.ok((await fieldError(topP)).startsWith(text(lang, 'gpt.field.topP')));
      await page.fill('[data-testid=gpt-prompt]', '床x前');
      await page.press('[data-testid=gpt-prompt]', 'Enter');
      const promptError = await fieldError(page.locator('[data-testid=gpt-prompt]'));
      assert.ok(promptError.startsWith(text(lang, 'gpt.field.prompt')) && promptError.includes('x'), promptError);
      assert.equal(await page.getAttribute('[data-testid=gpt-prompt]', 'aria-invalid'), 'true');
      await page.click('[data-testid=gpt-next]'); // refused: nothing drawn, and said beside the buttons
      assert.equal(await page.locator('.gpt-chosen').textContent(), promptError);
      const prompt = page.locator('[data-testid=gpt-prompt]');
      for (const [typed, says] of [['床'.repeat(33), '32'], ['', text(lang, 'field.empty').split('}').pop()]]) {
        await prompt.fill(typed);
        await prompt.press('Enter');
        const message = await fieldError(prompt);
        assert.ok(message.startsWith(text(lang, 'gpt.field.prompt')) && message.includes(says), `${JSON.stringify(typed)}: ${message}`);
      }
      // a good prompt again, but the temperature box still holds 0: Next names it and draws nothing
      await prompt.fill('月下');
      await prompt.press('Enter');
      await page.click('[data-testid=gpt-next]');
      // in the words Start and Train use, with where the boxes are; the first takes the focus
      const named = [text(lang, 'gpt.field.temperature'), text(lang, 'gpt.field.topP')].join(text(lang, 'field.separator'));
      const refusal = fill(text(lang, 'label.paren'), { a: fill(text(lang, 'field.fixFirst'), { labels: named }), b: text(lang, 'gpt.settings.place') });
      assert.equal(await page.locator('.gpt-chosen').textContent(), refusal);
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'gpt-temperature');
      assert.equal(await page.evaluate(() => location.hash), hash, 'a refused value reached the link');
      assert.equal(await page.locator('[data-testid=gpt-text]').textContent(), kept);
      assert.equal((await data()).step, String(steps), 'the model was not kept');
      // with the settings panel closed, Next opens it at the box it names
      await page.click('[data-testid=gpt-panel-settings] > summary');
      assert.equal(await page.evaluate(() => document.querySelector('[data-testid=gpt-panel-settings]').open), false);
      await page.click('[data-testid=gpt-next]');
      assert.equal(await page.evaluate(() => document.querySelector('[data-testid=gpt-panel-settings]').open), true);
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'gpt-temperature');
      // the training steps play no part in drawing: a refused step count leaves Next drawing
      for (const [box, value] of [[temperature, '0.8'], [topP, '0.9'], [page.locator('[data-testid=gpt-steps]'), '3']]) {
        await box.fill(value);
        await box.press('Enter');
      }
      assert.equal(await page.getAttribute('[data-testid=gpt-steps]', 'aria-invalid'), 'true');
      const drawnBefore = Number(await page.getAttribute(GEN, 'data-generated'));
      await page.click('[data-testid=gpt-next]');
      await page.waitForFunction(([g, n]) => document.querySelector(g)?.dataset.generated === String(n), [GEN, drawnBefore + 1]);
    });
  }

  test('Pause stops training within a request, Train goes on, Reset starts a new model; a bad value in the link is named and not used, a refused step count trains nothing', async () => {
    await site.load('#view=gpt&lang=en&gpt_temperature=0&gpt_top_p=1.5&gpt_steps=200');
    const notices = await page.locator('#notices').innerText();
    for (const name of ['gpt_temperature', 'gpt_top_p']) assert.ok(notices.includes(name), `${name} is not named: ${notices}`);
    assert.doesNotMatch(await page.evaluate(() => location.hash), /gpt_temperature=0|gpt_top_p/);
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.samples === '1', SEC);
    await page.click('[data-testid=gpt-train]');
    await page.waitForFunction((s) => Number(document.querySelector(s)?.dataset.step) >= 10, SEC);
    await page.click('[data-testid=gpt-pause]');
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.playing === '0', SEC);
    const paused = Number((await data()).step);
    await page.waitForTimeout(1500);
    assert.equal(Number((await data()).step), paused, 'training went on after Pause');
    assert.ok(paused < 100, `paused at ${paused}`);
    await page.click('[data-testid=gpt-train]'); // on from where it paused
    await page.waitForFunction(([s, n]) => Number(document.querySelector(s)?.dataset.step) >= n, [SEC, paused + 10], { timeout: 300_000 });
    await page.click('[data-testid=gpt-reset]');
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.step === '0' && document.querySelector(s)?.dataset.samples === '1', SEC);
    assert.equal(await page.locator('[data-testid=gpt-samples] li').count(), 1);
    await page.waitForTimeout(1000);
    assert.equal((await data()).step, '0', 'the old model trained on after Reset');
    // Train while the steps box holds a refused value: nothing trains, the box is named
    await openPanel(page, 'gpt-panel-settings');
    await page.locator('[data-testid=gpt-steps]').fill('5');
    await page.click('[data-testid=gpt-train]');
    assert.equal(await page.locator('[data-testid=gpt-status]').textContent(), `Nothing started: correct ${text('en', 'gpt.field.steps')} first`);
    await page.waitForTimeout(1000);
    assert.equal((await data()).step, '0', 'a refused step count trained');
  });

  // A short first run (10 steps) is a model to keep; the good text trains 100 steps, in English (in
  // Chinese the refusals are what differs)
  for (const lang of ['en', 'zh']) {
    test(`(${lang}) the reader's own text: bad ones refused naming the field with the model kept${lang === 'en' ? ', a good one trained on' : ''}`, async () => {
      await site.load(`#view=gpt&lang=${lang}&gpt_steps=10`);
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.samples === '1', SEC);
      await page.click('[data-testid=gpt-train]');
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.evaluatedAt === '10' && document.querySelector(s)?.dataset.playing === '0', SEC, { timeout: 300_000 });
      const trained = await data();
      await openPanel(page, 'gpt-panel-own');
      const box = page.locator('[data-testid=gpt-own-text]');
      const file = page.locator('[data-testid=gpt-own-file]');
      const [boxLabel, fileLabel] = [text(lang, 'gpt.own.field'), text(lang, 'gpt.own.file')];
      const refused = async (control, label, pattern) => {
        const message = await fieldError(control);
        assert.ok(message.startsWith(label), message);
        assert.match(message, pattern);
        assert.equal(await control.getAttribute('aria-invalid'), 'true');
        const now = await data();
        assert.equal(now.step, trained.step, 'the model was not kept');
        assert.equal(now.valLoss, trained.valLoss);
        assert.equal(now.own, '0', 'the corpus changed');
      };
      // a made-up text: two paragraphs of lines (the repository holds no poem text)
      const line = (i) => `${'天地人山水风云月日星'.slice(i % 5, (i % 5) + 5)}，${'花草木石江河湖海春秋'.slice(i % 6, (i % 6) + 5)}。`;
      const paragraph = (k) => Array.from({ length: 6 }, (_, i) => line(i + k)).join('\n');
      const good = `${paragraph(0)}\n\n${paragraph(1)}\n\n${paragraph(2)}\n`;
      const cases = [
        [() => box.fill('  \n '), box, boxLabel, lang === 'en' ? /empty/ : /空/],
        [() => box.fill('啊啊啊啊\n\n啊啊啊'), box, boxLabel, /2/],
        [() => box.fill(paragraph(0)), box, boxLabel, lang === 'en' ? /too short to hold out/ : /太短/],
        [() => file.setInputFiles({ name: 'bin.txt', mimeType: 'text/plain', buffer: Buffer.from([0xff, 0xfe, 0x00, 0x41]) }), file, fileLabel, lang === 'en' ? /bin\.txt is not UTF-8 text \(line 1\)/ : /bin\.txt 不是 UTF-8 文本（第 1 行）/],
        [() => file.setInputFiles({ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc(1024 * 1024 + 1, 0x61) }), file, fileLabel, /big\.txt.*1,048,577.*1 MiB/],
      ];
      for (const [act, control, label, pattern] of cases) {
        const typed = await box.inputValue();
        await act();
        if (control === box) await page.click('[data-testid=gpt-own-use]');
        await page.waitForFunction(([c, p]) => {
          const input = document.querySelector(`[data-testid=${c}]`);
          return input?.getAttribute('aria-invalid') === 'true' && new RegExp(p).test(document.getElementById(input.getAttribute('aria-errormessage'))?.textContent ?? '');
        }, [await control.getAttribute('data-testid'), pattern.source]);
        await refused(control, label, pattern);
        if (control === file) assert.equal(await box.inputValue(), typed, 'a refused file leaves the text in the box');
      }
      // a good file fills the box; training runs on it, 100 steps (in English: in Chinese, the
      // corpus line says it is the reader's text)
      await openPanel(page, 'gpt-panel-settings');
      await page.locator('[data-testid=gpt-steps]').fill('100');
      await page.locator('[data-testid=gpt-steps]').dispatchEvent('change');
      await file.setInputFiles({ name: 'mine.txt', mimeType: 'text/plain', buffer: Buffer.from(good) });
      await page.waitForFunction((t) => document.querySelector('[data-testid=gpt-own-text]')?.value === t, good);
      assert.equal(await file.getAttribute('aria-invalid'), null);
      await page.click('[data-testid=gpt-own-use]');
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.own === '1', SEC);
      assert.equal(await box.getAttribute('aria-invalid'), null);
      const corpus = await page.locator('[data-testid=gpt-corpus]').textContent();
      assert.ok(corpus.includes(lang === 'en' ? 'your text: 3 poems' : '你的文本，共 3 首'), corpus);
      if (lang === 'zh') return;
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.evaluatedAt === '100' && document.querySelector(s)?.dataset.playing === '0', SEC, { timeout: 300_000 });
      const own = await data();
      assert.ok(Number(own.valLoss) < Number(own.unigram), `held-out ${own.valLoss}, unigram ${own.unigram}`);
      const poems = await page.locator('[data-testid=gpt-samples] .gpt-sample-poem').allTextContents();
      assert.ok(Array.from(poems.at(-1)).every((c) => good.includes(c) || c === text(lang, 'gpt.newline')), poems.at(-1));
      // and back to the Tang poems
      await page.click('[data-testid=gpt-own-back]');
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.own === '0', SEC);
      assert.ok((await page.locator('[data-testid=gpt-corpus]').textContent()).includes('242'));
    });
  }

  test('a trained model carries over a switch of language, and a run under way trains on', async () => {
    await site.load('#view=gpt&lang=en&gpt_steps=100');
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.samples === '1', SEC);
    await page.click('[data-testid=gpt-train]');
    await page.waitForFunction((s) => Number(document.querySelector(s)?.dataset.step) >= 20, SEC);
    await page.click('#lang-switch button[data-lang="zh"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    // the new mount adopted the model mid-run and trains it to the end of that run
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.evaluatedAt === '100' && document.querySelector(s)?.dataset.playing === '0', SEC, { timeout: 300_000 });
    const samples = await page.locator('[data-testid=gpt-samples] li').allTextContents();
    assert.deepEqual(samples.map((s) => s.match(/\d+/)[0]), ['0', '100']);
    assert.match(samples[0], /^第 0 步/);
  });

  for (const lang of ['en', 'zh']) {
    test(`(${lang}) on a phone, a tapped candidate is read out`, async () => {
      const p = phone.page;
      await phone.open(`#view=gpt&lang=${lang}`);
      await p.waitForFunction((s) => document.querySelector(s)?.dataset.samples === '1', SEC);
      await p.locator('[data-testid=gpt-next]').tap();
      await generated(1, p);
      const canvas = p.locator('#gpt-candidates canvas').first();
      await canvas.scrollIntoViewIfNeeded();
      const box = await canvas.boundingBox();
      // the second row's first cell (the top candidate, drawn with)
      await p.touchscreen.tap(box.x + box.width * 0.3, box.y + box.height * 0.7);
      await p.waitForFunction(() => (document.querySelector('#gpt-candidates .focus-text')?.textContent ?? '') !== '');
      const said = await p.locator('#gpt-candidates .focus-text').textContent();
      assert.ok(said.includes(text(lang, 'gpt.candidates.drawn')), said);
      assert.equal(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0, 'the page scrolls sideways');
    });
  }
});
