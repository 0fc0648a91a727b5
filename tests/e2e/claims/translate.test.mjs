// §3.3's claims (registry.mjs), in English and Chinese, on the default settings. translate_speed (steps
// per frame) only paces the run: the model, its batches and its scores are the same at any speed.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { openPanel, switchLanguage, useSite } from '../harness.mjs';
import { argmax, assertPrompt, claim, claimsByLanguage, heatmap, LANGS, row, text, trainedOnce } from './claims-harness.mjs';
import { wasmBuildOf } from '../one-widget-pages.mjs';

const SEC = '#section-translate .translate-section';
const FAST = 'translate_speed=50&translate_open_settings=1'; // the prompts' settings are in their panel
/** the grammar's time and place words, English → Chinese (wasm/src/sequence/task_grammar.cpp) */
const TIME_PLACE = { yesterday: ['昨天', '前天'], night: ['昨晚'], week: ['上周'], year: ['去年'], month: ['上个月'], park: ['公园'], school: ['学校'], shop: ['商店'], garden: ['花园'], library: ['图书馆'], kitchen: ['厨房'] };

describe('§3.3 claims', { timeout: 1_800_000 }, () => {
  let site;
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  async function open(hash) {
    await site.load(hash);
    await page.waitForSelector(`${SEC} .translate-vocab-word, ${SEC} .translate-token`);
  }
  async function trainRecipe(steps) {
    await page.click('[data-testid=translate-play]');
    await page.waitForFunction((n) => document.querySelector('.translate-section')?.dataset.step === String(n), steps, { timeout: 600_000 });
    await page.waitForFunction(() => document.querySelector('.translate-section')?.dataset.playing === '0');
    await page.waitForFunction((n) => document.querySelector('.translate-decode')?.dataset.modelStep === String(n), steps);
  }
  const evaluation = (model) =>
    page.evaluate((m) => {
      const tr = document.querySelector(`[data-testid=translate-compare] tr[data-model=${m}]`);
      return tr?.dataset.evaluation ? JSON.parse(tr.dataset.evaluation) : null;
    }, model);
  /**
   * Steps the decoding with Next token as the prompt says, from where it stands (a translation shown
   * whole, as training leaves it: Next token starts at its first token) to its end; the source and
   * output tokens and the map.
   */
  async function decode() {
    const view = await page.evaluate(() => ({ ...document.querySelector('.translate-decode')?.dataset }));
    assert.equal(view.done, '1', 'the decoding stands at the end of a translation shown whole');
    const total = Number(view.steps);
    for (let k = 1; k <= total; k++) {
      await page.click('[data-testid=translate-decode-step]');
      await page.waitForFunction((n) => document.querySelector('.translate-decode')?.dataset.step === String(n), k);
    }
    const source = await page.locator(`${SEC} .translate-token .translate-token-text`).allTextContents();
    const output = ((await page.locator(`${SEC} [data-testid=translate-output]`).textContent()) ?? '').trim();
    const map = await heatmap(page, 'translate-attention');
    return { source, output, map };
  }

  /** The panel's attribution by `method` ('integrated-gradients' is shown first): its map and the rows the page calls all ties. */
  async function attribution(method) {
    const why = '[data-testid=translate-why]';
    await page.waitForFunction(([q, m]) => document.querySelector(q)?.dataset.attribution === m, [why, method], { timeout: 120_000 });
    const map = await heatmap(page, 'translate-why-attribution');
    const rhos = await page.locator(`${why} [data-testid=translate-why-rho] li`).evaluateAll((items) => items.map((li) => ({ rho: li.dataset.rho, text: li.textContent })));
    return { map, tiedRows: rhos.filter((r) => r.rho === '').length, rhos };
  }

  /** After the language switch: the re-mounted section shows the model trained `steps` (and `model`'s evaluation at that step). */
  async function shows(steps, model) {
    await page.waitForFunction((n) => document.querySelector('.translate-section')?.dataset.step === String(n) && document.querySelector('.translate-section')?.dataset.playing === '0', steps);
    await page.waitForFunction((n) => document.querySelector('.translate-decode')?.dataset.modelStep === String(n), steps);
    if (model) await page.waitForFunction(([m, n]) => document.querySelector(`[data-testid=translate-compare] tr[data-model=${m}]`)?.dataset.evaluation?.includes(`"step":${n}`), [model, steps]);
  }

  /** The untrained model's map of the first sentence, in each language (read before training). */
  const untrained = {};
  /** The map of the first sentence (the longest held-out one) once it shows, at model step `step`. */
  async function firstSentenceMap(step) {
    await page.waitForFunction((n) => {
      const shape = document.querySelector('#translate-attention output.heatmap-data')?.dataset.shape;
      const words = document.querySelectorAll('.translate-section .translate-token').length;
      return document.querySelector('.translate-decode')?.dataset.modelStep === String(n) && words > 10 && shape?.endsWith(`,${words}`);
    }, step);
    return heatmap(page, 'translate-attention');
  }

  // one trained page serves translate-train, translate-sharp, translate-decode and translate-why in both languages
  async function trainedGrammar(lang) {
    await trainedOnce(page, 'grammar', lang, {
      root: '.translate-section',
      train: async (l) => {
        const builds = [];
        const seen = (response) => builds.push(wasmBuildOf(response.url()));
        page.context().on('response', seen);
        await open(`#view=translate&lang=${l}&${FAST}`);
        // translate-sharp: the untrained model's map, in this language and (a switch there and
        // back) in the other, before the run
        untrained[l] = await firstSentenceMap(0);
        const other = LANGS.find((x) => x !== l);
        await switchLanguage(page, other, SEC);
        untrained[other] = await firstSentenceMap(0);
        await switchLanguage(page, l, SEC);
        await firstSentenceMap(0);
        await trainRecipe(800);
        page.context().off('response', seen);
        // the claims hold for the models of the plain build, which the article loads in every browser
        assert.ok(builds.includes('core') && !builds.some((b) => b?.endsWith('_fma')), `the article trains on the plain full core: ${builds.filter(Boolean)}`);
        await shows(800, 'plain');
      },
      ready: () => shows(800, 'plain'),
    });
  }

  claimsByLanguage([
    [
      'translate-train',
      async (lang) => {
        await trainedGrammar(lang);
        await assertPrompt(page, lang, 'translate.try.zh-en.1');
        const attention = await evaluation('attention');
        const plain = await evaluation('plain');
        assert.ok(attention.alignmentAccuracy >= 0.9, `alignment accuracy ${attention.alignmentAccuracy}`);
        const longest = (e) => e.exactMatchByLength.at(-1).exactMatch;
        assert.ok(longest(attention) > longest(plain) + 0.3, `longest sentences: attention ${longest(attention)}, plain ${longest(plain)}`);
        console.log(`# translate-train ${lang}: alignment ${attention.alignmentAccuracy.toFixed(3)}; longest exact match attention ${longest(attention).toFixed(3)}, plain ${longest(plain).toFixed(3)}`);
      },
    ],
    [
      'translate-sharp',
      async (lang) => {
        await trainedGrammar(lang);
        await assertPrompt(page, lang, 'translate.try.zh-en.4');
        const before = untrained[lang];
        const after = await firstSentenceMap(800);
        const largest = (map) => Array.from({ length: map.shape[0] }, (_, r) => Math.max(...row(map, r)));
        const sharp = largest(after).filter((w) => w > 0.9).length;
        console.log(`# translate-sharp ${lang}: untrained, largest weight ${Math.max(...before.values).toFixed(3)}; trained, ${sharp} of ${after.shape[0]} rows over 0.9`);
        assert.equal(before.shape[1], after.shape[1], 'the same sentence before and after');
        assert.ok(Math.max(...before.values) < 0.9, `untrained: a weight of ${Math.max(...before.values)}`);
        assert.ok(sharp > after.shape[0] / 2, `trained: ${sharp} of ${after.shape[0]} rows over 0.9`);
      },
    ],
    [
      'translate-decode',
      async (lang) => {
        await trainedGrammar(lang);
        await assertPrompt(page, lang, 'translate.try.zh-en.2');
        const { source, output, map } = await decode();
        const words = output.split(' ');
        console.log(`# translate-decode ${lang}: ${source.join(' ')} → ${output}; argmax ${words.map((w, t) => `${w}→${source[argmax(row(map, t))]}`).join(' ')}`);
        // the sentence's own readout: content words whose largest weight is on the word they translate
        const readout = await page.evaluate(() => ({ ...document.querySelector('[data-testid=translate-sentence-alignment]')?.dataset }));
        assert.ok(Number(readout.scored) >= 5 && Number(readout.hits) >= 0.8 * Number(readout.scored), `${readout.hits} of ${readout.scored}`);
        // time and place come last in English, and look back at their Chinese words
        let checked = 0;
        words.forEach((w, t) => {
          const zh = TIME_PLACE[w]?.filter((x) => source.includes(x));
          if (!zh?.length) return;
          checked++;
          assert.ok(zh.includes(source[argmax(row(map, t))]), `${w} looks at ${source[argmax(row(map, t))]}, not ${zh}`);
        });
        assert.ok(checked >= 2, `the first sentence has a time and a place: ${output}`);
        // a past-tense verb looks at its verb or at 了
        words.forEach((w, t) => {
          if (w !== 'met' && w !== 'saw') return;
          assert.ok([w === 'met' ? '遇见' : '看见', '了'].includes(source[argmax(row(map, t))]), `${w} looks at ${source[argmax(row(map, t))]}`);
        });
      },
    ],
    [
      'translate-why',
      async (lang) => {
        await trainedGrammar(lang);
        await openPanel(page, 'translate-panel-why');
        const source = await page.locator(`${SEC} .translate-token .translate-token-text`).allTextContents();
        const output = ((await page.locator('[data-testid=translate-why-original]').textContent()) ?? '').trim().split(' ');
        // integrated gradients, shown first: every row ranks the source words, and the time and
        // place words get most of their attribution from the Chinese words they translate
        const ig = await attribution('integrated-gradients');
        const words = ig.map.shape[0];
        const misses = [];
        let checked = 0;
        output.forEach((w, t) => {
          const zh = TIME_PLACE[w]?.filter((x) => source.includes(x));
          if (!zh?.length) return;
          checked++;
          const ranked = row(ig.map, t).map((v, i) => [source[i], Math.abs(v)]).sort((a, b) => b[1] - a[1]);
          console.log(`# translate-why ${lang}: ${w} ← ${ranked.slice(0, 3).map(([s, v]) => `${s} ${v.toFixed(3)}`).join(', ')}`);
          if (!zh.includes(ranked[0][0])) misses.push(`${w}: largest is ${ranked[0][0]}, not ${zh}`);
        });
        assert.ok(checked >= 2, `the first sentence has a time and a place: ${output.join(' ')}`);
        assert.deepEqual(misses, [], 'integrated gradients');
        const tiedWords = (a) => a.rhos.filter((r) => r.rho === '').map((r) => r.text.split(':')[0]).join(' ');
        console.log(`# translate-why ${lang}: ${output.join(' ')}; integrated gradients' rows of ties: ${tiedWords(ig)}`);
        assert.ok(ig.tiedRows <= 2, `integrated gradients: ${ig.tiedRows} of ${words} rows all ties (${tiedWords(ig)})`);
        // gradient × input on the same near-certain words: saturated, many rows all ties, and no ρ for them
        await page.click('[data-testid=translate-why-gxi]');
        const gxi = await attribution('gradient-input');
        const near0 = gxi.map.values.filter((v) => Math.abs(v) < 5e-4).length / gxi.map.values.length;
        console.log(`# translate-why ${lang}: ${words} words; all-ties rows: integrated gradients ${ig.tiedRows}, gradient × input ${gxi.tiedRows}; gradient × input cells under 0.0005: ${(near0 * 100).toFixed(0)}%`);
        assert.ok(gxi.tiedRows > ig.tiedRows + 2 && near0 > 0.5, `gradient × input: ${gxi.tiedRows} rows all ties, ${near0} of the cells near 0`);
        for (const r of gxi.rhos) if (r.rho === '') assert.doesNotMatch(r.text, /: -?\d/, `a row of ties shows a ρ: ${r.text}`);
        await page.click('[data-testid=translate-why-ig]');
        await attribution('integrated-gradients');
      },
    ],
  ]);

  claim('translate-score', async (lang) => {
    await trainedOnce(page, 'cosine', lang, {
      root: '.translate-section',
      train: async (l) => {
        await open(`#view=translate&lang=${l}&${FAST}`);
        await assertPrompt(page, l, 'translate.try.zh-en.3');
        await page.selectOption('[data-testid=translate-score]', 'cosine');
        await page.waitForFunction(() => /translate_score=cosine/.test(location.hash));
        assert.equal(await page.locator(`${SEC} [data-testid=translate-untrained]`).isVisible(), true, 'a new model, to train again');
        await trainRecipe(800);
        await shows(800, 'attention');
      },
      ready: () => shows(800, 'attention'),
    });
    await assertPrompt(page, lang, 'translate.try.zh-en.3');
    // the alignment forms, though the first sentence's map stays flat: no weight reaches 0.2
    const { alignmentAccuracy } = await evaluation('attention');
    const { map } = await decode();
    const top = Math.max(...map.values);
    console.log(`# translate-score ${lang}: cosine alignment ${alignmentAccuracy.toFixed(3)}, largest weight on the first sentence ${top.toFixed(3)}`);
    assert.ok(alignmentAccuracy >= 0.6 && alignmentAccuracy <= 0.8, `cosine alignment accuracy ${alignmentAccuracy}: the prompt says about 70%`);
    assert.ok(top < 0.2, `largest weight ${top}`);
  });

  claim('translate-note', async (lang) => {
    await open(`#view=translate&lang=${lang}&${FAST}`);
    await page.selectOption('[data-testid=translate-task]', 'note');
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-progress]')?.getAttribute('max') === '400');
    await assertPrompt(page, lang, 'translate.try.note.1');
    await assertPrompt(page, lang, 'translate.try.note.2');
    assert.equal(await page.locator(`${SEC} [data-testid=translate-caption]`).textContent(), text(lang, 'translate.caption.note'));
    await trainRecipe(400);
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-compare] tr[data-model=attention]')?.dataset.evaluation?.includes('"step":400'));
    // by heart: all five sentences exactly; and with attention “none”, the plain model as well
    assert.equal((await evaluation('attention')).exactMatch, 1);
    await page.selectOption('[data-testid=translate-score]', 'none');
    await page.waitForFunction(() => document.querySelector('.translate-section')?.dataset.step === '0');
    await trainRecipe(400);
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-compare] tr[data-model=plain]')?.dataset.evaluation?.includes('"step":400'));
    assert.equal((await evaluation('plain')).exactMatch, 1);
    // then the grammar corpus: its prompts, a new model
    await page.selectOption('[data-testid=translate-task]', 'zh-en');
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-progress]')?.getAttribute('max') === '800');
    await assertPrompt(page, lang, 'translate.try.zh-en.1');
  });

  claim('translate-dates', async (lang) => {
    await trainedOnce(page, 'dates', lang, {
      root: '.translate-section',
      train: async (l) => {
        await open(`#view=translate&lang=${l}&translate_speed=200&translate_open_settings=1`);
        await page.selectOption('[data-testid=translate-task]', 'dates');
        await page.waitForFunction(() => document.querySelector('[data-testid=translate-progress]')?.getAttribute('max') === '300');
        await trainRecipe(300);
      },
      ready: () => shows(300),
    });
    await assertPrompt(page, lang, 'translate.try.dates.1');
    await assertPrompt(page, lang, 'translate.try.dates.2');
    for (const date of ['January 23, 2015', '23/01/2015']) {
      await page.fill('[data-testid=translate-text]', date);
      await page.press('[data-testid=translate-text]', 'Enter');
      await page.waitForFunction((n) => document.querySelectorAll('.translate-token').length === n, date.length);
      const { source, output, map } = await decode();
      const year = source.join('').indexOf('2015');
      assert.equal(output.replace(/ /g, '').slice(0, 4), '2015', `${date} → ${output}`);
      for (let t = 0; t < 4; t++) {
        const at = argmax(row(map, t));
        assert.ok(at >= year && at < year + 4, `${date}: output ${t + 1} (“${output[t]}”) looks at source ${at} (“${source[at]}”), not the year`);
      }
    }
  });
});
