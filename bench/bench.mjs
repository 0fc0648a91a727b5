// `npm run bench`: native (-O3 -march=native) and wasm in Node side by side in one run, after a
// warm-up, median and spread: scaled dot-product attention (D = 64), then Seq2Seq training steps
// (bench/bench_seq2seq.cpp; the wasm side through the JS API's model.train(n)). Prints markdown
// tables and writes the same figures with the machine and versions to bench/results/latest.json.
// Not a test: nothing asserts.
//   BENCH_SIZES=16,64      attention sizes
//   BENCH_ONLY=seq2seq     just one part (attention | seq2seq)
//   BENCH_WASM_CORE=path   time another build of attention_lab_core.mjs (Seq2Seq part only)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
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

function attentionTables() {
  const native = runNative(nativeBinary);
  const wasm = runWasm(lab);
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
}

// ---- Seq2Seq training: the same loop natively (bench_native seq2seq) and through the JS API.
// note:  the note's recipe, RNN, hidden = embedding = 128, dot attention, batch 1, Adam 1e-3
// dates: LSTM 64, embedding 64, dot attention + attentional tanh 64, batch 128, Adam 1e-3
const RECIPES = {
  note: { task: 'note', cell: 'rnn', hidden: 128, embedding: 128, attention: true, score: 'dot', seed: 1, batchSize: 1, learningRate: 1e-3 },
  dates: { task: 'dates', cell: 'lstm', hidden: 64, embedding: 64, attention: true, score: 'dot', attentionalTanh: true, seed: 1, batchSize: 128, learningRate: 1e-3 },
};
const REFERENCE = { note_step_us: 1770, dates_examples_per_s: 280 }; // PyTorch 1.13 eager / TF.js-wasm
const GOAL = { note_step_us: 177, dates_examples_per_s: 2800 };

function stats(samples) {
  const s = [...samples].sort((x, y) => x - y);
  return { median_s: s[Math.floor(s.length / 2)], min_s: s[0], max_s: s[s.length - 1] };
}

async function seq2seqCreate() {
  if (!process.env.BENCH_WASM_CORE) return (config) => lab.createSeq2Seq(config);
  const { default: createCore } = await import(new URL(process.env.BENCH_WASM_CORE, `file://${process.cwd()}/`).href);
  const { Seq2Seq } = await import('../wasm/js/seq2seq.mjs');
  const core = await createCore();
  return (config) => Seq2Seq.create(core, config);
}

// Seconds per step: `reps` calls of train(block) after a warm-up of `warmup` steps; and per call
// for train(1), to show what one call costs on top of the step.
function wasmPerStep(create, name, warmup, block, reps) {
  const model = create(RECIPES[name]);
  try {
    model.train(warmup);
    const samples = [], single = [];
    let losses;
    for (let r = 0; r < reps; r++) {
      const t0 = performance.now();
      losses = model.train(block).losses;
      samples.push((performance.now() - t0) / 1000 / block);
    }
    for (let r = 0; r < Math.min(block, 50); r++) {
      const t0 = performance.now();
      model.train(1);
      single.push((performance.now() - t0) / 1000);
    }
    return [
      { measure: 'step', recipe: name, batch: RECIPES[name].batchSize, steps_per_sample: block, ...stats(samples), final_loss: losses[losses.length - 1] },
      { measure: 'call1', recipe: name, batch: RECIPES[name].batchSize, steps_per_sample: 1, ...stats(single) },
    ];
  } finally {
    model.delete();
  }
}

// Seconds for `steps` steps of a fresh model in one train() call; one untimed run first.
function wasmTotal(create, name, steps, reps) {
  const samples = [];
  let last;
  for (let r = 0; r <= reps; r++) {
    const model = create(RECIPES[name]);
    const t0 = performance.now();
    last = model.train(steps).losses;
    if (r > 0) samples.push((performance.now() - t0) / 1000);
    model.delete();
  }
  return { measure: 'total', recipe: name, batch: RECIPES[name].batchSize, steps_per_sample: steps, ...stats(samples), final_loss: last[last.length - 1] };
}

// The optional PyTorch column: bench/torch_seq2seq.py under Debian's torch, if it imports.
function runTorch() {
  if (!existsSync(`${root}bench/torch_seq2seq.py`)) return { skipped: 'bench/torch_seq2seq.py is not written yet' };
  try {
    execFileSync('/usr/bin/python3', ['-c', 'import torch'], { stdio: 'ignore' });
  } catch {
    return { skipped: '/usr/bin/python3 cannot import torch' };
  }
  try {
    const out = execFileSync('/usr/bin/python3', [`${root}bench/torch_seq2seq.py`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return JSON.parse(out.trim().split('\n').pop());
  } catch (e) {
    return { skipped: `bench/torch_seq2seq.py failed: ${e.message.split('\n')[0]}` };
  }
}

async function seq2seqTables() {
  const scale = Number(process.env.BENCH_SEQ2SEQ_SCALE ?? 1);
  const n = (x) => Math.max(1, Math.round(x * scale));
  const native = execFileSync(nativeBinary, ['seq2seq', String(scale)], { encoding: 'utf8' })
    .trim().split('\n').map((line) => JSON.parse(line));
  const create = await seq2seqCreate();
  const wasm = [
    ...wasmPerStep(create, 'note', n(200), n(200), 9),
    wasmTotal(create, 'note', 400, 5),
    ...wasmPerStep(create, 'dates', n(5), n(10), 7),
  ];
  const torch = runTorch();
  const find = (rows, measure, recipe) => rows.find((m) => m.measure === measure && m.recipe === recipe);
  const us = (m) => `${(m.median_s * 1e6).toFixed(0)} (${spread(m)})`;
  const ms = (m) => `${(m.median_s * 1e3).toFixed(1)} (${spread(m)})`;
  const eps = (m) => `${(m.batch / m.median_s).toFixed(0)} (${spread(m)})`;

  console.log('\n### Seq2Seq, the note\'s recipe: one training step (forward + backward + Adam), batch 1\n');
  console.log('RNN, hidden 128, embedding 128, dot attention, the 5 note pairs. Spread = (max − min) / median.\n');
  console.log('| measure | native | wasm | wasm / native | PyTorch (1 thread) | goal (wasm) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  const nStep = find(native, 'step', 'note'), wStep = find(wasm, 'step', 'note');
  const nTot = find(native, 'total', 'note'), wTot = find(wasm, 'total', 'note');
  const wCall = find(wasm, 'call1', 'note');
  const tStep = torch.note_step_s ? `${(torch.note_step_s.median_s * 1e6).toFixed(0)} (${spread(torch.note_step_s)})` : `≈ ${REFERENCE.note_step_us} (given)`;
  const tTot = torch.note_total_s ? ms(torch.note_total_s) : '';
  console.log(`| µs per step (train(${wStep.steps_per_sample}) calls) | ${us(nStep)} | ${us(wStep)} | ${(wStep.median_s / nStep.median_s).toFixed(2)} | ${tStep} | ≤ ${GOAL.note_step_us} |`);
  console.log(`| µs per train(1) call | | ${us(wCall)} | | | |`);
  console.log(`| ms for 400 steps, fresh model, one call | ${ms(nTot)} | ${ms(wTot)} | ${(wTot.median_s / nTot.median_s).toFixed(2)} | ${tTot} | ≤ ${(GOAL.note_step_us * 400 / 1000).toFixed(1)} |`);
  console.log(`\nLoss after the 400 steps: native ${nTot.final_loss.toFixed(4)}, wasm ${wTot.final_loss.toFixed(4)}${torch.note_total_loss !== undefined ? `, PyTorch ${torch.note_total_loss.toFixed(4)}` : ''}.`);

  console.log('\n### Seq2Seq, dates: training examples per second, batch 128\n');
  console.log('LSTM 64, embedding 64, dot attention, attentional tanh 64, Adam 1e-3.\n');
  console.log('| measure | native | wasm | wasm / native | reference TF.js-wasm | goal (wasm) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  const nD = find(native, 'step', 'dates'), wD = find(wasm, 'step', 'dates'), wD1 = find(wasm, 'call1', 'dates');
  console.log(`| examples/s (train(${wD.steps_per_sample}) calls) | ${eps(nD)} | ${eps(wD)} | ${(nD.median_s / wD.median_s).toFixed(2)} | ≈ ${REFERENCE.dates_examples_per_s} | ≥ ${GOAL.dates_examples_per_s} |`);
  console.log(`| ms per step | ${ms(nD)} | ${ms(wD)} | | | |`);
  console.log(`| ms per train(1) call | | ${ms(wD1)} | | | |`);
  console.log(torch.skipped ? `\nPyTorch column: skipped (${torch.skipped}).` : `\nPyTorch ${torch.version}, BLAS: ${torch.blas}.`);
  results.push(...native.map((m) => ({ part: 'seq2seq', side: 'native', ...m })), ...wasm.map((m) => ({ part: 'seq2seq', side: 'wasm', ...m })));
  return { native, wasm, torch, reference: REFERENCE, goal: GOAL };
}

const ONLY = process.env.BENCH_ONLY ?? '';
const lab = await loadAttentionLab();
const nativeBinary = buildNativeBench();
const results = [];
if (ONLY === '' || ONLY === 'attention') attentionTables();
const seq2seq = ONLY === '' || ONLY === 'seq2seq' ? await seq2seqTables() : null;

mkdirSync(`${root}bench/results`, { recursive: true });
const report = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memory_gb: Math.round(os.totalmem() / 2 ** 30) },
  versions: { node: process.version, emcc: execFileSync('emcc', ['--version'], { encoding: 'utf8' }).split('\n')[0], gxx: execFileSync('g++', ['--version'], { encoding: 'utf8' }).split('\n')[0] },
  results,
  ...(seq2seq ? { seq2seq_torch: seq2seq.torch } : {}),
};
writeFileSync(`${root}bench/results/latest.json`, JSON.stringify(report, null, 2) + '\n');
console.log('\nwritten: bench/results/latest.json');
