// Switching the page's language keeps every trained model: §1's two runs, §3.3's translator with
// its plain companion, and §4's Transformer carry over the re-mount in the other language (the
// language buttons of the page), with their step counts, loss histories and held-out evaluation
// unchanged, and training goes on from the step it had reached; en→zh and zh→en.
// §5 keeps the text the reader generated (its candidates and attention too) and the own-text box.
// Needs a build. Run: node --test tests/e2e/lang-keep.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { switchLanguage, useSite } from './harness.mjs';

const DIRECTIONS = [
  ['en', 'zh'],
  ['zh', 'en'],
];

describe('switching language keeps the trained models', { timeout: 600_000 }, () => {
  /** @type {Awaited<ReturnType<import('./harness.mjs').startSite>>} */
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const switchTo = (lang, root) => switchLanguage(page, lang, root);
  /** The models alive in the page's worker (its memory figures, asked inside the worker as the page's client would). */
  async function liveModels() {
    const workers = page.workers();
    assert.equal(workers.length, 1, 'one lab worker');
    return workers[0].evaluate(
      () =>
        new Promise((resolve) => {
          const id = -1; // no request of the page's client has it
          const post = self.postMessage;
          self.postMessage = (message, transfer) => {
            if (message?.id !== id) return post.call(self, message, transfer);
            self.postMessage = post;
            resolve(message.result.models);
          };
          self.dispatchEvent(new MessageEvent('message', { data: { id, method: 'memory', args: [] } }));
        }),
    );
  }
  const json = (testId) => page.evaluate((id) => JSON.parse(document.querySelector(`[data-testid=${id}]`).value), testId);
  /** The value of `read()` once it has stayed the same for half a second (a pause ends at a step boundary). */
  async function settled(read) {
    let last = JSON.stringify(await read());
    for (;;) {
      await page.waitForTimeout(500);
      const now = JSON.stringify(await read());
      if (now === last) return JSON.parse(now);
      last = now;
    }
  }

  test('a run in progress (§3.3, §4) pauses on the switch, is scored at its step, and the reader plays on', async () => {
    await site.load('#view=translate&seed=1&lang=en&translate_speed=1');
    await page.click('[data-testid=translate-play]');
    await page.waitForFunction(() => Number(document.querySelector('.translate-section')?.dataset.step) >= 5);
    await switchTo('zh', '.translate-section');
    const paused = await settled(() => page.evaluate(() => ({ ...document.querySelector('.translate-section')?.dataset })));
    assert.equal(paused.playing, '0', 'paused by the switch');
    assert.ok(Number(paused.step) >= 5, `step ${paused.step} after the switch`);
    const losses = await json('translate-losses');
    assert.equal(losses.length, Number(paused.step));
    // scored at the step it reached
    await page.waitForFunction((n) => document.querySelector('[data-testid=translate-compare] tr[data-model=attention]')?.dataset.evaluation?.includes(`"step":${n}`), paused.step);
    await page.click('[data-testid=translate-play]');
    await page.waitForFunction((n) => Number(document.querySelector('.translate-section')?.dataset.step) > n, Number(paused.step));
    await page.click('[data-testid=translate-pause]');
    assert.deepEqual((await json('translate-losses')).slice(0, losses.length), losses, 'it played on from there');

    // §4 the same: paused by the switch, scored at its step, and it trains on
    const SEC = '#section-transformer .transformer-section';
    await site.load('#view=transformer&seed=1&lang=zh&transformer_steps=400');
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.translatedAt !== undefined, SEC);
    await page.click('[data-testid=transformer-train]');
    // a loaded machine (over 150 ms a step) estimates the 400 steps at over a minute: the reader says yes
    await page.waitForFunction((s) => Number(document.querySelector(s)?.dataset.step) >= 5 || !document.querySelector('[data-testid=transformer-confirm]').hidden, SEC);
    if (await page.locator('[data-testid=transformer-confirm]').isVisible()) await page.click('[data-testid=transformer-confirm-run]');
    await page.waitForFunction((s) => Number(document.querySelector(s)?.dataset.step) >= 5, SEC);
    await switchTo('en', '.transformer-section');
    const tf = await settled(() => page.evaluate((s) => ({ ...document.querySelector(s)?.dataset }), SEC));
    assert.equal(tf.playing, '0', 'paused by the switch');
    const tfLosses = await json('transformer-losses');
    assert.equal(tfLosses.length, Number(tf.step));
    await page.waitForFunction((n) => document.querySelector('[data-testid=transformer-status]')?.dataset.evaluatedAt === n, tf.step);
    await page.click('[data-testid=transformer-train]');
    await page.waitForFunction(([s, n]) => Number(document.querySelector(s)?.dataset.step) > n, [SEC, Number(tf.step)]);
    await page.click('[data-testid=transformer-pause]');
    assert.deepEqual((await json('transformer-losses')).slice(0, tfLosses.length), tfLosses, 'it trained on from there');
  });

  test('two switches in a row, the second before the sections have mounted: the models are kept, none left behind', async () => {
    await site.load('#view=translate&seed=1&lang=en');
    for (let k = 1; k <= 2; k++) {
      await page.click('[data-testid=translate-step]');
      await page.waitForFunction((n) => document.querySelector('.translate-section')?.dataset.step === String(n), k);
    }
    const losses = await json('translate-losses');
    const models = await liveModels();
    await page.evaluate(() => {
      document.querySelector('#lang-switch button[data-lang=zh]').click();
      document.querySelector('#lang-switch button[data-lang=en]').click();
    });
    await page.waitForFunction(() => document.documentElement.lang === 'en' && document.querySelector('.translate-section')?.dataset.step === '2');
    assert.deepEqual(await json('translate-losses'), losses);
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    assert.equal(await liveModels(), models);
  });

  test('§1: a long run the reader agreed to is not asked about again after the switch', async () => {
    await site.load('#view=why&seed=1&lang=en&why_cell=lstm&why_hidden=256&why_max_len=60&why_steps=5000');
    await page.click('[data-testid=why-start]');
    await page.locator('[data-testid=why-confirm]').waitFor({ state: 'visible', timeout: 120_000 });
    await page.click('[data-testid=why-confirm-run]');
    const step = await page.evaluate(() => Number(document.querySelector('.why-section')?.dataset.step));
    await page.waitForFunction((n) => Number(document.querySelector('.why-section')?.dataset.step) > n, step);
    await switchTo('zh', '.why-section');
    assert.equal(await page.evaluate(() => document.querySelector('.why-section')?.dataset.state), 'idle', 'paused by the switch');
    await page.click('[data-testid=why-start]'); // resume
    await page.waitForTimeout(2000);
    assert.equal(await page.locator('[data-testid=why-confirm]').isVisible(), false, 'not asked again');
    assert.equal(await page.evaluate(() => document.querySelector('.why-section')?.dataset.state), 'running');
    await page.click('[data-testid=why-start]');
  });

  for (const answer of ['transformer-confirm-run', 'transformer-confirm-fewer']) {
    test(`§4: the reader's answer to a long run (${answer}) holds after the switch: its target, and not asked again`, async () => {
      const SEC = '#section-transformer .transformer-section';
      const target = () => page.evaluate(() => document.querySelector('[data-testid=transformer-progress]')?.max);
      await site.load('#view=transformer&seed=1&lang=en&transformer_steps=100000');
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.translatedAt !== undefined, SEC);
      await page.click('[data-testid=transformer-train]');
      await page.locator('[data-testid=transformer-confirm]').waitFor({ state: 'visible', timeout: 60_000 });
      await page.click(`[data-testid=${answer}]`);
      const step = await page.evaluate((s) => Number(document.querySelector(s)?.dataset.step), SEC);
      await page.waitForFunction(([s, n]) => Number(document.querySelector(s)?.dataset.step) > n, [SEC, step]);
      const planned = await target();
      if (answer === 'transformer-confirm-fewer') assert.ok(planned < 100000, `stops at ${planned}`);
      await switchTo('zh', '.transformer-section');
      assert.equal(await page.evaluate((s) => document.querySelector(s)?.dataset.playing, SEC), '0', 'paused by the switch');
      assert.equal(await target(), planned, 'the same target step');
      await page.click('[data-testid=transformer-train]'); // resume
      // past the second of measuring after which a long run asks
      await page.waitForTimeout(2500);
      assert.equal(await page.locator('[data-testid=transformer-confirm]').isVisible(), false, 'not asked again');
      assert.equal(await page.evaluate((s) => document.querySelector(s)?.dataset.playing, SEC), '1');
      assert.equal(await target(), planned, 'training to the same target step');
      await page.click('[data-testid=transformer-pause]');
    });
  }

  test('§5 (en→zh→en): the text generated, its figures and the own-text box stay, and Next goes on from them', async () => {
    const GEN = '.gpt-generate';
    await site.load('#view=gpt&seed=1&lang=en&gpt_prompt=白日&gpt_open_text=1');
    await page.waitForFunction(() => document.querySelector('.gpt-section')?.dataset.samples === '1');
    for (let n = 1; n <= 3; n++) {
      await page.click('[data-testid=gpt-next]');
      await page.waitForFunction(([s, k]) => document.querySelector(s)?.dataset.generated === String(k), [GEN, n]);
    }
    await page.fill('[data-testid=gpt-own-text]', '我自己的文本');
    const shown = () =>
      page.evaluate(() => ({
        text: document.querySelector('[data-testid=gpt-text]').textContent,
        generated: document.querySelector('.gpt-generate').dataset.generated,
        candidates: document.querySelector('#gpt-candidates output.heatmap-data')?.value,
        attention: document.querySelector('#gpt-attention output.heatmap-data')?.value,
        own: document.querySelector('[data-testid=gpt-own-text]').value,
      }));
    const before = await shown();
    assert.equal(Array.from(before.text).length, 5, before.text);
    assert.ok(before.candidates && before.attention, 'the step figures are drawn');
    // the line under the text names the last character drawn and its probability, in each language
    const chosen = () => page.locator('.gpt-chosen').textContent();
    const [, p] = (await chosen()).match(/^Character 3 after the prompt: drew .+ \(model probability (\d\.\d{3})\)\.$/s);
    const last = Array.from(before.text).at(-1).replace('\n', '⏎');
    for (const [lang, said] of [['zh', `开头后的第 3 个字：抽中“${last}”（模型给它的概率 ${p}）。`], ['en', `Character 3 after the prompt: drew ${last} (model probability ${p}).`]]) {
      await switchTo(lang, '.gpt-generate');
      await page.waitForFunction((n) => document.querySelector('#gpt-attention output.heatmap-data')?.value === n, before.attention);
      assert.deepEqual(await shown(), before, `after the switch to ${lang}`);
      assert.equal(await chosen(), said);
    }
    await page.click('[data-testid=gpt-next]');
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.generated === '4', GEN);
    const after = await page.locator('[data-testid=gpt-text]').textContent();
    assert.ok(after.startsWith(before.text) && Array.from(after).length === 6, `${before.text} → ${after}`);
  });

  // Each section's models cross in one direction (§1 and §4 en→zh, §3.3 zh→en; §5 above goes both
  // ways): the switch is the same code either way.
  for (const [from, to] of [DIRECTIONS[0]]) {
    test(`§1 (${from}→${to}): both models keep their steps, losses and accuracy table, and resume`, async () => {
      await site.load(`#view=why&seed=1&lang=${from}&why_steps=2000`);
      const step = () => page.evaluate(() => Number(document.querySelector('.why-section')?.dataset.step));
      await page.click('[data-testid=why-start]');
      // a loaded machine may estimate the 2000 steps at over a minute: the reader says yes
      await page.waitForFunction(() => Number(document.querySelector('.why-section')?.dataset.step) >= 5 || !document.querySelector('[data-testid=why-confirm]').hidden);
      if (await page.locator('[data-testid=why-confirm]').isVisible()) await page.click('[data-testid=why-confirm-run]');
      await page.waitForFunction(() => Number(document.querySelector('.why-section')?.dataset.step) >= 5);
      await page.click('[data-testid=why-start]'); // pause
      const before = await settled(() => json('why-data'));
      assert.ok(before.step >= 5 && before.plain.some((x) => x !== null), JSON.stringify(before));
      const models = await liveModels();

      await switchTo(to, '.why-section');
      assert.deepEqual(await json('why-data'), before, 'the snapshot after the switch');
      assert.equal(await liveModels(), models, 'the same two models: none made again, none left behind');
      assert.equal(await page.evaluate(() => document.querySelector('.why-section')?.dataset.state), 'idle');
      // the status and the button say paused at that step, in the new language
      assert.match(await page.locator('.why-status').textContent(), new RegExp(String(before.step)));

      await page.click('[data-testid=why-start]'); // resume
      await page.waitForFunction((n) => Number(document.querySelector('.why-section')?.dataset.step) !== n, before.step);
      const resumed = await step();
      assert.ok(resumed > before.step, `resumed at step ${resumed}, paused at ${before.step}`);
      await page.click('[data-testid=why-start]');
    });
  }

  for (const [from, to] of [DIRECTIONS[1]]) {
    test(`§3.3 (${from}→${to}): the translator and its plain companion keep their history and evaluation, and train on`, async () => {
      await site.load(`#view=translate&seed=1&lang=${from}`);
      const rows = () =>
        page.evaluate(() =>
          Object.fromEntries([...document.querySelectorAll('[data-testid=translate-compare] tr[data-model]')].map((r) => [r.dataset.model, r.dataset.evaluation ? JSON.parse(r.dataset.evaluation) : null])),
        );
      for (let k = 1; k <= 3; k++) {
        await page.click('[data-testid=translate-step]');
        await page.waitForFunction((n) => document.querySelector('.translate-section')?.dataset.step === String(n), k);
      }
      await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.modelStep === '3');
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=translate-compare] tr[data-model]')].filter((r) => r.dataset.evaluation?.includes('"step":3')).length === 2);
      const losses = await json('translate-losses');
      const evaluation = await rows();
      const decoded = async () => {
        await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.modelStep === '3' && document.querySelector('.translate-decode')?.dataset.done === '1');
        return page.evaluate(() => document.querySelector('[data-testid=translate-output]').value);
      };
      const output = await decoded();
      assert.equal(losses.length, 3);
      const models = await liveModels();
      assert.ok(models >= 2, `${models} models: the translator and its plain companion`);

      await switchTo(to, '.translate-section');
      await page.waitForFunction(() => document.querySelector('.translate-section')?.dataset.step === '3');
      assert.deepEqual(await json('translate-losses'), losses, 'the loss history after the switch');
      // the held-out table and the decoding of the sentence are drawn again from the kept models
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=translate-compare] tr[data-model]')].filter((r) => r.dataset.evaluation?.includes('"step":3')).length === 2);
      assert.deepEqual(await rows(), evaluation, 'the held-out evaluation after the switch');
      assert.equal(await decoded(), output, 'the decoding of the sentence after the switch');
      assert.equal(await page.locator('[data-testid=translate-untrained]').isVisible(), false);
      assert.equal(await liveModels(), models, 'the same models: none made again, none left behind');

      await page.click('[data-testid=translate-step]');
      await page.waitForFunction(() => document.querySelector('.translate-section')?.dataset.step === '4');
      const after = await json('translate-losses');
      assert.equal(after.length, 4);
      assert.deepEqual(after.slice(0, 3), losses, 'training went on from step 3');
    });
  }

  for (const [from, to] of [DIRECTIONS[0]]) {
    test(`§4 (${from}→${to}): the Transformer keeps its steps, losses and evaluation, and trains on`, async () => {
      await site.load(`#view=transformer&seed=1&lang=${from}&transformer_steps=10`);
      const SEC = '#section-transformer .transformer-section';
      const status = () => page.evaluate(() => ({ ...document.querySelector('[data-testid=transformer-status]')?.dataset }));
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.translatedAt !== undefined, SEC);
      await page.click('[data-testid=transformer-train]');
      await page.waitForFunction((s) => Number(document.querySelector(s)?.dataset.step) >= 10 && document.querySelector(s)?.dataset.playing === '0', SEC);
      await page.waitForFunction(() => document.querySelector('[data-testid=transformer-status]')?.dataset.evaluatedAt === '10');
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.translatedAt === '10', SEC);
      const losses = await json('transformer-losses');
      const scored = await status();
      const exact = (await page.locator('[data-testid=transformer-status]').textContent()).match(/\d+\.\d%/)?.[0];
      assert.equal(losses.length, 10);
      assert.ok(exact, 'the status gives the exact-match score');
      const models = await liveModels();

      await switchTo(to, '.transformer-section');
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.translatedAt === '10', SEC);
      assert.equal(await page.evaluate((s) => document.querySelector(s)?.dataset.step, SEC), '10');
      assert.deepEqual(await json('transformer-losses'), losses, 'the loss history after the switch');
      assert.deepEqual(await status(), scored, 'the model and its evaluation after the switch');
      assert.equal(await liveModels(), models, 'the same model: none made again, none left behind');
      assert.match(await page.locator('[data-testid=transformer-status]').textContent(), new RegExp(exact.replace('.', '\\.')));

      await page.evaluate(() => {
        const box = document.querySelector('[data-testid=transformer-steps]');
        box.value = '16';
        box.dispatchEvent(new Event('change'));
      });
      await page.click('[data-testid=transformer-train]');
      await page.waitForFunction((s) => Number(document.querySelector(s)?.dataset.step) >= 16 && document.querySelector(s)?.dataset.playing === '0', SEC);
      const after = await json('transformer-losses');
      assert.ok(after.length >= 16, `losses ${after.length}`);
      assert.deepEqual(after.slice(0, 10), losses, 'training went on from step 10');
    });
  }
});
