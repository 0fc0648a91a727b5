// The TF.js column of the Transformer bench (bench/tfjs_transformer.mjs) times the same model as
// ours and PyTorch's: bench/lib/tfjs-transformer.mjs on TF.js-wasm matches PyTorch's loss,
// gradients and Adam steps on shared/reference/transformer.json (with the reference's weights
// loaded by PyTorch name), and the bench script runs a tiny step with exactly our parameter count.
// Nothing here times anything.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { positionalTable, transformerLoss, transformerParams, transformerStep } from '../../bench/lib/tfjs-transformer.mjs';
import { initBackend } from '../../bench/lib/tfjs-wasm.mjs';
import { loadReference, mismatch, NO_FLOOR } from './case-runner.mjs';

const { cases } = loadReference('transformer.json');
const RTOL = 1e-4; // float32 against PyTorch's float64, as transformer-reference.test.mjs

const recipeOf = (c) => ({ layers: c.layers, heads: c.heads, dModel: c.d_model, dFF: c.d_ff, normFirst: c.norm_first });

// The reference batch as the peer's tensors; srcMask is 1 before each source's length.
function batchOf(b) {
  const mask = Float32Array.from({ length: b.B * b.S }, (_, i) => (i % b.S < b.src_len[Math.floor(i / b.S)] ? 1 : 0));
  return {
    src: tf.tensor2d(b.src, [b.B, b.S], 'int32'), srcMask: tf.tensor2d(mask, [b.B, b.S]),
    tgtIn: tf.tensor2d(b.tgt_in, [b.B, b.T], 'int32'), tgtOut: tf.tensor2d(b.tgt_out, [b.B, b.T], 'int32'),
  };
}

// The peer's parameters, with exactly the reference's names and shapes, set to its weights.
function referenceModel(c) {
  const p = transformerParams(recipeOf(c.config), c.config.src_vocab, c.config.tgt_vocab, 1);
  assert.deepEqual([...p.named.keys()].sort(), Object.keys(c.params).sort(), 'parameter names');
  for (const [name, v] of p.named) {
    assert.deepEqual(v.shape, c.params[name].shape, `shape of ${name}`);
    v.assign(tf.tensor(c.params[name].data, v.shape));
  }
  return p;
}

const relClose = (a, e, what) => assert.ok(Math.abs(a - e) <= RTOL * Math.abs(e), `${what}: TF.js ${a}, PyTorch ${e}`);

before(async () => {
  await initBackend();
});

describe('the TF.js Transformer peer matches PyTorch (shared/reference/transformer.json)', () => {
  for (const c of cases) {
    test(c.name, () => {
      const p = referenceModel(c), batch = batchOf(c.batch), r = recipeOf(c.config), vt = c.config.tgt_vocab;
      const pe = positionalTable(Math.max(c.batch.S, c.batch.T), r.dModel);
      try {
        const { value, grads } = tf.variableGrads(() => transformerLoss(p, r, pe, batch, vt), [...p.named.values()]);
        relClose(value.dataSync()[0], c.loss, 'loss');
        const byVariable = new Map([...p.named].map(([name, v]) => [v.name, name]));
        assert.deepEqual(Object.keys(grads).map((k) => byVariable.get(k)).sort(), Object.keys(c.grads).sort(), 'set of gradients');
        for (const [k, g] of Object.entries(grads)) {
          const name = byVariable.get(k);
          assert.equal(mismatch({ shape: g.shape, data: g.dataSync() }, c.grads[name], RTOL, NO_FLOOR), null, `gradient of ${name}`);
        }
        tf.dispose([value, ...Object.values(grads)]);
        // torch.optim.Adam's losses on the same batch, unclipped (the reference's steps are).
        const { lr, beta1, beta2, eps, losses } = c.adam;
        const adam = tf.train.adam(lr, beta1, beta2, eps);
        losses.forEach((expected, i) => {
          const l = transformerStep(adam, p, r, pe, batch, vt, 0);
          relClose(l.dataSync()[0], expected, `Adam step ${i}`);
          l.dispose();
        });
        assert.ok(losses.at(-1) < losses[0] - 0.1, 'the reference losses move');
        adam.dispose();
      } finally {
        tf.dispose([...p.named.values(), pe, ...Object.values(batch)]);
      }
    });
  }
});

test('bench/tfjs_transformer.mjs runs a tiny step with our parameter count and a loss near ln(Vt)', async () => {
  const lab = await loadAttentionLab();
  const recipe = { name: 'tiny', layers: 1, heads: 2, dModel: 8, dFF: 16, normFirst: false, batchSize: 4 };
  const { name, ...config } = recipe;
  const model = lab.createSeq2Seq({ arch: 'transformer', task: 'dates', seed: 1, ...config });
  const info = model.info();
  model.delete();
  // Our dates vocabularies' sizes; ids past <pad>/<sos>/<eos> drawn from a fixed pattern.
  const dir = mkdtempSync(join(tmpdir(), 'tfjs-transformer-'));
  try {
    const seq = (n, len, offset) => Array.from({ length: len }, (_, i) => 3 + ((offset + 7 * i) % (n - 3)));
    const train = { src: [], tgt: [] };
    for (let i = 0; i < 8; i++) {
      train.src.push(seq(info.sourceVocabSize, 5 + (i % 4), i));
      train.tgt.push(seq(info.targetVocabSize, 10, i));
    }
    const data = { source_vocab: Array(info.sourceVocabSize).fill('x'), target_vocab: Array(info.targetVocabSize).fill('y'), train };
    writeFileSync(join(dir, 'data.json'), JSON.stringify(data));
    writeFileSync(join(dir, 'recipes.json'), JSON.stringify([recipe]));
    const bench = new URL('../../bench/tfjs_transformer.mjs', import.meta.url).pathname;
    const out = execFileSync(process.execPath, [bench, join(dir, 'data.json'), join(dir, 'recipes.json'), '0.05', '1'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const result = JSON.parse(out.trim().split('\n').pop());
    assert.equal(result.backend, 'wasm');
    const step = result.steps[name];
    assert.equal(step.parameters, info.parameterCount, 'TF.js and our model have the same parameters');
    assert.ok(Math.abs(step.first_loss - Math.log(info.targetVocabSize)) < 1, `step 0's loss ${step.first_loss} near ln ${info.targetVocabSize}`);
    assert.ok(Number.isFinite(step.final_loss) && step.cpu_s > 0, 'a step ran');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
