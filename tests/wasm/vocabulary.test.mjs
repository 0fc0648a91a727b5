// Seq2Seq.sourceVocabulary() / targetVocabulary() through the wasm build: the note's corpus words
// as the note's §3.3 code lists them (in order of first appearance), and for
// the character tasks every listed token is one translate() knows, with id = index + 4.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { NOTE_PAIRS } from './case-runner.mjs';

const RESERVED = ['<pad>', '<sos>', '<eos>', '<unk>'];

let lab;
const live = [];
before(async () => {
  lab = await loadAttentionLab();
});
after(() => live.forEach((m) => m.delete()));

const create = (config) => {
  const m = lab.createSeq2Seq({ hidden: 8, ...config });
  live.push(m);
  return m;
};
const firstAppearance = (sentences) => [...new Set(sentences.flatMap((s) => s.split(' ')))];

test("the note's vocabularies are its corpus words in order of first appearance", () => {
  const m = create({ task: 'note' });
  assert.deepEqual(m.sourceVocabulary(), firstAppearance(NOTE_PAIRS.map((p) => p[0])));
  assert.deepEqual(m.targetVocabulary(), firstAppearance(NOTE_PAIRS.map((p) => p[1])));
  const info = m.info();
  assert.equal(m.sourceVocabulary().length + RESERVED.length, info.sourceVocabSize);
  assert.equal(m.targetVocabulary().length + RESERVED.length, info.targetVocabSize);
});

test('every listed token of the dates and reverse tasks is known to translate(), with id index + 4', () => {
  for (const config of [{ task: 'dates' }, { task: 'reverse', taskOptions: { symbols: 7, train: 10, heldOut: 5 } }]) {
    const m = create(config);
    const vocab = m.sourceVocabulary();
    assert.equal(vocab.length + RESERVED.length, m.info().sourceVocabSize, config.task);
    if (config.task === 'reverse') assert.deepEqual(vocab, [...'abcdefg']);
    vocab.forEach((token, i) => {
      assert.ok(!RESERVED.includes(token));
      if (token.trim() === '') return; // a space is a token of the dates task, but not one you can type alone
      const { source } = m.translate(token, { maxLength: 1 });
      assert.deepEqual(source.map((s) => [s.text, s.unknown, s.id]), [[token, false, i + RESERVED.length]], `${config.task}: ${token}`);
    });
    assert.ok(m.targetVocabulary().every((t) => !RESERVED.includes(t)));
  }
});

test('after delete() the vocabulary calls throw a clear Error', () => {
  const m = lab.createSeq2Seq({ task: 'note', hidden: 4 });
  m.delete();
  assert.throws(() => m.sourceVocabulary(), /deleted/);
  assert.throws(() => m.targetVocabulary(), /deleted/);
});
