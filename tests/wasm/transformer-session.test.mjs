// The Transformer trained on the project's tasks through lab.createSeq2Seq({arch: 'transformer'})
// on the wasm build: the same methods as the recurrent translators (train, evaluate, translate
// greedy and beam, save, load, info, vocabularies), the per-layer/per-head trace with rollout,
// and bit-identical resume; the recipe is the native suite's (tests/native/
// test_transformer_session.cpp).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';

const REVERSE = {
  arch: 'transformer', task: 'reverse', layers: 2, heads: 4, dModel: 32, dFF: 64, warmup: 100,
  seed: 5, batchSize: 32, learningRate: 1e-2, clipNorm: 1,
  taskOptions: { seed: 3, train: 2000, heldOut: 100, minLen: 3, maxLen: 6, symbols: 8 },
};

let lab;
before(async () => {
  lab = await loadAttentionLab();
});

const sum = (a) => a.reduce((s, x) => s + x, 0);

test('the Transformer learns to reverse unseen strings, and translates greedy and beam', () => {
  const m = lab.createSeq2Seq(REVERSE);
  try {
    assert.equal(m.arch, 'transformer');
    const info = m.info();
    assert.equal(info.arch, 'transformer');
    assert.equal(info.layers, 2);
    assert.equal(info.heads, 4);
    assert.equal(info.dModel, 32);
    const r = m.train(1000);
    assert.equal(r.losses.length, 1000);
    assert.ok(r.losses[999] < 0.1 * r.losses[0], `loss ${r.losses[0]} → ${r.losses[999]}`);
    const e = m.evaluate();
    assert.ok(e.exactMatch >= 0.9, `held-out exact match ${e.exactMatch}`);
    assert.equal(e.examples, 100);

    const t = m.translate('abcde');
    assert.equal(t.text, 'edcba');
    const S = 5;
    assert.deepEqual(t.encoder.self.shape, [2, 4, S, S]);
    assert.deepEqual(t.encoder.rollout.shape, [S, S]);
    t.steps.forEach((step, i) => {
      assert.deepEqual(step.cross.shape, [2, 4, S]);
      assert.deepEqual(step.self.shape, [2, 4, i + 1]);
      for (let lh = 0; lh < 8; ++lh) {
        assert.ok(Math.abs(sum(step.cross.data.subarray(lh * S, (lh + 1) * S)) - 1) < 1e-5);
      }
      assert.equal(step.attention.length, S);
      assert.ok(Math.abs(sum(step.attention) + sum(step.rolloutTarget) - 1) < 1e-5, 'rollout sums to 1');
    });
    const b = m.translate('abcde', { beam: 3 });
    assert.equal(b.text, 'edcba');
    assert.equal(b.beams.width, 3);
    for (const row of b.beams.steps) for (const node of row) assert.deepEqual(node.cross.shape, [2, 4, S]);
    assert.deepEqual(m.translate('abcde', { beam: 1 }).beams.hypotheses[0].output, t.output);
    assert.ok(m.sourceVocabulary().includes('h'));
  } finally {
    m.delete();
  }
});

test('save → load resumes bit-identically and loadSeq2Seq tells both kinds apart', () => {
  const straight = lab.createSeq2Seq(REVERSE);
  const interrupted = lab.createSeq2Seq(REVERSE);
  try {
    straight.train(30);
    const expected = straight.train(20);
    interrupted.train(30);
    const bytes = interrupted.save();
    const resumed = lab.loadSeq2Seq(bytes);
    try {
      assert.equal(resumed.arch, 'transformer');
      assert.equal(resumed.info().step, 30);
      const got = resumed.train(20);
      assert.deepEqual(Array.from(got.losses), Array.from(expected.losses));
      assert.ok(Buffer.from(resumed.save()).equals(Buffer.from(straight.save())));
    } finally {
      resumed.delete();
    }
    const rnn = lab.createSeq2Seq({ arch: 'rnn', task: 'reverse', hidden: 8, seed: 1 });
    try {
      assert.equal(rnn.arch, 'rnn');
      const again = lab.loadSeq2Seq(rnn.save());
      assert.equal(again.arch, 'rnn');
      again.delete();
    } finally {
      rnn.delete();
    }
  } finally {
    straight.delete();
    interrupted.delete();
  }
});

test('the dates task trains with the Transformer defaults', () => {
  const m = lab.createSeq2Seq({ arch: 'transformer', task: 'dates', seed: 1 });
  const other = lab.createSeq2Seq({ arch: 'transformer', task: 'reverse', seed: 1, dModel: 32 });
  try {
    // dates takes its tuned recipe (transformer_session_defaults); a setting given still wins
    const pick = (i) => [i.layers, i.heads, i.dModel, i.dFF, i.normFirst, i.warmup, i.batchSize, i.learningRate, i.clipNorm];
    assert.deepEqual(pick(m.info()), [1, 4, 32, 64, true, 200, 32, 1e-2, 1]);
    assert.deepEqual(pick(other.info()), [2, 4, 32, 128, false, 100, 32, 2e-3, 1]);
    const tuned = lab.createSeq2Seq({ arch: 'transformer', task: 'dates', seed: 1, layers: 2, normFirst: false });
    assert.deepEqual(pick(tuned.info()).slice(0, 5), [2, 4, 32, 64, false]);
    tuned.delete();
    // 200 steps of the recipe: the loss falls well below its start, and the output is an ISO-like string
    const r = m.train(200);
    assert.ok(r.losses.every(Number.isFinite));
    const late = r.losses.slice(-10).reduce((a, b) => a + b) / 10;
    assert.ok(late < 0.3 * r.losses[0], `loss ${r.losses[0]} → ${late}`);
    assert.match(m.translate('JAN 23, 2015').text, /^[0-9-]*$/);
    // exact match by source length: the buckets partition the evaluated dates and average to exactMatch
    const ev = m.evaluate({ maxExamples: 60 });
    assert.ok(ev.exactMatchByLength.length >= 1);
    assert.equal(ev.exactMatchByLength.reduce((a, b) => a + b.examples, 0), 60);
    const matched = ev.exactMatchByLength.reduce((a, b) => a + b.exactMatch * b.examples, 0);
    assert.ok(Math.abs(matched - ev.exactMatch * 60) < 1e-9, `${matched} vs ${ev.exactMatch * 60}`);
  } finally {
    m.delete();
    other.delete();
  }
});

test('the widget module has no Transformer and says so', async () => {
  const small = await loadAttentionLab({ variant: 'seq2seq' });
  assert.throws(() => small.createSeq2Seq({ arch: 'transformer', task: 'reverse' }), /variant has no Transformer/);
  assert.throws(() => lab.createSeq2Seq({ arch: 'lstm', task: 'reverse' }), /config\.arch must be 'rnn' or 'transformer'/);
});

test("the 'transformer' module trains and translates like the full one, and has no recurrent translators, files, interventions or beam search", async () => {
  const small = await loadAttentionLab({ variant: 'transformer' });
  const config = { arch: 'transformer', task: 'reverse', layers: 1, heads: 2, dModel: 16, dFF: 32, seed: 3 };
  const a = small.createSeq2Seq(config);
  const b = lab.createSeq2Seq(config);
  try {
    // the same core, compiled at other levels: the same numbers to float rounding
    const la = a.train(5).losses, lb = b.train(5).losses;
    la.forEach((x, i) => assert.ok(Math.abs(x - lb[i]) <= 1e-4 * Math.max(1, Math.abs(lb[i])), `step ${i}: ${x} vs ${lb[i]}`));
    assert.equal(a.translate('a b c').text, b.translate('a b c').text);
    assert.throws(() => a.save(), /this build has no model files/);
    // no interventions either (the full module has them); an empty list is plain decoding
    assert.throws(() => a.translate('a b c', { interventions: [{ kind: 'zero-head', attention: 'cross', layer: 0, head: 0 }] }),
      /interventions: this build \(the 'transformer' module for widgets\) has none; the full module has them/);
    assert.equal(a.translate('a b c', { interventions: [] }).text, b.translate('a b c').text);
    assert.equal(b.translate('a b c', { interventions: [{ kind: 'zero-head', attention: 'cross', layer: 0, head: 0 }] }).intervention !== undefined, true);
    // nor beam search (§4 decodes greedily); the model keeps working after the Error
    assert.throws(() => a.translate('a b c', { beam: 3 }), /beam: this build \(the 'transformer' module for widgets\) has no beam search; the full module has it/);
    assert.equal(b.translate('a b c', { beam: 3 }).beams.width, 3);
    assert.equal(a.translate('a b c').text, b.translate('a b c').text);
  } finally {
    a.delete();
    b.delete();
  }
  assert.throws(() => small.createSeq2Seq({ task: 'reverse' }), /has only the Transformer/);
});

