// §4 The Transformer in the built page (#view=transformer): the section mounts untrained and
// labelled, trains a few steps in the worker (the loss is recorded step by step), draws the three
// layer × head grids (encoder self S × S, decoder causal self T × T with the future masked,
// cross T × S) from a real translation, enlarges a map on click (and in the URL), steps the decoding
// one output token per click with the source lit by the chosen head or the rollout, and refuses
// bad settings (heads not dividing d_model, 0 layers, a model over the memory limit, a sentence
// longer than the positional table) with a message naming the field while the model keeps working.
// Needs a build (npm run build:web). Run: node --test tests/e2e/transformer.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { horizontalOverflow, keepScreenshot, openPanel, typedFieldOutlivesAnotherSetting, useSite } from './harness.mjs';

const SEC = 'section[data-section="transformer"] .transformer-section';

describe('§4 the Transformer', { timeout: 300_000 }, () => {
  let site;
  /** @type {import('playwright-core').Page} */
  let page;

  useSite((s) => {
    site = s;
    page = s.page;
  });

  const dataset = (selector) => page.evaluate((s) => ({ ...document.querySelector(s)?.dataset }), selector);
  const stepOf = async () => Number((await dataset(SEC)).step);
  const fieldError = (testid) =>
    page.evaluate((id) => {
      const input = document.querySelector(`[data-testid="${id}"]`);
      const line = document.getElementById(input.getAttribute('aria-errormessage') ?? '');
      return { invalid: input.getAttribute('aria-invalid'), text: line?.textContent ?? '', value: input.value };
    }, testid);

  /** Loads the section, opens its settings panel, and waits for its model and first translation. */
  async function open(hash) {
    await site.load(hash);
    await openPanel(page, 'transformer-panel-settings');
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.translatedAt !== undefined, SEC, { timeout: 60_000 });
  }

  /** Trains `steps` steps (10 or more: a shorter run is refused): sets the run length, presses Train, waits for the run's end and the redraw. */
  async function train(steps) {
    const before = await stepOf();
    await page.fill('[data-testid="transformer-steps"]', String(before + steps));
    await page.dispatchEvent('[data-testid="transformer-steps"]', 'change');
    await page.click('[data-testid="transformer-train"]');
    await page.waitForFunction(([s, n]) => Number(document.querySelector(s)?.dataset.step) >= n && document.querySelector(s)?.dataset.playing === '0', [SEC, before + steps], { timeout: 120_000 });
    // the finished run's decoding, not a redraw's while training (which leaves the view an older one)
    await page.waitForFunction(([s, n]) => document.querySelector(s)?.dataset.decodedAt === String(n), [SEC, await stepOf()]);
  }

  test('mounts untrained, trains a few steps, draws the three grids, enlarges a map and steps the decoding', async () => {
    // two layers (the default is one): the grids and the rollout then have layers to tell apart
    await open('#view=transformer&seed=1&transformer_layers=2');
    assert.match(await page.locator('section[data-section="transformer"] h2').first().textContent(), /4\. The Transformer/);
    assert.equal(await page.locator(`${SEC} [data-testid=transformer-untrained]`).isVisible(), true);
    assert.ok((await page.locator('[data-testid=transformer-train]').getAttribute('class')).includes('primary'));
    assert.equal(await page.locator('[data-testid=transformer-task]').inputValue(), 'dates');
    assert.match(await page.locator('[data-testid=transformer-estimate]').textContent(), /measured over the first seconds/);
    const params = Number((await dataset('[data-testid=transformer-status]')).params);
    assert.ok(params > 40_000 && params < 60_000, `parameters ${params}`);
    await site.screenshot('transformer-untrained');

    await train(12);
    const losses = await page.evaluate(() => JSON.parse(document.querySelector('[data-testid=transformer-losses]').value));
    assert.ok(losses.length >= 12 && losses.every(Number.isFinite), `losses ${losses}`);
    assert.equal(await page.locator(`${SEC} [data-testid=transformer-untrained]`).isVisible(), false);
    // the time estimate now uses the measured speed
    assert.match(await page.locator('[data-testid=transformer-estimate]').textContent(), /ms per step/);

    // the three grids: 2 layers × 4 heads each, with the shapes of their kind
    const grids = await page.evaluate(() =>
      ['encoder', 'decoder', 'cross'].map((kind) => {
        const fig = document.querySelector(`[data-testid="transformer-grid-${kind}"]`);
        const thumbs = [...fig.querySelectorAll('[data-testid=transformer-thumb]')];
        return { kind, drawn: fig.dataset.drawn, layers: fig.dataset.layers, heads: fig.dataset.heads, count: thumbs.length, shapes: [...new Set(thumbs.map((b) => b.dataset.shape))] };
      }),
    );
    const S = await page.locator(`${SEC} .transformer-token`).count();
    const T = Number((await dataset('.transformer-decode')).steps);
    assert.equal(S, 'JAN 23, 2015'.length);
    assert.ok(T >= 1);
    for (const g of grids) {
      assert.equal(g.drawn, '1', g.kind);
      assert.equal(g.count, 8, g.kind);
      assert.equal(`${g.layers}x${g.heads}`, '2x4', g.kind);
    }
    assert.deepEqual(grids.map((g) => g.shapes), [[`${S},${S}`], [`${T},${T}`], [`${T},${S}`]]);

    // click a cross-attention map: it is enlarged (a full heatmap) and the URL says which
    await page.click('[data-testid="transformer-grid-cross"] [data-testid=transformer-thumb][data-layer="2"][data-head="3"]');
    await page.waitForFunction(() => document.querySelector('[data-testid=transformer-zoom]')?.dataset.kind === 'cross');
    const zoom = await dataset('[data-testid=transformer-zoom]');
    assert.deepEqual([zoom.layer, zoom.head], ['2', '3']);
    const map = await page.evaluate(() => {
      const out = document.querySelector('#transformer-zoom-map output.heatmap-data');
      return { shape: out.dataset.shape, values: JSON.parse(out.value) };
    });
    assert.equal(map.shape, `${T},${S}`);
    for (let r = 0; r < T; r++) {
      const sum = map.values.slice(r * S, (r + 1) * S).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-4, `row ${r} of the cross-attention sums to ${sum}`);
    }
    await page.waitForFunction(() => /transformer_zoom=cross/.test(location.hash) && /transformer_zoom_layer=2/.test(location.hash));
    assert.equal(await page.locator('[data-testid="transformer-grid-cross"] [data-layer="2"][data-head="3"]').getAttribute('aria-pressed'), 'true');

    // the decoder's self-attention is causal: nothing above the diagonal
    await page.click('[data-testid="transformer-grid-decoder"] [data-testid=transformer-thumb][data-layer="1"][data-head="1"]');
    await page.waitForFunction(() => document.querySelector('[data-testid=transformer-zoom]')?.dataset.kind === 'decoder');
    const dec = await page.evaluate(() => JSON.parse(document.querySelector('#transformer-zoom-map output.heatmap-data').value));
    for (let r = 0; r < T; r++) for (let c = r + 1; c < T; c++) assert.equal(dec[r * T + c], 0, `decoder self (${r}, ${c})`);

    // step the decoding: one output token per click, the source lit by the chosen attention
    await page.click('[data-testid=transformer-decode-restart]');
    assert.equal((await dataset('.transformer-decode')).step, '0');
    await page.selectOption('[data-testid=transformer-light]', '2,3');
    await page.waitForFunction(() => /transformer_light_layer=2/.test(location.hash));
    for (let k = 1; k <= Math.min(T, 3); k++) {
      await page.click('[data-testid=transformer-decode-step]');
      const d = await dataset('.transformer-decode');
      assert.equal(d.step, String(k));
      const light = JSON.parse(d.light);
      // layer 2, head 3's cross-attention row k: the same numbers as the enlarged cross map's row
      assert.equal(light.length, S);
      assert.ok(Math.abs(light.reduce((a, b) => a + b, 0) - 1) < 1e-3);
      for (let s = 0; s < S; s++) assert.ok(Math.abs(light[s] - map.values[(k - 1) * S + s]) < 1e-3, `step ${k}, source ${s}`);
    }
    // with the rollout, the source's share of the rollout (at most 1)
    await page.selectOption('[data-testid=transformer-light]', '0,0');
    const rollout = JSON.parse((await dataset('.transformer-decode')).light);
    const share = rollout.reduce((a, b) => a + b, 0);
    assert.ok(share > 0 && share <= 1 + 1e-4, `rollout onto the source sums to ${share}`);
    await site.screenshot('transformer-trained');
    assert.equal(await horizontalOverflow(page), 0);
  });

  test('bad settings are named by their field and the model keeps working', async () => {
    await open('#view=transformer&seed=2');
    await train(10);
    const trained = await stepOf();

    // heads that do not divide d_model: refused before it reaches the state
    const hashBefore = await page.evaluate(() => location.hash);
    await page.fill('[data-testid=transformer-heads]', '3');
    await page.dispatchEvent('[data-testid=transformer-heads]', 'change');
    let e = await fieldError('transformer-heads');
    assert.equal(e.invalid, 'true');
    assert.match(e.text, /Heads: must divide the model size 32: one of 1, 2, 4, 8, 16$/);
    assert.equal(e.value, '3');
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => location.hash), hashBefore);
    assert.equal(await stepOf(), trained, 'the trained model is kept');

    // 0 layers and 7 layers
    for (const v of ['0', '7']) {
      await page.fill('[data-testid=transformer-layers]', v);
      await page.dispatchEvent('[data-testid=transformer-layers]', 'change');
      e = await fieldError('transformer-layers');
      assert.equal(e.invalid, 'true');
      assert.match(e.text, v === '0' ? /Layers: at least 1/ : /Layers: at most 6/);
    }
    // two boxes side by side refused together: their messages do not cover each other
    const messages = await page.evaluate(() => {
      const message = (id) => document.getElementById(document.querySelector(`[data-testid=${id}]`).getAttribute('aria-errormessage')).getBoundingClientRect();
      const [a, b] = [message('transformer-layers'), message('transformer-heads')];
      return { shown: a.width > 0 && b.width > 0, covered: a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom };
    });
    assert.deepEqual(messages, { shown: true, covered: false }, 'the Layers and Heads messages cover each other');
    // Train while boxes are refused (Heads 3, Layers 7): nothing trains (it would train the last
    // accepted model), the boxes are named, and the first takes the focus
    await page.click('[data-testid=transformer-train]');
    assert.equal(await page.locator('[data-testid=transformer-error]').textContent(), 'Nothing started: correct Layers, Heads first');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'transformer-layers');
    await page.waitForTimeout(300);
    assert.equal(await stepOf(), trained, 'nothing trained');
    assert.equal((await dataset(SEC)).playing, '0');
    await page.fill('[data-testid=transformer-heads]', '4'); // the model's own heads again: the box is fine
    await page.dispatchEvent('[data-testid=transformer-heads]', 'change');
    assert.equal((await fieldError('transformer-heads')).invalid, null);
    // the model's own layers again too: the next Train trains, and the refusal goes with it
    await page.fill('[data-testid=transformer-layers]', '1');
    await page.dispatchEvent('[data-testid=transformer-layers]', 'change');
    await train(10);
    assert.equal(await page.locator('[data-testid=transformer-error]').textContent(), '');

    // a model over the core's memory limit: the core refuses it, the field says so, the old model stays
    await page.fill('[data-testid=transformer-layers]', '6');
    await page.dispatchEvent('[data-testid=transformer-layers]', 'change');
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.step === '0', SEC);
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.translatedAt === '0', SEC);
    await page.fill('[data-testid=transformer-dmodel]', '1024');
    await page.dispatchEvent('[data-testid=transformer-dmodel]', 'change');
    await page.waitForFunction(() => document.querySelector('[data-testid=transformer-dmodel]')?.getAttribute('aria-invalid') === 'true', null, { timeout: 60_000 });
    e = await fieldError('transformer-dmodel');
    assert.match(e.text, /Model size d_model: the model was not made \(.*over the limit of 16777216.*\); the previous model is kept/);
    assert.equal(e.value, '1024');
    await page.waitForFunction(() => !/transformer_dmodel=1024/.test(location.hash));
    assert.equal(Number((await dataset('[data-testid=transformer-status]')).params) < 16_777_216, true);
    // the kept model still trains, once the box shows its size again (while it shows 1024, Train refuses)
    await page.fill('[data-testid=transformer-dmodel]', '32');
    await page.dispatchEvent('[data-testid=transformer-dmodel]', 'change');
    assert.equal((await fieldError('transformer-dmodel')).invalid, null);
    await train(10);

    // a sentence longer than the positional table (256 positions)
    await page.fill('[data-testid=transformer-text]', '1'.repeat(280));
    await page.dispatchEvent('[data-testid=transformer-text]', 'change');
    await page.waitForFunction(() => document.querySelector('[data-testid=transformer-text]')?.getAttribute('aria-invalid') === 'true');
    e = await fieldError('transformer-text');
    assert.equal(e.text, 'Sentence: at most 256 characters, the positions of the positional table (this one has 280 characters); shorten it');
    // longer than the state keeps (300 characters): named, in the reader's words
    await page.fill('[data-testid=transformer-text]', '1'.repeat(301));
    await page.dispatchEvent('[data-testid=transformer-text]', 'change');
    await page.waitForFunction(() => {
      const input = document.querySelector('[data-testid=transformer-text]');
      return /at most 300/.test(document.getElementById(input.getAttribute('aria-errormessage') ?? '')?.textContent ?? '');
    });
    assert.equal((await fieldError('transformer-text')).text, 'Sentence: at most 300 characters (you typed 301)');
    // and a good one translates again
    await page.fill('[data-testid=transformer-text]', '01/23/15');
    await page.dispatchEvent('[data-testid=transformer-text]', 'change');
    await page.waitForFunction(() => document.querySelector('[data-testid=transformer-text]')?.getAttribute('aria-invalid') !== 'true');
    await page.waitForFunction(() => document.querySelector('[data-testid="transformer-grid-cross"]')?.dataset.drawn === '1');
    await site.screenshot('transformer-bad-input');
  });

  test('a number typed in a field stays while another setting changes, and applies when the reader leaves the field', async () => {
    await open('#view=transformer&seed=1');
    await typedFieldOutlivesAnotherSetting(page, { field: 'transformer-steps', name: 'transformer_steps', value: '37', openSetting: 'transformer_open_settings', panel: 'transformer-panel-compare', panelSetting: 'transformer_open_compare' });
    assert.match(await page.locator('[data-testid=transformer-settings-line]').textContent(), /\b37\b/);
  });

  test('the comparison with the recurrent models is measured live: exact match by length, parameters, time per step', async () => {
    await open('#view=transformer&seed=1');
    await openPanel(page, 'transformer-panel-compare');
    await page.click('[data-testid=transformer-compare-run]');
    assert.match(await page.locator('[data-testid=transformer-compare-status]').textContent(), /Train the Transformer first/);
    await train(20);
    await page.click('[data-testid=transformer-compare-run]');
    await page.waitForFunction(() => document.querySelector('[data-testid=transformer-compare-data]')?.value, null, { timeout: 180_000 });
    const rows = await page.evaluate(() => JSON.parse(document.querySelector('[data-testid=transformer-compare-data]').value));
    assert.deepEqual(rows.map((r) => r.id), ['plain', 'attention', 'transformer']);
    const params = Number((await dataset('[data-testid=transformer-status]')).params);
    assert.equal(rows[2].parameters, params);
    assert.deepEqual(rows.map((r) => r.steps), [300, 300, await stepOf()]);
    // the chart says what its lines compare: each model's steps and batch, which differ
    const chartCaption = (await page.locator('[data-testid=transformer-compare-chart-caption]').textContent()) ?? '';
    for (const r of rows) assert.ok(chartCaption.includes(`${r.steps} steps of ${r.batch} examples`), `${r.id} in: ${chartCaption}`);
    for (const r of rows) {
      assert.equal(r.evaluation.examples, 500, r.id);
      assert.ok(r.msPerStep > 0, r.id);
      // four length buckets, the same for all three models, their examples adding up to the 500
      assert.deepEqual(r.evaluation.exactMatchByLength.map((b) => [b.minLength, b.maxLength]), rows[0].evaluation.exactMatchByLength.map((b) => [b.minLength, b.maxLength]));
      assert.equal(r.evaluation.exactMatchByLength.reduce((a, b) => a + b.examples, 0), 500, r.id);
      const weighted = r.evaluation.exactMatchByLength.reduce((a, b) => a + b.exactMatch * b.examples, 0) / 500;
      assert.ok(Math.abs(weighted - r.evaluation.exactMatch) < 1e-9, `${r.id}: buckets ${weighted} vs total ${r.evaluation.exactMatch}`);
    }
    // §3.3's LSTM recipe learns dates in its 300 steps; without attention it does worse
    assert.ok(rows[1].evaluation.exactMatch > rows[0].evaluation.exactMatch, `attention ${rows[1].evaluation.exactMatch} vs plain ${rows[0].evaluation.exactMatch}`);
    assert.equal(await page.locator('[data-testid=transformer-compare] tr[data-model]').count(), 3);
    console.log(`# comparison on dates: ${rows.map((r) => `${r.id} ${r.parameters} params, ${r.steps} steps, ${r.msPerStep.toFixed(1)} ms/step, exact ${(100 * r.evaluation.exactMatch).toFixed(1)}%`).join('; ')}`);
    await keepScreenshot(page.locator('[data-testid=transformer-compare]'), { path: `${process.cwd()}/test-artifacts/transformer-compare.png` });
  });

  test('a run estimated at over a minute asks first; the grammar corpus trains and translates words', async () => {
    await open('#view=transformer&seed=1&transformer_steps=100000');
    await page.click('[data-testid=transformer-train]');
    // after its first seconds of measuring, the run pauses and asks with the estimate
    await page.waitForFunction(() => document.querySelector('[data-testid=transformer-confirm]')?.hidden === false, null, { timeout: 60_000 });
    assert.match(await page.locator('[data-testid=transformer-confirm]').textContent(), /At the measured [\d.]+ ms per step, the \d+ steps left take about \d+ min/);
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.playing === '0', SEC);
    await page.click('[data-testid=transformer-confirm-cancel]');
    const stopped = await stepOf();
    assert.ok(stopped > 0 && stopped < 100000, `stopped at ${stopped}`);
    await page.waitForTimeout(300);
    assert.equal(await stepOf(), stopped, 'paused');
    assert.match(await page.locator('[data-testid=transformer-estimate]').textContent(), /^Train next: about .* for \d+ steps at the fastest measured speed, [\d.]+ ms per step/);

    // the grammar corpus: a task switch brings its example sentence; training it works the same way
    await page.selectOption('[data-testid=transformer-task]', 'zh-en');
    await page.waitForFunction(() => /transformer_task=zh-en/.test(location.hash));
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.step === '0' && document.querySelector(s)?.dataset.translatedAt === '0', SEC);
    assert.equal(await page.locator('[data-testid=transformer-text]').inputValue(), '昨天 咖哥 在 公园 看见 了 小冰');
    assert.match(await page.locator('[data-testid=transformer-notice]').textContent(), /Changing “Task” started a new, untrained model; the \d+ trained steps were discarded/);
    await train(10);
    // the new model has trained: the discarded steps are old news
    assert.doesNotMatch((await page.locator('[data-testid=transformer-notice]').textContent()) ?? '', /discarded/);
    assert.equal(await page.locator(`${SEC} .transformer-token`).count(), 7);
    const cross = await dataset('[data-testid="transformer-grid-cross"] [data-testid=transformer-thumb]');
    assert.match(cross.shape, /^\d+,7$/);
    // an unknown word is named
    await page.fill('[data-testid=transformer-text]', '咖哥 读 小冰');
    await page.dispatchEvent('[data-testid=transformer-text]', 'change');
    await page.waitForFunction(() => /读/.test(document.querySelector('[data-testid=transformer-notice]')?.textContent ?? ''));
    await site.screenshot('transformer-zh-en');
    // messages belong to the input they describe: an empty box asks for text, a good sentence
    // clears both that and the unknown-word list
    await page.fill('[data-testid=transformer-text]', '');
    await page.dispatchEvent('[data-testid=transformer-text]', 'change');
    await page.waitForFunction(() => /Type a sentence to translate \(words separated by spaces\)/.test(document.querySelector('[data-testid=transformer-text-note]')?.textContent ?? ''));
    await page.fill('[data-testid=transformer-text]', '咖哥 喜欢 小冰');
    await page.dispatchEvent('[data-testid=transformer-text]', 'change');
    await page.waitForFunction(() => ['transformer-error', 'transformer-notice', 'transformer-text-note'].every((id) => document.querySelector(`[data-testid=${id}]`)?.textContent === ''));
  });

  test('<transformer-demo> and <attention-playground mechanism=transformer> train and draw in their shadow roots', async () => {
    for (const [path, element] of [['/examples/test-one-transformer.html', 'transformer-demo'], ['/examples/test-one-playground-transformer.html', 'attention-playground']]) {
      site.problems.nextPage();
      await page.goto(new URL(path, site.url).href, { waitUntil: 'load' });
      await page.waitForFunction((e) => document.querySelector(e)?.dataset.ready === 'true', element, { timeout: 60_000 });
      const widget = page.locator(element);
      await widget.locator('.transformer-section[data-translated-at="0"]').waitFor({ timeout: 60_000 });
      assert.equal(await widget.locator('[data-testid=transformer-task]').inputValue(), 'dates');
      await widget.locator('details[data-testid=transformer-panel-settings] > summary').click();
      await widget.locator('[data-testid=transformer-steps]').fill('10');
      await widget.locator('[data-testid=transformer-steps]').dispatchEvent('change');
      await widget.locator('[data-testid=transformer-train]').click();
      await widget.locator('.transformer-section[data-translated-at="10"]').waitFor({ timeout: 60_000 });
      // the default model: 1 layer × 4 heads
      assert.equal(await widget.locator('[data-testid="transformer-grid-cross"][data-drawn="1"] [data-testid=transformer-thumb]').count(), 4);
      await widget.locator('[data-testid="transformer-grid-encoder"] [data-testid=transformer-thumb]').first().click();
      await widget.locator('[data-testid=transformer-zoom][data-kind=encoder]').waitFor();
      await keepScreenshot(widget, { path: `${process.cwd()}/test-artifacts/transformer-widget-${element}.png` });
    }
  });
});
