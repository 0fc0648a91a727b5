// Your own sentence pairs through the JS API: createSeq2Seq({ task: 'pairs', pairs, tokenize,
// heldOut }). The shared cases of shared/reference/pairs-cases.json (the native suite runs the same
// list), the held-out split, and pairs sessions of every architecture that train, evaluate,
// translate, beam-search, save and load.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { loadReference, NOTE_PAIRS } from './case-runner.mjs';
import { liveModels } from './live-models.mjs';

let lab;
const { create, load, deleteAll } = liveModels(() => lab);
const cases = loadReference('pairs-cases.json');
const NOTE_TSV = NOTE_PAIRS.map(([s, t]) => `${s}\t${t}\n`).join('');

before(async () => {
  lab = await loadAttentionLab();
});

after(deleteAll);

const configOf = (c) => ({ task: 'pairs', pairs: c.text, tokenize: c.tokenize ?? 'words', heldOut: c.heldOut ?? 0.1, hidden: 8 });

test('the shared error cases name the problem', () => {
  for (const c of cases.errors) {
    assert.throws(() => create(configOf(c)), (e) => e instanceof Error && e.message.includes(c.error), c.name);
  }
});

test('the shared cases give their pairs, vocabularies and typed tokens', () => {
  for (const c of cases.ok) {
    const m = create(configOf(c));
    const info = m.info();
    assert.equal(info.task, 'pairs', c.name);
    assert.deepEqual(info.pairs, { tokenize: c.tokenize, heldOut: c.heldOut, trainPairs: c.trainPairs, heldOutPairs: c.heldOutPairs }, c.name);
    if (c.sourceVocab) {
      assert.deepEqual(m.sourceVocabulary(), c.sourceVocab, c.name);
      assert.deepEqual(m.targetVocabulary(), c.targetVocab, c.name);
    }
    for (const [typed, tokens] of c.translate ?? []) {
      const t = m.translate(typed);
      assert.deepEqual(t.source.map((s) => s.token), tokens, c.name);
      assert.ok(t.source.every((s) => !s.unknown), c.name);
    }
  }
});

const numbered = (n) => Array.from({ length: n }, (_, i) => `s${i} x\tt${i} y`).join('\n');

test('the held-out split is disjoint from training, complete and follows the seed', () => {
  const text = numbered(40);
  const a = create({ task: 'pairs', pairs: text, heldOut: 0.25, seed: 1, hidden: 8 });
  const held = a.heldOut(100).map((e) => e.source);
  assert.equal(held.length, 10);
  const vocab = new Set(a.sourceVocabulary());
  // Each s<i> occurs in one pair only: it is in the vocabulary exactly when its pair trains.
  for (let i = 0; i < 40; ++i) assert.equal(vocab.has(`s${i}`), !held.includes(`s${i} x`), `s${i}`);
  assert.deepEqual(create({ task: 'pairs', pairs: text, heldOut: 0.25, seed: 1, hidden: 8 }).heldOut(100).map((e) => e.source), held);
  assert.notDeepEqual(create({ task: 'pairs', pairs: text, heldOut: 0.25, seed: 2, hidden: 8 }).heldOut(100).map((e) => e.source), held);
  const ev = a.evaluate();
  assert.equal(ev.examples, 10);
  assert.equal(ev.heldOutIsTrainingData, false);
});

test('limits that need long text name the line', () => {
  assert.throws(() => create({ task: 'pairs', pairs: `# header\n${numbered(20001)}` }), /line 20002: more than 20000 pairs; at most 20000/);
  assert.throws(() => create({ task: 'pairs', pairs: 'a'.repeat(1048577) }), /the pairs text is 1048577 bytes; at most 1048576/);
  assert.throws(() => create({ task: 'pairs', pairs: 'a\tb\uD800\n' }), /config\.pairs has an unpaired UTF-16 surrogate/);
});

test('the pairs options are checked at the boundary', () => {
  assert.throws(() => create({ task: 'pairs' }), /task 'pairs' needs config\.pairs: the sentence pairs, one source<TAB>target per line/);
  assert.throws(() => create({ task: 'pairs', pairs: 42 }), /config\.pairs must be a string/);
  assert.throws(() => create({ task: 'pairs', pairs: 'a\tb', tokenize: 'bytes' }), /unknown tokenizer 'bytes' \(expected words, chars\)/);
  assert.throws(() => create({ task: 'pairs', pairs: 'a\tb', heldOut: '0.1' }), /config\.heldOut must be a number/);
  assert.throws(() => create({ task: 'note', pairs: 'a\tb' }), /config\.pairs, config\.tokenize and config\.heldOut are for task 'pairs' only \(the task is 'note'\)/);
  assert.throws(() => create({ arch: 'transformer', task: 'dates', tokenize: 'chars' }), /for task 'pairs' only/);
});

test("the note's five pairs typed in train bit for bit as task 'note'", () => {
  const base = { cell: 'rnn', hidden: 32, learningRate: 1e-2, seed: 3 };
  const note = create({ ...base, task: 'note' });
  const pairs = create({ ...base, task: 'pairs', pairs: NOTE_TSV, heldOut: 0 });
  assert.equal(pairs.info().batchSize, 32);
  const mine = create({ ...base, task: 'pairs', pairs: NOTE_TSV, heldOut: 0, batchSize: 1 });
  assert.deepEqual(Array.from(mine.train(40).losses), Array.from(note.train(40).losses));
  assert.equal(mine.evaluate().heldOutIsTrainingData, true);
});

for (const [cell, attention] of [['rnn', true], ['gru', false], ['lstm', true]]) {
  test(`pairs with ${cell}${attention ? ' + attention' : ''}: learn, beam, save and load`, () => {
    const m = create({ task: 'pairs', pairs: NOTE_TSV, heldOut: 0, cell, attention, hidden: 32, batchSize: 5, learningRate: 2e-2 });
    const r = m.train(150);
    assert.ok(r.losses.at(-1) < r.losses[0] / 4, `loss ${r.losses[0]} → ${r.losses.at(-1)}`);
    assert.equal(m.translate('咖哥 喜欢 小冰').text, 'KaGe likes XiaoBing');
    const beam = m.translate('咖哥 喜欢 小冰', { beam: 3 });
    assert.ok(beam.beams.hypotheses.length >= 1);
    assert.equal(beam.text, 'KaGe likes XiaoBing');
    const again = load(m.save());
    assert.equal(again.info().task, 'pairs');
    assert.deepEqual(again.info().pairs, m.info().pairs);
    assert.equal(again.translate('咖哥 喜欢 小冰', { beam: 3 }).text, beam.text);
    assert.deepEqual(Array.from(again.train(5).losses), Array.from(m.train(5).losses));
    // The PyTorch export carries the vocabularies too: the imported translator agrees.
    const st = load(m.save({ format: 'safetensors' }));
    assert.equal(st.translate('咖哥 喜欢 小冰').text, m.translate('咖哥 喜欢 小冰').text);
  });
}

test('pairs with the Transformer, characters as tokens: train, evaluate, save and load', () => {
  const words = ['abc', 'bca', 'cab', 'abd', 'dab', 'bad', 'cad', 'dca', 'acd', 'bdc'];
  const text = words.map((w) => `${w}\t${[...w].reverse().join('')}`).join('\n');
  const m = create({ arch: 'transformer', task: 'pairs', pairs: text, tokenize: 'chars', heldOut: 0.2,
    layers: 1, heads: 2, dModel: 16, dFF: 32, batchSize: 8, warmup: 10, learningRate: 1e-2 });
  const r = m.train(80);
  assert.ok(r.losses.at(-1) < r.losses[0]);
  assert.deepEqual(m.info().pairs, { tokenize: 'chars', heldOut: 0.2, trainPairs: 8, heldOutPairs: 2 });
  assert.equal(m.evaluate().examples, 2);
  assert.equal(m.translate('a b c').source.length, 3);
  const again = load(m.save());
  assert.equal(again.arch, 'transformer');
  assert.equal(again.translate('abc').text, m.translate('abc').text);
  assert.deepEqual(Array.from(again.train(3).losses), Array.from(m.train(3).losses));
});

test("the widgets' Seq2Seq and Transformer modules leave the pairs task out and say so", async () => {
  const small = await loadAttentionLab({ variant: 'seq2seq' });
  assert.throws(() => small.createSeq2Seq({ task: 'pairs', pairs: NOTE_TSV, heldOut: 0, hidden: 8 }),
    /task 'pairs' is not in this build \(a widgets' module\): load the 'full' variant/);
  const note = small.createSeq2Seq({ task: 'note', hidden: 8 }); // and keeps working
  assert.equal(note.train(2).losses.length, 2);
  note.delete();
  const transformer = await loadAttentionLab({ variant: 'transformer' });
  const config = { arch: 'transformer', layers: 1, heads: 2, dModel: 16, dFF: 32 };
  assert.throws(() => transformer.createSeq2Seq({ ...config, task: 'pairs', pairs: NOTE_TSV, heldOut: 0 }),
    /task 'pairs' is not in this build \(a widgets' module\): load the 'full' variant/);
  const reverse = transformer.createSeq2Seq({ ...config, task: 'reverse' }); // and keeps working
  assert.equal(reverse.train(2).losses.length, 2);
  reverse.delete();
});
