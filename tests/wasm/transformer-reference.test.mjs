// The wasm build's bare Transformer (lab.createSeq2SeqModel({arch: 'transformer'})) against
// PyTorch and against finite differences: the same reference and tolerance rules as
// tests/native/test_transformer_reference.cpp and test_transformer_gradcheck.cpp, through the
// public JS API.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { assertLoss, batchOf, loadReference, mismatch, withModel } from './case-runner.mjs';

// The native rule (test_seq2seq_util.h expect_close): |a − e| ≤ rtol · (|e| + max|e|), no floor.
const NO_FLOOR = 0;
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
      withModel(lab, configOf(c.config), (model) => {
        const names = model.paramNames();
        assert.deepEqual(names.map((p) => p.name).sort(), Object.keys(c.params).sort(), 'parameter names');
        for (const { name, shape } of names) {
          assert.deepEqual(shape, c.params[name].shape, `shape of ${name}`);
          model.setParam(name, { shape, data: Float32Array.from(c.params[name].data) });
        }
        const batch = batchOf(c.batch);
        const r = model.forwardBackward(batch);
        assertLoss(r.loss, c.loss, rtol, 'loss');
        assert.equal(mismatch(r.logits, c.logits, rtol, NO_FLOOR), null, 'logits');
        for (const [key, expected] of [['encoderSelf', c.attention.encoder_self],
          ['decoderSelf', c.attention.decoder_self], ['cross', c.attention.cross]]) {
          assert.equal(r.attention[key].length, expected.length, `${key} layers`);
          expected.forEach((e, l) => assert.equal(mismatch(r.attention[key][l], e, rtol, NO_FLOOR), null, `${key} ${l}`));
        }
        assert.deepEqual(Object.keys(r.grads).sort(), Object.keys(c.grads).sort(), 'set of gradients');
        for (const [name, expected] of Object.entries(c.grads)) {
          assert.equal(mismatch(r.grads[name], expected, rtol, NO_FLOOR), null, `gradient of ${name}`);
        }
        assertLoss(model.loss(batch), c.loss, rtol, 'loss()');
        const { lr, beta1, beta2, eps, losses } = c.adam;
        losses.forEach((expected, i) => {
          assertLoss(model.forwardBackward(batch).loss, expected, rtol, `Adam step ${i}`);
          model.adamStep({ lr, beta1, beta2, eps });
        });
        assert.ok(losses.at(-1) < losses[0] - 0.1);
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

function sampleIndices(grad) {
  const n = grad.length;
  if (n <= SAMPLES) return [...Array(n).keys()];
  let top = 0;
  for (let i = 1; i < n; i++) if (Math.abs(grad[i]) > Math.abs(grad[top])) top = i;
  const picked = new Set([top]);
  for (let k = 0; k < SAMPLES && picked.size < SAMPLES; k++) picked.add(Math.floor((k * n) / SAMPLES));
  return [...picked];
}

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
        const { grads } = model.forwardBackward(TINY_BATCH);
        for (const { name, shape } of params) {
          const w = model.getParam(name).data;
          const analytic = grads[name].data;
          let diff2 = 0, num2 = 0, ana2 = 0;
          for (const i of sampleIndices(analytic)) {
            const saved = w[i];
            w[i] = saved + EPS;
            model.setParam(name, { shape, data: w });
            const up = model.loss(TINY_BATCH);
            w[i] = saved - EPS;
            model.setParam(name, { shape, data: w });
            const down = model.loss(TINY_BATCH);
            w[i] = saved;
            model.setParam(name, { shape, data: w });
            const numeric = (up - down) / (2 * EPS);
            diff2 += (analytic[i] - numeric) ** 2;
            num2 += numeric ** 2;
            ana2 += analytic[i] ** 2;
          }
          assert.ok(Math.sqrt(ana2) > 1e-4, `${name} has no gradient on this batch`);
          const err = Math.sqrt(diff2), tol = 1e-2 * Math.sqrt(num2) + 1e-3;
          assert.ok(err < tol, `${name}: ‖analytic − numeric‖ ${err}, ‖numeric‖ ${Math.sqrt(num2)}`);
        }
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

