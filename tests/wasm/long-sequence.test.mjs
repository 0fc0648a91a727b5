// The qualitative claim of docs/long-sequence.md (scripts/long-sequence.mjs), small and fast:
// on the reverse task a plain encoder-decoder, whose only view of the source is its last hidden
// state, falls far behind the same model with attention on long strings. Two GRUs differing only
// in `attention`, same seed, data and batches, trained briefly on strings of 5–30 symbols, then
// evaluated on the same 100 fresh strings of exactly 30 symbols.
//
// It can fail: if attention did not reach the decoder's output (a context of zeros, wrong
// weights, a mask hiding the source), the two models would score alike and the margin would go.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { withSession } from './case-runner.mjs';

const STEPS = 150;
const LENGTH = 30;
const MARGIN = 0.3; // attention's token accuracy must exceed plain's by 30 points at length 30 (seen: ~50)

let lab;
before(async () => {
  lab = await loadAttentionLab();
});

function trainAndEvaluate(attention) {
  const config = {
    task: 'reverse',
    taskOptions: { minLen: 5, maxLen: LENGTH, train: 5000, heldOut: 100 },
    cell: 'gru',
    hidden: 32,
    embedding: 16,
    attention,
    score: 'dot',
    seed: 1,
    batchSize: 32,
    learningRate: 1e-2,
    clipNorm: 1,
  };
  return withSession(lab, config, (m) => {
    const { losses } = m.train(STEPS);
    assert.ok(losses.every(Number.isFinite));
    const atLength = m.evaluate({ length: LENGTH, count: 100, seed: 1 });
    const short = m.evaluate({ length: 5, count: 100, seed: 1 });
    return { atLength, short, loss: losses[STEPS - 1] };
  });
}

test(`reverse at length ${LENGTH}: attention beats a plain encoder-decoder by > ${100 * MARGIN} points of token accuracy`, () => {
  const plain = trainAndEvaluate(false);
  const attn = trainAndEvaluate(true);
  console.log(
    `after ${STEPS} steps: token accuracy at length ${LENGTH}: plain ${plain.atLength.tokenAccuracy.toFixed(3)}, ` +
      `attention ${attn.atLength.tokenAccuracy.toFixed(3)}; at length 5: plain ${plain.short.tokenAccuracy.toFixed(3)}, ` +
      `attention ${attn.short.tokenAccuracy.toFixed(3)}`,
  );
  assert.equal(attn.atLength.examples, 100);
  // Both models learned something (above the 1/20 chance level) at the short end …
  assert.ok(plain.short.tokenAccuracy > 0.2, `plain model did not train: ${plain.short.tokenAccuracy}`);
  // … but only attention holds up at length 30.
  assert.ok(
    attn.atLength.tokenAccuracy > plain.atLength.tokenAccuracy + MARGIN,
    `attention ${attn.atLength.tokenAccuracy} vs plain ${plain.atLength.tokenAccuracy} at length ${LENGTH}`,
  );
  // The plain model degrades with length; it is the fixed-size context that fails.
  assert.ok(plain.atLength.tokenAccuracy < plain.short.tokenAccuracy - 0.1,
    `plain: ${plain.short.tokenAccuracy} at 5 vs ${plain.atLength.tokenAccuracy} at ${LENGTH}`);
});
