// Part 1 of `npm run bench`: attention kernels, D = 64, batch 1, native vs wasm (through the JS
// API, asking for the output only, as the peers compute; "all outputs" adds the copies of the
// scores, scaled scores and weights out of wasm memory) vs PyTorch vs TF.js-wasm (forward only).
//   scaled: softmax(QKᵀ/√D) V                 mha: 4 heads of 16 with Q, K, V and output projections
import { fmt, growthExponent, randomTensor, runNative, spread, table, timeIt } from './common.mjs';
import { tfjsAttention, torchAttention } from './peers.mjs';

const D = 64, HEADS = 4;
const MEASURES = {
  scaled_forward: 'Scaled dot-product attention, forward',
  scaled_forward_all_outputs: 'Scaled dot-product attention, forward, every output copied out (scores, scaled, weights, output)',
  scaled_forward_backward: 'Scaled dot-product attention, forward + backward',
  mha_forward: `Multi-head attention (${HEADS} heads), forward`,
  mha_forward_backward: `Multi-head attention (${HEADS} heads), forward + backward`,
};

// Multiply-adds ×2. Scaled forward: QKᵀ and weights·V, 4·N²·D; backward adds dW, dV, dQ, dK: 8·N²·D.
// Multi-head adds 4 projections of 2·N·D² forward (the attention is 4·N²·D over all heads), and
// twice that backward (input and weight gradients).
export function flops(measure, N) {
  const attention = 4 * N * N * D, projections = 4 * 2 * N * D * D;
  return {
    scaled_forward: attention,
    scaled_forward_all_outputs: attention,
    scaled_forward_backward: 3 * attention,
    mha_forward: attention + projections,
    mha_forward_backward: 3 * (attention + projections),
  }[measure];
}

function runWasm(lab, sizes) {
  const rows = [];
  for (const N of sizes) {
    const query = randomTensor([1, N, D], 1), key = randomTensor([1, N, D], 2), value = randomTensor([1, N, D], 3);
    const gradOutput = randomTensor([1, N, D], 4);
    // Weights N(0, 1/D), nn.Linear's scale (bench_native.cpp says why not N(0, 1)).
    const params = {};
    const scaled = (t) => { t.data.forEach((v, i) => { t.data[i] = v / Math.sqrt(D); }); return t; };
    ['wq', 'wk', 'wv', 'wo'].forEach((w, i) => { params[w] = scaled(randomTensor([D, D], 10 + i)); });
    ['bq', 'bk', 'bv', 'bo'].forEach((b, i) => { params[b] = scaled(randomTensor([D], 20 + i)); });
    rows.push({ measure: 'scaled_forward', N, ...timeIt(() => lab.attention({ query, key, value, outputs: ['output'] })) });
    rows.push({ measure: 'scaled_forward_all_outputs', N, ...timeIt(() => lab.attention({ query, key, value })) });
    rows.push({ measure: 'scaled_forward_backward', N, ...timeIt(() => lab.attention({ query, key, value, gradOutput, outputs: ['output'] })) });
    rows.push({ measure: 'mha_forward', N, ...timeIt(() => lab.multiHeadAttention(query, params, HEADS)) });
    rows.push({ measure: 'mha_forward_backward', N, ...timeIt(() => lab.multiHeadAttention(query, params, HEADS, { gradOutput })) });
  }
  return rows;
}

const withGflops = (m) => (m ? { median_s: m.median_s, min_s: m.min_s, max_s: m.max_s, gflops: flops(m.measure, m.N) / m.median_s / 1e9 } : null);

export function attentionPart(lab, nativeBinary, sizes) {
  const native = runNative(nativeBinary, sizes);
  const wasm = runWasm(lab, sizes);
  const torch = torchAttention(sizes);
  const tfjs = tfjsAttention(sizes);
  const rows = [], growth = [];
  const sides = { native, wasm, torch: torch.rows ?? [], tfjs: tfjs.rows ?? [] };
  for (const [measure, title] of Object.entries(MEASURES)) {
    const lines = [];
    for (const N of sizes) {
      const pick = (side) => withGflops(sides[side].find((m) => m.measure === measure && m.N === N));
      const row = { measure, N, D, native: pick('native'), wasm: pick('wasm'), torch: pick('torch'), tfjs: pick('tfjs') };
      rows.push(row);
      const cell = (m) => (m ? `${fmt(m.gflops, 2)} (${fmt(m.median_s * 1e6, 0)} µs ± ${spread(m)})` : '–');
      const ratio = (m) => (m && row.wasm ? fmt(m.median_s / row.wasm.median_s, 2) : '–');
      lines.push([N, cell(row.native), cell(row.wasm), cell(row.torch), cell(row.tfjs), ratio(row.native), ratio(row.torch), ratio(row.tfjs)]);
    }
    // Growth: slope of log time vs log N over the largest sizes (the small ones are call overhead).
    const big = sizes.filter((N) => N >= Math.min(128, sizes[sizes.length - 1]));
    const fit = (side) => {
      const pts = big.map((N) => sides[side].find((m) => m.measure === measure && m.N === N)).filter(Boolean);
      return pts.length >= 2 ? growthExponent(pts) : null;
    };
    const g = { measure, sizes: big, native: fit('native'), wasm: fit('wasm'), torch: fit('torch') };
    growth.push(g);
    table(`${title} (D = ${D}, batch 1)`, 'GFLOP/s (median time ± spread = (max − min) / median). Ratios: how many times faster wasm is.',
      ['N', 'native', 'wasm', 'PyTorch', 'TF.js-wasm', 'wasm vs native', 'wasm vs PyTorch', 'wasm vs TF.js'], lines);
    console.log(`\nTime grows as N^k for N = ${big.join(', ')}: native k = ${fmt(g.native, 2)}, wasm k = ${fmt(g.wasm, 2)}, PyTorch k = ${fmt(g.torch, 2)} (attention alone: 2).`);
  }
  if (torch.skipped) console.log(`\nPyTorch column: skipped (${torch.skipped}).`);
  else console.log(`\nPyTorch ${torch.info.version}, ${torch.info.threads} thread(s), BLAS: ${torch.info.blas}.`);
  if (tfjs.skipped) console.log(`TF.js column: skipped (${tfjs.skipped}).`);
  else console.log(`TF.js ${tfjs.info.version}, ${tfjs.info.backend} backend, SIMD ${tfjs.info.simd}, ${tfjs.info.threads} thread (forward only).`);
  return { rows, growth, torch: torch.info ?? { skipped: torch.skipped }, tfjs: tfjs.info ?? { skipped: tfjs.skipped } };
}
