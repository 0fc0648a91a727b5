// §3.4–3.5's claims (registry.mjs), in English and Chinese, on the default settings.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { useSite } from '../harness.mjs';
import { argmax, assertPrompt, claim, countedSection, fieldControl, heatmap, row, text } from './claims-harness.mjs';

const SEC = '.self-section';

describe('§3.4–3.5 claims', { timeout: 120_000 }, () => {
  let site;
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const { after, open } = countedSection(() => ({ site, page }), 'self', SEC);
  const neuron = () => page.locator(`${SEC} .self-neuron-data`).evaluate((o) => JSON.parse(o.value));

  claim('self-cell', async (lang) => {
    await open(lang);
    await assertPrompt(page, lang, 'self.try.cell');
    await page.locator('#self-weights canvas').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /self_focus=2/.test(location.hash) && /self_key=1/.test(location.hash), null, { timeout: 10_000 });
    await page.waitForFunction(() => {
      const out = document.querySelector('.self-neuron-data');
      return out && JSON.parse(out.value).query === 2 && JSON.parse(out.value).key === 1;
    });
    const pair = await neuron();
    // term by term: the products are q∘k and they add up to the score the weights came from
    assert.deepEqual(pair.products.map((p) => p.toFixed(5)), pair.q.map((x, i) => (x * pair.k[i]).toFixed(5)));
    assert.equal(pair.weight, row(await heatmap(page, 'self-weights'), 2)[1]);
  });

  claim('self-repeat', async (lang) => {
    await open(lang);
    await assertPrompt(page, lang, 'self.try.repeat');
    await after(() => fieldControl(page, text(lang, 'self.text')).fill('我 爱 我'));
    const weights = await heatmap(page, 'self-weights');
    assert.deepEqual(weights.shape, [3, 3]);
    assert.deepEqual(row(weights, 0), row(weights, 2), 'the two 我 rows');
    assert.notDeepEqual(row(weights, 0), row(weights, 1));
  });

  claim('self-hover', async (lang) => {
    await open(lang);
    await assertPrompt(page, lang, 'self.try.hover');
    const weights = await heatmap(page, 'self-weights');
    for (let i = 0; i < weights.shape[0]; i++) {
      await page.locator(`${SEC} .self-headview-queries li`).nth(i).hover();
      await page.waitForFunction((q) => document.querySelector('.self-headview')?.getAttribute('data-focus') === String(q), i);
      const widths = await page.$$eval(`${SEC} .self-headview-lines line`, (ls) => ls.map((l) => Number(l.getAttribute('stroke-width'))));
      assert.equal(argmax(widths), argmax(row(weights, i)), `query ${i}: line widths ${widths}, weights ${row(weights, i)}`);
    }
  });
});
