// Part 4 of `npm run bench`: training time per example as the hidden size (32 … 512, length 20)
// and the sequence length (5 … 60, hidden 128) grow. Reverse task (strings of exactly that
// length), LSTM, embedding 64, dot attention, batch 32, Adam 1e-3; the same configurations as
// bench_native scaling (bench_seq2seq.cpp), same timing: one step sizes blocks of ≥ 0.1 s,
// one warm-up block, 5 timed blocks.
import { fmt, runNative, spread, stats, table } from './common.mjs';

export const HIDDENS = [32, 64, 128, 256, 512];
export const LENGTHS = [5, 10, 20, 40, 60];

function config(hidden, length) {
  return { task: 'reverse', taskOptions: { seed: 1, minLen: length, maxLen: length, train: 2000, heldOut: 10 }, cell: 'lstm', hidden, embedding: 64, attention: true, score: 'dot', batchSize: 32, seed: 1 };
}

function wasmStep(create, hidden, length, scale) {
  const model = create(config(hidden, length));
  try {
    let t0 = performance.now();
    model.train(1);
    const first = (performance.now() - t0) / 1000;
    const block = Math.max(1, Math.floor((0.1 * scale) / Math.max(first, 1e-6)));
    model.train(block);
    const samples = [];
    for (let r = 0; r < 5; r++) {
      t0 = performance.now();
      model.train(block);
      samples.push((performance.now() - t0) / 1000 / block);
    }
    return stats(samples);
  } finally {
    model.delete();
  }
}

export function scalingPart(create, nativeBinary, scale) {
  const native = runNative(nativeBinary, ['scaling', scale]);
  const rows = native.map((n) => ({ sweep: n.sweep, hidden: n.hidden, length: n.length, batch: 32,
    native: { median_s: n.median_s, min_s: n.min_s, max_s: n.max_s },
    wasm: wasmStep(create, n.hidden, n.length, scale) }));
  const perExample = (m) => `${fmt((m.median_s / 32) * 1e6, 0)} ± ${spread(m)}`;
  for (const sweep of ['hidden', 'length']) {
    table(sweep === 'hidden' ? 'Scaling: training time per example against hidden size (length 20)' : 'Scaling: training time per example against sequence length (hidden 128)',
      'Reverse task, LSTM, embedding 64, dot attention, batch 32, Adam 1e-3. µs per example, median ± spread.',
      [sweep === 'hidden' ? 'hidden' : 'length', 'native µs', 'wasm µs', 'wasm / native'],
      rows.filter((r) => r.sweep === sweep).map((r) => [sweep === 'hidden' ? r.hidden : r.length, perExample(r.native), perExample(r.wasm), fmt(r.wasm.median_s / r.native.median_s, 2)]));
  }
  return rows;
}
