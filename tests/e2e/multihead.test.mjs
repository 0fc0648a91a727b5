// §3.6 multi-head section in headless Chromium: every head's weights are distributions, the combined
// context is exactly the heads' outputs side by side, the head selector offers only divisors of d, a
// head count that does not divide d (from the URL, or kept from before d changed) draws the nearest
// divisor and says so while the address keeps the reader's count,
// and a permalink reloads to the same numbers.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertRowsSumToOne, openSections, splitHintTests } from './sections-harness.mjs';

const ROOT = '.multihead-section';

describe('§3.6 multi-head section', { timeout: 180_000 }, () => {
  const env = openSections('multihead');
  before(() => env.start());
  after(() => env.stop());
  afterEach(() => env.assertNoProblems());

  const loadOk = (hash) => env.loadOk(hash, ROOT);

  /** Per-head weights are distributions and Concat(head₁ … head_h) equals the context heatmap. */
  async function checkHeads(n, d, heads) {
    const dh = d / heads;
    assert.equal(await env.page.locator(`${ROOT} .multihead-head`).count(), heads);
    const context = await env.heatmap('multihead-context');
    assert.deepEqual(context.shape, [n, d]);
    const perHead = [];
    for (let h = 1; h <= heads; h++) {
      const w = await env.heatmap(`multihead-weights-${h}`);
      assert.deepEqual(w.shape, [n, n]);
      assertRowsSumToOne(w.values, n, n, `head ${h} weights`);
      const out = await env.heatmap(`multihead-head-${h}`);
      assert.deepEqual(out.shape, [n, dh]);
      perHead.push(w.values);
      for (let t = 0; t < n; t++) {
        for (let j = 0; j < dh; j++) {
          assert.equal(context.values[t * d + (h - 1) * dh + j], out.values[t * dh + j], `context[${t}, head ${h}, ${j}]`);
        }
      }
    }
    if (heads > 1) assert.notDeepEqual(perHead[0], perHead[1], 'heads attend differently');
    assert.deepEqual((await env.heatmap('multihead-output')).shape, [n, d]);
  }

  test("the note's shapes: 2 heads of 2 over the sentence", async () => {
    await loadOk('#seed=1');
    await checkHeads(3, 4, 2);
    assert.ok((await env.page.locator(`${ROOT} math`).count()) >= 2);
    await env.screenshot('multihead-section', ROOT);
  });

  test('the head selector offers only divisors of d; changing d keeps a valid head count', async () => {
    await loadOk('#seed=2&multihead_d=12&multihead_heads=4');
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

  test('heads not dividing d (hash): the nearest divisor is drawn and the message says so; a valid choice recovers', async () => {
    await loadOk('#seed=1&multihead_d=4&multihead_heads=3');
    const message = (await env.page.locator(`${ROOT} .multihead-message`).textContent()) ?? '';
    assert.match(message, /Heads h: your 3 does not divide Model size d = 4, so 2 heads are drawn \(the divisors: 1, 2, 4\)/);
    await checkHeads(3, 4, 2);
    await env.page.selectOption(`${ROOT} select >> nth=1`, '4');
    await env.page.waitForFunction(() => document.querySelector('.multihead-section')?.dataset.headsDrawn === '4');
    assert.doesNotMatch(await env.page.locator(`${ROOT} .multihead-message`).textContent(), /does not divide/);
    await checkHeads(3, 4, 4);
  });

  for (const [lang, said] of [
    ['en', /Heads h: your 4 does not divide Model size d = 6, so 3 heads are drawn.*the address keeps your 4/],
    ['zh', /头数 h：你选的 4 不能整除模型维度 d = 6，所以画出 3 个头.*网址仍保留你的 4/],
  ]) {
    test(`(${lang}) h = 4, then d = 6, then d = 8: the change is said, the address keeps h = 4, and 4 heads come back`, async () => {
      await loadOk(`#seed=1&lang=${lang}`);
      const select = (nth, value) => env.page.selectOption(`${ROOT} select >> nth=${nth}`, value);
      const drawn = (h) => env.page.waitForFunction((n) => document.querySelector('.multihead-section')?.dataset.headsDrawn === n, String(h));
      await select(1, '4');
      await drawn(4);
      await select(0, '6');
      await drawn(3);
      assert.match(await env.page.locator(`${ROOT} .multihead-message`).textContent(), said);
      await env.page.waitForFunction(() => /multihead_heads=4/.test(location.hash));
      await select(0, '8');
      await drawn(4);
      await checkHeads(3, 8, 4);
      assert.doesNotMatch(await env.page.locator(`${ROOT} .multihead-message`).textContent(), /does not divide|不能整除/);
      assert.match(await env.page.evaluate(() => location.hash), /multihead_heads=4/);
    });

    test(`(${lang}) "我 爱 我", 4 heads: the copies of 我 are one word, so a top weight on both copies is one link, named`, async () => {
      await loadOk(`#seed=1&lang=${lang}&multihead_heads=4&multihead_text=${encodeURIComponent('我 爱 我')}`);
      const text = await env.page.locator(`${ROOT} .multihead-narration, ${ROOT} #multihead-narration`).first().textContent();
      const words = ['我', '爱', '我'];
      let merged = 0;
      for (let h = 1; h <= 4; h++) {
        const { values } = await env.heatmap(`multihead-weights-${h}`);
        const w = Math.max(...values);
        const tied = values.flatMap((v, i) => (v.toFixed(2) === w.toFixed(2) ? [i] : []));
        const pairs = new Set(tied.map((i) => `${words[Math.floor(i / 3)]}→${words[i % 3]}`));
        if (w < 1.25 / 3) continue; // near an even split: no link either way
        if (pairs.size > 1) {
          assert.ok(text.includes(lang === 'en' ? `head ${h}: none (${pairs.size} pairs tie` : `第 ${h} 个头：没有（${pairs.size} 对词并列`), `head ${h}: ${[...pairs]} tie, in: ${text}`);
          continue;
        }
        if (tied.length > 1) merged++;
        const [q, k] = [...pairs][0].split('→');
        const said = lang === 'en' ? `head ${h}: ${q} → ${k} (${w.toFixed(2)})` : `第 ${h} 个头：${q} → ${k}（${w.toFixed(2)}）`;
        assert.ok(text.includes(said), `head ${h}: ${said} in: ${text}`);
      }
      assert.ok(merged >= 1, `no head's top weight is on both copies of 我: ${text}`);
      assert.doesNotMatch(text, / and \d+ and /);
    });
  }

  splitHintTests(env, ROOT, 'multihead', 'multihead-weights-1');


  test('bad sentences give inline errors; a permalink reloads to the same numbers', async () => {
    await loadOk('#seed=5&multihead_d=8&multihead_heads=4');
    const input = env.page.locator(`${ROOT} input.multihead-text`);
    await input.fill('');
    await env.page.waitForSelector(`${ROOT}[data-state="error"]`);
    assert.match(await env.page.locator(`${ROOT} .multihead-message`).textContent(), /the sentence is empty/);
    await input.fill(Array.from({ length: 17 }, () => '词').join(' '));
    await env.page.waitForFunction(() => /17 tokens/.test(document.querySelector('.multihead-message')?.textContent ?? ''));

    const count = await env.computeCount(ROOT);
    await input.fill('自然 语言 处理 很 强大');
    await env.waitComputed(ROOT, count);
    await checkHeads(5, 8, 4);
    await env.page.waitForFunction(() => location.hash.includes('multihead_text='));
    const hash = await env.page.evaluate(() => location.hash);
    const snapshot = [await env.heatmap('multihead-weights-3'), await env.heatmap('multihead-output')];
    await loadOk(hash);
    assert.deepEqual([await env.heatmap('multihead-weights-3'), await env.heatmap('multihead-output')], snapshot);
  });

  test('in Chinese, and at phone width', async () => {
    await env.checkChineseAndPhone(ROOT, 'multihead', 'multihead');
  });
});
