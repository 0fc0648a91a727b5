// Bad input from JS: each call must throw a JS Error whose message names the problem, and the
// module must still compute correctly afterwards (checked after every case).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab, tensor } from '../../wasm/js/attention-lab.mjs';

// tests/wasm/attention-variant.test.mjs imports this file again as `?variant=attention`.
const variant = new URL(import.meta.url).searchParams.get('variant') ?? 'full';
let lab;
before(async () => {
  lab = await loadAttentionLab({ variant });
});

const ones = (shape) => tensor(shape, new Array(shape.reduce((a, b) => a * b, 1)).fill(1));
const q = tensor([1, 2, 4], [1, 0, 0, 0, 0, 1, 0, 0]);
const kv = tensor([1, 3, 4], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
const proj = (D, withOut) => {
  const p = {};
  for (const n of ['q', 'k', 'v', ...(withOut ? ['o'] : [])]) {
    p[`w${n}`] = ones([D, D]);
    p[`b${n}`] = ones([D]);
  }
  return p;
};

// A correct call whose answer is known: equal scores give uniform weights.
function assertStillWorks() {
  const r = lab.attention({ query: tensor([1, 1, 2], [0, 0]), key: ones([1, 4, 2]), value: ones([1, 4, 2]) });
  assert.deepEqual(Array.from(r.weights.data), [0.25, 0.25, 0.25, 0.25]);
}

const cases = [
  ['key features differ from query', () => lab.attention({ query: q, key: ones([1, 3, 5]), value: kv }), /key has 5 features but query has 4/],
  ['data length differs from shape', () => lab.attention({ query: { shape: [1, 2, 4], data: new Float32Array(7) }, key: kv, value: kv }), /query\.data has 7 values but shape \[1, 2, 4\] needs 8/],
  ['value positions differ from key', () => lab.attention({ query: q, key: kv, value: ones([1, 2, 4]) }), /value has 2 positions but key has 3/],
  ['batch mismatch', () => lab.attention({ query: q, key: ones([2, 3, 4]), value: ones([2, 3, 4]) }), /key has batch 2 but query has batch 1/],
  ['wrong rank', () => lab.attention({ query: ones([2, 4]), key: kv, value: kv }), /query must have 3 dimensions/],
  ['empty query sequence', () => lab.attention({ query: tensor([1, 0, 4], []), key: kv, value: kv }), /query is empty/],
  ['empty key sequence', () => lab.attention({ query: q, key: tensor([1, 0, 4], []), value: tensor([1, 0, 4], []) }), /key is empty/],
  ['NaN in query', () => lab.attention({ query: tensor([1, 2, 4], [1, 0, NaN, 0, 0, 1, 0, 0]), key: kv, value: kv }), /query contains NaN at flat index 2/],
  ['Infinity in value', () => lab.attention({ query: q, key: kv, value: tensor([1, 3, 4], [1, 0, 0, 0, 0, Infinity, 0, 0, 0, 0, 1, 0]) }), /value contains an infinite value at flat index 5/],
  ['unknown score function', () => lab.attention({ query: q, key: kv, value: kv, score: 'magic' }), /unknown score function 'magic' \(expected dot, scaled, general, additive or cosine\)/],
  ['score is not a string', () => lab.attention({ query: q, key: kv, value: kv, score: 42 }), /score must be a string/],
  ['fully masked row (padding)', () => lab.attention({ query: q, key: kv, value: kv, mask: { keyPadding: ones([1, 3]) } }), /query 0 of batch 0 has every key masked/],
  ['fully masked row (causal + padding)', () => lab.attention({ query: ones([1, 3, 4]), key: kv, value: kv, mask: { causal: true, keyPadding: tensor([1, 3], [1, 0, 0]) } }), /query 0 of batch 0 has every key masked/],
  ['key padding of the wrong shape', () => lab.attention({ query: q, key: kv, value: kv, mask: { keyPadding: ones([1, 4]) } }), /mask\.keyPadding must have shape \[1, 3\] but has shape \[1, 4\]/],
  ['general score without its weight', () => lab.attention({ query: q, key: kv, value: kv, score: 'general' }), /score 'general' needs params\.w of shape \[4, 4\]/],
  ['additive score with a mis-shaped weight', () => lab.attention({ query: q, key: kv, value: kv, score: 'additive', params: { w1: ones([3, 4]), w2: ones([3, 5]), b: ones([3]), v: ones([3]) } }), /params\.w2 must have shape \[3, 4\] but has shape \[3, 5\]/],
  ['cosine temperature of zero', () => lab.attention({ query: q, key: kv, value: kv, score: 'cosine', temperature: 0 }), /temperature must be a positive finite number/],
  ['cosine temperature NaN', () => lab.attention({ query: q, key: kv, value: kv, score: 'cosine', temperature: NaN }), /temperature must be a positive finite number/],
  ['missing query', () => lab.attention({ key: kv, value: kv }), /query is missing/],
  ['no arguments', () => lab.attention(), /attention\(\) needs \{query, key, value\}/],
  ['shape is not an array', () => lab.attention({ query: { shape: 'abc', data: [] }, key: kv, value: kv }), /query\.shape must be an array of sizes/],
  ['fractional dimension', () => lab.attention({ query: { shape: [1, 2.5, 4], data: [] }, key: kv, value: kv }), /query\.shape\[1\] must be a non-negative whole number/],
  ['negative dimension', () => lab.attention({ query: { shape: [1, -2, 4], data: [] }, key: kv, value: kv }), /query\.shape\[1\] must be a non-negative whole number/],
  ['absurdly large shape', () => lab.attention({ query: { shape: [4096, 4096, 4096], data: [] }, key: kv, value: kv }), /exceeds the limit/],
  ['data is a string', () => lab.attention({ query: { shape: [1, 2, 4], data: 'xxxxxxxx' }, key: kv, value: kv }), /query\.data must be a Float32Array or an array of numbers/],
  ['gradOutput of the wrong shape', () => lab.attention({ query: q, key: kv, value: kv, gradOutput: ones([1, 3, 4]) }), /gradOutput must have shape \[1, 2, 4\] but has shape \[1, 3, 4\]/],
  ['self-attention without wq', () => lab.selfAttention(ones([1, 3, 4]), { ...proj(4), wq: undefined }), /params\.wq is missing/],
  ['self-attention weight of the wrong size', () => lab.selfAttention(ones([1, 3, 4]), { ...proj(4), wk: ones([4, 3]) }), /params\.wk must have shape \[4, 4\] but has shape \[4, 3\]/],
  ['heads do not divide D', () => lab.multiHeadAttention(ones([1, 3, 4]), proj(4, true), 3), /numHeads 3 does not divide the 4 features of x/],
  ['zero heads', () => lab.multiHeadAttention(ones([1, 3, 4]), proj(4, true), 0), /numHeads must be a whole number >= 1/],
  ['fractional heads', () => lab.multiHeadAttention(ones([1, 3, 4]), proj(4, true), 1.5), /numHeads must be a whole number >= 1/],
  ['multi-head without the output projection', () => lab.multiHeadAttention(ones([1, 3, 4]), proj(4, false), 2), /params\.wo is missing/],
];
// Only the full build has the ops bindings (CMakeLists.txt).
const opCases = [
  ['embedding id outside the vocabulary', () => lab.ops.embedding({ shape: [2], data: [1, 9] }, ones([5, 3])), /token id 9 at position 1 is outside the vocabulary of 5/],
  ['embedding id not whole', () => lab.ops.embedding({ shape: [1], data: [0.5] }, ones([5, 3])), /ids\.data\[0\] is not a whole number/],
  ['cross-entropy target outside the vocabulary', () => lab.ops.crossEntropy(ones([2, 3]), { shape: [2], data: [1, 7] }), /target 7 at row 1 is outside the vocabulary of 3/],
  ['linear with mismatched weight', () => lab.ops.linear(ones([2, 3]), ones([4, 5])), /weight has 5 inputs but x has 3 features/],
];
if (variant === 'full') cases.push(...opCases);

for (const [name, call, message] of cases) {
  test(name, () => {
    assert.throws(call, (e) => e instanceof Error && message.test(e.message), `expected an Error matching ${message}`);
    assertStillWorks();
  });
}

test('at least 30 kinds of bad input are covered', () => {
  assert.ok(cases.length >= 30, `${cases.length} cases`);
});

test('results are copies with their own buffers, not views into wasm memory', () => {
  const r = lab.attention({ query: q, key: kv, value: kv });
  for (const t of [r.scores, r.scaled, r.weights, r.output]) {
    assert.ok(t.data instanceof Float32Array);
    assert.equal(t.data.buffer.byteLength, t.data.byteLength);
  }
  const before = Array.from(r.weights.data);
  lab.attention({ query: ones([1, 2, 4]), key: kv, value: kv }); // reuses wasm memory
  assert.deepEqual(Array.from(r.weights.data), before);
});

test('softmax stays exact for scores near 2000 that differ by ~1', { skip: variant !== 'full' && 'no ops in this build' }, () => {
  // scores 2000, 2001, 2002: weights e^0, e^1, e^2 normalised, not one-hot and not NaN
  const r = lab.ops.softmax(tensor([1, 3], [2000, 2001, 2002]));
  const z = 1 + Math.E + Math.E ** 2;
  [1 / z, Math.E / z, Math.E ** 2 / z].forEach((w, i) => assert.ok(Math.abs(r.y.data[i] - w) < 1e-3 * w));
});

test('an attention matrix too large to allocate is refused before allocation', () => {
  const big = { shape: [1, 40000, 1], data: new Float32Array(40000) };
  assert.throws(() => lab.attention({ query: big, key: big, value: big }), /the attention matrix \(B, N, M\) shape \[1, 40000, 40000\] exceeds the limit/);
  assertStillWorks();
});

test('finite inputs whose scores overflow float32 are refused, not turned into NaN', () => {
  const huge = tensor([1, 2, 2], [3e38, 3e38, 1, 1]);
  assert.throws(() => lab.attention({ query: huge, key: huge, value: huge, score: 'dot' }), /the attention scores overflow float32: scale the inputs down/);
  assertStillWorks();
});

test('outputs: a subset returns exactly those keys, equal to the full call', () => {
  const q = tensor([2, 3, 4], Array.from({ length: 24 }, (_, i) => Math.sin(i)));
  const kv = tensor([2, 5, 4], Array.from({ length: 40 }, (_, i) => Math.cos(i)));
  const gradOutput = tensor([2, 3, 4], Array.from({ length: 24 }, (_, i) => i / 10));
  for (const score of ['scaled', 'cosine', 'dot']) {
    const full = lab.attention({ query: q, key: kv, value: kv, score, gradOutput });
    for (const outputs of [['output'], ['output', 'weights'], ['scores'], ['scaled', 'score'], ['weights', 'scores', 'scaled', 'output', 'score'], []]) {
      const some = lab.attention({ query: q, key: kv, value: kv, score, outputs });
      assert.deepEqual(Object.keys(some).sort(), [...new Set(outputs)].sort(), `${score} ${outputs}`);
      for (const name of outputs) assert.deepEqual(some[name], full[name], `${score}: ${name}`);
      const withGrads = lab.attention({ query: q, key: kv, value: kv, score, outputs, gradOutput });
      assert.deepEqual(Object.keys(withGrads).sort(), [...new Set([...outputs, 'grads'])].sort());
      assert.deepEqual(withGrads.grads, full.grads, `${score} ${outputs}: grads`);
    }
  }
});

test('outputs: an unknown name or a non-array is an Error naming it', () => {
  const x = tensor([1, 2, 4], new Array(8).fill(0.5));
  assert.throws(() => lab.attention({ query: x, key: x, value: x, outputs: ['output', 'weigths'] }),
    /outputs\[1\] is 'weigths', not an output of attention \(expected score, scores, scaled, weights, output\)/);
  assert.throws(() => lab.attention({ query: x, key: x, value: x, outputs: [3] }), /outputs\[0\] is a number, not an output of attention/);
  assert.throws(() => lab.attention({ query: x, key: x, value: x, outputs: 'output' }), /outputs must be an array of names/);
  assert.equal(lab.attention({ query: x, key: x, value: x, outputs: ['output'] }).output.data.length, 8); // still usable
});
