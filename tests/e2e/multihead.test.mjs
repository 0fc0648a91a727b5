// §3.6 multi-head section in headless Chromium: every head's weights are distributions, the combined
// context is exactly the heads' outputs side by side, the head selector offers only divisors of d, a
// head count that does not divide d (from the URL) gives an inline error naming it and the divisors,
// and a permalink reloads to the same numbers.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertRowsSumToOne, openSections } from './sections-harness.mjs';

const ROOT = '.mh-section';

describe('§3.6 multi-head section', { timeout: 180_000 }, () => {
  const env = openSections('multihead');
  before(() => env.start());
  after(() => env.stop());
  afterEach(() => env.assertNoProblems());

  const loadOk = (hash) => env.loadOk(hash, ROOT);

  /** Per-head weights are distributions and Concat(head₁ … head_h) equals the context heatmap. */
  async function checkHeads(n, d, heads) {
    const dh = d / heads;
    assert.equal(await env.page.locator(`${ROOT} .mh-head`).count(), heads);
    const context = await env.heatmap('mh-context');
    assert.deepEqual(context.shape, [n, d]);
    const perHead = [];
    for (let h = 1; h <= heads; h++) {
      const w = await env.heatmap(`mh-weights-${h}`);
      assert.deepEqual(w.shape, [n, n]);
      assertRowsSumToOne(w.values, n, n, `head ${h} weights`);
      const out = await env.heatmap(`mh-head-${h}`);
      assert.deepEqual(out.shape, [n, dh]);
      perHead.push(w.values);
      for (let t = 0; t < n; t++) {
        for (let j = 0; j < dh; j++) {
          assert.equal(context.values[t * d + (h - 1) * dh + j], out.values[t * dh + j], `context[${t}, head ${h}, ${j}]`);
        }
      }
    }
    if (heads > 1) assert.notDeepEqual(perHead[0], perHead[1], 'heads attend differently');
    assert.deepEqual((await env.heatmap('mh-output')).shape, [n, d]);
  }

  test("the note's shapes: 2 heads of 2 over the sentence", async () => {
    await loadOk('#seed=1');
    await checkHeads(3, 4, 2);
    assert.ok((await env.page.locator(`${ROOT} math`).count()) >= 2);
    await env.screenshot('multihead-section', ROOT);
  });

  test('the head selector offers only divisors of d; changing d keeps a valid head count', async () => {
    await loadOk('#seed=2&mh_d=12&mh_heads=4');
    const heads = env.page.locator(`${ROOT} select >> nth=1`);
    assert.deepEqual(await heads.locator('option').allTextContents(), ['1', '2', '3', '4', '6', '12']);
    await checkHeads(3, 12, 4);
    const count = await env.computeCount(ROOT);
    await env.page.selectOption(`${ROOT} select >> nth=0`, '10');
    await env.waitComputed(ROOT, count);
    assert.deepEqual(await heads.locator('option').allTextContents(), ['1', '2', '5', '10']);
    assert.equal(await heads.inputValue(), '2');
    await checkHeads(3, 10, 2);
  });

  test('heads not dividing d (hash): inline error naming it and the divisors; a valid choice recovers', async () => {
    await env.load('#seed=1&mh_d=4&mh_heads=3', ROOT);
    await env.page.waitForSelector(`${ROOT}[data-state="error"]`);
    const message = (await env.page.locator(`${ROOT} .mh-message`).textContent()) ?? '';
    assert.match(message, /Heads h: 3 does not divide Model size d = 4; choose one of 1, 2, 4/);
    await env.page.selectOption(`${ROOT} select >> nth=1`, '4');
    await env.waitComputed(ROOT);
    assert.equal(await env.page.getAttribute(ROOT, 'data-state'), 'ok');
    await checkHeads(3, 4, 4);
  });

  test('bad sentences give inline errors; a permalink reloads to the same numbers', async () => {
    await loadOk('#seed=5&mh_d=8&mh_heads=4');
    const input = env.page.locator(`${ROOT} input.mh-text`);
    await input.fill('');
    await env.page.waitForSelector(`${ROOT}[data-state="error"]`);
    assert.match(await env.page.locator(`${ROOT} .mh-message`).textContent(), /the sentence is empty/);
    await input.fill(Array.from({ length: 17 }, () => '词').join(' '));
    await env.page.waitForFunction(() => /17 tokens/.test(document.querySelector('.mh-message')?.textContent ?? ''));

    const count = await env.computeCount(ROOT);
    await input.fill('自然 语言 处理 很 强大');
    await env.waitComputed(ROOT, count);
    await checkHeads(5, 8, 4);
    await env.page.waitForFunction(() => location.hash.includes('mh_text='));
    const hash = await env.page.evaluate(() => location.hash);
    const snapshot = [await env.heatmap('mh-weights-3'), await env.heatmap('mh-output')];
    await loadOk(hash);
    assert.deepEqual([await env.heatmap('mh-weights-3'), await env.heatmap('mh-output')], snapshot);
  });

  test('in Chinese, and at phone width', async () => {
    await env.checkChineseAndPhone(ROOT, 'mh', 'multihead');
  });
});
