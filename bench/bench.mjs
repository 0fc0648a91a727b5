// `npm run bench`: scaled dot-product attention, D = 64, native (-O3 -march=native) and wasm in
// Node side by side in one run, after a warm-up. Prints a markdown table and writes the same
// figures with the machine and versions to bench/results/latest.json. Not a test: nothing asserts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { loadAttentionLab } from '../wasm/js/attention-lab.mjs';

const SIZES = (process.env.BENCH_SIZES ?? '16,64,256,1024').split(',').map(Number);
const D = 64;
const root = new URL('..', import.meta.url).pathname;

function buildNativeBench() {
  const dir = `${root}build/native-bench`;
  execFileSync('cmake', ['-S', root, '-B', dir, '-DCMAKE_BUILD_TYPE=Release', '-DLAB_NATIVE_ARCH=ON'], { stdio: 'ignore' });
  execFileSync('cmake', ['--build', dir, '-j', String(os.cpus().length), '--target', 'bench_native'], { stdio: 'ignore' });
  return `${dir}/bench_native`;
}

function runNative(binary) {
  const out = execFileSync(binary, SIZES.map(String), { encoding: 'utf8' });
  return out.trim().split('\n').map((line) => JSON.parse(line));
}

// Seeded normal values (mulberry32 + Box–Muller), so runs time the same data.
function randomTensor(shape, seed) {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const n = shape.reduce((x, y) => x * y, 1);
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  return { shape, data };
}

// Median and spread of 9 timed batches, each ≥ 20 ms, after a warm-up of the same length.
function timeIt(fn) {
  let t0 = performance.now();
  fn();
  const first = (performance.now() - t0) / 1000;
  const inner = Math.max(1, Math.floor(0.02 / Math.max(first, 1e-7)));
  for (let i = 0; i < inner; i++) fn();
  const samples = [];
  for (let r = 0; r < 9; r++) {
    t0 = performance.now();
    for (let i = 0; i < inner; i++) fn();
    samples.push((performance.now() - t0) / 1000 / inner);
  }
  samples.sort((x, y) => x - y);
  return { median_s: samples[4], min_s: samples[0], max_s: samples[8] };
}

function runWasm(lab) {
  const rows = [];
  for (const N of SIZES) {
    const query = randomTensor([1, N, D], 1), key = randomTensor([1, N, D], 2), value = randomTensor([1, N, D], 3);
    const gradOutput = randomTensor([1, N, D], 4);
    rows.push({ measure: 'scaled_forward', N, D, ...timeIt(() => lab.attention({ query, key, value })) });
    rows.push({ measure: 'scaled_forward_backward', N, D, ...timeIt(() => lab.attention({ query, key, value, gradOutput })) });
  }
  return rows;
}

// Forward: QKᵀ and weights·V, 2·N·N·D multiply-adds each = 4·N²·D flops. Backward adds four
// more products of the same size (dW, dV, dQ, dK): 12·N²·D in all.
const flops = (m) => (m.measure === 'scaled_forward' ? 4 : 12) * m.N * m.N * m.D;
const gflops = (m) => flops(m) / m.median_s / 1e9;
const spread = (m) => `${((m.max_s - m.min_s) / m.median_s * 100).toFixed(0)}%`;

const lab = await loadAttentionLab();
const nativeBinary = buildNativeBench();
const native = runNative(nativeBinary);
const wasm = runWasm(lab);

const results = [];
for (const measure of ['scaled_forward', 'scaled_forward_backward']) {
  console.log(`\n### ${measure === 'scaled_forward' ? 'Scaled dot-product attention, forward' : 'Forward + backward'} (D = ${D}, batch 1)\n`);
  console.log('| N | native GFLOP/s | native µs (spread) | wasm GFLOP/s | wasm µs (spread) | wasm / native |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const N of SIZES) {
    const n = native.find((m) => m.measure === measure && m.N === N);
    const w = wasm.find((m) => m.measure === measure && m.N === N);
    console.log(`| ${N} | ${gflops(n).toFixed(2)} | ${(n.median_s * 1e6).toFixed(1)} (${spread(n)}) | ${gflops(w).toFixed(2)} | ${(w.median_s * 1e6).toFixed(1)} (${spread(w)}) | ${(gflops(w) / gflops(n)).toFixed(2)} |`);
    results.push({ measure, N, D, native: { ...n, gflops: gflops(n) }, wasm: { ...w, gflops: gflops(w) } });
  }
}
const fwdWasm = results.filter((r) => r.measure === 'scaled_forward');
if (fwdWasm.length >= 2) {
  const [a, b] = [fwdWasm[fwdWasm.length - 2], fwdWasm[fwdWasm.length - 1]];
  console.log(`\nGrowth N ${a.N} → ${b.N} (×${b.N / a.N}): wasm time ×${(b.wasm.median_s / a.wasm.median_s).toFixed(1)}, native ×${(b.native.median_s / a.native.median_s).toFixed(1)} (N² predicts ×${((b.N / a.N) ** 2).toFixed(0)})`);
}

mkdirSync(`${root}bench/results`, { recursive: true });
const report = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memory_gb: Math.round(os.totalmem() / 2 ** 30) },
  versions: { node: process.version, emcc: execFileSync('emcc', ['--version'], { encoding: 'utf8' }).split('\n')[0], gxx: execFileSync('g++', ['--version'], { encoding: 'utf8' }).split('\n')[0] },
  results,
};
writeFileSync(`${root}bench/results/latest.json`, JSON.stringify(report, null, 2) + '\n');
console.log('\nwritten: bench/results/latest.json');
