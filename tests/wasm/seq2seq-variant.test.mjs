// The Seq2Seq-only module (loadAttentionLab({ variant: 'seq2seq' })), which the training widgets
// load, must train and translate exactly as the full module does: the same losses, accuracies,
// translations, attention traces and error messages, bit for bit (same core, other compile levels
// and allocator: CMakeLists.txt). It differs only in what it leaves out: model files, the
// attention API, the ops, interventions, attribution and the training timeline.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { assertPassesLeakNothing, withSession } from './case-runner.mjs';

let full, trainer;
before(async () => {
  [full, trainer] = await Promise.all([loadAttentionLab(), loadAttentionLab({ variant: 'seq2seq' })]);
});

/** Everything a run shows: training curves, held-out scores, info, greedy and beam traces. */
function run(lab, config, steps, sentence) {
  return withSession(lab, config, (m) => {
    const trained = m.train(steps);
    return {
      losses: Array.from(trained.losses),
      accuracy: Array.from(trained.tokenAccuracy),
      evaluation: m.evaluate({ maxExamples: 50 }),
      info: m.info(),
      greedy: m.translate(sentence, { topK: 3 }),
      beam: m.translate(sentence, { beam: 3 }),
      vocabulary: [m.sourceVocabulary(), m.targetVocabulary()],
    };
  });
}

test('it loads once, as its own instance, with only the Seq2Seq API', async () => {
  assert.equal(await loadAttentionLab({ variant: 'seq2seq' }), trainer);
  assert.notEqual(trainer, full);
  assert.equal(typeof trainer.createSeq2Seq, 'function');
  for (const absent of ['attention', 'selfAttention', 'multiHeadAttention', 'loadSeq2Seq', 'createSeq2SeqModel', 'ops']) {
    assert.equal(trainer[absent], undefined, absent);
  }
});

const RUNS = [
  ['the note recipe (RNN, dot)', { task: 'note', cell: 'rnn', hidden: 64, attention: true, score: 'dot', seed: 1, batchSize: 1 }, 120, '咖哥 喜欢 小冰'],
  ['dates (LSTM, general, attentional tanh)', { task: 'dates', cell: 'lstm', hidden: 32, score: 'general', attentionalTanh: true, seed: 2, batchSize: 16 }, 6, 'March 7, 2021'],
  ['reverse (GRU, additive, clipped)', { task: 'reverse', cell: 'gru', hidden: 24, score: 'additive', seed: 3, batchSize: 8, clipNorm: 1 }, 8, 'abcde'],
  ['copy without attention', { task: 'copy', cell: 'rnn', hidden: 16, attention: false, seed: 4, batchSize: 4 }, 5, 'abc'],
];

for (const [name, config, steps, sentence] of RUNS) {
  test(`bit-identical to the full module: ${name}`, () => {
    const got = run(trainer, config, steps, sentence);
    const expected = run(full, config, steps, sentence);
    assert.ok(expected.losses.every(Number.isFinite) && expected.losses.length === steps, 'the reference run trained');
    assert.deepEqual(got, expected);
  });
}

test('the same errors as the full module, and the model still works after each', () => {
  const NOTE = { task: 'note', hidden: 16, seed: 5 };
  const calls = [
    (lab) => lab.createSeq2Seq({ ...NOTE, task: 'klingon' }),
    (lab) => lab.createSeq2Seq({ ...NOTE, hidden: 0 }),
    (lab) => lab.createSeq2Seq({ ...NOTE, learningRate: NaN }),
    (lab) => lab.createSeq2Seq({ ...NOTE, hiden: 3 }),
    (lab) => withSession(lab, NOTE, (m) => m.translate('')),
    (lab) => withSession(lab, NOTE, (m) => m.translate('我 '.repeat(65))),
    (lab) => withSession(lab, NOTE, (m) => m.translate('我', { beam: 0 })),
    (lab) => withSession(lab, NOTE, (m) => m.train(0)),
    (lab) => withSession(lab, NOTE, (m) => m.evaluate({ length: 5 })),
    (lab) => withSession(lab, { ...NOTE, learningRate: 1e6 }, (m) => m.train(50)),
  ];
  const messageOf = (lab, call) => {
    try {
      call(lab);
    } catch (e) {
      return e.message;
    }
    return null;
  };
  for (const call of calls) {
    const expected = messageOf(full, call);
    assert.ok(expected, `the full module rejects ${call}`);
    assert.equal(messageOf(trainer, call), expected);
  }
  assert.deepEqual(run(trainer, NOTE, 3, '咖哥'), run(full, NOTE, 3, '咖哥'));
});

test('save() is a clear Error (no model files in this build) and the model keeps working', () => {
  withSession(trainer, { task: 'note', hidden: 16, seed: 6 }, (m) => {
    m.train(2);
    assert.throws(() => m.save(), /save\(\): this build has no model files; load the 'full' variant/);
    assert.equal(m.train(1).step, 3);
  });
});

test('interventions, attribution and the timeline are clear Errors (the full module has them); the model keeps working', () => {
  withSession(trainer, { task: 'note', hidden: 16, seed: 6 }, (m) => {
    m.train(2);
    const plain = m.translate('咖哥 喜欢 小冰');
    assert.throws(() => m.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'mask-source', source: 0 }] }),
      /interventions: this build \(the 'seq2seq' module for widgets\) has none; the full module has them/);
    assert.throws(() => m.attribution('咖哥 喜欢 小冰'), /attribution\(\): this build \(the 'seq2seq' module for widgets\) has none/);
    assert.throws(() => m.recordTimeline('咖哥 喜欢 小冰'), /timeline: this build \(the 'seq2seq' module for widgets\) has none/);
    assert.deepEqual(m.translate('咖哥 喜欢 小冰'), plain);
    assert.equal(m.train(1).step, 3);
  });
});

// emmalloc here, dlmalloc in the full build: the leak checks of memory.test.mjs on this allocator.
test('training, decoding and errors leak nothing; a deleted model gives back all its memory', () => {
  // first use of each path allocates once (embind's type tables, the reverse task's static tables)
  withSession(trainer, { task: 'note', cell: 'gru', hidden: 16, seed: 7 }, (w) => {
    w.train(2);
    w.translate('咖哥', { beam: 2 });
    assert.throws(() => w.translate(''), /sentence is empty/);
  });
  withSession(trainer, { task: 'reverse', hidden: 8, seed: 1 }, (r) => r.train(1));
  const start = trainer.memoryStats();
  const m = trainer.createSeq2Seq({ task: 'note', cell: 'gru', hidden: 16, seed: 7 });
  m.train(50);
  m.translate('咖哥 喜欢 小冰', { beam: 2 });
  assertPassesLeakNothing(trainer, start, m, () => {
    for (let i = 0; i < 40; i++) {
      m.train(5);
      m.translate('咖哥 喜欢 小冰', { beam: 2 });
      assert.throws(() => m.translate(''), /sentence is empty/);
      withSession(trainer, { task: 'reverse', hidden: 8, seed: 1 }, (r) => r.train(1));
    }
  });
});
