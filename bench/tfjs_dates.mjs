// The TF.js column of the dates measure of `npm run bench`: TF.js 4.22 on its wasm backend in
// Node, one thread, training the dates recipe with the same architecture and the same batches as
// the C++ core (wasm/src/rnn/model.h, tests/reference/gen_seq2seq.py):
//   embedding 64 → LSTM 64 encoder over each source's own length (state kept, outputs 0 past it),
//   LSTM 64 decoder from the encoder's state (teacher forcing), dot attention of every decoder
//   output over the encoder outputs (padding masked), tanh(W_c [dec; ctx] + b_c) (64), linear to
//   the target vocabulary, cross-entropy ignoring <pad>, Adam 1e-3 (β 0.9/0.999, ε 1e-8), batch 128.
// The data file comes from `bench_native task-data dates <count> <file>`: our vocabularies, the 2000
// held-out dates and the training examples in the order our sampler draws them (cycled if the
// run needs more).
//
//   node bench/tfjs_dates.mjs <data.json> <limit_s> [block_steps] [blocks] [check_every]
// Prints progress on stderr and one JSON object on stdout: examples/s (median and spread of
// `blocks` timed blocks of `block_steps` steps, after a warm-up) and the training seconds to ≥ 98%
// held-out exact match (greedy decoding, not timed), or how far it got within limit_s.
import { readFileSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { EOS, initBackend, maskedCrossEntropy, paddedBatch, seededVariables, SOS } from './lib/tfjs-wasm.mjs';

const [dataPath, limitArg, blockArg = '3', blocksArg = '7', everyArg = '50'] = process.argv.slice(2);
if (!dataPath || !(Number(limitArg) >= 0)) {
  throw new Error('usage: node bench/tfjs_dates.mjs <data.json> <limit_s> [block_steps] [blocks] [check_every]');
}
const LIMIT_S = Number(limitArg), BLOCK = Number(blockArg), BLOCKS = Number(blocksArg), EVERY = Number(everyArg);
const H = 64, E = 64, BATCH = 128, LR = 1e-3, TARGET = 0.98;

// Seeded initialisation (mulberry32), PyTorch's schemes: embeddings N(0, 1), LSTM and linear
// weights U(±1/√fan).
function makeParams(vs, vt, seed) {
  const { uniform, normal } = seededVariables(seed);
  const k = 1 / Math.sqrt(H);
  const lstm = () => ({ wih: uniform([4 * H, E], k), whh: uniform([4 * H, H], k), b: uniform([4 * H], k), b2: uniform([4 * H], k) });
  return {
    srcEmb: normal([vs, E]), tgtEmb: normal([vt, E]), enc: lstm(), dec: lstm(),
    wc: uniform([H, 2 * H], 1 / Math.sqrt(2 * H)), bc: uniform([H], 1 / Math.sqrt(2 * H)),
    wout: uniform([vt, H], k), bout: uniform([vt], k),
  };
}
const variablesOf = (p) => [p.srcEmb, p.tgtEmb, ...Object.values(p.enc), ...Object.values(p.dec), p.wc, p.bc, p.wout, p.bout];

// One LSTM step, PyTorch's gate order (i, f, g, o); xw = x W_ihᵀ + b_ih + b_hh precomputed.
function lstmStep(cell, xw, h, c) {
  const gates = tf.add(xw, tf.matMul(h, cell.whh, false, true));
  const [i, f, g, o] = tf.split(gates, 4, 1);
  const c2 = tf.add(tf.mul(tf.sigmoid(f), c), tf.mul(tf.sigmoid(i), tf.tanh(g)));
  return [tf.mul(tf.sigmoid(o), tf.tanh(c2)), c2];
}

function inputProjections(cell, emb) { // (B, L, E) → L tensors (B, 4H)
  const [B, L] = emb.shape;
  const xw = tf.add(tf.matMul(emb.reshape([B * L, E]), cell.wih, false, true), tf.add(cell.b, cell.b2));
  return tf.unstack(xw.reshape([B, L, 4 * H]), 1);
}

// Encoder over padded sources: past its length a row keeps its state and outputs 0.
function encode(p, src, srcMask) {
  const [B, S] = src.shape;
  const xws = inputProjections(p.enc, tf.gather(p.srcEmb, src));
  const masks = tf.unstack(srcMask.reshape([B, S, 1]), 1);
  const keeps = tf.unstack(tf.sub(1, srcMask).reshape([B, S, 1]), 1);
  let h = tf.zeros([B, H]), c = tf.zeros([B, H]);
  const outs = [];
  for (let s = 0; s < S; s++) {
    const [h2, c2] = lstmStep(p.enc, xws[s], h, c);
    const m = masks[s], keep = keeps[s];
    h = tf.add(tf.mul(m, h2), tf.mul(keep, h));
    c = tf.add(tf.mul(m, c2), tf.mul(keep, c));
    outs.push(tf.mul(m, h2));
  }
  return { encOut: tf.stack(outs, 1), h, c, maskBias: tf.mul(tf.sub(1, srcMask), -1e9).reshape([B, 1, S]) };
}

// Attention + tanh layer + output for decoder outputs dec (B, T, H) → logits (B·T, Vt).
function readout(p, dec, enc) {
  const [B, T] = dec.shape;
  const weights = tf.softmax(tf.add(tf.matMul(dec, enc.encOut, false, true), enc.maskBias));
  const context = tf.matMul(weights, enc.encOut);
  const feature = tf.tanh(tf.add(tf.matMul(tf.concat([dec, context], 2).reshape([B * T, 2 * H]), p.wc, false, true), p.bc));
  return tf.add(tf.matMul(feature, p.wout, false, true), p.bout);
}

function loss(p, batch, vt) {
  const enc = encode(p, batch.src, batch.srcMask);
  const xws = inputProjections(p.dec, tf.gather(p.tgtEmb, batch.tgtIn));
  let h = enc.h, c = enc.c;
  const outs = [];
  for (const xw of xws) {
    [h, c] = lstmStep(p.dec, xw, h, c);
    outs.push(h);
  }
  return maskedCrossEntropy(readout(p, tf.stack(outs, 1), enc), batch.tgtOut, vt);
}

// Greedy decoding of the held-out set: exact match = the target's tokens, then <eos>.
function exactMatch(p, heldOut) {
  let correct = 0;
  for (let start = 0; start < heldOut.src.length; start += 500) {
    const srcs = heldOut.src.slice(start, start + 500), tgts = heldOut.tgt.slice(start, start + 500);
    const steps = Math.max(...tgts.map((t) => t.length)) + 1;
    const predicted = tf.tidy(() => {
      const batch = paddedBatch(srcs, tgts);
      const enc = encode(p, batch.src, batch.srcMask);
      let h = enc.h, c = enc.c, token = tf.fill([srcs.length], SOS, 'int32');
      const tokens = [];
      for (let t = 0; t < steps; t++) {
        [h, c] = lstmStep(p.dec, inputProjections(p.dec, tf.gather(p.tgtEmb, token.reshape([-1, 1])))[0], h, c);
        token = tf.argMax(readout(p, h.reshape([-1, 1, H]), enc), 1).toInt();
        tokens.push(token);
      }
      return tf.stack(tokens, 1);
    });
    const out = predicted.arraySync();
    predicted.dispose();
    out.forEach((row, i) => {
      const want = [...tgts[i], EOS];
      if (want.every((id, t) => row[t] === id)) correct++;
    });
  }
  return correct / heldOut.src.length;
}

function trainer(data, seed) {
  const params = makeParams(data.source_vocab.length, data.target_vocab.length, seed);
  const optimizer = tf.train.adam(LR, 0.9, 0.999, 1e-8);
  const vars = variablesOf(params);
  let next = 0;
  const step = () => {
    const srcs = [], tgts = [];
    for (let i = 0; i < BATCH; i++, next = (next + 1) % data.train.src.length) {
      srcs.push(data.train.src[next]);
      tgts.push(data.train.tgt[next]);
    }
    const batch = paddedBatch(srcs, tgts);
    const value = optimizer.minimize(() => loss(params, batch, data.target_vocab.length), true, vars);
    const l = value.dataSync()[0]; // waits for the step, as our train() does
    tf.dispose([value, ...Object.values(batch)]);
    return l;
  };
  return { params, step, dispose: () => { tf.dispose(vars); optimizer.dispose(); } };
}

const stats = (v) => { const s = [...v].sort((a, b) => a - b); return { median_s: s[Math.floor(s.length / 2)], min_s: s[0], max_s: s[s.length - 1] }; };

const runtime = await initBackend();
const data = JSON.parse(readFileSync(dataPath, 'utf8'));

// Examples per second: 2 warm-up steps, then BLOCKS blocks of BLOCK steps.
const speed = trainer(data, 1);
speed.step(); speed.step();
const samples = [];
for (let r = 0; r < BLOCKS; r++) {
  const t0 = performance.now();
  for (let i = 0; i < BLOCK; i++) speed.step();
  samples.push((performance.now() - t0) / 1000 / BLOCK);
}
speed.dispose();
const step = { batch: BATCH, steps_per_sample: BLOCK, ...stats(samples) };
process.stderr.write(`tfjs: ${(BATCH / step.median_s).toFixed(0)} examples/s\n`);

// To 98%: a fresh model, held-out exact match every EVERY steps, training time only.
const run = trainer(data, 1);
let trainS = 0, steps = 0, exact = 0, lastLoss = NaN;
while (exact < TARGET && trainS < LIMIT_S) {
  const t0 = performance.now();
  for (let i = 0; i < EVERY && trainS + (performance.now() - t0) / 1000 < LIMIT_S; i++, steps++) lastLoss = run.step();
  trainS += (performance.now() - t0) / 1000;
  exact = exactMatch(run.params, data.held_out);
  process.stderr.write(`tfjs: step ${steps}, ${trainS.toFixed(1)} s, loss ${lastLoss.toFixed(4)}, exact ${(exact * 100).toFixed(1)}%\n`);
}
run.dispose();
console.log(JSON.stringify({
  tfjs: tf.version.tfjs, ...runtime, threads: 1,
  step,
  to_target: { reached: exact >= TARGET, steps, train_s: trainS, exact, limit_s: LIMIT_S, final_loss: lastLoss },
}));
