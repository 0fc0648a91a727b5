// The GPT in the full wasm module (wasm/bindings/gpt_bindings.cpp) against PyTorch and against
// finite differences: the same reference and tolerance rules as tests/native/test_gpt_reference.cpp
// and test_gpt_gradcheck.cpp; the PyTorch state-dict file in and out; seeded generation; errors
// as {error} with the model left as it was. What the heads learned and zeroed heads against
// shared/reference/gpt_heads.json (docs/gpt.md).
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadReference, loadReferenceParams, mismatch, NO_FLOOR } from './case-runner.mjs';
import { createFullCore } from './full-core.mjs';

const reference = loadReference('gpt.json');
const RTOL = 1e-4;

let core;
before(async () => {
  core = await createFullCore();
});

/** The call's result, or a failed assertion with the core's message. */
function ok(result) {
  assert.ok(!(result && typeof result === 'object' && 'error' in result), result?.error);
  return result;
}

function withGpt(config, fn) {
  const model = ok(core.createGptModel(config));
  try {
    return fn(model);
  } finally {
    model.delete();
  }
}

const configOf = (c) => ({ vocab: c.vocab, blockSize: c.block_size, layers: c.layers, heads: c.heads, dModel: c.d_model });
const batchOf = (b) => ({
  idx: { shape: [b.B, b.T], data: b.idx },
  targets: { shape: [b.B, b.T], data: b.targets },
});
const params = (c) => ({ ...c.params });

describe('GPT matches PyTorch (shared/reference/gpt.json)', () => {
  for (const c of reference.cases) {
    test(c.name, () => {
      withGpt(configOf(c.config), (model) => {
        loadReferenceParams(model, params(c));
        const batch = batchOf(c.batch);
        const r = ok(model.forwardBackward(batch));
        assert.ok(Math.abs(r.loss - c.loss) <= RTOL * c.loss, `loss ${r.loss} vs ${c.loss}`);
        for (const [name, g] of Object.entries(c.grads)) assert.equal(mismatch(r.grads[name], g, RTOL, NO_FLOOR), null, name);
        const out = ok(model.forward({ idx: batch.idx }));
        assert.equal(mismatch(out.logits, c.logits, RTOL, NO_FLOOR), null, 'logits');
        c.attention.forEach((a, l) => assert.equal(mismatch(out.attention[l], a, RTOL, NO_FLOOR), null, `attention ${l}`));
        const g = ok(model.generate({ prompt: c.greedy.prompt, greedy: true, maxNewTokens: c.greedy.ids.length - 2 }));
        assert.deepEqual(g.ids, c.greedy.ids, 'greedy continuation');
        for (const [key, decoupled] of [['adam', false], ['adamw', true]]) {
          const s = c[key];
          // a fresh optimiser for each run: a model made from the same weights
          withGpt(configOf(c.config), (fresh) => {
            loadReferenceParams(fresh, params(c));
            s.losses.forEach((expected, i) => {
              const l = ok(fresh.forwardBackward(batch)).loss;
              assert.ok(Math.abs(l - expected) <= RTOL * expected, `${key} step ${i}: ${l} vs ${expected}`);
              ok(fresh.adamStep({ lr: s.lr, beta1: s.beta1, beta2: s.beta2, eps: s.eps, weightDecay: s.weight_decay, decoupled }));
            });
          });
        }
      });
    });
  }
});

// The model's gradients against central differences of its loss on `batch`, in every parameter
// group (the first 6 entries of each), every weight first moved away from its init.
function expectGradientsMatch(config, batch) {
  withGpt(config, (model) => {
    // every weight away from its init (as the native check), deterministic
    let k = 0;
    for (const { name, shape } of model.paramNames()) {
      const w = ok(model.getParam(name));
      const gain = name.includes('ln_') && name.endsWith('.weight');
      const data = w.data.map(() => {
        const x = Math.sin(++k * 12.9898) * 0.3;
        return gain ? 1 + x : x;
      });
      ok(model.setParam(name, { shape, data }));
    }
    const grads = ok(model.forwardBackward(batch)).grads;
    const eps = 1e-3;
    for (const { name, shape } of model.paramNames()) {
      const w = ok(model.getParam(name));
      let diff2 = 0, num2 = 0;
      for (let i = 0; i < Math.min(6, w.data.length); i++) {
        const saved = w.data[i];
        const at = (x) => {
          const data = Float32Array.from(w.data);
          data[i] = x;
          ok(model.setParam(name, { shape, data }));
          return ok(model.loss(batch));
        };
        const numeric = (at(saved + eps) - at(saved - eps)) / (2 * eps);
        at(saved);
        diff2 += (grads[name].data[i] - numeric) ** 2;
        num2 += numeric ** 2;
      }
      assert.ok(Math.sqrt(num2) > 1e-4, `${name} has no gradient on this batch`);
      assert.ok(Math.sqrt(diff2) < 1e-2 * Math.sqrt(num2) + 1e-3, `${name}: ‖analytic − numeric‖ ${Math.sqrt(diff2)}, ‖numeric‖ ${Math.sqrt(num2)}`);
    }
  });
}

test('GPT gradients match central differences in every parameter group, with ignored targets', () => {
  // the second row's last two targets are -1, which the loss ignores (a window after its poem)
  expectGradientsMatch({ vocab: 11, blockSize: 8, layers: 2, heads: 2, dModel: 8, seed: 5 },
    { idx: { shape: [2, 5], data: [1, 4, 2, 9, 3, 0, 7, 7, 5, 10] }, targets: { shape: [2, 5], data: [4, 2, 9, 3, 6, 7, 7, 5, -1, -1] } });
});

test('GPT gradients match central differences over contexts the causal heads take in blocks', () => {
  // 37 positions: the heads' blocks of 16 queries, the last taking the remainder; the second
  // row's targets end 12 positions early, so only its first 25 rows are computed
  const T = 37, idx = [], targets = [];
  for (let i = 0; i < 2 * T; i++) {
    idx.push((i * 7 + 3) % 11);
    targets.push(i >= T && i - T >= 25 ? -1 : (i * 5 + 1) % 11);
  }
  expectGradientsMatch({ vocab: 11, blockSize: 40, layers: 2, heads: 2, dModel: 8, seed: 5 },
    { idx: { shape: [2, T], data: idx }, targets: { shape: [2, T], data: targets } });
});

test('a state dict PyTorch saved loads, gives its logits and writes back under the same names', () => {
  const r = reference.interchange;
  const bytes = readFileSync(new URL(`../../shared/reference/${r.file}`, import.meta.url));
  const model = ok(core.createGptModelFromSafetensors(bytes, r.config.heads));
  try {
    const out = ok(model.forward({ idx: { shape: [r.batch.B, r.batch.T], data: r.batch.idx } }));
    assert.equal(mismatch(out.logits, r.logits, RTOL, NO_FLOOR), null, 'logits');
    const written = ok(model.saveSafetensors());
    const again = ok(core.createGptModelFromSafetensors(written, undefined));  // heads from the metadata
    try {
      const names = again.paramNames().map((p) => p.name);
      assert.deepEqual([...names, 'lm_head.weight'].sort(), [...r.names].sort());
      for (const name of names) assert.deepEqual(again.getParam(name).data, model.getParam(name).data, name);
    } finally {
      again.delete();
    }
  } finally {
    model.delete();
  }
});

test('a GPT trained in wasm, loaded into PyTorch: PyTorch\'s logits and its next 5 AdamW losses', () => {
  const r = reference.core;
  const bytes = readFileSync(new URL(`../../shared/reference/${r.file}`, import.meta.url));
  const model = ok(core.createGptModelFromSafetensors(bytes, undefined));
  try {
    const batch = batchOf(r.batch);
    assert.equal(mismatch(ok(model.forward({ idx: batch.idx })).logits, r.logits, RTOL, NO_FLOOR), null, 'logits');
    const s = r.adamw;
    s.losses.forEach((expected, i) => {
      const l = ok(model.forwardBackward(batch)).loss;
      assert.ok(Math.abs(l - expected) <= RTOL * expected, `step ${i}: ${l} vs ${expected}`);
      ok(model.adamStep({ lr: s.lr, beta1: s.beta1, beta2: s.beta2, eps: s.eps, weightDecay: s.weight_decay, decoupled: true }));
    });
  } finally {
    model.delete();
  }
});

test('generation: a seed reproduces a run; each step has candidates and attention', () => {
  withGpt({ vocab: 13, blockSize: 16, layers: 2, heads: 2, dModel: 8, seed: 3 }, (model) => {
    const request = { prompt: [1, 2], maxNewTokens: 10, temperature: 1.5, topK: 8, topP: 0.95, seed: 7, topCandidates: 3 };
    const a = ok(model.generate(request));
    assert.deepEqual(ok(model.generate(request)).ids, a.ids);
    assert.equal(a.ids.length, 12);
    a.steps.forEach((s, i) => {
      assert.equal(s.token, a.ids[i + 2]);
      assert.equal(s.top.length, 3);
      assert.ok(s.top[0].prob >= s.top[1].prob);
      assert.deepEqual(s.attention.shape, [2, 2, s.keys]);
    });
  });
});

test('bad input is an error naming the setting, and the model is unchanged', () => {
  assert.match(core.createGptModel({ vocab: 11, blockSize: 8, layers: 2, heads: 3, dModel: 8 }).error,
    /number of heads \(3\) must divide the width d_model \(8\)/);
  withGpt({ vocab: 11, blockSize: 8, layers: 1, heads: 2, dModel: 8 }, (model) => {
    const before = model.getParam('transformer.wte.weight').data;
    assert.match(model.forward({ idx: { shape: [1, 9], data: new Array(9).fill(1) } }).error, /9 positions, more than the model's block size \(8/);
    assert.match(model.forward({ idx: { shape: [1, 2], data: [1, 11] } }).error, /token id 11 at row 0, position 1 is outside the vocabulary/);
    assert.match(model.generate({ prompt: [1], temperature: 0 }).error, /temperature must be a finite number > 0/);
    assert.match(model.generate({ prompt: [1], topP: 1.5 }).error, /topP must be in \(0, 1\]/);
    assert.match(model.generate({ prompt: [1], topp: 0.5 }).error, /topp/);
    assert.deepEqual(model.getParam('transformer.wte.weight').data, before);
  });
});

describe('what the heads learned matches PyTorch (shared/reference/gpt_heads.json)', () => {
  const { heads: h } = loadReference('gpt_heads.json');
  const DETECTORS = ['previous', 'lineBack', 'lineStart', 'induction'];
  const withReference = (fn) =>
    withGpt(configOf(h.config), (model) => {
      loadReferenceParams(model, { ...h.params });
      return fn(model);
    });

  test('head scores, with and without zeroed heads', () => {
    withReference((model) => {
      const plain = ok(model.headScores(h.probe));
      for (const d of DETECTORS) {
        assert.equal(mismatch(plain[d], h.scores[d], RTOL, NO_FLOOR), null, d);
        assert.equal(plain.queries[d], h.queries[d], `${d} queries`);
      }
      // the even spread (1 / (i + 1) on each target of query i), computed here for the two
      // detectors whose queries follow from the probe's sizes alone
      const T = h.config.block_size;
      const previous = [];
      for (let start = 0; start < h.probe.text.length; start += T) {
        for (let i = 1; i < Math.min(T, h.probe.text.length - start); i++) previous.push(1 / (i + 1));
      }
      const n = h.probe.random.length;
      const induction = Array.from({ length: n - 1 }, (_, j) => 1 / (n + j + 1));
      const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
      assert.ok(Math.abs(plain.even.previous - mean(previous)) < 1e-6, `even previous ${plain.even.previous} vs ${mean(previous)}`);
      assert.ok(Math.abs(plain.even.induction - mean(induction)) < 1e-6, `even induction ${plain.even.induction} vs ${mean(induction)}`);
      for (const d of DETECTORS) assert.ok(plain.even[d] > 0 && plain.even[d] < 1, `even ${d}: ${plain.even[d]}`);
      const zeroed = ok(model.headScores({ ...h.probe, zeroHeads: h.zeroHeads }));
      for (const d of DETECTORS) assert.equal(mismatch(zeroed[d], h.zeroedScores[d], RTOL, NO_FLOOR), null, `${d} zeroed`);
    });
  });

  test('logits and greedy generation with heads zeroed; without, the plain logits', () => {
    withReference((model) => {
      const idx = { shape: [1, h.batch.T], data: h.batch.idx };
      assert.equal(mismatch(ok(model.forward({ idx, zeroHeads: h.zeroHeads })).logits, h.zeroedLogits, RTOL, NO_FLOOR), null, 'zeroed logits');
      assert.equal(mismatch(ok(model.forward({ idx })).logits, h.logits, RTOL, NO_FLOOR), null, 'logits');
      const g = h.zeroedGreedy;
      const out = ok(model.generate({ prompt: g.prompt, greedy: true, maxNewTokens: g.ids.length - g.prompt.length, zeroHeads: h.zeroHeads }));
      assert.deepEqual(out.ids, g.ids);
    });
  });

  test('a head out of range is refused naming zeroHeads[i]; the model is kept', () => {
    withReference((model) => {
      const before = model.getParam('transformer.wte.weight').data;
      assert.match(model.headScores({ ...h.probe, zeroHeads: [[0, 4]] }).error, /zeroHeads\[0\]: head 4 is outside \[0, 4\)/);
      assert.match(model.forward({ idx: { shape: [1, 2], data: [1, 2] }, zeroHeads: [[2, 0]] }).error, /zeroHeads\[0\]: layer 2 is outside \[0, 2\)/);
      assert.match(model.forwardBackward({ idx: { shape: [1, 2], data: [1, 2] }, targets: { shape: [1, 2], data: [2, 3] }, zeroHeads: [] }).error, /unknown key 'zeroHeads'/);
      assert.deepEqual(model.getParam('transformer.wte.weight').data, before);
    });
  });
});
