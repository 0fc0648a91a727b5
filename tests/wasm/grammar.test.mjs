// The zh-en grammar task and evaluate()'s alignment accuracy and exact match by length, from JS,
// in both builds that have the translators (the full core and the widgets' Seq2Seq module).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';

const live = new Set();
after(() => live.forEach((m) => m.delete()));

// Small and quick: a GRU of 32 at lr 0.01 lines the words up within a few hundred steps.
const SMALL = { task: 'zh-en', cell: 'gru', hidden: 32, learningRate: 0.01, batchSize: 32, seed: 1, taskOptions: { heldOut: 200 } };

for (const variant of ['full', 'seq2seq']) {
  test(`${variant}: zh-en trains an attention model whose attention lines the words up`, async () => {
    const lab = await loadAttentionLab({ variant });
    const make = (config) => { const m = lab.createSeq2Seq(config); live.add(m); return m; };
    const m = make({ ...SMALL, attention: true, score: 'dot' });
    const info = m.info();
    assert.equal(info.task, 'zh-en');
    assert.equal(info.sourceTokenizer, 'words');
    assert.deepEqual(info.taskOptions, { seed: 1, heldOut: 200, train: 5000, minLen: 5, maxLen: 60, symbols: 20 }); // train: the default count, filled in

    const before = m.evaluate();
    assert.equal(typeof before.alignmentAccuracy, 'number');
    assert.ok(before.alignedTokens > 500);
    assert.ok(before.alignmentAccuracy < 0.4, `untrained alignment ${before.alignmentAccuracy}`);

    m.train(300);
    const ev = m.evaluate();
    assert.equal(ev.examples, 200);
    assert.equal(ev.heldOutIsTrainingData, false);
    assert.ok(ev.alignmentAccuracy > 0.6, `trained alignment ${ev.alignmentAccuracy}`);
    assert.equal(ev.alignedTokens, before.alignedTokens);
    assert.deepEqual(ev.exactMatchByLength.map((b) => [b.minLength, b.maxLength]), [[4, 6], [7, 9], [10, 11], [12, 14]]);
    assert.equal(ev.exactMatchByLength.reduce((n, b) => n + b.examples, 0), ev.examples);
    const matched = ev.exactMatchByLength.reduce((n, b) => n + b.exactMatch * b.examples, 0);
    assert.ok(Math.abs(matched / ev.examples - ev.exactMatch) < 1e-9);

    // Held-out sentences come with their alignments; a long one translates word by word.
    const held = m.heldOut(200);
    assert.equal(held.length, 200);
    for (const e of held) {
      const words = e.source.split(' ');
      assert.ok(words.length >= 4 && words.length <= 14, e.source);
      assert.equal(e.alignment.length, e.target.split(' ').length);
      for (const row of e.alignment) for (const s of row) assert.ok(s >= 0 && s < words.length);
    }
    const long = held.find((e) => e.source.split(' ').length >= 10);
    const t = m.translate(long.source);
    assert.equal(t.source.length, long.source.split(' ').length);
    assert.ok(t.source.every((s) => !s.unknown));
    assert.equal(t.steps[0].attention.length, t.source.length);
  });

  test(`${variant}: a plain model has no alignment accuracy, but exact match by length`, async () => {
    const lab = await loadAttentionLab({ variant });
    const m = lab.createSeq2Seq({ ...SMALL, attention: false });
    live.add(m);
    m.train(5);
    const ev = m.evaluate({ maxExamples: 50 });
    assert.equal(ev.alignmentAccuracy, null);
    assert.equal(ev.alignedTokens, 0);
    assert.equal(ev.exactMatchByLength.length, 4);
  });
}

test('the note and reverse carry alignments; dates has none', async () => {
  const lab = await loadAttentionLab();
  const note = lab.createSeq2Seq({ task: 'note', hidden: 8, seed: 1 });
  const dates = lab.createSeq2Seq({ task: 'dates', hidden: 8, seed: 1, taskOptions: { heldOut: 10 } });
  live.add(note).add(dates);
  assert.deepEqual(note.heldOut(1), [{ source: '咖哥 喜欢 小冰', target: 'KaGe likes XiaoBing', alignment: [[0], [1], [2]] }]);
  assert.equal(note.heldOut(99).length, 5);
  assert.equal(typeof note.evaluate().alignmentAccuracy, 'number');
  assert.deepEqual(dates.heldOut(1)[0].alignment, []);
  assert.equal(dates.evaluate().alignmentAccuracy, null);
  assert.throws(() => note.heldOut(0), /heldOut\(count\): count must be at least 1/);
  assert.throws(() => note.heldOut('2'), /count must be a number/);
  assert.equal(note.heldOut(1).length, 1, 'the model still works after an error');
});

test('the same seed gives the same corpus as the native build', async () => {
  const lab = await loadAttentionLab();
  const m = lab.createSeq2Seq({ task: 'zh-en', hidden: 8, seed: 1 });
  live.add(m);
  // tests/native/test_grammar_task.cpp asserts the same first sentence.
  assert.deepEqual(m.heldOut(1)[0], {
    source: '昨天 漂亮 的 孩子 在 花园 找到 了 我们 的 小 老师',
    target: 'the beautiful child found our small teacher in the garden yesterday',
    alignment: [[], [1, 2], [3], [6, 7], [8, 9], [10], [11], [], [], [5], [0]],
  });
});
