// The TF.js column of the Transformer measure of `npm run bench`: TF.js 4.22 on its wasm backend in
// Node (XNNPACK, SIMD, one thread), one training step of the encoder-decoder Transformer that our
// core and bench/torch_transformer.py train: bench/lib/tfjs-transformer.mjs's model in plain tf.*
// ops (nn.Transformer's maths, checked against PyTorch by tests/wasm/tfjs-transformer-peer.test.mjs),
// tf.variableGrads, the gradient norm clipped to 1 (clip_grad_norm_), tf.train.adam 1e-3 (β 0.9/0.999,
// ε 1e-8: the PyTorch column's; our session's schedule changes the step size, not the step's cost).
// It trains on the batches bench/torch_transformer.py takes: our dates in our sampler's order,
// padded as batch.h lays them out, up to 200 prepared up front, cycled.
//
//   node bench/tfjs_transformer.mjs <dates-data.json> <recipes.json> [scale] [blocks]
// recipes.json: [{name, layers, heads, dModel, dFF, normFirst, batchSize}], as bench_native takes.
// Per recipe: a warm-up of round(10·scale) steps, then `blocks` (7) timed blocks of round(20·scale)
// steps; wall-clock and process CPU seconds per step. Prints one JSON object (last line):
// {tfjs, backend, simd, threads, steps: {name: {median_s, min_s, max_s, cpu_s, steps_per_sample,
// parameters, first_loss, final_loss}}}; first_loss is step 0's, ≈ ln(target vocabulary).
import { readFileSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { stats } from './lib/common.mjs';
import { positionalTable, transformerParams, transformerStep } from './lib/tfjs-transformer.mjs';
import { initBackend, paddedBatch } from './lib/tfjs-wasm.mjs';

const [dataPath, recipesPath, scaleArg = '1', blocksArg = '7'] = process.argv.slice(2);
if (!dataPath || !recipesPath) throw new Error('usage: node bench/tfjs_transformer.mjs <dates-data.json> <recipes.json> [scale] [blocks]');
const SCALE = Number(scaleArg), BLOCKS = Number(blocksArg);
const LR = 1e-3, CLIP = 1, MAX_POSITIONS = 256;

function trainer(data, r) {
  const vt = data.target_vocab.length;
  const params = transformerParams(r, data.source_vocab.length, vt, 1);
  const vars = [...params.named.values()];
  const pe = positionalTable(MAX_POSITIONS, r.dModel);
  const optimizer = tf.train.adam(LR, 0.9, 0.999, 1e-8);
  const { src, tgt } = data.train;
  const batches = [];
  for (let i = 0; i < Math.min(Math.floor(src.length / r.batchSize), 200); i++) {
    const rows = Array.from({ length: r.batchSize }, (_, b) => (i * r.batchSize + b) % src.length);
    batches.push(paddedBatch(rows.map((j) => src[j]), rows.map((j) => tgt[j])));
  }
  let next = 0;
  const step = () => {
    const batch = batches[next++ % batches.length];
    const value = transformerStep(optimizer, params, r, pe, batch, vt, CLIP);
    const l = value.dataSync()[0]; // waits for the step, as our train() does
    value.dispose();
    return l;
  };
  const parameters = vars.reduce((n, v) => n + v.size, 0);
  const dispose = () => {
    tf.dispose([...vars, pe, ...batches.flatMap(Object.values)]);
    optimizer.dispose();
  };
  return { step, parameters, dispose };
}

function perStep(data, r, warmup, block) {
  const t = trainer(data, r);
  const firstLoss = t.step();
  for (let i = 1; i < warmup; i++) t.step();
  const samples = [], cpu = [];
  let finalLoss = NaN;
  for (let rep = 0; rep < BLOCKS; rep++) {
    const t0 = performance.now(), c0 = process.cpuUsage();
    for (let i = 0; i < block; i++) finalLoss = t.step();
    samples.push((performance.now() - t0) / 1000 / block);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1e6 / block);
  }
  t.dispose();
  return { ...stats(samples), cpu_s: stats(cpu).median_s, steps_per_sample: block, parameters: t.parameters, first_loss: firstLoss, final_loss: finalLoss };
}

const runtime = await initBackend();
const data = JSON.parse(readFileSync(dataPath, 'utf8'));
const recipes = JSON.parse(readFileSync(recipesPath, 'utf8'));
const n = (x) => Math.max(1, Math.round(x * SCALE));
const out = { tfjs: tf.version.tfjs, ...runtime, threads: 1, steps: {} };
for (const r of recipes) {
  out.steps[r.name] = perStep(data, r, n(10), n(20));
  const s = out.steps[r.name];
  process.stderr.write(`tfjs transformer ${r.name}: ${s.parameters} parameters, loss ${s.first_loss.toFixed(4)} at step 0 (ln ${data.target_vocab.length} = ${Math.log(data.target_vocab.length).toFixed(4)}), ${(s.median_s * 1e3).toFixed(2)} ms/step\n`);
}
console.log(JSON.stringify(out));
