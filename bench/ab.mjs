// A/B of two wasm builds of the core in ONE Node process, interleaved round by round, on the
// measures of the goals (BENCHMARKS.md): the note recipe (µs per training step), dates (examples
// per second), scaled dot-product attention forward at N = 1024 (GFLOP/s) and one attention call
// at N = 16 (µs). Each build loads its own module instance; each round times every measure once
// per build, alternating which build goes first; the table gives the median and the best round.
//
//   node bench/ab.mjs build/wasm-before/attention_lab_core.mjs build/wasm/attention_lab_core.mjs [rounds]
//
// Times are the process's CPU time (AB_CLOCK=wall: wall-clock time): on a machine shared with other
// jobs, wall time also counts the waits for a core, which swing by several times between rounds.
//
// (Save the "before" build with `cp -r build/wasm build/wasm-before` before rebuilding.)
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Seq2Seq } from '../wasm/js/seq2seq.mjs';
import { stagedAttention } from '../wasm/js/staged-attention.mjs';
import { unwrap } from '../wasm/js/unwrap.mjs';
import { abClock, fmt, randomTensor, stats, table, timeIt } from './lib/common.mjs';
import { RECIPES } from './lib/seq2seq.mjs';

const [pathA, pathB, roundsArg] = process.argv.slice(2);
if (!pathA || !pathB) throw new Error('usage: node bench/ab.mjs <before core .mjs> <after core .mjs> [rounds]');
const rounds = Number(roundsArg ?? 5);
const { clockName, clock } = abClock();
const load = async (p) => (await import(pathToFileURL(p).href)).default();
const builds = [
  { name: 'before', core: await load(pathA) },
  { name: 'after', core: await load(pathB) },
];
// attention as the package's lab.attention calls it: through the staged path (small calls) in the
// builds that have it, else the object path
// (a module without attention, such as attention_lab_seq2seq, gives NaN on the attention rows:
// the Seq2Seq rows of two such builds are quicker to rebuild and compare)
for (const b of builds) {
  const staged = stagedAttention(b.core);
  b.core.labAttention = b.core.attention ? (args) => unwrap(staged(args) ?? b.core.attention(args)) : null;
}

const D = 64;
const inputs = (N) => ({ query: randomTensor([1, N, D], 1), key: randomTensor([1, N, D], 2), value: randomTensor([1, N, D], 3) });
const small = inputs(16), big = inputs(1024);
// attention's own options beyond these (e.g. outputs) are passed when a build knows them
const MEASURES = {
  note_us_per_step: (core) => {
    const m = Seq2Seq.create(core, RECIPES.note);
    m.train(200);
    const t0 = clock();
    m.train(400);
    const us = ((clock() - t0) * 1e6) / 400;
    m.delete();
    return us;
  },
  dates_examples_per_s: (core) => {
    const m = Seq2Seq.create(core, RECIPES.dates);
    m.train(2);
    const t0 = clock();
    m.train(6);
    const s = clock() - t0;
    m.delete();
    return (6 * 128) / s;
  },
  attention_n1024_gflops: (core) => !core.labAttention ? NaN : (4 * 1024 * 1024 * D) / timeIt(() => core.labAttention(big), clock).median_s / 1e9,
  attention_n16_call_us: (core) => !core.labAttention ? NaN : timeIt(() => core.labAttention(small), clock).median_s * 1e6,
};
// Builds that know attention's `outputs` option also time the output-only call (the peers' work).
const OUTPUT_ONLY = {
  attention_n1024_output_only_gflops: (core) => (4 * 1024 * 1024 * D) / timeIt(() => core.labAttention({ ...big, outputs: ['output'] }), clock).median_s / 1e9,
  attention_n16_output_only_call_us: (core) => timeIt(() => core.labAttention({ ...small, outputs: ['output'] }), clock).median_s * 1e6,
};
const knowsOutputs = (core) => core.labAttention && !core.attention({ ...small, outputs: ['output'] }).error;
for (const [key, fn] of Object.entries(OUTPUT_ONLY)) MEASURES[key] = (core) => (knowsOutputs(core) ? fn(core) : NaN);

const results = Object.fromEntries(Object.keys(MEASURES).map((k) => [k, { before: [], after: [] }]));
console.log(`Load average before: ${os.loadavg().map((x) => x.toFixed(2)).join(', ')} on ${os.cpus().length} cores.`);
for (let r = 0; r < rounds; r++) {
  const order = r % 2 ? [...builds].reverse() : builds;
  for (const [key, fn] of Object.entries(MEASURES)) {
    for (const b of order) results[key][b.name].push(fn(b.core));
  }
}
// On a loaded machine the best round is the steadier figure: also give it.
const lines = Object.entries(results).map(([key, v]) => {
  const higherIsBetter = !key.includes('_us');
  const best = (xs) => (higherIsBetter ? Math.max(...xs) : Math.min(...xs));
  const a = stats(v.before).median_s, b = stats(v.after).median_s;
  const gain = (x, y) => (Number.isNaN(x) ? '–' : `${fmt(higherIsBetter ? y / x : x / y, 2)}×`);
  return [key, fmt(a, 2), fmt(b, 2), gain(a, b), fmt(best(v.before), 2), fmt(best(v.after), 2), gain(best(v.before), best(v.after))];
});
table(`A/B: ${pathA} vs ${pathB} (${rounds} rounds, ${clockName === 'cpu' ? 'CPU' : 'wall-clock'} time)`, 'Gain: how many times better "after" is (medians of the rounds, then best rounds).',
  ['measure', 'before (median)', 'after (median)', 'gain', 'before (best)', 'after (best)', 'gain (best)'], lines);
console.log(`\nLoad average after: ${os.loadavg().map((x) => x.toFixed(2)).join(', ')}.`);
