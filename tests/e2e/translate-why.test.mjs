// §3.3's "ask the model why" panel in the built page, on the book's recipe (translate_task=note): after
// training, clicking a cell of the grid forces that step's attention and shows the intervened
// translation beside the original; a candidate rewrites a word (changed words marked); undo and
// reset step back; the attribution of both methods appears with a ρ per word, integrated gradients first; the Chinese page
// has the panel in Chinese. Needs a build. Run: node --test tests/e2e/translate-why.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { join } from 'node:path';
import { artifactsDir, keepScreenshot, openPanel, useSite } from './harness.mjs';

const SEC = '#section-translate .translate-section';
const WHY = `${SEC} [data-testid=translate-why]`;
const NOTE = 'translate_task=note&translate_cell=rnn&translate_hidden=128&translate_lr=0.001';

describe('§3.3 ask the model why', { timeout: 400_000 }, () => {
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const why = () => page.evaluate((s) => ({ ...document.querySelector(s)?.dataset }), WHY);
  /** Waits for the panel's data-`key` to read `value`; a timeout says what the panel shows instead. */
  const waitWhy = async (key, value) => {
    try {
      await page.waitForFunction(([s, k, v]) => document.querySelector(s)?.dataset[k] === v, [WHY, key, value]);
    } catch (err) {
      const status = await page.locator(`${WHY} [data-testid=translate-why-status]`).textContent().catch(() => '(none)');
      throw new Error(`the panel's data-${key} never read ${value}: its data ${JSON.stringify(await why())}, its status "${status}" (${String(err).split('\n')[0]})`);
    }
  };

  test('force an attention, rewrite a word, undo, reset; attribution beside attention', async () => {
    await site.load(`#view=translate&seed=1&translate_speed=200&${NOTE}`);
    await openPanel(page, 'translate-panel-words');
    await openPanel(page, 'translate-panel-why');
    await page.waitForSelector(`${SEC} .translate-vocab-word`);
    await page.click('[data-testid=translate-play]');
    await page.waitForFunction(() => document.querySelector('.translate-section')?.dataset.step === '400', null, { timeout: 240_000 });
    await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.modelStep === '400');
    await page.waitForSelector(`${WHY}:not([hidden])`);
    // integrated gradients first: gradient × input is near 0 on near-certain words (the panel says why)
    await waitWhy('attribution', 'integrated-gradients');
    assert.equal(await page.locator(`${WHY} [data-testid=translate-why-ig]`).getAttribute('aria-pressed'), 'true');
    assert.match(await page.locator(WHY).textContent(), /softmax is saturated/);
    assert.equal(await page.locator(`${WHY} [data-testid=translate-why-original]`).textContent(), 'KaGe likes XiaoBing');
    assert.equal(await page.locator(`${WHY} [data-testid=translate-why-rho] li`).count(), 4);
    assert.match(await page.locator(WHY).textContent(), /Jain & Wallace \(2019\)[\s\S]*Wiegreffe & Pinter \(2019\)/);

    // Step 2's attention all on 咖哥.
    await page.click(`${WHY} .translate-why-cell[data-step="1"][data-source="0"]`);
    await waitWhy('interventions', '1');
    assert.match(await page.locator(`${WHY} [data-testid=translate-why-status]`).textContent(), /The same words|Changed from step 2/);
    assert.match(await page.locator(`${WHY} .translate-why-list`).textContent(), /Step 2: all attention on “咖哥”/);
    // Then step 1 writes another candidate: the translation changes from step 1.
    const candidate = page.locator(`${WHY} .translate-why-candidate[data-step="0"]`).first();
    const word = await candidate.getAttribute('data-token');
    await candidate.click();
    await waitWhy('interventions', '2');
    assert.equal((await why()).firstChange, '0');
    assert.equal(await page.locator(`${WHY} [data-testid=translate-why-intervened] .translate-why-word`).first().textContent(), word);
    assert.ok(await page.locator(`${WHY} [data-testid=translate-why-intervened] [data-changed="1"]`).count() >= 1);
    assert.equal(await page.locator(`${WHY} [data-testid=translate-why-original]`).textContent(), 'KaGe likes XiaoBing');
    await keepScreenshot(page.locator(WHY), { path: join(artifactsDir, 'translate-why.png') });

    await page.click(`${WHY} [data-testid=translate-why-undo]`);
    await waitWhy('interventions', '1');
    await page.click(`${WHY} [data-testid=translate-why-reset]`);
    await waitWhy('interventions', '0');
    assert.match(await page.locator(`${WHY} [data-testid=translate-why-status]`).textContent(), /No intervention yet/);

    await page.click(`${WHY} [data-testid=translate-why-gxi]`);
    await waitWhy('attribution', 'gradient-input');
    const rhos = await page.locator(`${WHY} [data-testid=translate-why-rho] li`).evaluateAll((items) => items.map((li) => li.dataset.rho));
    assert.equal(rhos.length, 4);
    for (const r of rhos) assert.ok(r === '' || Math.abs(Number(r)) <= 1, r);
  });

  test('the panel speaks Chinese on the Chinese page', async () => {
    await site.load(`#view=translate&lang=zh&seed=1&${NOTE}`);
    await openPanel(page, 'translate-panel-words');
    await openPanel(page, 'translate-panel-why');
    await page.waitForSelector(`${SEC} .translate-vocab-word`);
    await page.waitForSelector(`${WHY}:not([hidden])`);
    assert.match(await page.locator(`${WHY} > h3`).textContent(), /问问模型为什么/);
    assert.match(await page.locator(WHY).textContent(), /注意力是解释吗/);
    assert.match(await page.locator(WHY).textContent(), /softmax 已经饱和/);
  });
});
