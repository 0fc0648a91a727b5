#!/usr/bin/env node
// Plain against attention Seq2Seq on the zh-en grammar task, side by side in one run, in wasm
// under Node: training time, alignment accuracy (attention argmax on the aligned source word, held
// out) and exact match overall and by source length. The recipe is §3.3's default
// (web/src/sections/translate-train.ts, RECIPES['zh-en']).
//
//   node scripts/alignment.mjs [--steps 800] [--cell gru] [--hidden 64] [--lr 0.01] [--batch 32]
//                              [--score dot] [--seed 1] [--every 200] [--variant seq2seq]
import { parseArgs } from 'node:util';
import { loadAttentionLab } from '../wasm/js/attention-lab.mjs';
import { pct, printTable, trainSideBySide } from './side-by-side.mjs';

const { values: o } = parseArgs({
  options: {
    steps: { type: 'string', default: '800' },
    cell: { type: 'string', default: 'gru' },
    hidden: { type: 'string', default: '64' },
    lr: { type: 'string', default: '0.01' },
    batch: { type: 'string', default: '32' },
    score: { type: 'string', default: 'dot' },
    seed: { type: 'string', default: '1' },
    every: { type: 'string', default: '200' },
    variant: { type: 'string', default: 'seq2seq' },
  },
});
const steps = Number(o.steps);
const every = Number(o.every);
const lab = await loadAttentionLab({ variant: o.variant });
const base = { task: 'zh-en', cell: o.cell, hidden: Number(o.hidden), learningRate: Number(o.lr), batchSize: Number(o.batch), seed: Number(o.seed) };
const models = [
  { name: 'plain', model: lab.createSeq2Seq({ ...base, attention: false }) },
  { name: `attention (${o.score})`, model: lab.createSeq2Seq({ ...base, attention: true, score: o.score }) },
];

const rows = trainSideBySide(models, steps, every, (m, done, ev) => [
  m.name, done, m.seconds.toFixed(1), pct(ev.alignmentAccuracy), pct(ev.exactMatch),
  ...ev.exactMatchByLength.map((b) => pct(b.exactMatch)),
]);
const buckets = models[0].final.exactMatchByLength;
const header = ['model', 'steps', 'train s', 'alignment', 'exact match', ...buckets.map((b) => `EM ${b.minLength}–${b.maxLength} (${b.examples})`)];
console.log(`zh-en, ${o.cell.toUpperCase()} ${o.hidden}, lr ${o.lr}, batch ${o.batch}, seed ${o.seed}, wasm (${o.variant}) in Node ${process.version}; ${models[0].final.examples} held-out sentences`);
printTable(header, rows);
for (const m of models) m.model.delete();
