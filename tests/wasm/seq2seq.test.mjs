// The Seq2Seq bindings end to end: training on the note's task, greedy and beam translation with
// their traces, save/load, and bad input. Every session is .delete()d (the JS wrapper owns the
// C++ object); liveModels tracks them so a failing test cannot leak one into the next.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { liveModels } from './live-models.mjs';

let lab;
let trained; // note, RNN, hidden 128, dot attention, 400 steps: the note's recipe
const { create, load, free, deleteAll } = liveModels(() => lab);

const NOTE = { task: 'note', cell: 'rnn', attention: true, score: 'dot', seed: 1 };

before(async () => {
  lab = await loadAttentionLab();
  trained = create({ ...NOTE, hidden: 128 });
  trained.train(400);
});

after(deleteAll);

const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length;

test('the note task trains: RNN, hidden 32, dot attention, 150 steps, seed 1', () => {
  const m = create({ ...NOTE, hidden: 32 });
  const { losses, tokenAccuracy, step } = m.train(150);
  assert.ok(losses instanceof Float32Array);
  assert.equal(losses.length, 150);
  assert.equal(step, 150);
  assert.ok(losses.every(Number.isFinite));
  const first = mean(losses.slice(0, 10)), last = mean(losses.slice(-10));
  assert.ok(last < 0.5 * first, `loss fell from ${first} to only ${last}`);
  // The token accuracy of each step's batch, for the charts: from poor to (nearly) perfect.
  assert.ok(tokenAccuracy instanceof Float32Array);
  assert.equal(tokenAccuracy.length, 150);
  assert.ok(tokenAccuracy.every((a) => a >= 0 && a <= 1));
  assert.ok(mean(tokenAccuracy.slice(0, 10)) < 0.6 && mean(tokenAccuracy.slice(-10)) > 0.9);
  assert.equal(m.train(5).step, 155, 'step counts across calls');
  free(m);
});

test('after 400 steps at hidden 128, greedy translation gives "KaGe likes XiaoBing"', () => {
  const r = trained.translate('咖哥 喜欢 小冰');
  assert.deepEqual(r.output, ['KaGe', 'likes', 'XiaoBing']);
  assert.equal(r.text, 'KaGe likes XiaoBing');
  assert.equal(r.finished, true);
  assert.deepEqual(r.source.map((t) => [t.token, t.unknown]), [['咖哥', false], ['喜欢', false], ['小冰', false]]);
  // The trace: one step per output token plus <eos>; top-k sorted, led by the chosen token;
  // attention over the 3 source tokens sums to 1.
  assert.deepEqual(r.steps.map((s) => s.token), ['KaGe', 'likes', 'XiaoBing', '<eos>']);
  for (const s of r.steps) {
    assert.ok(s.prob > 0 && s.prob <= 1);
    assert.equal(s.top.length, 5);
    assert.equal(s.top[0].token, s.token);
    assert.equal(s.top[0].prob, s.prob);
    for (let k = 1; k < s.top.length; ++k) assert.ok(s.top[k].prob <= s.top[k - 1].prob);
    assert.ok(s.attention instanceof Float32Array);
    assert.equal(s.attention.length, 3);
    assert.ok(Math.abs(s.attention.reduce((a, b) => a + b, 0) - 1) < 1e-5);
  }
  assert.equal(r.beams, undefined);
  const ev = trained.evaluate();
  assert.deepEqual(Object.keys(ev).sort(), ['alignedTokens', 'alignmentAccuracy', 'exactMatch', 'exactMatchByLength', 'examples', 'heldOutIsTrainingData', 'loss', 'tokenAccuracy', 'tokenAccuracyByPosition']);
  assert.equal(ev.examples, 5);
  assert.equal(ev.heldOutIsTrainingData, true);
  assert.equal(ev.exactMatch, 1);
  assert.equal(ev.tokenAccuracy, 1);
  assert.ok(ev.loss < 0.1);
});

test('beam search returns the beam tree and ranked hypotheses', () => {
  const r = trained.translate('咖哥 喜欢 小冰', { beam: 3 });
  assert.equal(r.text, 'KaGe likes XiaoBing');
  assert.equal(r.steps, undefined);
  assert.equal(r.beams.width, 3);
  const h = r.beams.hypotheses;
  assert.ok(h.length >= 1 && h.length <= 3);
  assert.deepEqual(h[0].output, r.output);
  for (let i = 1; i < h.length; ++i) assert.ok(h[i].score <= h[0].score);
  // Walk the best hypothesis back through the tree: it spells its tokens then <eos>.
  const path = [];
  for (let t = h[0].step, n = h[0].node; t >= 0; n = r.beams.steps[t][n].parent, --t) path.unshift(r.beams.steps[t][n].token);
  assert.deepEqual(path, [...h[0].output, '<eos>']);
  for (const nodes of r.beams.steps) for (const n of nodes) assert.equal(n.attention.length, 3);
});

test('an unknown word is flagged and mapped to <unk>, not an error', () => {
  const r = trained.translate('咖哥 喜欢 大冰');
  assert.deepEqual(r.source.map((t) => [t.token, t.text, t.unknown]), [
    ['咖哥', '咖哥', false], ['喜欢', '喜欢', false], ['<unk>', '大冰', true]]);
  assert.equal(r.source[2].id, 3);
  assert.ok(r.output.length >= 1);
  // Typed reserved names are unknown too: input cannot inject control tokens.
  assert.equal(trained.translate('<eos>').source[0].unknown, true);
});

test('save → load gives an identical model and translation', () => {
  const bytes = trained.save();
  assert.ok(bytes instanceof Uint8Array);
  assert.equal(bytes.buffer.byteLength, bytes.byteLength, 'a copy, not a view of wasm memory');
  assert.equal(new TextDecoder().decode(bytes.subarray(0, 4)), 'ATLB');
  const copy = load(bytes);
  const { step: _s1, ...a } = trained.info();
  const { step: _s2, ...b } = copy.info();
  assert.deepEqual(b, a);
  assert.equal(copy.info().step, 400);
  for (const text of ['咖哥 喜欢 小冰', '我 爱 学习 人工智能', '咖哥 喜欢 大冰']) {
    assert.deepEqual(copy.translate(text), trained.translate(text));
    assert.deepEqual(copy.translate(text, { beam: 3 }), trained.translate(text, { beam: 3 }));
  }
  assert.deepEqual(copy.save(), bytes, 'saving the loaded model gives the same bytes');
  assert.deepEqual(load(bytes.buffer.slice(0)).translate('咖哥 喜欢 小冰').text, 'KaGe likes XiaoBing', 'an ArrayBuffer loads too');
  free(copy);
});

test('save → load → train continues bit-identically to an uninterrupted run', () => {
  const config = { task: 'reverse', cell: 'gru', hidden: 16, seed: 5, batchSize: 8, learningRate: 1e-2, clipNorm: 1,
    score: 'general', attentionalTanh: true, taskOptions: { train: 400, heldOut: 50, minLen: 3, maxLen: 10, symbols: 6 } };
  const straight = create(config);
  straight.train(12);
  const expected = straight.train(8);
  const first = create(config);
  first.train(12);
  const resumed = load(first.save());
  assert.equal(resumed.info().step, 12);
  assert.deepEqual(resumed.info(), first.info());
  const after = resumed.train(8);
  assert.deepEqual(after.losses, expected.losses);
  assert.deepEqual(after.tokenAccuracy, expected.tokenAccuracy);
  assert.equal(after.step, 20);
  assert.deepEqual(resumed.save(), straight.save(), 'weights, Adam moments, sampler and step all match');
  for (const m of [straight, first, resumed]) free(m);
});

test('evaluate: held-out (capped) and fresh strings of one length', () => {
  const m = create({ task: 'reverse', hidden: 16, seed: 2, batchSize: 8, taskOptions: { train: 400, heldOut: 60, maxLen: 12 } });
  assert.deepEqual(m.info().taskOptions, { seed: 2, heldOut: 60, train: 400, minLen: 5, maxLen: 12, symbols: 20 });
  m.train(20);
  const held = m.evaluate();
  assert.equal(held.examples, 60);
  assert.equal(held.heldOutIsTrainingData, false);
  assert.equal(m.evaluate({ maxExamples: 10 }).examples, 10);
  // Accuracy against length, as the experiments draw it: lengths beyond training (maxLen 12) too.
  const curve = [5, 20, 40].map((length) => m.evaluate({ length, count: 30 }));
  for (const r of curve) {
    assert.deepEqual(Object.keys(r).sort(), ['alignedTokens', 'alignmentAccuracy', 'exactMatch', 'exactMatchByLength', 'examples', 'heldOutIsTrainingData', 'loss', 'tokenAccuracy', 'tokenAccuracyByPosition']);
    assert.equal(r.examples, 30);
    assert.equal(r.heldOutIsTrainingData, false);
    assert.ok(r.tokenAccuracy >= 0 && r.tokenAccuracy <= 1 && Number.isFinite(r.loss));
  }
  assert.deepEqual(m.evaluate({ length: 20, count: 30 }), curve[1], 'the default seed gives the same strings');
  assert.notDeepEqual(m.evaluate({ length: 20, count: 30, seed: 9 }), curve[1]);
  assert.equal(m.info().step, 20, 'evaluation does not train');
  free(m);
});

test('a corrupt or truncated file gives a clear Error', () => {
  const bytes = trained.save();
  const corrupt = bytes.slice();
  corrupt[corrupt.length >> 1] ^= 0x40;
  assert.throws(() => load(corrupt), /checksum mismatch: the file is corrupt/);
  assert.throws(() => load(bytes.slice(0, 100)), /truncated or corrupt/);
  assert.throws(() => load(new Uint8Array(0)), /model file is truncated: 0 bytes, but even an empty model file has 16/);
  assert.throws(() => load('not bytes'), /needs the bytes of a \.atlb file/);
});

test('every task and cell builds, trains and evaluates', () => {
  for (const [task, cell] of [['dates', 'lstm'], ['reverse', 'gru'], ['copy', 'rnn']]) {
    const m = create({ task, cell, hidden: 16, seed: 2, batchSize: 8, score: 'general', attentionalTanh: true, clipNorm: 1 });
    const info = m.info();
    assert.equal(info.task, task);
    assert.equal(info.cell, cell);
    assert.equal(info.sourceTokenizer, 'chars');
    assert.ok(info.parameterCount > 0);
    assert.equal(m.train(3).losses.length, 3);
    const r = m.translate(task === 'dates' ? 'Jan 23, 2015' : 'abcde', { maxLength: 4 });
    assert.ok(r.steps.length <= 4);
    free(m);
  }
});

// Bad input: each throws an Error naming the problem, and `trained` still translates exactly as
// before (nothing in the module was left half-done).
const bad = [
  ['empty sentence', () => trained.translate(''), /sentence is empty/],
  ['blank sentence', () => trained.translate('   '), /sentence is empty/],
  ['too-long sentence', () => trained.translate('我 '.repeat(65)), /sentence has 65 tokens; the limit is 64/],
  ['text not a string', () => trained.translate(42), /text must be a string/],
  ['beam 0', () => trained.translate('我', { beam: 0 }), /beam must be in \[1, 64\] \(got 0\)/],
  ['beam 2.5', () => trained.translate('我', { beam: 2.5 }), /beam must be a whole number \(got 2\.5\)/],
  ['maxLength 0', () => trained.translate('我', { maxLength: 0 }), /maxLength must be in \[1, 1024\] \(got 0\)/],
  ['unknown translate option', () => trained.translate('我', { beams: 3 }), /translate options has an unknown key 'beams'/],
  ['unknown task', () => create({ ...NOTE, task: 'klingon' }), /unknown task 'klingon' \(expected note, zh-en, dates, reverse, copy, pairs\)/],
  ['missing task', () => create({ cell: 'rnn' }), /task is missing \(expected note, zh-en, dates, reverse, copy, pairs\)/],
  ['unknown cell', () => create({ ...NOTE, cell: 'transformer' }), /unknown cell "transformer": expected rnn, gru or lstm/],
  ['unknown score', () => create({ ...NOTE, score: 'magic' }), /unknown score function 'magic'/],
  ['hidden 0', () => create({ ...NOTE, hidden: 0 }), /hidden size must be in \[1, 4096\] \(got 0\)/],
  ['hidden 10^6', () => create({ ...NOTE, hidden: 1e6 }), /hidden size must be in \[1, 4096\] \(got 1000000\)/],
  ['hidden 2.5', () => create({ ...NOTE, hidden: 2.5 }), /config\.hidden must be a whole number \(got 2\.5\)/],
  ['NaN learning rate', () => create({ ...NOTE, learningRate: NaN }), /learning rate must be a positive finite float32 \(got nan\)/],
  ['negative learning rate', () => create({ ...NOTE, learningRate: -1 }), /learning rate must be a positive finite float32/],
  ['learning rate beyond float32', () => create({ ...NOTE, learningRate: 1e39 }), /learning rate must be a positive finite float32/],
  ['batch 0', () => create({ ...NOTE, batchSize: 0 }), /batch size must be in \[1, 1024\] \(got 0\)/],
  ['NaN clipNorm', () => create({ ...NOTE, clipNorm: NaN }), /clip norm \(0: no clipping\) must be 0 or a positive finite float32/],
  ['attentionalTanh without attention', () => create({ ...NOTE, attention: false, attentionalTanh: true }), /attentional_tanh needs attention/],
  ['unknown config key', () => create({ ...NOTE, hiden: 32 }), /config has an unknown key 'hiden'/],
  ['no config', () => create(), /createSeq2Seq\(\) needs a config object/],
  ['train(0)', () => trained.train(0), /steps must be in \[1, 100000\] \(got 0\)/],
  ['train(1.5)', () => trained.train(1.5), /steps must be a whole number \(got 1\.5\)/],
  ['seed -1', () => create({ ...NOTE, seed: -1 }), /config\.seed must be a whole number in \[0, 2\^53 - 1\] \(got -1\)/],
  ['unknown task option', () => create({ ...NOTE, taskOptions: { maxlen: 3 } }), /config\.taskOptions has an unknown key 'maxlen'/],
  ['task option out of range', () => create({ task: 'reverse', taskOptions: { maxLen: 100 } }), /max_len/],
  ['evaluate length on the note', () => trained.evaluate({ length: 5 }), /task 'note' has no length knob/],
  ['evaluate count without length', () => trained.evaluate({ count: 5 }), /count and seed only apply with a length/],
  ['evaluate maxExamples 0', () => trained.evaluate({ maxExamples: 0 }), /maxExamples must be in \[1, 10000\] \(got 0\)/],
  ['unknown evaluate option', () => trained.evaluate({ lenght: 5 }), /evaluate options has an unknown key 'lenght'/],
];

let baseline;
for (const [name, call, message] of bad) {
  test(`bad input: ${name}`, () => {
    baseline ??= trained.translate('咖哥 喜欢 小冰', { beam: 2 });
    assert.throws(call, (e) => e instanceof Error && message.test(e.message), `expected an Error matching ${message}`);
    assert.deepEqual(trained.translate('咖哥 喜欢 小冰', { beam: 2 }), baseline);
    assert.equal(trained.info().step, 400);
  });
}

test('a sentence over the limit carries its code and numbers, from a session and from its .safetensors file', () => {
  const file = load(trained.save({ format: 'safetensors' }));
  for (const [model, limit] of [[trained, trained.info().maxSourceTokens], [file, file.info().maxSourceTokens]]) {
    assert.equal(limit, 64);
    assert.throws(
      () => model.translate('我 '.repeat(70)),
      (e) => e.message === 'sentence has 70 tokens; the limit is 64' && e.code === 'sentenceTooLong' && e.details.count === 70 && e.details.limit === 64,
    );
    // an error without a code (the page words it as the message) has none
    assert.throws(() => model.translate(''), (e) => /sentence is empty/.test(e.message) && e.code === undefined && e.details === undefined);
  }
  free(file);
  // a Transformer takes as many tokens as its positional table has positions
  const tf = create({ arch: 'transformer', task: 'reverse', layers: 1, dModel: 8, heads: 2, dFF: 16 });
  assert.equal(tf.info().maxSourceTokens, 256);
  assert.equal(tf.translate('a'.repeat(256)).source.length, 256);
  assert.throws(
    () => tf.translate('a'.repeat(300)),
    (e) => /positional table has 256 positions/.test(e.message) && e.code === 'sentenceOverPositions' && e.details.count === 300 && e.details.limit === 256,
  );
  free(tf);
});

test('divergence stops training with an Error that carries the completed steps, and keeps their weights', () => {
  const m = create({ ...NOTE, hidden: 16, learningRate: 1e30 });
  let error;
  assert.throws(() => m.train(50), (e) => {
    error = e;
    return /training diverged at step \d+ .*the weights after step \d+ are kept/.test(e.message);
  });
  const { step } = m.info();
  assert.ok(step >= 1 && step < 50);
  assert.equal(error.completed.step, step);
  assert.equal(error.completed.losses.length, step);
  assert.equal(error.completed.tokenAccuracy.length, step);
  assert.ok(error.completed.losses.every(Number.isFinite));
  // The session is exactly a fresh one trained for the completed steps.
  const reference = create({ ...NOTE, hidden: 16, learningRate: 1e30 });
  assert.deepEqual(reference.train(step).losses, error.completed.losses);
  assert.deepEqual(m.save(), reference.save());
  free(reference);
  // Still usable and deterministic: the same step diverges again, changing nothing; it saves
  // (all weights finite) and a failed call leaves the module working.
  const saved = m.save();
  assert.throws(() => m.train(3), (e) => e.completed.step === step && e.completed.losses.length === 0);
  assert.deepEqual(m.save(), saved);
  // The kept weights are finite but huge: decoding with them may overflow, and must then say the
  // weights diverged, not complain about an internal tensor.
  assert.throws(() => m.translate('咖哥 喜欢 小冰'), /the recurrent states are not finite: the weights have diverged/);
  free(m);
});

test('a deleted session throws instead of touching freed memory; delete is idempotent', () => {
  const m = create({ ...NOTE, hidden: 8 });
  free(m);
  assert.equal(m.deleted, true);
  assert.throws(() => m.translate('我'), /has been deleted/);
  m.delete();
});

test('Seq2Seq and its results list exactly the fields of wasm/js/types/seq2seq.d.ts', () => {
  const m = create({ ...NOTE, hidden: 8 });
  assert.deepEqual(Object.keys(m.info()).sort(), ['arch', 'attention', 'attentionalTanh', 'batchSize', 'cell', 'clipNorm', 'embedding',
    'hidden', 'learningRate', 'maxSourceTokens', 'parameterCount', 'score', 'seed', 'sourceTokenizer', 'sourceVocabSize', 'step',
    'targetTokenizer', 'targetVocabSize', 'task', 'taskOptions']);
  assert.deepEqual(Object.keys(m.info().taskOptions).sort(), ['heldOut', 'maxLen', 'minLen', 'seed', 'symbols', 'train']);
  // the counts resolved: the note's held-out set is its five pairs; it takes no training count
  assert.equal(m.info().arch, 'rnn');
  assert.deepEqual([m.info().taskOptions.heldOut, m.info().taskOptions.train], [5, 0]);
  assert.deepEqual(Object.keys(m.train(1)).sort(), ['losses', 'step', 'tokenAccuracy']);
  const g = m.translate('我 爱');
  assert.deepEqual(Object.keys(g).sort(), ['finished', 'output', 'source', 'steps', 'text']);
  assert.deepEqual(Object.keys(g.source[0]).sort(), ['id', 'text', 'token', 'unknown']);
  assert.deepEqual(Object.keys(g.steps[0]).sort(), ['attention', 'prob', 'token', 'top']);
  const b = m.translate('我 爱', { beam: 2 });
  assert.deepEqual(Object.keys(b).sort(), ['beams', 'finished', 'output', 'source', 'text']);
  assert.deepEqual(Object.keys(b.beams.hypotheses[0]).sort(), ['finished', 'logProb', 'node', 'output', 'score', 'step', 'text']);
  assert.deepEqual(Object.keys(b.beams.steps[0][0]).sort(), ['attention', 'finished', 'logProb', 'parent', 'prob', 'score', 'token', 'top']);
  free(m);
});
