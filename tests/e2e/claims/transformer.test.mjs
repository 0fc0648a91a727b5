// §4's claims (registry.mjs), in English and Chinese, on the default settings. One default run
// (2500 steps) per language serves transformer-decode and transformer-rollout.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { useSite } from '../harness.mjs';
import { argmax, assertPrompt, claim, claimsByLanguage, fieldControl, text, trainedOnce } from './claims-harness.mjs';

const SEC = '.transformer-section';
const DATE = 'JAN 23, 2015';

describe('§4 claims', { timeout: 1_800_000 }, () => {
  let site;
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const dataset = (selector) => page.evaluate((s) => ({ ...document.querySelector(s)?.dataset }), selector);
  const stepOf = async () => Number((await dataset(SEC)).step);
  async function open(lang) {
    await site.load(`#view=transformer&lang=${lang}&transformer_open_settings=1`); // the prompts' settings are in their panel
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.translatedAt !== undefined, SEC, { timeout: 60_000 });
  }
  /** Presses Train and waits for the run's end (saying yes if a loaded machine makes it ask first). */
  async function trainToEnd(steps) {
    await page.click('[data-testid="transformer-train"]');
    const deadline = Date.now() + 900_000;
    while ((await stepOf()) < steps || (await dataset(SEC)).playing !== '0') {
      assert.ok(Date.now() < deadline, 'training did not finish');
      const confirm = page.locator('[data-testid=transformer-confirm-run]');
      if (await confirm.isVisible()) await confirm.click();
      await page.waitForTimeout(1000);
    }
    // the finished run's decoding, not a redraw's while training (which leaves the view an older one)
    await page.waitForFunction(([s, n]) => document.querySelector(s)?.dataset.decodedAt === String(n), [SEC, await stepOf()]);
  }
  /** Steps the decoding from the start; the source lighting at each output token. */
  async function stepLights() {
    await page.click('[data-testid=transformer-decode-restart]');
    const total = Number((await dataset('.transformer-decode')).steps);
    const lights = [];
    /** the marked source word at each step (-1: none) */
    const marks = [];
    for (let k = 1; k <= total; k++) {
      await page.click('[data-testid=transformer-decode-step]');
      await page.waitForFunction((n) => document.querySelector('.transformer-decode')?.dataset.step === String(n), k);
      const light = JSON.parse((await dataset('.transformer-decode')).light);
      lights.push(light);
      // each new step marks the source word its light weighs most (not the last step's word); a
      // layer's mean of heads is no row of the map, so nothing is marked then
      const marked = await page.locator('[data-testid=transformer-source] .transformer-token').evaluateAll((cs) => cs.findIndex((c) => c.classList.contains('linked')));
      if (marked >= 0) assert.equal(light[marked], Math.max(...light), `step ${k}: the marked word ${marked} is not the most lit`);
      marks.push(marked);
    }
    lights.marks = marks;
    return lights;
  }
  const output = async () => ((await page.locator('[data-testid=transformer-output]').textContent()) ?? '').replace(/\s/g, '');
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);

  // one trained page serves transformer-decode and transformer-rollout in both languages
  const trainedDefault = (lang) =>
    trainedOnce(page, 'default', lang, {
      root: SEC,
      train: async (l) => {
        await open(l);
        await trainToEnd(2500);
      },
      ready: () =>
        page.waitForFunction((s) => {
          const d = document.querySelector(s)?.dataset;
          return Number(d?.step) >= 2500 && d?.playing === '0' && d.decodedAt === d.step;
        }, SEC),
    });

  claim('transformer-intro', async (lang) => {
    await open(lang);
    assert.equal(await page.locator('[data-testid=transformer-intro]').textContent(), text(lang, 'transformer.intro'));
    // three kinds drawn: the encoder's self-attention and the decoder's two
    for (const kind of ['encoder', 'decoder', 'cross']) assert.equal(await page.locator(`[data-testid=transformer-grid-${kind}]`).count(), 1, kind);
    const settings = (await page.locator('[data-testid=transformer-settings-line]').textContent()) ?? '';
    assert.doesNotMatch(settings, /\b1 layers\b/);
  });

  claimsByLanguage([
    [
      'transformer-decode',
      async (lang) => {
        await trainedDefault(lang);
        await assertPrompt(page, lang, 'transformer.try.1');
        const lights = await stepLights();
        assert.equal(await output(), '2015-01-23');
        // source "JAN 23, 2015": the month at 0–2, the day at 4–5, the year at 8–11
        const parts = { year: [[0, 1, 2, 3], [8, 11]], month: [[5, 6], [0, 2]], day: [[8, 9], [4, 5]] };
        for (const [part, [steps, [from, to]]] of Object.entries(parts)) {
          for (const t of steps) {
            const at = argmax(lights[t]);
            assert.ok(at >= from && at <= to, `${part}: output ${t + 1} lights “${DATE[at]}” (${at}): ${lights[t].map((x) => x.toFixed(2))}`);
          }
        }
      },
    ],
    [
      'transformer-rollout',
      async (lang) => {
        await trainedDefault(lang);
        await assertPrompt(page, lang, 'transformer.try.3');
        // the default: layer 1's mean of heads, all of it on the source
        assert.equal(await page.locator('[data-testid=transformer-light]').inputValue(), '1,0');
        const layerMean = await stepLights();
        for (const light of layerMean) assert.ok(Math.abs(sum(light) - 1) < 1e-3, `layer mean sums to ${sum(light)}`);
        await page.selectOption('[data-testid=transformer-light]', '1,1');
        for (const light of await stepLights()) assert.ok(Math.abs(sum(light) - 1) < 1e-3, `one head sums to ${sum(light)}`);
        await page.selectOption('[data-testid=transformer-light]', '0,0');
        const rollout = await stepLights();
        for (const light of rollout) assert.ok(Math.abs(sum(light) - 0.5) < 0.05, `rollout sums to ${sum(light)}`);
        assert.ok(rollout.marks.every((m) => m >= 0), `the rollout marks a word at every step: ${rollout.marks}`);
        // spread through the encoder's attention: the largest chip is a smaller share of the step's
        // weight than the layer mean's (which puts nearly all of it on one token)
        const topShare = (lights) => lights.reduce((a, l) => a + Math.max(...l) / sum(l), 0) / lights.length;
        const spread = { rollout: topShare(rollout), layerMean: topShare(layerMean) };
        assert.ok(spread.rollout < spread.layerMean - 0.1, `largest chip's share: rollout ${spread.rollout.toFixed(3)}, layer mean ${spread.layerMean.toFixed(3)}`);
        console.log(`# transformer-rollout ${lang}: rollout sums ${rollout.map((l) => sum(l).toFixed(3)).join(' ')}; largest chip's share ${spread.rollout.toFixed(3)} (layer mean ${spread.layerMean.toFixed(3)})`);
        // back to the default lighting, for the other language's claims on this page
        await page.selectOption('[data-testid=transformer-light]', '1,0');
      },
    ],
  ]);

  claim('transformer-heads', async (lang) => {
    await open(lang);
    await assertPrompt(page, lang, 'transformer.try.2');
    const hash = await page.evaluate(() => location.hash);
    const params = (await dataset('[data-testid=transformer-status]')).params;
    await page.fill('[data-testid=transformer-heads]', '3');
    await page.dispatchEvent('[data-testid=transformer-heads]', 'change');
    assert.equal(await page.getAttribute('[data-testid=transformer-heads]', 'aria-invalid'), 'true');
    const error = await page.evaluate(() => document.getElementById(document.querySelector('[data-testid=transformer-heads]').getAttribute('aria-errormessage'))?.textContent);
    assert.ok(error.includes('1, 2, 4, 8, 16'), error);
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => location.hash), hash, 'the settings stay');
    assert.equal((await dataset('[data-testid=transformer-status]')).params, params, 'the model stays');
  });

  claim('transformer-norm', async (lang) => {
    await open(lang);
    await assertPrompt(page, lang, 'transformer.try.4');
    await fieldControl(page, text(lang, 'transformer.norm')).selectOption('0');
    await page.waitForFunction(() => /transformer_norm_first=0/.test(location.hash));
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.translatedAt !== undefined, SEC);
    await page.fill('[data-testid="transformer-steps"]', '30');
    await page.dispatchEvent('[data-testid="transformer-steps"]', 'change');
    await trainToEnd(30);
    const losses = await page.evaluate(() => JSON.parse(document.querySelector('[data-testid=transformer-losses]').value));
    assert.ok(losses.length >= 30 && losses.every(Number.isFinite), 'the loss curve to compare');
  });
});
