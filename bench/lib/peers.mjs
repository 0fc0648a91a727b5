// The peers' columns: PyTorch (Debian's python3-torch under /usr/bin/python3, when it imports)
// and TF.js 4.22 on its wasm backend in Node. A missing peer gives {skipped: reason}, printed
// as a note under the table; it never fails the benchmark.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { root } from './common.mjs';

const PYTHON = '/usr/bin/python3';

export function torchAvailable() {
  if (process.env.BENCH_TORCH === '0') return 'BENCH_TORCH=0';
  try {
    execFileSync(PYTHON, ['-c', 'import torch'], { stdio: 'ignore' });
    return '';
  } catch {
    return `${PYTHON} cannot import torch (Debian: apt-get install python3-torch)`;
  }
}

// PyTorch runs on OpenBLAS (Debian's libopenblas0-pthread, which the goals' reference figures
// used) when it is installed, one thread either way; BENCH_TORCH_BLAS=default keeps whatever
// libblas.so.3 the system selects (Debian's default is the reference netlib BLAS). Each script
// reports the library it really loaded (/proc/self/maps), printed with its tables.
// BENCH_OPENBLAS_DIR: that folder elsewhere, e.g. the package unpacked with `dpkg -x` where it
// cannot be installed.
const OPENBLAS_DIR = process.env.BENCH_OPENBLAS_DIR ?? '/usr/lib/x86_64-linux-gnu/openblas-pthread';
export function torchEnv() {
  const env = { ...process.env, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1' };
  if (process.env.BENCH_TORCH_BLAS !== 'default' && existsSync(`${OPENBLAS_DIR}/libblas.so.3`)) {
    env.LD_LIBRARY_PATH = [OPENBLAS_DIR, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  }
  return env;
}

function runPython(script, args) {
  const out = execFileSync(PYTHON, [`${root}bench/${script}`, ...args.map(String)],
    { encoding: 'utf8', cwd: `${root}bench`, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20, env: torchEnv() });
  return out.trim().split('\n').map((line) => JSON.parse(line));
}

// Attention kernels: rows like bench_native's, plus {torch: {version, blas}}.
export function torchAttention(sizes) {
  const why = torchAvailable();
  if (why) return { skipped: why };
  try {
    const lines = runPython('torch_bench.py', sizes);
    return { rows: lines.filter((l) => l.measure), info: lines.find((l) => l.torch).torch };
  } catch (e) {
    return { skipped: `bench/torch_bench.py failed: ${e.message.split('\n')[0]}` };
  }
}

// A training script's last line (its summary), or {skipped: reason}.
function torchSteps(script, args) {
  const why = torchAvailable();
  if (why) return { skipped: why };
  try {
    return runPython(script, args).pop();
  } catch (e) {
    return { skipped: `bench/${script} failed: ${e.message.split('\n')[0]}` };
  }
}

export function torchSeq2seq(noteData, datesData, scale) {
  return torchSteps('torch_seq2seq.py', [noteData, datesData ?? '-', scale]);
}

// bench/tfjs_dates.mjs in its own process (its own wasm heap and backend).
export function tfjsDates(datesData, limitS, blockSteps, blocks) {
  if (process.env.BENCH_TFJS === '0') return { skipped: 'BENCH_TFJS=0' };
  try {
    const out = execFileSync(process.execPath, [`${root}bench/tfjs_dates.mjs`, datesData, limitS, blockSteps, blocks, 50],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    return JSON.parse(out.trim().split('\n').pop());
  } catch (e) {
    return { skipped: `bench/tfjs_dates.mjs failed: ${e.message.split('\n')[0]}` };
  }
}

// bench/tfjs_transformer.mjs in its own process: {tfjs, backend, simd, threads, steps: {recipe name: timing}}.
export function tfjsTransformer(datesData, recipesFile, scale) {
  if (process.env.BENCH_TFJS === '0') return { skipped: 'BENCH_TFJS=0' };
  try {
    const out = execFileSync(process.execPath, [`${root}bench/tfjs_transformer.mjs`, datesData, recipesFile, scale],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    return JSON.parse(out.trim().split('\n').pop());
  } catch (e) {
    return { skipped: `bench/tfjs_transformer.mjs failed: ${e.message.split('\n')[0]}` };
  }
}

// bench/tfjs_attention.mjs in its own process: TF.js-wasm's scaled dot-product attention forward.
export function tfjsAttention(sizes) {
  if (process.env.BENCH_TFJS === '0') return { skipped: 'BENCH_TFJS=0' };
  try {
    const out = execFileSync(process.execPath, [`${root}bench/tfjs_attention.mjs`, ...sizes.map(String)],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = out.trim().split('\n').map((line) => JSON.parse(line));
    return { rows: lines.filter((l) => l.measure), info: lines.find((l) => l.tfjs).tfjs };
  } catch (e) {
    return { skipped: `bench/tfjs_attention.mjs failed: ${e.message.split('\n')[0]}` };
  }
}

// Transformer training steps: {version, threads, blas, steps: {recipe name: timing}}.
export function torchTransformer(datesData, recipesFile, scale) {
  return torchSteps('torch_transformer.py', [datesData, recipesFile, scale]);
}

// GPT training steps: {version, threads, blas, steps: {recipe name: timing}}.
export function torchGpt(gptData, recipesFile, scale) {
  return torchSteps('torch_gpt.py', [gptData, recipesFile, scale]);
}
