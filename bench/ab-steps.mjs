// The Transformer's and the GPT's training step in two build folders, in ONE Node process,
// interleaved round by round (alternating which folder goes first): ms of CPU time per step of the
// Transformer on dates and of the GPT on §5's regular Tang poems, both at the sessions' defaults, from each
// folder's attention_lab_transformer and attention_lab_gpt modules. The last loss of each is
// printed too: a change that should not move the numbers shows the same losses.
//
//   cp -r build/wasm build/wasm-before      (before rebuilding)
//   node bench/ab-steps.mjs build/wasm-before build/wasm [rounds]
//
// A folder written FOLDER@fma stands for that folder's FMA builds (attention_lab_transformer_fma and
// attention_lab_gpt_fma; Node 20 needs --experimental-wasm-relaxed-simd), so that
//   node --experimental-wasm-relaxed-simd bench/ab-steps.mjs build/wasm build/wasm@fma
// compares the plain builds with the FMA builds of one tree.
//
// Times are the process's CPU time (AB_CLOCK=wall: wall-clock time), as in bench/ab.mjs.
// Needs build/poems/tang300.txt (`npm run build:poems`).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { GptSession } from '../wasm/js/gpt.mjs';
import { regularPoems } from '../wasm/js/gpt-form.mjs';
import { Seq2Seq } from '../wasm/js/seq2seq.mjs';
import { abClock, fmt, root, table } from './lib/common.mjs';

const [dirA, dirB, roundsArg] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error('usage: node bench/ab-steps.mjs <before folder> <after folder> [rounds]');
const rounds = Number(roundsArg ?? 5);
const { clockName, clock } = abClock();
// §5's corpus: the regular poems, as the page reads them
const text = regularPoems(readFileSync(`${root}build/poems/tang300.txt`, 'utf8'));
const load = async (build, module) => {
  const [dir, fma] = build.endsWith('@fma') ? [build.slice(0, -4), '_fma'] : [build, ''];
  return (await import(pathToFileURL(`${dir}/${module}${fma}.mjs`).href)).default();
};
const builds = [];
for (const dir of [dirA, dirB]) {
  builds.push({ dir, transformer: await load(dir, 'attention_lab_transformer'), gpt: await load(dir, 'attention_lab_gpt'), steps: { transformer: [], gpt: [] }, loss: {} });
}
const STEPS = { transformer: 30, gpt: 6 };

// ms per step of `steps` steps after a warm-up (the first calls run in the baseline compiler)
function time(b, name, model, steps) {
  try {
    model.train(2);
    const t = clock();
    const losses = model.train(steps).losses;
    b.steps[name].push(((clock() - t) * 1e3) / steps);
    b.loss[name] = losses[losses.length - 1];
  } finally {
    model.delete();
  }
}

for (let r = 0; r < rounds; r++) {
  for (const b of r % 2 ? [...builds].reverse() : builds) {
    time(b, 'transformer', Seq2Seq.create(b.transformer, { arch: 'transformer', task: 'dates', seed: 1 }), STEPS.transformer);
    time(b, 'gpt', GptSession.create(b.gpt, { text, seed: 1 }), STEPS.gpt);
  }
}
const [a, b] = builds;
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
const row = (label, key) => [label, fmt(median(a.steps[key]), 2), fmt(median(b.steps[key]), 2), fmt(median(b.steps[key]) / median(a.steps[key]), 2), `${a.loss[key]} / ${b.loss[key]}`];
table(
  'Training steps: one build folder against another',
  `the sessions' defaults, ms of ${clockName === 'cpu' ? 'CPU' : 'wall-clock'} time per step, median of ${rounds} interleaved rounds in one Node process`,
  ['step', `a: ${a.dir}`, `b: ${b.dir}`, 'b / a', 'last loss a / b'],
  [row(`Transformer, dates (${STEPS.transformer} steps a round)`, 'transformer'), row(`GPT, poems (${STEPS.gpt} steps a round)`, 'gpt')],
);
