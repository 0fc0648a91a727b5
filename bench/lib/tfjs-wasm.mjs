// TF.js 4.22's wasm backend in Node, one thread, for the TF.js columns of `npm run bench`
// (bench/tfjs_dates.mjs, bench/tfjs_attention.mjs). Resolves to {backend, simd}.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

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
  await tf.setBackend('wasm');
  await tf.ready();
  return { backend: tf.getBackend(), simd: await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT') };
}
