// Asking a translator why, through the public JS API of the wasm build: interventions in greedy
// decoding (translate(text, {interventions})) and attribution (attribution(text, options), and
// the bare model's against PyTorch autograd, shared/reference/attribution.json). The same checks
// as tests/native/test_seq2seq_interventions.cpp, test_transformer_interventions.cpp and
// test_attribution.cpp.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { NOTE_PAIRS } from './case-runner.mjs';
import { referenceBytes } from './safetensors-file.mjs';
import { expectSessionAttribution, testReferenceCases } from './attribution-reference.mjs';
import { expectTimelineOfTraining } from './timeline-runner.mjs';

const NOTE = { task: 'note', cell: 'rnn', hidden: 32, attention: true, score: 'dot', seed: 1 };
const TEXT = NOTE_PAIRS[0][0];

let lab, note, book;
before(async () => {
  lab = await loadAttentionLab();
  note = lab.createSeq2Seq(NOTE);
  note.train(300);
  book = lab.loadSeq2Seq(referenceBytes('book_seq2seq.safetensors'));
});
after(() => [note, book].forEach((m) => m.delete()));

const bits = (a) => Buffer.from(Float32Array.from(a).buffer);

describe('interventions', () => {
  test('an empty list is bit-identical to plain decoding', () => {
    const plain = note.translate(TEXT);
    const empty = note.translate(TEXT, { interventions: [] });
    assert.equal(empty.intervention, undefined);
    assert.deepEqual(empty, plain);
    for (let t = 0; t < plain.steps.length; t++) {
      assert.ok(bits(empty.steps[t].attention).equals(bits(plain.steps[t].attention)), `step ${t}`);
    }
  });

  test('a forced one-hot attention on source j makes the context exactly encoder output j', () => {
    for (const model of [note, book]) {
      const S = model.translate(TEXT).source.length;
      for (let j = 0; j < S; j++) {
        const r = model.translate(TEXT, { interventions: [{ step: 1, kind: 'force-attention', source: j }] });
        const { encoderOutputs } = r.intervention;
        const Hd = encoderOutputs.shape[1];
        assert.deepEqual(Array.from(r.steps[1].attention), Array.from({ length: S }, (_, s) => (s === j ? 1 : 0)));
        assert.ok(r.steps[1].editedAttention && !r.steps[0].editedAttention);
        assert.ok(bits(r.steps[1].context).equals(bits(encoderOutputs.data.subarray(j * Hd, (j + 1) * Hd))), `source ${j}`);
      }
    }
  });

  test('forcing another top-k candidate decodes on from it, beside the original', () => {
    const plain = note.translate(TEXT);
    const other = plain.steps[1].top[1].token;
    const r = note.translate(TEXT, { interventions: [{ step: 1, kind: 'force-token', token: other }] });
    assert.equal(r.steps[1].token, other);
    assert.ok(r.steps[1].forcedToken);
    assert.equal(r.steps[1].prob, plain.steps[1].top[1].prob);
    assert.equal(r.intervention.original.text, plain.text);
    assert.deepEqual(r.intervention.original.steps, plain.steps);
    assert.equal(r.intervention.firstChange, 1);
    assert.deepEqual(r.intervention.changed.slice(0, 2), [false, true]);
    // Step 0 is untouched, bit for bit.
    assert.ok(bits(r.steps[0].attention).equals(bits(plain.steps[0].attention)));
  });

  test('a forced prefix gives the teacher-forced logits (the PyTorch-trained book model)', () => {
    const [source, target] = NOTE_PAIRS[2];
    const words = target.split(' ').reverse(); // a prefix the model would not write
    const vocab = book.targetVocabulary();
    const interventions = words.map((token, step) => ({ step, kind: 'force-token', token }));
    const r = book.translate(source, { interventions, topK: 5 });
    const tf = book.teacherForced(source, words.join(' '));
    const [T, V] = tf.logits.shape;
    assert.equal(T, words.length + 1);
    for (let t = 0; t < T; t++) {
      const row = tf.logits.data.subarray(t * V, (t + 1) * V);
      const max = Math.max(...row);
      const sum = row.reduce((a, z) => a + Math.exp(z - max), 0);
      for (const { token, prob } of r.steps[t].top) {
        const expected = Math.exp(row[vocab.indexOf(token)] - max) / sum;
        assert.ok(Math.abs(prob - expected) <= 1e-5, `step ${t} ${token}: ${prob} vs ${expected}`);
      }
    }
  });

  test('mask-source and edit-attention renormalise the row', () => {
    const plain = note.translate(TEXT);
    const w = plain.steps[0].attention;
    const masked = note.translate(TEXT, { interventions: [{ step: 0, kind: 'mask-source', source: 0 }] });
    masked.steps[0].attention.forEach((x, s) => assert.ok(Math.abs(x - (s === 0 ? 0 : w[s] / (1 - w[0]))) < 1e-6));
    const edited = note.translate(TEXT, { interventions: [{ step: 0, kind: 'edit-attention', weights: [1, 1, 2] }] });
    assert.deepEqual(Array.from(edited.steps[0].attention), [0.25, 0.25, 0.5]);
  });
});

describe('attribution', () => {
  testReferenceCases('attribution.json', () => lab, (cfg) => ({ cell: cfg.cell, hidden: cfg.hidden,
    embedding: cfg.embedding, srcVocab: cfg.src_vocab, tgtVocab: cfg.tgt_vocab, attention: cfg.attention,
    score: cfg.score, attentionalTanh: cfg.attentional_tanh }));

  test('a session attributes the words of its greedy translation, IG complete', () => {
    expectSessionAttribution(note, TEXT, { steps: 64, tol: 1e-3,
      // The teacher-forced attention of each word is the decoding's.
      expectSameAttention: (row, decoded) => row.forEach((a, s) => assert.ok(Math.abs(a - decoded[s]) < 1e-5)) });
  });
});

describe('training timeline', () => {
  test('frames of the probe every k steps, thinned within the capacity, exported as one JSON', () => {
    expectTimelineOfTraining(() => lab.createSeq2Seq({ ...NOTE, hidden: 16 }), TEXT, TEXT.split(' '));
  });
});

describe('Transformer interventions', () => {
  const TF = { arch: 'transformer', task: 'reverse', layers: 2, heads: 2, dModel: 8, dFF: 16, seed: 1,
    taskOptions: { minLen: 3, maxLen: 6, symbols: 6, train: 200, heldOut: 20 } };
  let tf;
  before(() => {
    tf = lab.createSeq2Seq(TF);
    tf.train(60);
  });
  after(() => tf.delete());

  test('a forced one-hot cross-attention makes that head\'s context exactly value row j', () => {
    const S = tf.translate('abcd').source.length, Dm = 8, Dh = 4;
    for (let layer = 0; layer < 2; layer++) {
      for (let head = 0; head < 2; head++) {
        for (let j = 0; j < S; j++) {
          const r = tf.translate('abcd', { interventions: [{ step: 0, kind: 'force-attention', layer, head, source: j }] });
          const ctx = r.steps[0].crossContext.data.subarray(layer * Dm + head * Dh, layer * Dm + (head + 1) * Dh);
          const v = r.intervention.crossValues.data.subarray((layer * S + j) * Dm + head * Dh, (layer * S + j) * Dm + (head + 1) * Dh);
          assert.ok(bits(ctx).equals(bits(v)), `layer ${layer} head ${head} source ${j}`);
        }
      }
    }
  });

  test('an edited one-hot row, or every other source masked, makes that head\'s context exactly value row j', () => {
    const S = tf.translate('abcd').source.length, Dm = 8, Dh = 4, layer = 1, head = 0;
    for (let j = 0; j < S; j++) {
      const weights = Array.from({ length: S }, (_, s) => (s === j ? 2 : 0));
      const masks = Array.from({ length: S }, (_, s) => s).filter((s) => s !== j)
        .map((source) => ({ step: 0, kind: 'mask-source', layer, head, source }));
      for (const interventions of [[{ step: 0, kind: 'edit-attention', layer, head, weights }], masks]) {
        const r = tf.translate('abcd', { interventions });
        const ctx = r.steps[0].crossContext.data.subarray(layer * Dm + head * Dh, layer * Dm + (head + 1) * Dh);
        const v = r.intervention.crossValues.data.subarray((layer * S + j) * Dm + head * Dh, (layer * S + j) * Dm + (head + 1) * Dh);
        assert.ok(bits(ctx).equals(bits(v)), `${interventions[0].kind}: source ${j}`);
        assert.ok(r.steps[0].editedAttention);
      }
    }
  });

  test('zero-head for each kind of attention changes the numbers; an empty list does not', () => {
    const plain = tf.translate('abcd');
    assert.deepEqual(tf.translate('abcd', { interventions: [] }), plain);
    for (const attention of ['encoder-self', 'decoder-self', 'cross']) {
      const r = tf.translate('abcd', { interventions: [{ kind: 'zero-head', attention, layer: 1, head: 0 }] });
      assert.ok(r.steps[0].editedAttention);
      const same = r.steps.length === plain.steps.length &&
        r.steps.every((s, t) => s.token === plain.steps[t].token && s.prob === plain.steps[t].prob);
      assert.ok(!same, `zeroing a ${attention} head changed nothing`);
      assert.equal(r.intervention.original.text, plain.text);
    }
  });
});
