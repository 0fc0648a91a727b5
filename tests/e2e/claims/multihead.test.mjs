// §3.6's claims (registry.mjs), in English and Chinese, on the default settings.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { useSite } from '../harness.mjs';
import { assertPrompt, claim, fieldControl, fill, heatmap, row, text } from './claims-harness.mjs';


describe('§3.6 claims', { timeout: 120_000 }, () => {
  let site;
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const root = () => page.locator('#section-multihead .section-body > div').first();
  const count = () => root().evaluate((r) => Number(r.dataset.computeCount ?? 0));
  async function after(change) {
    const before = await count();
    await change();
    await page.waitForFunction((n) => Number(document.querySelector('#section-multihead .section-body > div')?.dataset.computeCount ?? 0) > n, before);
  }
  async function open(lang) {
    await site.load(`#view=multihead&lang=${lang}`);
    await page.waitForFunction(() => Number(document.querySelector('#section-multihead .section-body > div')?.dataset.computeCount ?? 0) > 0);
  }
  const headsSelect = (lang) => fieldControl(page, text(lang, 'multihead.heads'));
  /** each head's weights: its strongest (query, key) pair and weight */
  async function strongest(heads) {
    const out = [];
    for (let h = 1; h <= heads; h++) {
      const map = await heatmap(page, `multihead-weights-${h}`);
      let at = 0;
      map.values.forEach((w, i) => (w > map.values[at] ? (at = i) : 0));
      const n = map.shape[1];
      const w = map.values[at];
      // no strongest link: a tie as printed (two decimals), or a row near an even split (under 1.25/n)
      const ties = map.values.filter((x) => x.toFixed(2) === w.toFixed(2)).length;
      const kind = ties > 1 ? 'tie' : w < 1.25 / n ? 'flat' : 'link';
      out.push({ query: Math.floor(at / n), key: at % n, w, kind, ties, even: (1 / n).toFixed(2) });
    }
    return out;
  }

  claim('multihead-heads', async (lang) => {
    await open(lang);
    await assertPrompt(page, lang, 'multihead.try.heads');
    for (const heads of [1, 2, 4]) {
      await after(() => headsSelect(lang).selectOption(String(heads)));
      const best = await strongest(heads);
      const line = (await page.locator('[data-testid=narration]').textContent()) ?? '';
      const tokens = ['咖哥', '喜欢', '小冰'];
      for (const [i, b] of best.entries()) {
        const said = fill(text(lang, `multihead.narrate.${b.kind}`), { h: i + 1, query: tokens[b.query], key: tokens[b.key], w: b.w.toFixed(2), count: b.ties, even: b.even });
        assert.ok(line.includes(said), `head ${i + 1} (${said}) in: ${line}`);
      }
      if (heads === 1) continue;
      // the verdict is over the heads that have a strongest link
      const linked = best.flatMap((b, i) => (b.kind === 'link' ? [{ h: i + 1, pair: `${b.query},${b.key}` }] : []));
      const distinct = new Set(linked.map((l) => l.pair)).size;
      if (linked.length === heads && distinct === 1) assert.ok(line.endsWith(text(lang, 'multihead.narrate.same')), line);
      else if (linked.length === heads && distinct === heads) assert.ok(line.endsWith(text(lang, 'multihead.narrate.differ')), line);
      else {
        assert.ok(!line.includes(text(lang, 'multihead.narrate.differ')), `not every head has a link or some share one, yet: ${line}`);
        for (const p of new Set(linked.map((l) => l.pair))) {
          const group = linked.filter((l) => l.pair === p).map((l) => l.h);
          const list = `${group.slice(0, -1).join(text(lang, 'multihead.narrate.headSep'))}${text(lang, 'multihead.narrate.headLast')}${group.at(-1)}`;
          if (group.length > 1) assert.ok(line.includes(fill(text(lang, 'multihead.narrate.shared'), { heads: list })), `heads ${group} in: ${line}`);
        }
      }
      console.log(`# multihead-heads ${lang}, ${heads} heads: ${line}`);
    }
  });

  claim('multihead-scale', async (lang) => {
    await open(lang);
    await assertPrompt(page, lang, 'multihead.try.scale');
    const legendEnds = (h) => page.locator(`#multihead-weights-${h} .legend > span`).evaluateAll((spans) => [spans[0].title, spans[2].title]);
    const number = (title) => Number(/-?\d+(\.\d+)?(e-?\d+)?(?=\D*$)/.exec(title)?.[0]);
    for (const h of [1, 2]) assert.deepEqual((await legendEnds(h)).map(number), [0, 1], 'shared: every head on 0 … 1');
    await after(() => fieldControl(page, text(lang, 'multihead.scale')).selectOption('per-head'));
    for (const h of [1, 2]) {
      const values = (await heatmap(page, `multihead-weights-${h}`)).values;
      const [low, high] = (await legendEnds(h)).map(number);
      assert.ok(Math.abs(low - Math.min(...values)) < 1e-3 && Math.abs(high - Math.max(...values)) < 1e-3, `head ${h}: legend ${low} … ${high}, weights ${Math.min(...values)} … ${Math.max(...values)}`);
    }
  });

  claim('multihead-repeat', async (lang) => {
    await open(lang);
    await assertPrompt(page, lang, 'multihead.try.repeat');
    await after(() => fieldControl(page, text(lang, 'multihead.text')).fill('我 爱 我'));
    for (const h of [1, 2]) {
      const map = await heatmap(page, `multihead-weights-${h}`);
      assert.deepEqual(map.shape, [3, 3]);
      assert.deepEqual(row(map, 0), row(map, 2), `head ${h}: the two 我 rows`);
    }
  });
});
