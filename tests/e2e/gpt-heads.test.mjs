// §5's "What the heads learned" as a reader meets it: after a short run the table shows every
// layer × head's four scores as text; "Zero this head" is reached by keyboard (and by a tap on a
// phone), puts the head in the link, changes the generated characters' probabilities and shows the
// sample with the head zeroed beside the plain one; un-zeroing gives back exactly what was there.
// A link naming a head the model lacks is named and zeroes nothing. Needs a build (npm run build:web).
// Run: node --test tests/e2e/gpt-heads.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { usePhone, useSite } from './harness.mjs';
import { heatmap, text } from './claims/claims-harness.mjs';

const SEC = '.gpt-section';
const HEADS = '.gpt-heads';

describe('§5: what the heads learned, and zeroing a head', { timeout: 600_000 }, () => {
  let site;
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });
  const phone = usePhone(() => site);
  const heads = (p = page) => p.evaluate((s) => ({ ...document.querySelector(s)?.dataset }), HEADS);
  /** the table's score cells as numbers, row by row */
  const scores = (p = page) => p.$$eval('[data-testid=gpt-heads-table] tbody tr', (rows) => rows.map((r) => Array.from(r.querySelectorAll('.gpt-heads-score'), (c) => Number(c.textContent))));
  /** three characters drawn from the prompt; each step's candidates' model probabilities */
  async function draw(p = page) {
    await p.click('[data-testid=gpt-restart]');
    const probs = [];
    for (let n = 1; n <= 3; n++) {
      await p.click('[data-testid=gpt-next]');
      await p.waitForFunction((k) => document.querySelector('.gpt-generate')?.dataset.generated === String(k), n);
      probs.push((await heatmap(p, 'gpt-candidates')).values.slice(0, 5));
    }
    return { text: await p.locator('[data-testid=gpt-text]').textContent(), probs };
  }

  test('(en) after training the table has numbers; a head zeroed by keyboard changes the generation, and un-zeroing restores it exactly', async () => {
    await site.load('#view=gpt&lang=en&gpt_steps=100&gpt_open_heads=1');
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.samples === '1', SEC);
    await page.click('[data-testid=gpt-train]');
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.scoredAt === '100', HEADS, { timeout: 300_000 });
    const table = await scores();
    assert.equal(table.length, 8, '2 layers × 4 heads');
    for (const row of table) {
      assert.equal(row.length, 4);
      for (const x of row) assert.ok(x >= 0 && x <= 1, `score ${x}`);
    }
    // the last row: a head spreading its weight evenly, the baseline the scores are read against
    const even = await page.$$eval('[data-testid=gpt-heads-even] td[data-detector]', (cells) => cells.map((c) => Number(c.textContent)));
    assert.equal(await page.locator('[data-testid=gpt-heads-even] th').textContent(), text('en', 'gpt.heads.even'));
    assert.equal(even.length, 4);
    for (const x of even) assert.ok(x > 0 && x < 0.2, `even spread ${x}`);
    const caption = await page.locator('[data-testid=gpt-heads-table] caption').textContent();
    assert.ok(caption.includes('100'), caption);
    const headers = await page.locator('[data-testid=gpt-heads-table] thead th').allTextContents();
    for (const d of ['previous', 'lineBack', 'lineStart', 'induction']) assert.ok(headers.includes(text('en', `gpt.heads.${d}`)), d);

    const plain = await draw();
    const toggle = page.locator('[data-testid=gpt-zero-1-1]');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /gpt_zero=1\.1/.test(location.hash));
    assert.equal(await page.locator('[data-testid=gpt-zero-1-1]').getAttribute('aria-pressed'), 'true');
    await page.waitForFunction(() => document.querySelector('[data-testid=gpt-heads-zeroed]')?.dataset.text !== undefined);
    const zeroedSample = await page.locator('[data-testid=gpt-heads-zeroed]').textContent();
    assert.ok(zeroedSample.includes('1.1'), zeroedSample);
    const zeroed = await draw();
    assert.notDeepEqual(zeroed.probs, plain.probs, 'zeroing head 1 of layer 1 changed no probability');

    await page.locator('[data-testid=gpt-zero-1-1]').focus();
    await page.keyboard.press('Space');
    await page.waitForFunction(() => !/gpt_zero/.test(location.hash));
    assert.equal(await page.locator('[data-testid=gpt-heads-zeroed]').isHidden(), true);
    assert.deepEqual(await draw(), plain, 'un-zeroing did not restore the generation exactly');
  });

  test('(zh) on a phone a tap zeroes a head and a second tap un-zeroes it; a link naming no head of the model is named', async () => {
    const p = phone.page;
    await phone.open('#view=gpt&lang=zh&gpt_zero=1.2,9.9&gpt_open_heads=1');
    await p.waitForFunction((s) => document.querySelector(s)?.dataset.samples === '1', SEC);
    const message = await p.locator('[data-testid=gpt-heads-message]').textContent();
    assert.ok(message.includes('9.9'), message);
    assert.equal((await heads(p)).zeroed, '', 'a bad link zeroed a head');
    await p.goto('about:blank');
    await phone.open('#view=gpt&lang=zh&gpt_open_heads=1');
    await p.waitForFunction((s) => document.querySelector(s)?.dataset.samples === '1', SEC);
    assert.equal((await scores(p)).length, 8);
    const toggle = p.locator('[data-testid=gpt-zero-2-3]');
    await toggle.scrollIntoViewIfNeeded();
    await toggle.tap();
    await p.waitForFunction(() => /gpt_zero=2\.3/.test(location.hash));
    await p.waitForFunction(() => document.querySelector('[data-testid=gpt-heads-zeroed]')?.dataset.text !== undefined);
    assert.ok((await p.locator('[data-testid=gpt-heads-zeroed]').textContent()).includes('2.3'));
    await p.locator('[data-testid=gpt-zero-2-3]').tap();
    await p.waitForFunction(() => !/gpt_zero/.test(location.hash));
    assert.equal(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0, 'the page scrolls sideways');
  });
});
