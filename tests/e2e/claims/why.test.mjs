// §1's claims (registry.mjs), in English and Chinese, on the default settings. Training both
// models takes a minute or two on a shared machine: why-start and why-length train to the end,
// once for both languages (trainedOnce), and why-cell goes on from why-start's run.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { switchLanguage, useSite } from '../harness.mjs';
import { assertPrompt, claim, fill, text, trainedOnce } from './claims-harness.mjs';

const SEC = '#section-why .why-section';

describe('§1 claims', { timeout: 2_400_000 }, () => {
  let site;
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const snapshot = () => page.evaluate(() => JSON.parse(document.querySelector('[data-testid=why-data]').value));
  const state = () => page.evaluate(() => document.querySelector('.why-section')?.dataset.state);
  async function open(lang) {
    await site.load(`#view=why&lang=${lang}`);
    await page.waitForSelector(SEC);
  }
  const percent = (x) => `${Math.round(100 * x)}%`;

  /** After the language switch: the re-mounted section shows the finished run. */
  const finished = () => page.waitForFunction(() => document.querySelector('.why-section')?.dataset.state === 'done');

  /** The finished default run (GRU), trained once for both languages. */
  const trainedDefault = (lang) =>
    trainedOnce(page, 'start', lang, {
      root: '.why-section',
      train: async (l) => {
        await open(l);
        await trainToTheEnd();
      },
      ready: finished,
    });

  claim('why-start', async (lang) => {
    await trainedDefault(lang);
    await assertPrompt(page, lang, 'why.try.start');
    const s = await snapshot();
    const plain = s.plain.at(-1);
    const attention = s.attention.at(-1);
    console.log(`# why-start ${lang}: at length ${s.lengths.at(-1)}, plain ${plain.toFixed(3)}, attention ${attention.toFixed(3)}`);
    assert.ok(attention > plain + 0.3, `far below attention: plain ${plain}, attention ${attention}`);
    assert.ok(plain > 0.1 && plain < 0.35, `about a fifth right: ${plain}`);
    assert.ok(plain > 1 / 20 + 0.05, `above chance: ${plain}`);
    // the status says where each ends, and the chance line is drawn and named in the legend
    const status = (await page.locator(`${SEC} .why-status`).textContent()) ?? "";
    const done = fill(text(lang, 'why.status.done'), { total: s.total, length: s.lengths.at(-1), plain: percent(plain), attention: percent(attention), chance: '5%', exactPlain: percent(s.exactPlain.at(-1)), exactAttention: percent(s.exactAttention.at(-1)) });
    assert.ok(status.includes(done), `“${done}” in: ${status}`);
    assert.ok((await page.locator(`${SEC} .why-chart + .lab-chart-legend`).textContent()).includes(text(lang, 'why.chance.line')));
    assert.ok((await page.locator(`${SEC}`).textContent()).includes(text(lang, 'why.chance')));
  });

  claim('why-front', async (lang) => {
    await trainedDefault(lang);
    await assertPrompt(page, lang, 'why.try.front');
    const s = await snapshot();
    const length = s.lengths.at(-1);
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const fifth = length / 5;
    const [pFront, pBack, aFront] = [s.lettersPlain.slice(0, fifth), s.lettersPlain.slice(-fifth), s.lettersAttention.slice(0, fifth)].map(mean);
    const aLowest = Math.min(...[0, 1, 2, 3, 4].map((i) => mean(s.lettersAttention.slice(i * fifth, (i + 1) * fifth))));
    console.log(`# why-front ${lang}: by input position at length ${length}, first four ${mean(s.lettersPlain.slice(0, 4)).toFixed(3)}, first / last fifth: plain ${pFront.toFixed(3)} / ${pBack.toFixed(3)}, attention ${aFront.toFixed(3)} (lowest fifth ${aLowest.toFixed(3)})`);
    assert.equal(s.lettersPlain.length, length);
    // the very first letters (four) "no more often than a blind guess" (1 in 20), the last fifth
    // "several times as often" as the first, attention high everywhere
    const veryFirst = mean(s.lettersPlain.slice(0, 4));
    assert.ok(veryFirst <= 1 / 20, `the plain model's first four letters: ${veryFirst}`);
    assert.ok(pBack > 2.5 * pFront, `the plain model's last letters: ${pBack} against ${pFront} at the front`);
    assert.ok(aLowest > 0.6, `attention's lowest fifth: ${aLowest}`);
    // the second chart is shown, titled with the length, and its table holds those numbers
    const figure = page.locator(`${SEC} [data-testid=why-letters]`);
    assert.ok(await figure.isVisible(), 'the letter-by-letter chart is shown');
    assert.ok((await figure.locator('.why-letters-title').textContent()).includes(fill(text(lang, 'why.letters.title'), { length, count: 40 })));
    const legend = (await figure.locator('.lab-chart-legend').textContent()) ?? '';
    for (const key of ['why.plain', 'why.attention', 'why.chance.line']) assert.ok(legend.includes(text(lang, key)), key);
  });

  // why-start's finished run (GRU, the default), then the switch to LSTM: the GRU run's token
  // accuracy stays on the chart. The first language switches; the other reads the same page in its
  // words (the re-mounted section keeps the GRU run beside the new one).
  /** the finished GRU run's snapshot, read before the switch */
  let gru = null;
  claim('why-cell', async (lang) => {
    const held = await page.evaluate(() => /** @type {any} */ (window).claimRun);
    if (held === 'start, then lstm' && gru) {
      await switchLanguage(page, lang, '.why-section');
    } else {
      await trainedDefault(lang);
      gru = await snapshot();
      await page.selectOption('[data-testid=why-cell]', 'lstm');
      await page.waitForFunction(() => /why_cell=lstm/.test(location.hash));
      await page.waitForFunction(() => JSON.parse(document.querySelector('[data-testid=why-data]').value).step === 0);
      const narration = await page.locator(`${SEC} [data-testid=narration]`).textContent();
      assert.equal(narration, fill(text(lang, 'why.changed'), { label: text(lang, 'why.cell'), value: 'LSTM' }));
      await page.evaluate(() => Object.assign(window, { claimRun: 'start, then lstm' }));
    }
    await assertPrompt(page, lang, 'why.try.cell');
    // the GRU run's two curves are named in the legend and hold its numbers (the chart's data table)
    const label = fill(text(lang, 'why.previous'), { cell: 'GRU', length: gru.lengths.at(-1) });
    const names = { plain: `${text(lang, 'why.plain')} · ${label}`, attention: `${text(lang, 'why.attention')} · ${label}` };
    await page.waitForFunction((n) => document.querySelector('.why-section .lab-chart-legend')?.textContent.includes(n), names.attention);
    await page.locator(`${SEC} > details.lab-chart-table summary`).click();
    await page.locator(`${SEC} > details.lab-chart-table table`).waitFor();
    const table = await page.$$eval(`${SEC} > details.lab-chart-table tr`, (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent ?? '')));
    await page.locator(`${SEC} > details.lab-chart-table summary`).click();
    for (const [series, name] of Object.entries(names)) {
      const col = table[0].indexOf(name);
      assert.ok(col > 0, `a column “${name}” in ${JSON.stringify(table[0])}`);
      const shown = gru.lengths.map((len) => table.find((row) => row[0] === String(len))?.[col]);
      assert.deepEqual(shown, gru[series].map((v) => `${(v * 100).toFixed(1)}%`), `${series}: the GRU run's accuracy by length`);
    }
    // the new run is the LSTM's, at its start
    assert.equal((await snapshot()).step, 0);
  });

  /** Presses start and waits for the run's end, saying yes if a loaded machine estimates it at over a minute. */
  async function trainToTheEnd() {
    await page.click('[data-testid=why-start]');
    const deadline = Date.now() + 600_000;
    while ((await state()) !== 'done') {
      assert.ok(Date.now() < deadline, 'training did not finish');
      const confirm = page.locator('[data-testid=why-confirm-run]');
      if (await confirm.isVisible()) await confirm.click();
      await page.waitForTimeout(500);
    }
    return snapshot();
  }

  claim('why-length', async (lang) => {
    await trainedOnce(page, 'length 60', lang, {
      root: '.why-section',
      train: async (l) => {
        await open(l);
        await page.fill('[data-testid=why-max-len]', '60');
        await page.dispatchEvent('[data-testid=why-max-len]', 'change');
        await page.waitForFunction(() => /why_max_len=60/.test(location.hash));
        await trainToTheEnd();
      },
      ready: finished,
    });
    await assertPrompt(page, lang, 'why.try.length');
    const s = await snapshot();
    assert.equal(s.lengths.at(-1), 60, `the chart reaches length 60: ${s.lengths}`);
    const at = (series, length) => series[s.lengths.indexOf(length)];
    console.log(`# why-length ${lang}: attention ${at(s.attention, 40).toFixed(3)} at 40, ${at(s.attention, 60).toFixed(3)} at 60; plain ${at(s.plain, 60).toFixed(3)} at 60`);
    // attention dips past 40 too, yet at 60 it still far outscores plain
    assert.ok(at(s.attention, 60) < at(s.attention, 40), 'attention dips past 40');
    assert.ok(at(s.attention, 60) > at(s.plain, 60) + 0.3, `far above plain at 60: ${at(s.attention, 60)} vs ${at(s.plain, 60)}`);
  });

});
