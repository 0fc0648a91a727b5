// Asking the Transformer why, through the public JS API of the wasm build: attribution (the bare
// model's against PyTorch autograd, shared/reference/transformer_attribution.json; a session's of
// its greedy translation) and the training timeline. The same checks as
// tests/native/test_attribution.cpp and test_seq2seq_timeline.cpp.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { expectSessionAttribution, testReferenceCases } from './attribution-reference.mjs';
import { expectTimelineOfTraining } from './timeline-runner.mjs';

const TF = { arch: 'transformer', task: 'reverse', layers: 2, heads: 2, dModel: 8, dFF: 16, seed: 1,
  taskOptions: { minLen: 3, maxLen: 6, symbols: 6, train: 200, heldOut: 20 } };
const TEXT = 'abcd';

let lab, tf;
before(async () => {
  lab = await loadAttentionLab();
  tf = lab.createSeq2Seq(TF);
  tf.train(60);
});
after(() => tf.delete());

describe('Transformer attribution', () => {
  testReferenceCases('transformer_attribution.json', () => lab, (cfg) => ({ arch: 'transformer', layers: cfg.layers,
    heads: cfg.heads, dModel: cfg.d_model, dFF: cfg.d_ff, normFirst: cfg.norm_first, srcVocab: cfg.src_vocab,
    tgtVocab: cfg.tgt_vocab }));

  test('a session attributes the words of its greedy translation beside their rollout, IG complete', () => {
    // 1024 steps: the ReLUs make the gradient jump along the path, so the error falls as ~1/n
    const plain = expectSessionAttribution(tf, TEXT, { steps: 1024, tol: 2e-3,
      // The attention of each word is the decoding's: the same incremental decoder, bit for bit.
      expectSameAttention: (row, decoded) => assert.deepEqual(Array.from(row), Array.from(decoded)) });
    assert.deepEqual(tf.translate(TEXT), plain, 'attribution changes nothing the model decodes with');
  });
});

describe('Transformer training timeline', () => {
  test('frames of the probe every k steps, thinned within the capacity, training bit-identical', () => {
    expectTimelineOfTraining(() => lab.createSeq2Seq(TF), TEXT, TEXT.split(''));
  });
});

describe("the 'transformer' module for widgets", () => {
  test('attribution, the timeline, interventions and beam search are clear Errors (the full module has them); plain decoding and training work', async () => {
    const widget = await loadAttentionLab({ variant: 'transformer' });
    const m = widget.createSeq2Seq(TF);
    try {
      m.train(5);
      const plain = m.translate(TEXT);
      assert.throws(() => m.attribution(TEXT), /attribution\(\): this build \(the 'transformer' module for widgets\) has none; the full module has/);
      assert.throws(() => m.recordTimeline(TEXT), /timeline: this build \(the 'transformer' module for widgets\) has none/);
      assert.throws(
        () => m.translate(TEXT, { interventions: [{ step: 0, kind: 'mask-source', source: 0 }] }),
        /interventions: this build \(the 'transformer' module for widgets\) has none; the full module has them/,
      );
      assert.deepEqual(m.translate(TEXT), plain, 'a refused call leaves decoding as it was');
      assert.equal(m.train(1).step, 6);
    } finally {
      m.delete();
    }
  });
});
