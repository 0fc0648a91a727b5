#!/usr/bin/env node
// The Transformer on the dates task, in wasm under Node: held-out exact match against seconds of
// training, and the time per training step. Trains one model through the package API
// (lab.createSeq2Seq({arch: 'transformer', task: 'dates'})), and every --every seconds of
// training (the clock runs only inside train(); evaluation is not counted) evaluates greedy
// exact match on the task's 2000 held-out dates (never trained on). Prints a markdown table.
//
//   node scripts/transformer-dates.mjs                     # the defaults below, 60 s of training
//   node scripts/transformer-dates.mjs --seconds 150 --every 15 --d-model 64 --d-ff 128
// The defaults (pre-norm, dModel 32, peak lr 1e-2 after 200 warm-up steps) learned fastest per
// second of the settings tried (docs/transformer.md lists them and the figures).
// Options: --seconds S  --every S  --layers N  --heads N  --d-model N  --d-ff N  --warmup N
//          --lr X  --batch N  --clip X  --seed N  --norm-first 0|1  --examples N (held-out
//          examples per evaluation; default all 2000). Needs `bash scripts/build-wasm.sh`.
import { cpus } from 'node:os';
import { loadAttentionLab } from '../wasm/js/attention-lab.mjs';

const settings = {
  seconds: 60,
  every: 5,
  layers: 2,
  heads: 4,
  'd-model': 32,
  'd-ff': 64,
  warmup: 200,
  lr: 1e-2,
  batch: 32,
  clip: 1,
  seed: 1,
  'norm-first': 1,
  examples: 2000,
};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  const key = argv[i].replace(/^--/, '');
  if (!(key in settings) || argv[i + 1] === undefined || !Number.isFinite(Number(argv[i + 1]))) {
    console.error(`unknown option or value: ${argv[i]} ${argv[i + 1] ?? ''}\noptions: ${Object.keys(settings).map((k) => `--${k}`).join(' ')}`);
    process.exit(2);
  }
  settings[key] = Number(argv[i + 1]);
}

const lab = await loadAttentionLab();
const model = lab.createSeq2Seq({
  arch: 'transformer', task: 'dates', layers: settings.layers, heads: settings.heads, dModel: settings['d-model'],
  dFF: settings['d-ff'], normFirst: settings['norm-first'] === 1, warmup: settings.warmup, learningRate: settings.lr,
  batchSize: settings.batch, clipNorm: settings.clip, seed: settings.seed,
});
const info = model.info();
console.log(`# The Transformer on dates (wasm, Node ${process.version}, ${cpus()[0]?.model ?? 'cpu'})\n`);
console.log(`${info.layers} layers, ${info.heads} heads, dModel ${info.dModel}, dFF ${info.dFF}, ${info.normFirst ? 'pre' : 'post'}-norm, ` +
  `${info.parameterCount.toLocaleString('en-US')} parameters; batch ${info.batchSize}, Adam peak lr ${settings.lr} ` +
  `after ${info.warmup} warm-up steps, clip ${settings.clip}, seed ${info.seed}\n`);
console.log('| training s | steps | ms / step | train loss (last 50) | held-out exact match | held-out token acc |');
console.log('|---:|---:|---:|---:|---:|---:|');

let trainMs = 0, steps = 0, chunk = 5, nextEval = settings.every * 1000, first98 = null, evaluatedAt = -1;
const recent = [];
const evalRow = () => {
  const ev = model.evaluate(settings.examples < 2000 ? { maxExamples: settings.examples } : undefined);
  const loss = recent.reduce((a, b) => a + b, 0) / Math.max(1, recent.length);
  console.log(`| ${(trainMs / 1000).toFixed(1)} | ${steps} | ${(trainMs / steps).toFixed(2)} | ${loss.toFixed(4)} | ` +
    `${(100 * ev.exactMatch).toFixed(1)}% | ${(100 * ev.tokenAccuracy).toFixed(1)}% |`);
  if (first98 === null && ev.exactMatch >= 0.98) first98 = { seconds: trainMs / 1000, steps };
  evaluatedAt = steps;
};
while (trainMs < settings.seconds * 1000) {
  const t0 = performance.now();
  const r = model.train(chunk);
  const ms = performance.now() - t0;
  trainMs += ms;
  steps += r.losses.length;
  for (const l of r.losses) recent.push(l);
  recent.splice(0, Math.max(0, recent.length - 50));
  chunk = Math.max(1, Math.min(200, Math.round((chunk * 250) / Math.max(ms, 1)))); // ~0.25 s chunks
  if (trainMs >= nextEval) {
    evalRow();
    nextEval += settings.every * 1000;
  }
}
if (evaluatedAt !== steps) evalRow();
console.log(`\n${first98 ? `≥ 98% held-out exact match first seen after ${first98.seconds.toFixed(1)} s of training (${first98.steps} steps)` : 'never reached 98% held-out exact match'}; ` +
  `${(trainMs / steps).toFixed(2)} ms per training step on average (${Math.round((steps * info.batchSize * 1000) / trainMs).toLocaleString('en-US')} examples/s).`);
model.delete();
