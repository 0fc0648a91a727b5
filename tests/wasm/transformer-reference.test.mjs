// The wasm build's bare Transformer (lab.createSeq2SeqModel({arch: 'transformer'})) against
// PyTorch and against finite differences: the same reference and tolerance rules as
// tests/native/test_transformer_reference.cpp and test_transformer_gradcheck.cpp, through the
// public JS API.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { assertGradientsMatch, assertMatchesReference, loadReference, mismatch, NO_FLOOR, withModel } from './case-runner.mjs';

const { cases } = loadReference('transformer.json');

let lab;
before(async () => {
  lab = await loadAttentionLab();
});

const configOf = (c) => ({
  arch: 'transformer', layers: c.layers, heads: c.heads, dModel: c.d_model, dFF: c.d_ff,
  normFirst: c.norm_first, srcVocab: c.src_vocab, tgtVocab: c.tgt_vocab,
});

describe('Transformer matches PyTorch (shared/reference/transformer.json)', () => {
  for (const c of cases) {
    test(c.name, () => {
      const rtol = 1e-4;
      assertMatchesReference(lab, configOf(c.config), c, rtol, (attention) => {
        for (const [key, expected] of [['encoderSelf', c.attention.encoder_self],
          ['decoderSelf', c.attention.decoder_self], ['cross', c.attention.cross]]) {
          assert.equal(attention[key].length, expected.length, `${key} layers`);
          expected.forEach((e, l) => assert.equal(mismatch(attention[key][l], e, rtol, NO_FLOOR), null, `${key} ${l}`));
        }
      });
    });
  }
});

// ---- finite differences (tests/native/test_transformer_gradcheck.cpp)

// Sources of 4 and 2 tokens, targets of 3 and 2 (a padded decoder input); <sos> = 1, <eos> = 2.
const TINY_BATCH = {
  src: { shape: [2, 4], data: [3, 1, 6, 2, 5, 4, 0, 0] },
  srcLengths: [4, 2],
  tgtIn: { shape: [2, 3], data: [1, 5, 8, 1, 4, 0] },
  tgtOut: { shape: [2, 3], data: [5, 8, 2, 4, 2, 0] },
};
const SAMPLES = 6;
const EPS = 1e-3;

describe('Transformer gradients match central differences', () => {
  for (const [layers, heads, normFirst] of [[1, 2, false], [2, 4, true]]) {
    test(`${normFirst ? 'pre' : 'post'}_l${layers}_h${heads}`, () => {
      const config = { arch: 'transformer', layers, heads, dModel: 8, dFF: 12, normFirst, srcVocab: 7, tgtVocab: 9, seed: 5 };
      withModel(lab, config, (model) => {
        const params = model.paramNames();
        // LayerNorm gains and biases away from 1 and 0 (as the native check), deterministic.
        let k = 0;
        for (const { name, shape } of params) {
          if (shape.length !== 1) continue;
          const w = model.getParam(name);
          const gain = name.includes('norm') && name.endsWith('.weight');
          model.setParam(name, { shape, data: w.data.map(() => (gain ? 1 : 0) + 0.2 * Math.sin(++k)) });
        }
        // ‖analytic − numeric‖ < 1e-2 ‖numeric‖ + 1e-3; the sample must see an analytic gradient.
        assertGradientsMatch(model, TINY_BATCH, {
          samples: SAMPLES, eps: EPS, rtol: 1e-2, atol: 1e-3, nonZero: { of: 'analytic', above: 1e-4 },
        });
      });
    });
  }
});

// ---- the API's edges

test('bad Transformer configs, batches and options throw Errors naming the problem; the model keeps working', () => {
  assert.throws(() => lab.createSeq2SeqModel({ arch: 'transformer', heads: 3, dModel: 8, srcVocab: 5, tgtVocab: 5 }),
    /must divide the model size dModel/);
  assert.throws(() => lab.createSeq2SeqModel({ arch: 'transformer', layers: 7, srcVocab: 5, tgtVocab: 5 }),
    /number of layers must be in \[1, 6\]/);
  assert.throws(() => lab.createSeq2SeqModel({ arch: 'transformer', hidden: 8, srcVocab: 5, tgtVocab: 5 }),
    /unknown key 'hidden'/);
  assert.throws(() => lab.createSeq2SeqModel({ arch: 'lstm', srcVocab: 5, tgtVocab: 5 }), /config.arch must be 'rnn' or 'transformer'/);
  withModel(lab, { arch: 'transformer', layers: 1, heads: 2, dModel: 8, dFF: 12, srcVocab: 7, tgtVocab: 9, seed: 1 }, (m) => {
    const loss = m.loss(TINY_BATCH);
    assert.throws(() => m.loss({ ...TINY_BATCH, tgtIn: { shape: [2, 3], data: [1, 5, 8, 0, 4, 0] } }),
      /batch.tgt_in row 1 starts with padding/);
    assert.throws(() => m.loss({ ...TINY_BATCH, srcLengths: [4, 0] }), /batch.src_len\[1\] = 0/);
    assert.throws(() => m.setParam('out.bias', { shape: [3], data: [1, 2, 3] }), /must have shape \[9\]/);
    assert.throws(() => m.adamStep({ lr: 1e-3, warmup: -1 }), /needs the gradients|warm-up/);
    m.forwardBackward(TINY_BATCH);
    assert.throws(() => m.adamStep({ lr: 1e-3, warmup: 2.5 }), /whole number/);
    assert.equal(m.loss(TINY_BATCH), loss);
    m.adamStep({ lr: 1e-2, warmup: 4 });
    assert.ok(m.loss(TINY_BATCH) < loss);
  });
  // the recurrent model still accepts arch: 'rnn'
  withModel(lab, { arch: 'rnn', cell: 'gru', hidden: 4, srcVocab: 7, tgtVocab: 9 }, (m) => {
    assert.ok(Number.isFinite(m.loss(TINY_BATCH)));
  });
});

