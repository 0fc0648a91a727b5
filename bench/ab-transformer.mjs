// The Transformer in two builds, in ONE Node process, interleaved round by round: ms per training
// step and per greedy translation of the dates task at the session's defaults. By default the
// widget build (attention_lab_transformer, docs/build.md) against the full one (attention_lab_core),
// the comparison behind the widget module's compile flags; or a build against its FMA build
// (docs/build.md: run Node with --experimental-wasm-relaxed-simd).
//
//   node bench/ab-transformer.mjs [a.mjs b.mjs] [rounds]
//
// Times are the process's CPU time (AB_CLOCK=wall: wall-clock time), as in bench/ab.mjs: on a
// shared machine wall time also counts the waits for a core.
import { pathToFileURL } from 'node:url';
import { Seq2Seq } from '../wasm/js/seq2seq.mjs';
import { cpuSeconds, fmt, table, wallSeconds } from './lib/common.mjs';

const args = process.argv.slice(2);
const [pathA, pathB] = args.length >= 2 ? args : ['build/wasm/attention_lab_core.mjs', 'build/wasm/attention_lab_transformer.mjs'];
const rounds = Number(args[2] ?? (args.length === 1 ? args[0] : 5));
const clockName = process.env.AB_CLOCK ?? 'cpu';
if (!['cpu', 'wall'].includes(clockName)) throw new Error("AB_CLOCK: 'cpu' or 'wall'");
const clock = clockName === 'cpu' ? cpuSeconds : wallSeconds;
const load = async (p) => (await import(pathToFileURL(p).href)).default();
const builds = [
  { name: pathA, core: await load(pathA), step: [], decode: [] },
  { name: pathB, core: await load(pathB), step: [], decode: [] },
];
const CONFIG = { arch: 'transformer', task: 'dates', seed: 1 };
const STEPS = 20, DECODES = 10;

for (let r = 0; r < rounds; r++) {
  for (const b of r % 2 ? [...builds].reverse() : builds) {
    const m = Seq2Seq.create(b.core, CONFIG);
    try {
      m.train(2); // warm-up: the first calls run in the baseline compiler
      let t = clock();
      m.train(STEPS);
      b.step.push(((clock() - t) * 1e3) / STEPS);
      t = clock();
      for (let i = 0; i < DECODES; i++) m.translate('JAN 23, 2015');
      b.decode.push(((clock() - t) * 1e3) / DECODES);
    } finally {
      m.delete();
    }
  }
}
const [a, b] = builds;
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
const row = (label, key) => [label, fmt(median(a[key]), 2), fmt(median(b[key]), 2), fmt(median(b[key]) / median(a[key]), 2)];
table(
  'Transformer: one build against another',
  `dates at the session's defaults, ms of ${clockName === 'cpu' ? 'CPU' : 'wall-clock'} time, median of ${rounds} interleaved rounds in one Node process`,
  ['ms per', `a: ${a.name}`, `b: ${b.name}`, 'b / a'],
  [row('training step', 'step'), row('translation', 'decode')],
);
