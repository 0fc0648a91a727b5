// `npm run bench`: native (-O3 -march=native), wasm in Node, PyTorch and TF.js side by side in one
// run; every measure warms up, repeats and reports the median and the spread, and every ratio is
// taken within the run. Prints one markdown table per measure and writes the same figures with the
// machine, versions and load to bench/results/latest.json. Not a test: nothing asserts.
// What each part measures: BENCHMARKS.md. Parts live in bench/lib/.
//
//   BENCH_ONLY=attention,seq2seq   just these parts (kernels | attention | seq2seq | dates | transformer | gpt | scaling | browser);
//                                  (dates runs seq2seq too: its examples/s come from there;
//                                  seq2seq alone skips the run to 98% and TF.js)
//   BENCH_SIZES=16,64              attention sizes N (default 16 … 1024)
//   BENCH_SEQ2SEQ_SCALE=0.2        shorter Seq2Seq and scaling blocks (quick look; default 1)
//   BENCH_WASM_CORE=path           time another build of attention_lab_core.mjs (Seq2Seq parts)
//   BENCH_TORCH=0, BENCH_TFJS=0    skip a peer
//   BENCH_TFJS_LIMIT_S=150         TF.js training-time cap for the run to 98% (default 150 s)
//   BENCH_TARGET_LIMIT_S=300       the same cap for native and wasm (default 300 s)
//   BENCH_LONG=1                   caps of 3600 s: let TF.js reach 98% (takes tens of minutes)
//   BENCH_PUBLISH=1                also write shared/bench/results.json (the web Performance page)
//   BENCH_OUT=path                 write the JSON there instead of bench/results/latest.json
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname } from 'node:path';
import { hasRelaxedSimd, loadAttentionLab } from '../wasm/js/attention-lab.mjs';
import { attentionPart } from './lib/attention.mjs';
import { buildNativeBench, root, runNative } from './lib/common.mjs';
import { datesPart } from './lib/dates.mjs';
import { gptPart } from './lib/gpt.mjs';
import { kernelsPart } from './lib/kernels.mjs';
import { limitPart } from './lib/limit.mjs';
import { scalingPart } from './lib/scaling.mjs';
import { seq2seqPart } from './lib/seq2seq.mjs';
import { transformerPart } from './lib/transformer.mjs';

const PARTS = ['kernels', 'attention', 'seq2seq', 'dates', 'transformer', 'gpt', 'scaling', 'browser'];
const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
for (const p of only) if (!PARTS.includes(p)) throw new Error(`BENCH_ONLY: unknown part '${p}' (expected ${PARTS.join(', ')})`);
const want = (p) => only.length === 0 || only.includes(p) || (p === 'seq2seq' && only.includes('dates'));
const SIZES = (process.env.BENCH_SIZES ?? '16,32,64,128,256,512,1024').split(',').map(Number);
if (SIZES.some((n) => !Number.isInteger(n) || n < 1 || n > 4096)) throw new Error('BENCH_SIZES: whole numbers in [1, 4096], comma-separated');
const SCALE = Number(process.env.BENCH_SEQ2SEQ_SCALE ?? 1);
if (!(SCALE > 0 && SCALE <= 10)) throw new Error('BENCH_SEQ2SEQ_SCALE: a number in (0, 10]');
const long = process.env.BENCH_LONG === '1';
const seconds = (name, fallback) => {
  const v = Number(process.env[name] ?? fallback);
  if (!(v > 0)) throw new Error(`${name}: a positive number of seconds`);
  return v;
};
const datesOptions = {
  tfjsLimitS: seconds('BENCH_TFJS_LIMIT_S', long ? 3600 : 150),
  targetLimitS: seconds('BENCH_TARGET_LIMIT_S', long ? 3600 : 300),
  tfjsBlockSteps: Math.max(1, Math.round(3 * SCALE)),
  tfjsBlocks: 7,
};

const version = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8' }).split('\n')[0];
  } catch {
    return null;
  }
};
const loadBefore = os.loadavg();
console.log(`Load average before: ${loadBefore.map((x) => x.toFixed(2)).join(', ')} on ${os.cpus().length} cores (a loaded machine slows every column).`);

// The plain build in every part; the FMA build (relaxed SIMD: `npm run bench` runs Node with
// --experimental-wasm-relaxed-simd) beside it where a part shows both, in this same process.
const lab = await loadAttentionLab({ fma: false });
const labFma = hasRelaxedSimd() ? await loadAttentionLab({ fma: true }) : null;
if (!labFma) console.log('No relaxed SIMD in this Node (run it with --experimental-wasm-relaxed-simd): the FMA columns are left out.');
const nativeBinary = buildNativeBench();

async function seq2seqCreate() {
  if (!process.env.BENCH_WASM_CORE) return (config) => lab.createSeq2Seq(config);
  const { default: createCore } = await import(new URL(process.env.BENCH_WASM_CORE, `file://${process.cwd()}/`).href);
  const { Seq2Seq } = await import('../wasm/js/seq2seq.mjs');
  const core = await createCore();
  return (config) => Seq2Seq.create(core, config);
}

// The peers train on our data: the note's pairs and dates in our sampler's order.
function taskData() {
  const dir = `${root}build/native-bench`;
  const files = { note: `${dir}/note-data.json`, dates: `${dir}/dates-data.json` };
  runNative(nativeBinary, ['task-data', 'note', 2400, files.note]);
  runNative(nativeBinary, ['task-data', 'dates', 128 * 1000, files.dates]);
  return files;
}

const report = {
  date: new Date().toISOString(),
  machine: { cpu: os.cpus()[0]?.model ?? null, cores: os.cpus().length, memory_gb: Math.round(os.totalmem() / 2 ** 30), load_before: loadBefore },
  versions: { node: process.version, emcc: version('emcc', ['--version']), gxx: version('g++', ['--version']), torch: null, torch_blas: null, tfjs: null },
  options: { sizes: SIZES, seq2seq_scale: SCALE, ...datesOptions },
  notes: [],
};

if (want('kernels')) report.kernels = kernelsPart();
if (want('attention')) {
  const a = attentionPart(lab, nativeBinary, SIZES);
  report.attention = a.rows;
  report.attention_growth = a.growth;
  if (a.torch.skipped) report.notes.push(`PyTorch attention column skipped: ${a.torch.skipped}`);
  else Object.assign(report.versions, { torch: a.torch.version, torch_blas: a.torch.blas });
  if (a.tfjs.skipped) report.notes.push(`TF.js attention column skipped: ${a.tfjs.skipped}`);
  // each attention figure as a share of the wasm register-loop peak measured in this run
  if (report.kernels?.peak_gflops) {
    for (const row of report.attention) if (row.wasm) row.wasm.share_of_peak = row.wasm.gflops / report.kernels.peak_gflops;
  }
}
if (want('seq2seq') || want('dates') || want('transformer') || want('scaling')) {
  const create = await seq2seqCreate();
  const data = want('seq2seq') || want('transformer') ? taskData() : null;
  if (want('seq2seq')) {
    const s = seq2seqPart(create, nativeBinary, SCALE, data, labFma && !process.env.BENCH_WASM_CORE && ((config) => labFma.createSeq2Seq(config)));
    report.note = s.note;
    if (s.torch.skipped) report.notes.push(`PyTorch Seq2Seq column skipped: ${s.torch.skipped}`);
    else Object.assign(report.versions, { torch: s.torch.version, torch_blas: s.torch.blas });
    // BENCH_ONLY=seq2seq: the dates table with examples/s only (no run to 98%, no TF.js).
    const full = only.length === 0 || only.includes('dates');
    report.dates = datesPart(create, nativeBinary, s.dates, data.dates, { ...datesOptions, toTarget: full });
    report.versions.tfjs = report.dates.tfjs_version;
    if (full && !report.dates.tfjs) report.notes.push('TF.js dates column skipped (see the printed note)');
  }
  if (want('transformer')) {
    const t = transformerPart(create, nativeBinary, SCALE, data.dates, labFma && ((config) => labFma.createSeq2Seq(config)));
    report.transformer = t.rows;
    if (t.torch.skipped) report.notes.push(`PyTorch Transformer column skipped: ${t.torch.skipped}`);
    else Object.assign(report.versions, { torch: t.torch.version, torch_blas: t.torch.blas });
    if (t.tfjs.skipped) report.notes.push(`TF.js Transformer column skipped: ${t.tfjs.skipped}`);
    else report.versions.tfjs = t.tfjs.version;
  }
  if (want('scaling')) report.scaling = scalingPart(create, nativeBinary, SCALE);
}
if (want('gpt')) {
  const g = gptPart(await loadAttentionLab({ variant: 'gpt', fma: false }), labFma && (await loadAttentionLab({ variant: 'gpt', fma: true })), nativeBinary, SCALE);
  report.gpt = g.rows;
  if (g.torch.skipped) report.notes.push(`PyTorch GPT column skipped: ${g.torch.skipped}`);
  else Object.assign(report.versions, { torch: g.torch.version, torch_blas: g.torch.blas });
}
// Each training step measured above against its limit (its GEMM flops at the kernels' peak).
report.limit = limitPart(report);
// The built site (dist/, `npm run bench` builds it) in headless Chromium; skipped without Chromium.
if (want('browser')) {
  // imported here, not at the top: with Playwright and Vite loaded, the other parts' fastest calls
  // run more than twice as slow (one attention call at N = 16)
  const { browserPart } = await import('./lib/browser.mjs');
  report.browser = await browserPart(lab);
  if (report.browser.skipped) report.notes.push(`Browser part skipped: ${report.browser.skipped}`);
}

report.machine.load_after = os.loadavg();
console.log(`\nLoad average after: ${report.machine.load_after.map((x) => x.toFixed(2)).join(', ')}.`);
const json = JSON.stringify(report, null, 2) + '\n';
const out = process.env.BENCH_OUT ?? `${root}bench/results/latest.json`;
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, json);
console.log(`written: ${out}`);
if (process.env.BENCH_PUBLISH === '1') {
  mkdirSync(`${root}shared/bench`, { recursive: true });
  writeFileSync(`${root}shared/bench/results.json`, json);
  console.log('written: shared/bench/results.json');
}
