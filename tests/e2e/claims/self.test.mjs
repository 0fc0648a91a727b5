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

  claim('self-tie', async (lang) => {
    await open(lang);
    await assertPrompt(page, lang, 'self.try.tie');
    // 咖哥 喜欢 小冰: 小冰 is row 2, 喜欢 column 1
    const pairs = (s) => ({ xiaobingOnXihuan: row(s, 2)[1], xihuanOnXiaobing: row(s, 1)[2] });
    const apart = pairs(await heatmap(page, 'self-scores'));
    assert.ok(Math.abs(apart.xiaobingOnXihuan - apart.xihuanOnXiaobing) > 0.05, `separate maps: ${JSON.stringify(apart)}`);
    const tie = fieldControl(page, text(lang, 'self.tie'));
    await after(() => tie.check());
    await page.waitForFunction(() => /self_tie=(1|true)/.test(location.hash), null, { timeout: 10_000 }); // a link keeps the box
    const scores = await heatmap(page, 'self-scores');
    const n = scores.shape[0];
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) assert.ok(Math.abs(row(scores, i)[j] - row(scores, j)[i]) < 1e-5, `tied: score ${i}→${j} ${row(scores, i)[j]} vs ${j}→${i} ${row(scores, j)[i]}`);
    const tied = pairs(scores);
    assert.ok(Math.abs(tied.xiaobingOnXihuan - tied.xihuanOnXiaobing) < 1e-5, JSON.stringify(tied));
    await after(() => tie.uncheck());
    assert.deepEqual(pairs(await heatmap(page, 'self-scores')), apart, 'unticked: the separate maps’ scores again');
  });
});
