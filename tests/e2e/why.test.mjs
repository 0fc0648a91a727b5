// §1 in the built page (#view=why): a plain and an attention Seq2Seq train in the worker on
// reversing strings; both accuracy-against-length curves appear, and with the default settings and
// seed 1 attention's token accuracy at the longest length ends above the plain model's (the
// Bahdanau Fig. 2 ordering; tests/wasm/long-sequence.test.mjs checks the same claim in Node).
// Logs how long the run took (not asserted: the machines are shared).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { canvasInk, horizontalOverflow, startSite, useSite } from './harness.mjs';

const SEC = '#section-why .why-section';

describe('§1 why attention', { timeout: 400_000 }, () => {
  /** @type {Awaited<ReturnType<typeof startSite>>} */
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const snapshot = () => page.evaluate(() => JSON.parse(document.querySelector('[data-testid=why-data]').value));

  test('both curves appear as the models learn; attention wins at the longest length', async () => {
    await site.load('#view=why&seed=1');
    await page.waitForSelector(SEC);
    // the two problems of the note, one sentence each
    assert.equal(await page.locator(`${SEC} .why-problems li`).count(), 2);
    assert.equal((await snapshot()).step, 0, 'training waits for the start button');

    const t0 = Date.now();
    await page.click('[data-testid=why-start]');
    // pause stops at a step boundary and resume goes on from there
    await page.waitForFunction(() => Number(document.querySelector('.why-section')?.dataset.step) > 0);
    await page.click('[data-testid=why-start]');
    // on a loaded machine the long-run question may have paused the run first: that press then
    // answered it (go on), and the next one pauses
    if ((await page.evaluate(() => document.querySelector('.why-section')?.dataset.state)) === 'running') await page.click('[data-testid=why-start]');
    await page.waitForFunction(() => document.querySelector('.why-section')?.dataset.state === 'idle');
    const paused = (await snapshot()).step;
    assert.ok(paused > 0);
    await page.click('[data-testid=why-start]');

    // On a loaded machine the measured speed may put even the default run over a minute: then the
    // section asks first (see the long-run test below), and the reader here says yes.
    const deadline = Date.now() + 360_000;
    while ((await page.evaluate(() => document.querySelector('.why-section')?.dataset.state)) !== 'done') {
      assert.ok(Date.now() < deadline, 'training did not finish within 6 minutes');
      const confirm = page.locator('[data-testid=why-confirm-run]');
      if (await confirm.isVisible()) await confirm.click();
      await page.waitForTimeout(500);
    }
    const seconds = (Date.now() - t0) / 1000;
    const s = await snapshot();
    console.log(`why: ${s.total} steps per model in ${seconds.toFixed(1)} s; token accuracy by length ${s.lengths.join('/')}: ` +
      `plain ${s.plain.map((x) => x.toFixed(2)).join('/')}, attention ${s.attention.map((x) => x.toFixed(2)).join('/')}`);
    assert.equal(s.step, s.total);
    assert.deepEqual(s.lengths, [5, 10, 20, 30, 40]);
    for (const curve of [s.plain, s.attention, s.exactPlain, s.exactAttention]) {
      assert.ok(curve.every((x) => typeof x === 'number' && x >= 0 && x <= 1), JSON.stringify(curve));
    }
    const last = s.lengths.length - 1;
    assert.ok(s.attention[last] > s.plain[last], `at length ${s.lengths[last]}: attention ${s.attention[last]} vs plain ${s.plain[last]}`);
    assert.ok((await canvasInk(page, `${SEC} .why-chart canvas`)) > 0.01, 'the chart looks blank');
    await site.screenshot('why');

    // finished, the button says what it does next and does it: two new models from step 0
    const start = page.locator('[data-testid=why-start]');
    assert.equal(await start.textContent(), 'Train again from the start');
    assert.equal(await start.isEnabled(), true);
    await start.click();
    await page.waitForFunction(() => document.querySelector('.why-section')?.dataset.state === 'running');
    assert.ok((await snapshot()).step < s.total, 'a new run from the start');
    await start.click(); // pause it
  });
  /** Starts a run far over a minute (LSTM 256, strings to 60, 5000 steps) and waits until the section asks and pauses; the question. */
  async function askedAboutLongRun() {
    await site.load('#view=why&seed=1&why_cell=lstm&why_hidden=256&why_max_len=60&why_steps=5000');
    await page.waitForSelector(SEC);
    await page.click('[data-testid=why-start]');
    const confirm = page.locator('[data-testid=why-confirm]');
    await confirm.waitFor({ state: 'visible', timeout: 120_000 });
    await page.waitForFunction(() => document.querySelector('.why-section')?.dataset.state === 'idle');
    return confirm;
  }

  test('a long run shows its measured time estimate and waits for the reader to confirm', async () => {
    const confirm = await askedAboutLongRun();
    const text = (await confirm.textContent()) ?? '';
    assert.match(text, /about \d+ (h|min)/, text);
    // paused while it asks: the step count does not move
    const step = (await snapshot()).step;
    await page.waitForTimeout(1000);
    assert.equal((await snapshot()).step, step);
    // "use fewer steps" sets a run of about a minute, model reset, not started
    await page.click('[data-testid=why-confirm-fewer]');
    await page.waitForFunction(() => !/why_steps=5000/.test(location.hash));
    const steps = Number(await page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('why_steps')));
    assert.ok(steps >= 20 && steps < 5000, `steps ${steps}`);
    assert.equal((await snapshot()).step, 0);
    await site.screenshot('why-long-run', { fullPage: false });
  });

  test('Start while the long-run question shows answers it: the whole run goes on, not asked again', async () => {
    const confirm = await askedAboutLongRun();
    const start = page.locator('[data-testid=why-start]');
    assert.equal(await start.textContent(), 'Resume');
    await start.click();
    assert.equal(await confirm.isVisible(), false, 'the question is answered');
    const step = (await snapshot()).step;
    await page.waitForFunction((n) => JSON.parse(document.querySelector('[data-testid=why-data]').value).step > n, step);
    await page.waitForTimeout(2500); // more than two of the speed's one-second windows
    assert.equal(await confirm.isVisible(), false, 'not asked again');
    assert.equal(await page.evaluate(() => document.querySelector('.why-section')?.dataset.state), 'running');
    await start.click(); // pause
    await page.waitForFunction(() => document.querySelector('.why-section')?.dataset.state === 'idle');
  });

  test('the length axis is logarithmic: each doubling the same distance, a tick at each measured length (both languages)', async () => {
    for (const [hash, lengths] of [['#view=why', [5, 10, 20, 30, 40]], ['#view=why&lang=zh&why_max_len=60', [5, 10, 20, 30, 40, 50, 60]]]) {
      await site.load(hash);
      await page.waitForSelector(SEC);
      assert.deepEqual((await snapshot()).lengths, lengths);
      // the chart shows from the first step: train a little (a long run asks first), then pause
      await page.click('[data-testid=why-start]');
      await page.waitForFunction(() => Number(document.querySelector('.why-section')?.dataset.step) > 0 || !document.querySelector('[data-testid=why-confirm-run]')?.closest('[hidden]'));
      if (await page.locator('[data-testid=why-confirm-run]').isVisible()) await page.click('[data-testid=why-confirm-run]');
      await page.waitForFunction(() => Number(document.querySelector('.why-section')?.dataset.step) > 0);
      await page.click('[data-testid=why-start]');
      await page.locator(`${SEC} .why-chart canvas`).scrollIntoViewIfNeeded();
      await page.waitForFunction(() => performance.getEntriesByType('measure').some((m) => m.name.startsWith('chart ') && !/heatmap/.test(m.name)));
      await page.locator(`${SEC} .export-toggle`).first().click();
      const download = page.waitForEvent('download');
      await page.locator(`${SEC} .export-item[data-export="svg"]`).first().click();
      const svg = readFileSync(await (await download).path()).toString('utf8');
      // its title says the scale is logarithmic, in the page's language
      assert.match(svg, hash.includes('lang=zh') ? />输入长度（字母数，对数刻度）</ : />input length \(letters, log scale\)</);
      // the x ticks: the chart's only plain numbers (the accuracy ticks are percentages)
      const ticks = new Map([...svg.matchAll(/<text x="([\d.]+)"[^>]*>(\d+)<\/text>/g)].map((m) => [Number(m[2]), Number(m[1])]));
      assert.deepEqual([...ticks.keys()], lengths, `${hash}: a tick at each measured length, and only there`);
      await site.screenshot(`why-log-axis-${lengths.length}`, { target: page.locator(`${SEC} .why-chart`) });
      const octave = ticks.get(10) - ticks.get(5);
      assert.ok(octave > 20, `${hash}: 5 → 10 is ${octave} px`);
      for (const [a, b] of [[10, 20], [20, 40]]) {
        const d = ticks.get(b) - ticks.get(a);
        assert.ok(Math.abs(d - octave) < 1.5, `${hash}: ${a} → ${b} is ${d} px, 5 → 10 is ${octave} px`);
      }
    }
  });

  test("in Chinese, the note's own words for the two problems; no sideways scrolling at phone width", async () => {
    await site.load('#view=why&lang=zh');
    await page.waitForSelector(SEC);
    const problems = await page.locator(`${SEC} .why-problems li`).allTextContents();
    assert.match(problems[0], /^长距离依赖问题：读了后面，忘了前面/);
    assert.match(problems[1], /^信息压缩问题：/);
    assert.equal(await page.locator('[data-testid=why-start]').textContent(), '开始训练');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    assert.ok((await horizontalOverflow(page)) <= 0, 'the section scrolls sideways at 390 px');
    await site.screenshot('why-zh-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('on a phone, after training, opening both charts\' data tables keeps the section within the screen (Chinese)', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await site.load('#view=why&lang=zh');
      await page.waitForSelector(SEC);
      await page.click('[data-testid=why-start]');
      await page.waitForFunction(() => document.querySelector('.why-section')?.dataset.state === 'done', null, { timeout: 300_000 });
      const summaries = page.locator(`${SEC} details.lab-chart-table > summary`);
      assert.equal(await summaries.count(), 2, 'a data table under each chart');
      for (let i = 0; i < 2; i++) {
        await summaries.nth(i).click();
        await page.locator(`${SEC} details.lab-chart-table table >> nth=${i}`).waitFor();
      }
      // the prose, the controls and the charts keep the screen's width; a table scrolls in its box
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll('.why-section > *, .why-section .why-letters > *')]
          .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > window.innerWidth + 1)
          .map((e) => `${e.className || e.tagName}: right ${Math.round(e.getBoundingClientRect().right)}`),
      );
      assert.deepEqual(wide, [], `wider than the ${await page.evaluate(() => window.innerWidth)} px screen`);
      assert.ok((await horizontalOverflow(page)) <= 0, 'the page scrolls sideways');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
