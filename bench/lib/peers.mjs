// The peers' columns: PyTorch (Debian's python3-torch under /usr/bin/python3, when it imports)
// and TF.js 4.22 on its wasm backend in Node. A missing peer gives {skipped: reason}, printed
// as a note under the table; it never fails the benchmark.
import { execFileSync } from 'node:child_process';
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

function runPython(script, args) {
  const out = execFileSync(PYTHON, [`${root}bench/${script}`, ...args.map(String)],
    { encoding: 'utf8', cwd: `${root}bench`, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
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

export function torchSeq2seq(noteData, datesData, scale) {
  const why = torchAvailable();
  if (why) return { skipped: why };
  try {
    return runPython('torch_seq2seq.py', [noteData, datesData ?? '-', scale]).pop();
  } catch (e) {
    return { skipped: `bench/torch_seq2seq.py failed: ${e.message.split('\n')[0]}` };
  }
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
