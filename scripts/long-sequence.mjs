#!/usr/bin/env node
// The note's §1 problem, measured: a plain encoder-decoder squeezes the whole source into one
// fixed-size vector and fails as sequences grow; with attention the decoder looks back at every
// encoder state and keeps working (the shape of Bahdanau et al. 2015, Fig. 2).
//
// Trains two Seq2Seq models through the wasm API (wasm/js/attention-lab.mjs) that differ only in
// `attention` (same cell, hidden size, embedding, seed, data, batches and steps) on the `reverse`
// task with training strings of 5–60 symbols, then evaluates both on fresh strings of exactly
// 5, 10, 20, 30, 40, 50 and 60 symbols (the same strings for both models, none from the
// training set): teacher-forced token accuracy and greedy exact match. Prints a markdown table
// with the settings and wall times and writes it to docs/long-sequence.md.
//
//   node scripts/long-sequence.mjs                 # the committed settings (≤ ~5 min, 2 cores)
//   node scripts/long-sequence.mjs --steps 300 --out -   # quick look, print only
// Options: --cell gru|lstm|rnn  --hidden N  --embedding N  --steps N  --batch N  --lr X
//          --clip X  --seed N  --count N (strings per length)  --out FILE|-  (needs `npm run build:wasm`)
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from '../wasm/js/attention-lab.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LENGTHS = [5, 10, 20, 30, 40, 50, 60];

const settings = {
  cell: 'gru',
  hidden: 64,
  embedding: 32,
  steps: 1200,
  batch: 32,
  lr: 3e-3,
  clip: 1,
  seed: 1,
  count: 200,
  out: join(root, 'docs/long-sequence.md'),
};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  const key = argv[i].replace(/^--/, '');
  if (!(key in settings) || i + 1 >= argv.length) {
    console.error(`usage: node scripts/long-sequence.mjs [--${Object.keys(settings).join(' N] [--')} N]`);
    process.exit(2);
  }
  settings[key] = typeof settings[key] === 'number' ? Number(argv[i + 1]) : argv[i + 1];
}

const taskOptions = { minLen: 5, maxLen: 60 };
const config = (attention) => ({
  task: 'reverse',
  taskOptions,
  cell: settings.cell,
  hidden: settings.hidden,
  embedding: settings.embedding,
  attention,
  score: 'dot',
  seed: settings.seed,
  batchSize: settings.batch,
  learningRate: settings.lr,
  clipNorm: settings.clip,
});

const lab = await loadAttentionLab();
const seconds = (ms) => (ms / 1000).toFixed(1);
const pct = (x) => (100 * x).toFixed(1);

function run(attention) {
  const name = attention ? 'attention' : 'plain';
  const model = lab.createSeq2Seq(config(attention));
  try {
    const t0 = performance.now();
    const chunk = Math.max(1, Math.ceil(settings.steps / 5));
    let last = [];
    for (let done = 0; done < settings.steps; ) {
      const n = Math.min(chunk, settings.steps - done);
      const r = model.train(n);
      done = r.step;
      last = Array.from(r.losses.slice(-Math.min(50, n)));
      const mean = last.reduce((s, x) => s + x, 0) / last.length;
      console.error(`  ${name}: step ${done}/${settings.steps}, loss ${mean.toFixed(3)}, ` +
        `${seconds(performance.now() - t0)} s`);
    }
    const trainMs = performance.now() - t0;
    const finalLoss = last.reduce((s, x) => s + x, 0) / last.length;
    const t1 = performance.now();
    const byLength = LENGTHS.map((length) => model.evaluate({ length, count: settings.count, seed: 1 }));
    const evalMs = performance.now() - t1;
    return { name, info: model.info(), trainMs, evalMs, finalLoss, byLength };
  } finally {
    model.delete();
  }
}

const start = performance.now();
console.error(`reverse, lengths ${taskOptions.minLen}–${taskOptions.maxLen}: training plain and attention models …`);
const plain = run(false);
const attn = run(true);
const totalMs = performance.now() - start;

const rows = LENGTHS.map((length, i) =>
  `| ${length} | ${pct(plain.byLength[i].tokenAccuracy)} | ${pct(attn.byLength[i].tokenAccuracy)} | ` +
  `${pct(plain.byLength[i].exactMatch)} | ${pct(attn.byLength[i].exactMatch)} |`);
// Which letters are lost: token accuracy by the letter's place in the source, in fifths (first
// fifth: read first). Reversing, target position t copies source position length − 1 − t.
const FIFTHS_AT = LENGTHS.filter((l) => l >= 40);
const fifths = (r, length) => {
  const bySource = r.tokenAccuracyByPosition.slice(0, length).reverse();
  return [0, 1, 2, 3, 4].map((i) => {
    const part = bySource.slice((i * length) / 5, ((i + 1) * length) / 5);
    return part.reduce((a, x) => a + x, 0) / part.length;
  });
};
const fifthRows = FIFTHS_AT.flatMap((length) => {
  const i = LENGTHS.indexOf(length);
  return [[plain, 'plain'], [attn, 'attention']].map(([m, name]) => `| ${length} | ${name} | ${fifths(m.byLength[i], length).map(pct).join(' | ')} |`);
});
const s = settings;
const md = `# Long sequences: a fixed-size context against attention

The note's §1 problem, measured (the shape of Bahdanau et al. 2015, Fig. 2): a plain
encoder-decoder must squeeze the whole source into its last hidden state, and fails as the
sequences grow; with attention the decoder reads every encoder state and keeps working.

Regenerate with \`node scripts/long-sequence.mjs\` (after \`npm run build:wasm\`); this file is its
output. Task \`reverse\`: a string of letters → the same string reversed, trained on strings of
${taskOptions.minLen}–${taskOptions.maxLen} symbols, evaluated on ${s.count} fresh strings of exactly each length (the same
strings for both models, none from the training set).

| length | plain token acc (%) | attention token acc (%) | plain exact (%) | attention exact (%) |
|---:|---:|---:|---:|---:|
${rows.join('\n')}

Which symbols are lost: the token accuracy (%) by where the symbol stood in the source, in fifths
(the first fifth was read first; reversing, the decoder writes it last):

| length | model | 1st fifth | 2nd | 3rd | 4th | 5th |
|---:|---|---:|---:|---:|---:|---:|
${fifthRows.join('\n')}

- **token acc**: teacher-forced, the fraction of target symbols (and the final \`<eos>\`) whose
  argmax is right. **exact**: greedy decoding, the whole output string equals the reversed source.
  Chance level for a symbol is 1/${plain.info.taskOptions.symbols}.
- Both models: ${s.cell.toUpperCase()} encoder and decoder, hidden ${s.hidden}, embedding ${s.embedding}; the attention
  model adds dot-product (Luong) attention over the encoder outputs, and its output layer reads
  [decoder state; context] (${attn.info.parameterCount} parameters against ${plain.info.parameterCount}).
- Training: ${s.steps} Adam steps, lr ${s.lr}, gradient norm clipped to ${s.clip}, batch ${s.batch},
  ${plain.info.taskOptions.symbols} symbols, ${plain.info.taskOptions.train || 10000} training strings, seed ${s.seed} (weights, data and batches),
  identical batches for both models. Final training loss (mean of the last 50 steps): plain
  ${plain.finalLoss.toFixed(3)}, attention ${attn.finalLoss.toFixed(3)}.
- Wall time (wasm in Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, shared machine):
  plain ${seconds(plain.trainMs)} s training + ${seconds(plain.evalMs)} s evaluation, attention
  ${seconds(attn.trainMs)} s + ${seconds(attn.evalMs)} s; ${seconds(totalMs)} s in all.

Reading it: the plain model does well only on short strings (reversing 5 symbols needs only the
last few inputs, which its final state remembers best) and falls towards chance as the strings
grow: the ${s.hidden} numbers of its last state do not hold a string of 60 symbols. What it keeps best is
the back of the source, read last: on the last fifth its accuracy is about twice that on the
first three, whose symbols every later one has overwritten in the same ${s.hidden} numbers ("read
the back, forget the front"). The attention model's token accuracy
barely moves with length. Its exact match still falls, because one wrong symbol spoils a whole
string: at a per-symbol accuracy p, a string of n symbols is right about p^(n+1) of the time.

The settings: GRU, hidden 64, lr 3e-3 with clipping showed the expected shape at the first try;
the step count is what fits in ~5 minutes of wasm on two shared cores. The attention model is
still learning at the end (more steps raise its exact match at 40–60 symbols); the plain
model's loss also still creeps down, but from far higher, and in a native run of the same
settings its accuracy at 30–60 symbols gained only a few points between 900 and 1200 steps.

The figures are deterministic for a given build (seeded weights, data and batches), but over 1200
steps a change in the core's float summation order (another kernel, compiler or SIMD width) moves
them by a point or two; the shape does not move.
`;

console.log(md);
if (s.out !== '-') {
  writeFileSync(s.out, md);
  console.error(`wrote ${relative(process.cwd(), s.out) || s.out}`);
}
