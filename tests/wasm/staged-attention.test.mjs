// attention()'s staged path (wasm/js/staged-attention.mjs: inputs written into wasm memory, only
// the asked-for outputs copied back) against the object path (core.attention, embind's
// conversion) of the same module: bit-identical results and identical errors, over the scores
// without weights, a causal mask, outputs subsets, shapes that change from call to call (the staged
// buffers are resized and reused), in the full and the attention-only builds. Calls the staged path
// does not take (weights, gradients, key padding, plain arrays, malformed input) fall back to the
// object path, which the rest of the suite covers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stagedAttention } from '../../wasm/js/staged-attention.mjs';

const BUILDS = (process.env.STAGED_BUILDS ?? 'attention_lab_core,attention_lab_attention').split(',');
const cores = await Promise.all(BUILDS.map(async (b) => (await import(`../../build/wasm/${b}.mjs`)).default()));

const tensor = (shape, f) => ({ shape, data: Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => f(i)) });

for (const [i, core] of cores.entries()) {
  const staged = stagedAttention(core);
  test(`${BUILDS[i]}: the staged path equals the object path bit for bit`, () => {
    let calls = 0;
    for (const [B, N, M, D, Dv] of [[1, 16, 16, 64, 64], [2, 3, 5, 4, 6], [1, 1, 7, 3, 2], [2, 3, 5, 4, 6], [3, 8, 2, 5, 1]]) {
      const query = tensor([B, N, D], (j) => Math.sin(j + N));
      const key = tensor([B, M, D], (j) => Math.cos(0.7 * j));
      const value = tensor([B, M, Dv], (j) => (j % 11) / 5 - 1);
      for (const score of [undefined, 'scaled', 'dot', 'cosine']) {
        for (const extra of [{}, { mask: { causal: true } }, { temperature: 0.5 }, { outputs: ['output'] }, { outputs: ['weights', 'score'] }, { outputs: [] }]) {
          if (extra.temperature && score !== 'cosine') continue;
          const args = { query, key, value, ...(score ? { score } : {}), ...extra };
          const fast = staged(args);
          assert.notEqual(fast, undefined, 'the call took the staged path');
          calls++;
          assert.deepEqual(fast, core.attention(args), `${JSON.stringify({ B, N, M, D, Dv, score, extra })}`);
        }
      }
    }
    assert.ok(calls > 100);
  });

  test(`${BUILDS[i]}: the staged path's errors are the object path's`, () => {
    const ok = tensor([1, 2, 3], (j) => j / 4);
    const cases = [
      { query: tensor([1, 2, 3], (j) => (j === 4 ? NaN : j)), key: ok, value: ok },
      { query: tensor([1, 2, 2], () => 3e38), key: tensor([1, 2, 2], () => 3e38), value: ok, score: 'dot' },
      { query: ok, key: ok, value: ok, score: 'cosine', temperature: 0 },
      { query: ok, key: tensor([1, 2, 4], () => 1), value: ok },
    ];
    for (const args of cases) {
      const want = core.attention(args);
      assert.equal(typeof want.error, 'string');
      const got = staged(args);
      // a call the staged path leaves alone goes to core.attention anyway
      if (got !== undefined) assert.deepEqual(got, want);
    }
    // and it still computes afterwards
    const args = { query: ok, key: ok, value: ok };
    assert.deepEqual(staged(args), core.attention(args));
  });

  test(`${BUILDS[i]}: weights, gradients, key padding, plain arrays and unknown options take the object path`, () => {
    const x = tensor([1, 2, 3], (j) => j);
    for (const args of [
      { query: x, key: x, value: x, gradOutput: x },
      { query: x, key: x, value: x, score: 'general', params: { w: tensor([3, 3], () => 1) } },
      { query: x, key: x, value: x, mask: { keyPadding: tensor([1, 2], () => 0) } },
      { query: { shape: [1, 2, 3], data: [0, 1, 2, 3, 4, 5] }, key: x, value: x },
      { query: x, key: x, value: x, scores: 'dot' },
      { query: x, key: x, value: x, outputs: ['attn'] },
      { query: { shape: [2, 3], data: x.data }, key: x, value: x },
      { query: { shape: [1, 40000, 2], data: new Float32Array(80000) }, key: x, value: x },
      null,
    ]) {
      assert.equal(staged(args), undefined);
    }
  });
}
