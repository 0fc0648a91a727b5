// §3.4/§3.5 self-attention section in headless Chromium: the weights and output equal a plain-JS
// computation from the Q, K, V the page shows; the neuron view's Σ q∘k / √d equals the core's scaled
// score; hover/focus and the pair choice live in the URL; the same word gets the same vector; bad
// sentences give inline errors and the section recovers; a permalink reloads to the same numbers;
// the head view's bars appear with a chosen word, one with its number for every key, never empty.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertClose, assertRowsSumToOne, openSections, splitHintTests } from './sections-harness.mjs';

const ROOT = '.self-section';

describe('§3.4/§3.5 self-attention section', { timeout: 180_000 }, () => {
  const env = openSections('self');
  before(() => env.start());
  after(() => env.stop());
  afterEach(() => env.assertNoProblems());

  const loadOk = (hash) => env.loadOk(hash, ROOT);

  const neuron = () =>
    env.page.locator(`${ROOT} .self-neuron-data`).evaluate((o) => JSON.parse(/** @type {HTMLOutputElement} */ (o).value));

  /** softmax(QKᵀ/√d) and its product with V, in float64, from the heatmaps' values. */
  async function checkAgainstQkv(n, d) {
    const q = (await env.heatmap('self-q')).values;
    const k = (await env.heatmap('self-k')).values;
    const v = (await env.heatmap('self-v')).values;
    const scores = [];
    const weights = [];
    const output = [];
    for (let i = 0; i < n; i++) {
      const row = [];
      for (let j = 0; j < n; j++) row.push(q.slice(i * d, i * d + d).reduce((a, x, c) => a + x * k[j * d + c], 0));
      scores.push(...row);
      const max = Math.max(...row);
      const e = row.map((s) => Math.exp((s - max) / Math.sqrt(d)));
      const sum = e.reduce((a, b) => a + b, 0);
      const w = e.map((x) => x / sum);
      weights.push(...w);
      for (let c = 0; c < d; c++) output.push(w.reduce((acc, wj, j) => acc + wj * v[j * d + c], 0));
    }
    const shown = await env.heatmap('self-weights');
    assert.deepEqual(shown.shape, [n, n]);
    assertRowsSumToOne(shown.values, n, n, 'weights');
    assertClose(shown.values, weights, 'weights');
    assertClose((await env.heatmap('self-scores')).values, scores, 'scores');
    assertClose((await env.heatmap('self-output')).values, output, 'output');
    return { q, k, weights: shown.values };
  }

  /** The neuron view's q, k come from the Q/K heatmaps' rows, and Σ q∘k/√d is the core's scaled score. */
  async function checkNeuron(n, d, expectQuery, expectKey) {
    const { q, k, weights } = await checkAgainstQkv(n, d);
    const pair = await neuron();
    assert.equal(pair.query, expectQuery);
    assert.equal(pair.key, expectKey);
    assert.deepEqual(pair.q, q.slice(expectQuery * d, (expectQuery + 1) * d));
    assert.deepEqual(pair.k, k.slice(expectKey * d, (expectKey + 1) * d));
    const dotProduct = pair.q.reduce((a, x, i) => a + x * pair.k[i], 0);
    assertClose([dotProduct / Math.sqrt(d)], [pair.scaled], 'Σ q∘k / √d vs the core', 1e-5, 1e-5);
    assert.equal(pair.weight, weights[expectQuery * n + expectKey]);
    assertClose(pair.products, pair.q.map((x, i) => x * pair.k[i]), 'products');
  }

  test("the note's sentence: weights and output from the shown Q, K, V; the neuron view's sum equals the core's", async () => {
    await loadOk('#seed=1');
    await checkNeuron(3, 4, 0, 0);
    // the help names the products by the row that shows them (a subscript ᵢ after q collided with its tail)
    const help = await env.page.locator(`${ROOT} .self-neuron-help`).textContent();
    assert.match(help, /product \(row q∘k\)/);
    assert.doesNotMatch(help, /ᵢ/);
    // axis labels are the tokens (read back through the keyboard focus line)
    await env.page.locator('#self-weights canvas').focus();
    await env.page.keyboard.press('ArrowRight');
    assert.match(await env.page.locator('#self-weights-focus').textContent(), /^咖哥 · 喜欢: \d\.\d{4}$/);
    assert.ok((await env.page.locator(`${ROOT} math`).count()) >= 2);
    await env.screenshot('self-section', ROOT);
  });

  test('the neuron view opens from a weights cell (Enter on the focused cell picks its query and key)', async () => {
    await loadOk('#seed=1');
    await env.page.locator('#self-weights canvas').focus();
    await env.page.keyboard.press('ArrowDown');
    await env.page.keyboard.press('ArrowDown');
    await env.page.keyboard.press('ArrowRight');
    await env.page.keyboard.press('Enter');
    await env.page.waitForFunction(() => /self_focus=2/.test(location.hash) && /self_key=1/.test(location.hash));
    await checkNeuron(3, 4, 2, 1);
  });

  test('hover and keyboard focus highlight where a token attends; the pair choice is in the URL', async () => {
    await loadOk('#seed=3&self_text=我 爱 学习 人工智能&self_d=6');
    await env.page.locator(`${ROOT} .self-headview-queries li`).nth(2).hover();
    await env.page.waitForFunction(() => location.hash.includes('self_focus=2'));
    const weights = (await env.heatmap('self-weights')).values;
    const lines = await env.page.$$eval(`${ROOT} .self-headview-lines line`, (ls) =>
      ls.map((l) => ({ q: Number(l.dataset.query), w: Number(l.dataset.weight), width: Number(l.getAttribute('stroke-width')) })),
    );
    assert.equal(lines.length, 4, 'one line per key from the focused query');
    lines.forEach((l, j) => {
      assert.equal(l.q, 2);
      assert.equal(l.w, weights[2 * 4 + j]);
      assert.ok(Math.abs(l.width - Math.max(0.5, l.w * 10)) < 1e-9, 'width ∝ weight');
    });
    const bars = await env.page.$$eval(`${ROOT} .self-headview-keys li`, (lis) => lis.map((li) => Number(li.dataset.weight)));
    assert.deepEqual(bars, weights.slice(8, 12));
    await checkNeuron(4, 6, 2, 0);

    // keyboard: focus the first query token (the mouse leaves first, so a re-layout under the
    // resting pointer cannot hover another token meanwhile)
    await env.page.mouse.move(0, 0);
    await env.page.locator(`${ROOT} .self-headview-queries li`).first().focus();
    await env.page.waitForFunction(() => location.hash.includes('self_focus=0'));
    // the neuron view's key choice
    await env.page.selectOption(`${ROOT} .self-neuron select >> nth=1`, '3');
    await env.page.waitForFunction(() => location.hash.includes('self_key=3'));
    await checkNeuron(4, 6, 0, 3);
    await env.screenshot('self-headview', `${ROOT} .self-views`);

    // the same URL reloads to the same state and numbers
    const hash = await env.page.evaluate(() => location.hash);
    const before = await neuron();
    await loadOk(hash);
    assert.deepEqual(await neuron(), before);
    assert.equal(await env.page.getAttribute(`${ROOT} .self-headview`, 'data-focus'), '0');
  });

  test('the same word gets the same vector (so the same q, k, v); repeated words get distinct labels, in the page language\'s brackets', async () => {
    for (const [lang, names] of [['en', ['我 (1)', '爱', '我 (3)']], ['zh', ['我（1）', '爱', '我（3）']]]) {
      await loadOk(`#seed=4&self_text=我 爱 我${lang === 'zh' ? '&lang=zh' : ''}`);
      const q = (await env.heatmap('self-q')).values;
      assert.deepEqual(q.slice(0, 4), q.slice(8, 12));
      assert.notDeepEqual(q.slice(0, 4), q.slice(4, 8));
      const words = await env.page.$$eval(`${ROOT} .self-headview-queries li`, (lis) => lis.map((li) => li.textContent));
      assert.deepEqual(words, names, `${lang}: the head view names them as the maps do`);
      const choices = await env.page.locator(`${ROOT} .self-neuron select >> nth=0`).locator('option').allTextContents();
      assert.deepEqual(choices, names, lang);
      const columns = await env.page.$$eval(`#self-weights table.heatmap-table tr:first-child th[scope=col]`, (ths) => ths.map((th) => th.textContent));
      assert.deepEqual(columns, names, `${lang}: the weights' table`);
      // the weights heatmap keeps the two 我 apart: 3 × 3
      assert.deepEqual((await env.heatmap('self-weights')).shape, [3, 3]);
    }
  });

  test('typing a sentence: the URL follows and a reload gives the same numbers', async () => {
    await loadOk('#seed=9');
    const count = await env.computeCount(ROOT);
    await env.page.locator(`${ROOT} input.self-text`).fill('小冰 喜欢 咖哥 吗');
    await env.waitComputed(ROOT, count);
    await env.page.selectOption(`${ROOT} select >> nth=0`, '8');
    await env.page.waitForFunction(() => location.hash.includes('self_d=8'));
    await env.waitComputed(ROOT, count + 1);
    const weights = await env.heatmap('self-weights');
    const output = await env.heatmap('self-output');
    assert.deepEqual(output.shape, [4, 8]);
    await checkAgainstQkv(4, 8);
    await loadOk(await env.page.evaluate(() => location.hash));
    assert.deepEqual(await env.heatmap('self-weights'), weights);
    assert.deepEqual(await env.heatmap('self-output'), output);
  });

  test('bad sentences: empty and 17 tokens give inline errors; a good one works again', async () => {
    await loadOk('#seed=1');
    const good = await env.heatmap('self-weights');
    const input = env.page.locator(`${ROOT} input.self-text`);
    const message = env.page.locator(`${ROOT} .self-message`);
    await input.fill('   ');
    await env.page.waitForSelector(`${ROOT}[data-state="error"]`);
    assert.match(await message.textContent(), /the sentence is empty/);
    assert.match(await message.textContent(), /The views still show the last sentence that fit, “咖哥 喜欢 小冰”\.$/, 'it says which sentence is on screen');
    assert.deepEqual(await env.heatmap('self-weights'), good, 'last result kept');

    await input.fill(Array.from({ length: 17 }, (_, i) => `w${i}`).join(' '));
    await env.page.waitForFunction(() => /17 tokens/.test(document.querySelector('.self-message')?.textContent ?? ''));
    assert.equal(await env.page.getAttribute(ROOT, 'data-state'), 'error');

    // the same through the URL
    await env.load('#self_text=%20', ROOT);
    await env.page.waitForSelector(`${ROOT}[data-state="error"]`);
    assert.match(await message.textContent(), /the sentence is empty/);

    const count = await env.computeCount(ROOT);
    await input.fill('深度学习 改变 世界');
    await env.waitComputed(ROOT, count);
    assert.equal(await env.page.getAttribute(ROOT, 'data-state'), 'ok');
    await checkNeuron(3, 4, 0, 0);
  });

  splitHintTests(env, ROOT, 'self', 'self-weights');


  test('a hostile sentence is shown as text', async () => {
    await loadOk(`#self_text=${encodeURIComponent('<img src=x onerror=alert(1)> <b>hi</b>')}`);
    assert.equal(await env.page.locator(`${ROOT} img, ${ROOT} b`).count(), 0);
    const labels = await env.page.$$eval(`${ROOT} .self-headview-queries li`, (lis) => lis.map((li) => li.textContent));
    assert.deepEqual(labels, ['<img', 'src=x', 'onerror=alert(1)>', '<b>hi</b>']);
  });

  for (const lang of ['en', 'zh']) {
    test(`(${lang}) "Where each word attends" draws no empty bar: none before a word is chosen, then a bar and its number for every key`, async () => {
      await loadOk(`#seed=1&lang=${lang}&self_text=${encodeURIComponent('我 爱 学习 人工智能 和 自然 语言 处理 的 模型 很 强大')}&self_d=16`);
      const bars = () =>
        env.page.$$eval(`${ROOT} .self-headview-keys li`, (lis) =>
          lis.map((li) => {
            const track = li.querySelector('.self-headview-track');
            const bar = li.querySelector('.self-headview-bar');
            return {
              // a track on screen, and the ink of its bar
              track: track.getClientRects().length > 0 && getComputedStyle(track).visibility !== 'hidden',
              bar: bar.getClientRects().length > 0 && getComputedStyle(bar).visibility !== 'hidden' ? bar.getBoundingClientRect().width : 0,
              value: li.querySelector('.self-headview-weight').textContent,
            };
          }),
        );
      const before = await bars();
      assert.equal(before.length, 12);
      assert.deepEqual(before.filter((b) => b.track), [], 'no word chosen: no bars, and no empty tracks');
      await env.page.locator(`${ROOT} .self-headview-queries li`).nth(3).hover();
      await env.page.waitForFunction(() => location.hash.includes('self_focus=3'));
      const weights = (await env.heatmap('self-weights')).values.slice(3 * 12, 4 * 12);
      const after = await bars();
      after.forEach((b, j) => {
        assert.ok(b.track && b.bar >= 1, `key ${j} (weight ${weights[j]}): a bar of ${b.bar} px`);
        assert.equal(b.value, weights[j].toFixed(3), `key ${j}: its number beside the bar`);
      });
      // the bars are as long as the weights (the sliver aside)
      const widest = Math.max(...after.map((b) => b.bar));
      const top = weights.indexOf(Math.max(...weights));
      assert.equal(after[top].bar, widest);
    });
  }

  test('in Chinese, and at phone width', async () => {
    await env.checkChineseAndPhone(ROOT, 'self', 'self');
  });
});
