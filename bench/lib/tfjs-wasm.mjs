// TF.js 4.22's wasm backend in Node, one thread, for the TF.js columns of `npm run bench`
// (bench/tfjs_dates.mjs, bench/tfjs_attention.mjs, bench/tfjs_transformer.mjs). Resolves to
// {backend, simd}. Also the peers' seeded initialisers.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { mulberry32 } from './common.mjs';

// TF.js 4.22's wasm backend has no UnsortedSegmentSum, which tf.gather's gradient (an
// embedding's) needs. A plain JS kernel: out[segment[i], …] += x[i, …].
function registerUnsortedSegmentSum() {
  tf.registerKernel({
    kernelName: 'UnsortedSegmentSum',
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend, attrs }) => {
      const { x, segmentIds } = inputs;
      const values = backend.readSync(x.dataId);
      const ids = backend.readSync(segmentIds.dataId);
      const inner = x.shape.slice(segmentIds.shape.length).reduce((a, b) => a * b, 1);
      const out = new Float32Array(attrs.numSegments * inner);
      for (let i = 0; i < ids.length; i++) {
        const s = ids[i];
        if (s < 0 || s >= attrs.numSegments) continue;
        for (let j = 0; j < inner; j++) out[s * inner + j] += values[i * inner + j];
      }
      return backend.makeOutput([attrs.numSegments, ...x.shape.slice(segmentIds.shape.length)], x.dtype, undefined, out);
    },
  });
}

export async function initBackend() {
  const require = createRequire(import.meta.url);
  const dist = require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm').replace(/[^/]*$/, '');
  // Node 20's fetch() cannot read a file path: hand the backend the bytes through a custom fetch.
  setWasmPaths(dist, true);
  const nodeFetch = globalThis.fetch;
  globalThis.fetch = async (url, init) => {
    const path = String(url);
    if (path.startsWith(dist)) return new Response(readFileSync(path), { headers: { 'content-type': 'application/wasm' } });
    return nodeFetch(url, init);
  };
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false); // one thread, like our wasm build
  registerUnsortedSegmentSum();
  await tf.setBackend('wasm');
  await tf.ready();
  return { backend: tf.getBackend(), simd: await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT') };
}

// Seeded trainable tensors (mulberry32): uniform(shape, bound) draws U(±bound), normal(shape, std)
// N(0, std²) by Box–Muller, constant(shape, value) fills.
export function seededVariables(seed) {
  const u = mulberry32(seed);
  const size = (shape) => shape.reduce((a, b) => a * b, 1);
  const make = (shape, draw) => tf.variable(tf.tensor(Float32Array.from({ length: size(shape) }, draw), shape));
  return {
    uniform: (shape, bound) => make(shape, () => (2 * u() - 1) * bound),
    normal: (shape, std = 1) => make(shape, () => std * Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u())),
    constant: (shape, value) => make(shape, () => value),
  };
}

// The dates data's special ids (bench_native task-data: our vocabularies).
export const PAD = 0, SOS = 1, EOS = 2;

// Pads examples as batch.h lays them out: src, src mask, <sos> + target, target + <eos>.
export function paddedBatch(srcs, tgts) {
  const B = srcs.length, S = Math.max(...srcs.map((s) => s.length)), T = Math.max(...tgts.map((t) => t.length)) + 1;
  const src = new Int32Array(B * S), mask = new Float32Array(B * S), tin = new Int32Array(B * T), tout = new Int32Array(B * T);
  for (let b = 0; b < B; b++) {
    srcs[b].forEach((id, s) => { src[b * S + s] = id; mask[b * S + s] = 1; });
    tin[b * T] = SOS;
    tgts[b].forEach((id, t) => { tin[b * T + t + 1] = id; tout[b * T + t] = id; });
    tout[b * T + tgts[b].length] = EOS;
  }
  return { src: tf.tensor2d(src, [B, S], 'int32'), srcMask: tf.tensor2d(mask, [B, S]), tgtIn: tf.tensor2d(tin, [B, T], 'int32'), tgtOut: tf.tensor2d(tout, [B, T], 'int32') };
}

// Cross-entropy of logits (B·T, vt) against targets (B, T), averaged over the non-<pad> targets
// (PyTorch's F.cross_entropy(..., ignore_index=0)).
export function maskedCrossEntropy(logits, tgtOut, vt) {
  const target = tgtOut.reshape([-1]);
  const nll = tf.neg(tf.sum(tf.mul(tf.oneHot(target, vt), tf.logSoftmax(logits)), 1));
  const real = tf.cast(tf.notEqual(target, PAD), 'float32');
  return tf.div(tf.sum(tf.mul(nll, real)), tf.sum(real));
}
