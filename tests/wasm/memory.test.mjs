// No leaks across the JS boundary: 10 000 API calls (successes and errors alike) and 10 000
// training steps leave malloc's bytes in use and embind's live handles where they were, and wasm
// memory stops growing after the first calls.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab, tensor } from '../../wasm/js/attention-lab.mjs';
import { assertPassesLeakNothing } from './case-runner.mjs';

let lab;
before(async () => {
  lab = await loadAttentionLab();
});

const ones = (shape) => tensor(shape, new Array(shape.reduce((a, b) => a * b, 1)).fill(0.25));
const proj = (D) => Object.fromEntries(['q', 'k', 'v', 'o'].flatMap((n) => [[`w${n}`, ones([D, D])], [`b${n}`, ones([D])]]));

// Runs `round` once to warm up (first-use allocations: embind's type tables, Eigen's scratch),
// then `times` more, and returns the stats before and after the measured calls.
function measure(round, times) {
  round();
  const before = lab.memoryStats();
  for (let i = 0; i < times; i++) round();
  return { before, after: lab.memoryStats() };
}

test('10 000 attention, multi-head and op calls, half of them errors, leak nothing', () => {
  const x = ones([2, 5, 8]);
  const params = proj(8);
  const { before, after } = measure(() => {
    lab.attention({ query: x, key: x, value: x, score: 'additive', params: { w1: ones([3, 8]), w2: ones([3, 8]), b: ones([3]), v: ones([3]) }, gradOutput: x });
    lab.multiHeadAttention(x, params, 2, { mask: { causal: true }, gradOutput: x });
    lab.ops.crossEntropy(ones([3, 4]), { shape: [3], data: [1, 2, 3] }, { gradOutput: 1 });
    assert.throws(() => lab.attention({ query: x, key: ones([2, 5, 3]), value: x }), /key has 3 features but query has 8/);
    assert.throws(() => lab.multiHeadAttention(x, params, 3), /numHeads 3 does not divide the 8 features of x/);
  }, 2000);
  assert.equal(after.heapUsed, before.heapUsed, 'malloc bytes in use');
  assert.equal(after.handles, before.handles, 'live embind handles');
  assert.equal(after.memorySize, before.memorySize, 'wasm memory grew');
});

test('10 000 training steps and 1 000 translations leak nothing; sessions free their memory', () => {
  const start = lab.memoryStats();
  const model = lab.createSeq2Seq({ task: 'note', cell: 'gru', hidden: 16, seed: 3 });
  // Warm-up: the first training steps and translations allocate the session's scratch buffers.
  model.train(100);
  model.translate('咖哥 喜欢 小冰');
  model.translate('我 爱 学习 人工智能', { beam: 3 });
  // Three identical passes of ~3 300 steps and ~330 translations (10 000 and 1 000 in all): a leak
  // of even one byte per call would add more than 3 KB per pass.
  assertPassesLeakNothing(lab, start, model, () => {
    for (let i = 0; i < 33; i++) model.train(101);
    for (let i = 0; i < 167; i++) {
      model.translate('咖哥 喜欢 小冰');
      model.translate('我 爱 学习 人工智能', { beam: 3 });
    }
  });
});
