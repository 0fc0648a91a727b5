// The attention-only module (loadAttentionLab({ variant: 'attention' })) must compute exactly what
// the full module computes: run the same reference and bad-input suites against it (the imported
// files read `variant` from their URL), then check what only the variants tell apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab, tensor } from '../../wasm/js/attention-lab.mjs';
import './reference.test.mjs?variant=attention';
import './errors.test.mjs?variant=attention';

test('each variant loads once, as its own module instance', async () => {
  const [full, small] = await Promise.all([loadAttentionLab(), loadAttentionLab({ variant: 'attention' })]);
  assert.equal(await loadAttentionLab({ variant: 'full' }), full);
  assert.equal(await loadAttentionLab({ variant: 'attention' }), small);
  assert.notEqual(full, small);
  assert.equal(typeof full.createSeq2Seq, 'function');
  assert.equal(small.createSeq2Seq, undefined);
  assert.equal(small.loadSeq2Seq, undefined);
  assert.equal(small.createSeq2SeqModel, undefined);
  // No widget calls the ops, so the attention build leaves their bindings out (CMakeLists.txt).
  assert.equal(typeof full.ops.linear, 'function');
  assert.equal(small.ops, undefined);
});

test('both variants give bit-identical attention results', async () => {
  const [full, small] = await Promise.all([loadAttentionLab(), loadAttentionLab({ variant: 'attention' })]);
  const values = (n, seed) => Array.from({ length: n }, (_, i) => Math.sin(seed * 7.1 + i * 1.3));
  const args = {
    query: tensor([2, 5, 8], values(80, 1)),
    key: tensor([2, 7, 8], values(112, 2)),
    value: tensor([2, 7, 8], values(112, 3)),
    gradOutput: tensor([2, 5, 8], values(80, 4)),
  };
  const a = full.attention(args), b = small.attention(args);
  assert.deepEqual(Array.from(b.output.data), Array.from(a.output.data));
  assert.deepEqual(Array.from(b.weights.data), Array.from(a.weights.data));
  for (const name of ['query', 'key', 'value']) {
    assert.deepEqual(Array.from(b.grads[name].data), Array.from(a.grads[name].data), name);
  }
});

test('an unknown variant is a clear Error and loading still works afterwards', async () => {
  await assert.rejects(loadAttentionLab({ variant: 'tiny' }), /unknown variant "tiny": use 'full', 'attention', 'seq2seq', 'transformer' or 'gpt'/);
  await assert.rejects(loadAttentionLab({ variant: '<b>x</b>' }), /unknown variant/);
  const small = await loadAttentionLab({ variant: 'attention' });
  const r = small.attention({ query: tensor([1, 1, 2], [0, 0]), key: tensor([1, 2, 2], [1, 2, 3, 4]), value: tensor([1, 2, 2], [1, 2, 3, 4]) });
  assert.deepEqual(Array.from(r.weights.data), [0.5, 0.5]);
});

// The attention build uses emmalloc (CMakeLists.txt), not the full build's dlmalloc: the same leak
// check as memory.test.mjs, on this allocator (mallinfo() must still report the bytes in use).
test('the attention build leaks nothing over 3 000 calls, errors included', async () => {
  const small = await loadAttentionLab({ variant: 'attention' });
  const ones = (shape) => tensor(shape, new Array(shape.reduce((a, b) => a * b, 1)).fill(0.25));
  const x = ones([2, 5, 8]);
  const params = Object.fromEntries(['q', 'k', 'v', 'o'].flatMap((n) => [[`w${n}`, ones([8, 8])], [`b${n}`, ones([8])]]));
  const round = () => {
    small.attention({ query: x, key: x, value: x, gradOutput: x });
    small.multiHeadAttention(x, params, 2, { mask: { causal: true }, gradOutput: x });
    assert.throws(() => small.attention({ query: x, key: ones([2, 5, 3]), value: x }), /key has 3 features but query has 8/);
  };
  round();
  const before = small.memoryStats();
  assert.ok(before.heapUsed > 0, 'mallinfo() reports the bytes in use');
  for (let i = 0; i < 1000; i++) round();
  const after = small.memoryStats();
  assert.equal(after.heapUsed, before.heapUsed, 'malloc bytes in use');
  assert.equal(after.handles, before.handles, 'live embind handles');
  assert.equal(after.memorySize, before.memorySize, 'wasm memory grew');
});
