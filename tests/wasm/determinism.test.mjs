// Determinism: the same seed gives bit-identical losses twice in wasm, and the wasm build trains
// like the native one (build/native/seq2seq_losses, built by `npm run build:native`): every loss
// of a run within 1e-4 relative. The two builds differ only in the order of float additions
// (SIMD widths), so they drift apart slowly; a real difference (a wrong formula, other data,
// another initialisation) shows at the first step.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';

const NATIVE = new URL('../../build/native/seq2seq_losses', import.meta.url).pathname;

let lab;
before(async () => {
  lab = await loadAttentionLab();
  assert.ok(existsSync(NATIVE), `${NATIVE} is missing: run \`npm run build:native\` first`);
});

const RUNS = [
  { task: 'note', cell: 'rnn', hidden: 128, score: 'dot', batchSize: 1, learningRate: 1e-3, steps: 60, seed: 1 },
  { task: 'dates', cell: 'lstm', hidden: 32, score: 'dot', batchSize: 16, learningRate: 3e-3, steps: 30, seed: 2 },
  { task: 'reverse', cell: 'gru', hidden: 24, score: 'additive', batchSize: 8, learningRate: 3e-3, steps: 30, seed: 3 },
  { task: 'copy', cell: 'gru', hidden: 24, score: 'none', batchSize: 8, learningRate: 3e-3, steps: 30, seed: 4 },
];

function wasmLosses(run) {
  const { steps, score, ...config } = run;
  const model = lab.createSeq2Seq({ ...config, attention: score !== 'none', ...(score !== 'none' && { score }) });
  try {
    return Array.from(model.train(steps).losses);
  } finally {
    model.delete();
  }
}

function nativeLosses(run) {
  const args = [run.task, run.cell, run.hidden, run.score, run.batchSize, run.learningRate, run.steps, run.seed].map(String);
  return JSON.parse(execFileSync(NATIVE, args, { encoding: 'utf8' })).losses;
}

for (const run of RUNS) {
  test(`${run.task}, ${run.cell}, ${run.score}: wasm repeats itself bit for bit and matches native within 1e-4`, () => {
    const wasm = wasmLosses(run);
    assert.deepEqual(wasmLosses(run), wasm, 'two wasm runs with the same seed');
    const native = nativeLosses(run);
    assert.equal(native.length, run.steps);
    native.forEach((expected, i) => {
      const actual = wasm[i];
      assert.ok(Math.abs(actual - expected) <= 1e-4 * Math.max(1, Math.abs(expected)),
        `step ${i + 1}: wasm ${actual}, native ${expected}`);
    });
  });
}
