// The §3.1/§3.2 section's pure parts: which Q/K values are used, the log slider, and the saturation
// sweep run against the real wasm core in Node (the LabClient interface, without the worker),
// checked against a plain-JS softmax and its Jacobian.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { loadWeb } from './setup.mjs';

const { dotInputs } = await loadWeb('sections/dot');
const { sliderToD, dToSlider } = await loadWeb('sections/dot-sweep-view');
const { sweepPoint, SWEEP_GRID } = await loadWeb('sections/dot-sweep');

test('dotInputs: stored values when they fit the shape, else values drawn from the seed', () => {
  const seeded = dotInputs(1, 3, 5, 4, [], []);
  assert.equal(seeded.q.length, 12);
  assert.equal(seeded.k.length, 20);
  assert.equal(seeded.edited, false);
  assert.deepEqual(dotInputs(1, 3, 5, 4, [], []), seeded, 'deterministic');
  assert.notDeepEqual(dotInputs(2, 3, 5, 4, [], []).q, seeded.q);
  const q = Array.from({ length: 12 }, (_, i) => i / 4);
  const mixed = dotInputs(1, 3, 5, 4, q, [1, 2, 3]);
  assert.deepEqual(mixed.q, q);
  assert.deepEqual(mixed.k, seeded.k, 'K does not fit: seeded');
  assert.equal(mixed.edited, true);
});

test('dotInputs: a larger shape keeps the drawn values and adds fresh draws (no other row’s values moved over)', () => {
  const small = dotInputs(1, 3, 5, 4, [], []);
  const wide = dotInputs(1, 3, 5, 8, [], []);
  const tall = dotInputs(1, 8, 8, 4, [], []);
  const old = new Set([...small.q, ...small.k]);
  for (let r = 0; r < 3; r++) {
    assert.deepEqual(wide.q.slice(r * 8, r * 8 + 4), small.q.slice(r * 4, r * 4 + 4));
    for (const v of wide.q.slice(r * 8 + 4, r * 8 + 8)) assert.ok(!old.has(v), `q${r + 1}: ${v}`);
  }
  for (let r = 0; r < 5; r++) assert.deepEqual(wide.k.slice(r * 8, r * 8 + 4), small.k.slice(r * 4, r * 4 + 4));
  assert.deepEqual(tall.q.slice(0, 12), small.q);
  assert.deepEqual(tall.k.slice(0, 20), small.k);
  for (const v of [...tall.q.slice(12), ...tall.k.slice(20)]) assert.ok(!old.has(v));
  assert.deepEqual(dotInputs(1, 2, 2, 2, [], []).q, [small.q[0], small.q[1], small.q[4], small.q[5]], 'a smaller shape: the same values');
});

test('the d slider: log steps that reach 1 and 1024 and every power of two', () => {
  assert.equal(sliderToD(0), 1);
  assert.equal(sliderToD(dToSlider(1024)), 1024);
  for (const d of SWEEP_GRID) assert.equal(sliderToD(dToSlider(d)), d);
  assert.equal(sliderToD(-5), 1);
  assert.equal(sliderToD(1e6), 1024);
});

test('sweepPoint: metrics from the core equal plain-JS softmax, entropy and ‖diag(p) − ppᵀ‖_F', async () => {
  const core = await loadAttentionLab();
  const lab = { attention: async (args) => core.attention(args) };
  for (const d of [1, 64, 1024]) {
    const p = await sweepPoint(lab, 3, d);
    assert.equal(p.q.length, p.n * d);
    for (const [variant, scale] of [['unscaled', 1], ['scaled', Math.sqrt(d)]]) {
      let maxWeight = 0;
      let entropy = 0;
      let jacobian = 0;
      for (let i = 0; i < p.n; i++) {
        const s = Array.from({ length: p.m }, (_, j) => {
          let dot = 0;
          for (let c = 0; c < d; c++) dot += p.q[i * d + c] * p.k[j * d + c];
          return dot / scale;
        });
        const max = Math.max(...s);
        const e = s.map((x) => Math.exp(x - max));
        const z = e.reduce((a, b) => a + b, 0);
        const w = e.map((x) => x / z);
        maxWeight += Math.max(...w) / p.n;
        entropy -= w.reduce((a, x) => a + (x > 0 ? x * Math.log(x) : 0), 0) / p.n;
        let f = 0;
        for (let a = 0; a < p.m; a++) for (let b = 0; b < p.m; b++) f += ((a === b ? w[a] : 0) - w[a] * w[b]) ** 2;
        jacobian += Math.sqrt(f) / p.n;
      }
      const got = p[variant];
      assert.ok(Math.abs(got.maxWeight - maxWeight) < 1e-4, `d=${d} ${variant} max weight ${got.maxWeight} vs ${maxWeight}`);
      assert.ok(Math.abs(got.entropy - entropy) < 1e-3, `d=${d} ${variant} entropy`);
      assert.ok(Math.abs(got.jacobian - jacobian) < 1e-4, `d=${d} ${variant} jacobian ${got.jacobian} vs ${jacobian}`);
    }
  }
  // at d = 1 scaling is the identity
  const one = await sweepPoint(lab, 3, 1);
  assert.deepEqual(one.unscaled, one.scaled);
});

test('§2 inputs: keys in each language\'s word order, questions scaled by the strength, the reader\'s question last', async () => {
  const { ideaInputs, IDEA_FEATURES } = await loadWeb('sections/idea');
  assert.equal(IDEA_FEATURES.length, 5);
  const en = ideaInputs('en', 4, [0, 1, 2, 3, 4]);
  const zh = ideaInputs('zh', 4, [0, 1, 2, 3, 4]);
  assert.deepEqual(en.words, ['KaGe', 'reads', 'novels', 'park', 'Saturday']);
  assert.deepEqual(zh.words, ['咖哥', '周六', '公园', '读', '小说']);
  assert.equal(en.keys.length, 25);
  assert.deepEqual(en.queries.slice(0, 5), [4, 0, 0, 0, 0], 'who? asks for a person');
  assert.deepEqual(en.queries.slice(20), [0, 1, 2, 3, 4]);
  // the same word has the same key in both languages (Saturday: time)
  assert.deepEqual(en.keys.slice(20, 25), zh.keys.slice(5, 10));
  assert.deepEqual(ideaInputs('en', 0, []).queries, new Array(25).fill(0), 'strength 0 and no question: all zeros');
});
