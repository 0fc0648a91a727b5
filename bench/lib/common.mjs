// Shared by the parts of `npm run bench`: timing (warm-up, median and spread), the native
// benchmark binary, seeded data, and markdown tables.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { mulberry32 } from '../../web/src/mulberry32.mjs';

export const root = new URL('../..', import.meta.url).pathname;

export function buildNativeBench() {
  const dir = `${root}build/native-bench`;
  execFileSync('cmake', ['-S', root, '-B', dir, '-DCMAKE_BUILD_TYPE=Release', '-DLAB_NATIVE_ARCH=ON', '-DLAB_COUNT_FLOPS=ON'], { stdio: 'ignore' });
  execFileSync('cmake', ['--build', dir, '-j', String(os.cpus().length), '--target', 'bench_native'], { stdio: 'ignore' });
  return `${dir}/bench_native`;
}

// Runs bench_native with `args`; one JSON object per output line.
export function runNative(binary, args) {
  const out = execFileSync(binary, args.map(String), { encoding: 'utf8', maxBuffer: 64 << 20 });
  return out.split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
}

export function stats(samples) {
  const s = [...samples].sort((x, y) => x - y);
  return { median_s: s[Math.floor(s.length / 2)], min_s: s[0], max_s: s[s.length - 1] };
}

// Median and spread of 9 timed batches, each ≥ 20 ms, after a warm-up of at least 200 ms. The
// batch's size doubles until one batch takes 20 ms, and the warm-up lets the JavaScript around a
// fast call reach its optimized code first: a call of a few µs that tiers up in the middle of the
// timed batches reads about three times slower, with a spread of over 200%.
export function timeIt(fn, clock = wallSeconds) {
  let inner = 1;
  for (;;) {
    const t0 = clock();
    for (let i = 0; i < inner; i++) fn();
    if (clock() - t0 >= 0.02 || inner >= 1 << 24) break;
    inner *= 2;
  }
  const warmUntil = wallSeconds() + 0.2;
  do for (let i = 0; i < inner; i++) fn();
  while (wallSeconds() < warmUntil);
  const samples = [];
  for (let r = 0; r < 9; r++) {
    const t0 = clock();
    for (let i = 0; i < inner; i++) fn();
    samples.push((clock() - t0) / inner);
  }
  return stats(samples);
}

// A session's training step (its train(n) → {losses}), as bench_native's bench_steps.h times it:
// 7 calls of train(block) after a warm-up of `warmup` steps; wall-clock seconds per step (median
// and spread) and the process's CPU seconds per step (median), step 0's loss and the last one's.
export function timeTraining(session, warmup, block) {
  const firstLoss = session.train(warmup).losses[0];
  const samples = [], cpu = [];
  let losses;
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now(), c0 = process.cpuUsage();
    losses = session.train(block).losses;
    samples.push((performance.now() - t0) / 1000 / block);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1e6 / block);
  }
  return { steps_per_sample: block, ...stats(samples), cpu_s: stats(cpu).median_s, first_loss: firstLoss, final_loss: losses[losses.length - 1] };
}

// The clocks timeIt can read, in seconds: wall time, or the process's CPU time (user + system, all
// its threads), which on a machine shared with other jobs leaves out the time spent waiting for a core.
export const wallSeconds = () => performance.now() / 1000;
export function cpuSeconds() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}
/** The clock AB_CLOCK names for the A/B scripts: 'cpu' (the default) or 'wall'. */
export function abClock() {
  const name = process.env.AB_CLOCK ?? 'cpu';
  if (!['cpu', 'wall'].includes(name)) throw new Error("AB_CLOCK: 'cpu' or 'wall'");
  return { clockName: name, clock: name === 'cpu' ? cpuSeconds : wallSeconds };
}

// mulberry32 (web/src/mulberry32.mjs): the page's seeded uniform generator, so runs use the same data.
export { mulberry32 };

// Seeded normal values (mulberry32 + Box–Muller), so runs time the same data.
export function randomTensor(shape, seed) {
  const uniform = mulberry32(seed);
  const n = shape.reduce((x, y) => x * y, 1);
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  return { shape, data };
}

// "(max − min) / median" as a percentage.
export const spread = (m) => `${(((m.max_s - m.min_s) / m.median_s) * 100).toFixed(0)}%`;
export const fmt = (x, digits = 1) => (x === undefined || x === null || Number.isNaN(x) ? '–' : x.toFixed(digits));

export function table(title, note, header, rows) {
  console.log(`\n### ${title}\n`);
  if (note) console.log(`${note}\n`);
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map((h, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

// Least-squares slope of log(time) against log(N): time ∝ N^slope.
export function growthExponent(points) {
  const xs = points.map((p) => Math.log(p.N)), ys = points.map((p) => Math.log(p.median_s));
  const mx = xs.reduce((a, b) => a + b) / xs.length, my = ys.reduce((a, b) => a + b) / ys.length;
  let num = 0, den = 0;
  xs.forEach((x, i) => { num += (x - mx) * (ys[i] - my); den += (x - mx) ** 2; });
  return num / den;
}
