// §4's ask-why panel in the built page: after a short training run, a cell forces a step's
// cross-attention (every layer and head) onto a source token, a head of one layer and kind of
// attention is zeroed, a candidate rewrites a character; the intervened translation stands beside
// the original with changed tokens marked; undo and reset step back; the list lives in the link
// (transformer_why) and a malformed one is named under its field. Attribution shows when the Transformer
// offers it and the panel says plainly when it does not. Screenshots at 1280, 768 and 390 px in
// English and Chinese. Needs a build. Run: node --test tests/e2e/transformer-why.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { join } from 'node:path';
import { artifactsDir, keepScreenshot, openPanel, useSite } from './harness.mjs';

const SEC = 'section[data-section="transformer"] .transformer-section';
const WHY = `${SEC} [data-testid=transformer-why]`;

describe('§4 ask the model why', { timeout: 400_000 }, () => {
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const data = () => page.evaluate((q) => ({ ...document.querySelector(q)?.dataset }), WHY);
  const waitData = (key, value) => page.waitForFunction(([q, k, v]) => document.querySelector(q)?.dataset[k] === v, [WHY, key, value]);
  const waitLink = (value) => page.waitForFunction((v) => (new URLSearchParams(location.hash.slice(1)).get('transformer_why') ?? '') === v, value);

  /** Loads `hash` and trains `steps` steps (the run's length set in the link). */
  async function loadTrained(hash, steps) {
    await site.load(`${hash}&transformer_steps=${steps}`);
    await openPanel(page, 'transformer-panel-why');
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.translatedAt !== undefined, SEC, { timeout: 60_000 });
    await page.click('[data-testid="transformer-train"]');
    // on a loaded machine the time estimate may pass a minute: the section then asks first
    await page.waitForFunction(([s, n]) => {
      const confirm = document.querySelector('[data-testid=transformer-confirm]');
      if (confirm && !confirm.hidden) document.querySelector('[data-testid=transformer-confirm-run]')?.click();
      return Number(document.querySelector(s)?.dataset.step) >= n && document.querySelector(s)?.dataset.playing === '0';
    }, [SEC, steps], { timeout: 180_000, polling: 250 });
    // the panel shows the finished run's translation (translatedAt may come from a redraw at the
    // last step while the run was still going, which the panel does not follow)
    await page.waitForFunction(([s, n]) => document.querySelector(s)?.dataset.explainedAt === String(n), [SEC, steps]);
    await page.waitForSelector(`${WHY}:not([hidden])`);
  }

  /** Attribution: the map and ρ when the model offers it, else one plain sentence. */
  async function checkAttribution(unavailable) {
    await page.waitForFunction((q) => ['integrated-gradients', 'unavailable'].includes(document.querySelector(q)?.dataset.attribution ?? ''), WHY);
    const { attribution } = await data();
    if (attribution === 'unavailable') {
      assert.match(await page.locator(`${WHY} [data-testid=transformer-why-attr-note]`).textContent(), unavailable);
      assert.equal(await page.locator(`${WHY} [data-testid=transformer-why-rho]`).isVisible(), false);
    } else {
      assert.ok((await page.locator(`${WHY} [data-testid=transformer-why-rho] li`).count()) >= 1);
    }
  }

  async function screenshots(lang) {
    for (const width of [1280, 768, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.locator(WHY).scrollIntoViewIfNeeded();
      await keepScreenshot(page.locator(WHY), { path: join(artifactsDir, `transformer-why-${lang}-${width}.png`) });
      const overflow = await page.evaluate((q) => {
        const el = document.querySelector(q);
        return el.scrollWidth - el.clientWidth;
      }, WHY);
      assert.equal(overflow, 0, `${lang} ${width}: the panel is wider than its card`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  test('force the cross-attention, zero a head, rewrite a token; undo, reset; the link', async () => {
    await loadTrained('#view=transformer&seed=1', 300);
    await checkAttribution(/Attribution is not available for this model/);
    const original = await page.locator(`${WHY} [data-testid=transformer-why-original]`).textContent();
    assert.ok(original.length > 0);

    await page.click(`${WHY} .translate-why-cell[data-step="0"][data-source="0"]`);
    await waitData('interventions', '1');
    await waitLink('a1:1');
    assert.match(await page.locator(`${WHY} .translate-why-list`).textContent(), /Step 1: all cross-attention on “J”/);

    // head 1 of layer 1 of the cross-attention, at every step
    await page.selectOption(`${WHY} [data-testid=transformer-why-head-kind]`, 'cross');
    await page.selectOption(`${WHY} [data-testid=transformer-why-head-layer]`, '0');
    await page.selectOption(`${WHY} [data-testid=transformer-why-head-head]`, '0');
    await page.selectOption(`${WHY} [data-testid=transformer-why-head-step]`, 'all');
    await page.click(`${WHY} [data-testid=transformer-why-zero]`);
    await waitData('interventions', '2');
    await waitLink('a1:1,zc1.1');
    assert.match(await page.locator(`${WHY} .translate-why-list`).textContent(), /Head 1 of layer 1 \(cross\) zeroed at every step/);
    // the encoder's heads take no step
    await page.selectOption(`${WHY} [data-testid=transformer-why-head-kind]`, 'encoder-self');
    assert.equal(await page.locator(`${WHY} [data-testid=transformer-why-head-step]`).isDisabled(), true);

    // a candidate at step 1: the translation changes from there, the changed tokens marked
    const candidate = page.locator(`${WHY} .translate-why-candidate[data-step="0"]`).first();
    const token = await candidate.getAttribute('data-token');
    await candidate.click();
    await waitData('interventions', '3');
    assert.equal((await data()).firstChange, '0');
    assert.equal(await page.locator(`${WHY} [data-testid=transformer-why-intervened] .translate-why-word`).first().textContent(), token);
    assert.ok((await page.locator(`${WHY} [data-testid=transformer-why-intervened] [data-changed="1"]`).count()) >= 1);
    assert.equal(await page.locator(`${WHY} [data-testid=transformer-why-original]`).textContent(), original);
    const intervened = (await data()).intervened;
    await screenshots('en');

    await page.click(`${WHY} [data-testid=transformer-why-undo]`);
    await waitData('interventions', '2');
    await waitLink('a1:1,zc1.1');
    await candidate.click();
    await waitData('interventions', '3');
    await page.waitForFunction(() => /w1:/u.test(new URLSearchParams(location.hash.slice(1)).get('transformer_why') ?? ''));

    // the address, reloaded and trained the same way: the same intervened translation
    const hash = await page.evaluate(() => location.hash);
    await loadTrained(hash.replace(/&transformer_steps=\d+/u, ''), 300);
    await waitData('interventions', '3');
    assert.equal((await data()).intervened, intervened);

    await page.click(`${WHY} [data-testid=transformer-why-reset]`);
    await waitData('interventions', '0');
    await waitLink('');
    assert.equal(await page.locator(`${WHY} [data-testid=transformer-why-intervened]`).textContent(), original);
  });

  test('the Transformer widget carries no ask-why panel: its module has no interventions, and the page downloads none of the panel', async () => {
    const requested = [];
    const onRequest = (r) => requested.push(r.url());
    page.on('request', onRequest);
    await site.load('', '/examples/test-one-playground-transformer.html');
    await page.waitForFunction(() => document.querySelector('attention-playground')?.shadowRoot?.querySelector('.transformer-section')?.dataset.translatedAt !== undefined, null, { timeout: 60_000 });
    assert.deepEqual(requested.filter((u) => /translate-why|translate-timeline/u.test(u)), [], 'the panel is not part of the widget page');
    assert.equal(await page.locator('attention-playground [data-testid=transformer-why]').count(), 0);
    page.off('request', onRequest);
  });

  test('Chinese; a malformed link named under its field', async () => {
    const bad = encodeURIComponent('zc1.1,ze1.1@2');
    await site.load(`#view=transformer&lang=zh&seed=1&transformer_why=${bad}`);
    await page.waitForSelector(`${WHY}:not([hidden])`);
    await waitData('linkError', '1');
    assert.match(await page.locator(`${WHY} [data-testid=transformer-why-link-error]`).textContent(), /链接中的干预（transformer_why）：第 2 项“ze1.1@2”：编码器只运行一次/);
    assert.equal((await data()).interventions, '0');

    await loadTrained('#view=transformer&lang=zh&seed=1&transformer_why=zd1.2%402', 300);
    // the panel applies the link to each finished run's translation anew (the one at load first):
    // wait for the list of the last, not read the one before it
    await page.waitForFunction((q) => /第 1 层第 2 个头（解码器自注意力）在第 2 步置零/.test(document.querySelector(`${q} .translate-why-list`)?.textContent ?? ''), WHY);
    await waitData('interventions', '1');
    assert.match(await page.locator(`${WHY} > h3`).textContent(), /问问模型为什么/);
    await checkAttribution(/这个模型暂不提供归因/);
    await screenshots('zh');
  });
});
