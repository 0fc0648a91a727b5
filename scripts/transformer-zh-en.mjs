#!/usr/bin/env node
// The Transformer against the RNN with attention on §3.3's corpus (task 'zh-en'), each at its
// defaults, side by side in one run, in wasm under Node: held-out exact match overall and by
// source length (the task's buckets), and the seconds of training. The RNN with attention is
// §3.3's recipe (a GRU of 64 with dot attention, lr 0.01, batch 32: web/src/sections/
// translate-recipes.ts, as in scripts/alignment.mjs); the Transformer takes the session's
// defaults for zh-en (transformer/session.h's transformer_session_defaults). Both train the same
// number of steps, interleaved in blocks so that both see the same machine load.
//
//   node scripts/transformer-zh-en.mjs [--steps 800] [--every 200] [--seed 1]
// The last line says whether the Transformer's exact match on the longest sentences is at least
// the RNN with attention's. Needs `bash scripts/build-wasm.sh`.
import { parseArgs } from 'node:util';
import { loadAttentionLab } from '../wasm/js/attention-lab.mjs';
import { pct, printTable, trainSideBySide } from './side-by-side.mjs';

const { values: o } = parseArgs({
  options: {
    steps: { type: 'string', default: '800' },
    every: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
  },
});
const steps = Number(o.steps), every = Number(o.every), seed = Number(o.seed);
for (const [name, v] of [['steps', steps], ['every', every], ['seed', seed]]) {
  if (!Number.isInteger(v) || v < (name === 'seed' ? 0 : 1)) {
    console.error(`--${name} must be a whole number${name === 'seed' ? '' : ' ≥ 1'} (got '${o[name]}')`);
    process.exit(2);
  }
}

const lab = await loadAttentionLab();
const models = [
  { name: 'RNN with attention (GRU 64, dot)', model: lab.createSeq2Seq({ task: 'zh-en', cell: 'gru', hidden: 64, attention: true, score: 'dot', learningRate: 0.01, batchSize: 32, seed }) },
  { name: 'Transformer', model: lab.createSeq2Seq({ arch: 'transformer', task: 'zh-en', seed }) },
];
const t = models[1].model.info();
const rows = trainSideBySide(models, steps, every, (m, done, ev) => [
  m.name, done, m.seconds.toFixed(1), pct(ev.exactMatch), ...ev.exactMatchByLength.map((b) => pct(b.exactMatch)),
]);
const buckets = models[0].final.exactMatchByLength;
const header = ['model', 'steps', 'train s', 'exact match', ...buckets.map((b) => `EM ${b.minLength}–${b.maxLength} words (${b.examples})`)];
console.log(`zh-en, ${models[0].final.examples} held-out sentences, seed ${seed}, wasm in Node ${process.version}. ` +
  `Transformer at its zh-en defaults: ${t.layers} layer${t.layers > 1 ? 's' : ''}, ${t.heads} heads, dModel ${t.dModel}, dFF ${t.dFF}, ` +
  `${t.normFirst ? 'pre' : 'post'}-norm, ${t.parameterCount.toLocaleString('en-US')} parameters, batch ${t.batchSize}, ` +
  `peak lr ${Number(t.learningRate.toPrecision(6))} after ${t.warmup} warm-up steps; RNN with attention: ` +
  `${models[0].model.info().parameterCount.toLocaleString('en-US')} parameters.`);
printTable(header, rows);
const longest = (m) => m.final.exactMatchByLength[m.final.exactMatchByLength.length - 1];
const [rnn, tf] = models.map(longest);
console.log(`\nLongest sentences (${rnn.minLength}–${rnn.maxLength} words, ${rnn.examples} held out): Transformer ${pct(tf.exactMatch)}, ` +
  `RNN with attention ${pct(rnn.exactMatch)}: goal ${tf.exactMatch >= rnn.exactMatch ? 'met' : 'NOT met'} on this run ` +
  `(the Transformer's exact match there at least the RNN with attention's).`);
for (const m of models) m.model.delete();
