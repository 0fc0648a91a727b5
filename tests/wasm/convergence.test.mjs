// Convergence on the dates task through the JS API, the same config as the native
// tests/native/test_seq2seq_convergence.cpp: the TensorFlow.js date-conversion-attention
// example's architecture (embedding 64, LSTM 64 encoder and decoder, dot attention, concat →
// tanh dense 64 → softmax, Adam, batch 128), with lr 5e-3 and the gradient norm clipped to 1
// (the peer uses 1e-3: same architecture, ~2× fewer steps; see the native test's header).
// After 300 steps the greedy translation of ≥ 98 % of the 2000 held-out dates must be exactly
// the ISO date, for seeds 1 and 2.
//
// Seeded and deterministic: the first step's loss is the native build's up to float rounding
// (later losses drift apart by rounding, so only the bar is asserted, not the losses).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { withSession } from './case-runner.mjs';

const STEPS = 300;
const BAR = 0.98;
// The native build's first-step loss for each seed (same weights, same first batch).
const NATIVE_FIRST_LOSS = { 1: 2.727919, 2: 2.712083 };

let lab;
before(async () => {
  lab = await loadAttentionLab();
});

const datesConfig = (seed) => ({
  task: 'dates',
  cell: 'lstm',
  hidden: 64,
  embedding: 64,
  attention: true,
  score: 'dot',
  attentionalTanh: true,
  seed,
  batchSize: 128,
  learningRate: 5e-3,
  clipNorm: 1,
});

for (const seed of [1, 2]) {
  test(`dates, seed ${seed}: ≥ 98 % exact match on the 2000 held-out dates after ${STEPS} steps`, () => withSession(lab, datesConfig(seed), (m) => {
    const t0 = performance.now();
    const { losses, step } = m.train(STEPS);
    const t1 = performance.now();
    const ev = m.evaluate();
    const t2 = performance.now();
    console.log(
      `dates seed ${seed}: losses ${Array.from(losses.slice(0, 3), (x) => x.toFixed(6)).join(' ')} … ` +
        `${losses[STEPS - 1].toFixed(6)}; exact match ${ev.exactMatch.toFixed(4)}, token accuracy ` +
        `${ev.tokenAccuracy.toFixed(4)}; train ${((t1 - t0) / 1000).toFixed(1)} s, evaluate ` +
        `${((t2 - t1) / 1000).toFixed(1)} s`,
    );
    assert.equal(step, STEPS);
    assert.equal(ev.examples, 2000);
    assert.equal(ev.heldOutIsTrainingData, false);
    const expected = NATIVE_FIRST_LOSS[seed];
    assert.ok(Math.abs(losses[0] - expected) <= 1e-4 * expected,
      `first loss ${losses[0]} differs from the native build's ${expected}: not the same config?`);
    assert.ok(losses[STEPS - 1] < 0.05 * losses[0], `loss only fell from ${losses[0]} to ${losses[STEPS - 1]}`);
    assert.ok(ev.exactMatch >= BAR, `exact match ${ev.exactMatch} < ${BAR} after ${STEPS} steps`);
  }));
}
