// The TF.js column of the attention tables of `npm run bench`: scaled dot-product attention
// forward, softmax(Q Kᵀ / √D) V, as tf.matMul → tf.softmax → tf.matMul on the wasm backend
// (XNNPACK kernels, SIMD, one thread), batch 1, D = 64, the same timing scheme as ours. Each call
// reads the output back (dataSync), as our JS API copies its result out of wasm memory.
// Usage: node bench/tfjs_attention.mjs N [N ...]; one JSON object per line, then {tfjs: …}.
import * as tf from '@tensorflow/tfjs';
import { randomTensor, timeIt } from './lib/common.mjs';
import { initBackend } from './lib/tfjs-wasm.mjs';

const D = 64;
const runtime = await initBackend();
const sizes = process.argv.slice(2).map(Number);
for (const N of sizes) {
  const [q, k, v] = [1, 2, 3].map((seed) => {
    const t = randomTensor([1, N, D], seed);
    return tf.tensor3d(t.data, [1, N, D]);
  });
  const scale = tf.scalar(1 / Math.sqrt(D));
  const forward = () => tf.tidy(() => tf.matMul(tf.softmax(tf.mul(tf.matMul(q, k, false, true), scale)), v)).dataSync();
  console.log(JSON.stringify({ measure: 'scaled_forward', N, D, ...timeIt(forward) }));
  tf.dispose([q, k, v, scale]);
}
console.log(JSON.stringify({ tfjs: { version: tf.version.tfjs, ...runtime, threads: 1 } }));
