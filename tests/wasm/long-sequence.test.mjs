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

  // Letter by letter: target position t of a reversed string copies source position L − 1 − t.
  // The plain model loses the source's front (read first, written last) and keeps its back; with
  // attention every part is about as good.
  const frontAndBack = (r) => {
    const byPosition = r.atLength.tokenAccuracyByPosition;
    assert.equal(byPosition.length, LENGTH + 1, 'a position per letter and one for <eos>');
    const source = byPosition.slice(0, LENGTH).reverse(); // by source position, front first
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    // every example has every position: the token accuracy is their mean
    assert.ok(Math.abs(mean(byPosition) - r.atLength.tokenAccuracy) < 1e-9, `${mean(byPosition)} vs ${r.atLength.tokenAccuracy}`);
    const fifth = LENGTH / 5;
    return { front: mean(source.slice(0, fifth)), back: mean(source.slice(-fifth)) };
  };
  const p = frontAndBack(plain), a = frontAndBack(attn);
  console.log(`by source position, first and last fifth: plain ${p.front.toFixed(3)} / ${p.back.toFixed(3)}, attention ${a.front.toFixed(3)} / ${a.back.toFixed(3)}`);
  assert.ok(p.back > 2 * p.front, `plain: front ${p.front}, back ${p.back}`);
  assert.ok(a.front > p.front + MARGIN, `front: attention ${a.front}, plain ${p.front}`);
});

test('evaluate: the token accuracy by target position, over the examples long enough to have it', () => {
  withSession(lab, { task: 'reverse', taskOptions: { minLen: 3, maxLen: 9, train: 200, heldOut: 50 }, cell: 'gru', hidden: 8, embedding: 8, seed: 2 }, (m) => {
    m.train(20);
    const r = m.evaluate();
    // held-out strings of 3 … 9 letters: positions 0 … 9 (the longest's <eos>), each in [0, 1]
    assert.equal(r.tokenAccuracyByPosition.length, 10);
    assert.ok(r.tokenAccuracyByPosition.every((x) => x >= 0 && x <= 1), JSON.stringify(r.tokenAccuracyByPosition));
  });
});
