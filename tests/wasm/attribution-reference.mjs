// What the attribution tests of both kinds of model share (why.test.mjs, transformer-why.test.mjs):
// a bare model's attribution of each case of an attribution reference file
// (tests/reference/gen_attribution.py, gen_transformer_attribution.py) checked method by method, as
// tests/native/attribution_reference.h; a session's attribution of its greedy translation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadReference, loadReferenceParams, mismatch, withModel } from './case-runner.mjs';

const vector = (data) => ({ shape: [data.length], data });

/** Both methods of case `c` on `model` (its parameters already set): rtol 1e-4, ρ to 1e-9. */
export function expectMatchesReference(model, c) {
  for (const [method, key] of [['gradient-input', 'gradient_input'], ['integrated-gradients', 'integrated_gradients']]) {
    const steps = method === 'integrated-gradients' ? { steps: c.ig_steps } : {}; // gradient × input takes none
    const r = model.attribution({ src: vector(c.src), target: vector(c.target), method, ...steps });
    assert.equal(r.method, method);
    assert.equal(mismatch(r.scores, c[key], 1e-4, 0), null, `${method} scores`);
    assert.equal(mismatch(vector(r.logProb), vector(c.log_prob), 1e-4, 0), null, 'log p');
    if (method === 'integrated-gradients') {
      assert.equal(mismatch(vector(r.baselineLogProb), vector(c.baseline_log_prob), 1e-4, 0), null, 'baseline log p');
    } else {
      assert.equal(r.baselineLogProb, null);
    }
    if (c.attention === null) {
      assert.equal(r.attention, null);
      assert.ok(r.rankCorrelation.every((x) => x === null));
      continue;
    }
    assert.equal(mismatch(r.attention, c.attention, 1e-4, 0), null, 'attention');
    c.rank_correlation[key].forEach((e, t) => {
      if (e === null) assert.equal(r.rankCorrelation[t], null);
      else assert.ok(Math.abs(r.rankCorrelation[t] - e) < 1e-9, `ρ of word ${t}`);
    });
  }
}

/**
 * One test per case of the reference `file`: a bare model, lab().createSeq2SeqModel(optionsOf(case
 * config)), with exactly the case's parameters (names, shapes, values read back), against PyTorch (`lab` a getter: the module loads in before()).
 */
export function testReferenceCases(file, lab, optionsOf) {
  for (const c of loadReference(file).cases) {
    test(`matches PyTorch autograd: ${c.name}`, () => {
      withModel(lab(), optionsOf(c.config), (model) => {
        loadReferenceParams(model, c.params);
        expectMatchesReference(model, c);
      });
    });
  }
}

/**
 * A session's integrated gradients (`steps`) of its greedy translation of `text`: the same words, one
 * row a word and a column a source token, each word's attention the decoding's (as
 * expectSameAttention(attribution row, decoding row) says), ρ in [−1, 1], complete within `tol`;
 * and gradient × input by default. Returns the plain translation.
 */
export function expectSessionAttribution(session, text, { steps, tol, expectSameAttention }) {
  const plain = session.translate(text);
  const r = session.attribution(text, { method: 'integrated-gradients', steps });
  assert.equal(r.text, plain.text);
  assert.deepEqual(r.words, plain.steps.map((s) => s.token));
  const [T, S] = r.scores.shape;
  assert.deepEqual([T, S], [plain.steps.length, plain.source.length]);
  for (let t = 0; t < T; t++) {
    expectSameAttention(r.attention.data.subarray(t * S, (t + 1) * S), plain.steps[t].attention);
    assert.ok(r.rankCorrelation[t] === null || Math.abs(r.rankCorrelation[t]) <= 1);
  }
  expectComplete(r, tol);
  const gxi = session.attribution(text);
  assert.equal(gxi.method, 'gradient-input');
  assert.equal(gxi.baselineLogProb, null);
  return plain;
}

/** For a session's attribution `r`: each word's |Σ_s a[t, s] − (f_t(x) − f_t(0))| ≤ tol·max(1, |f_t(x) − f_t(0)|). */
export function expectComplete(r, tol) {
  const [T, S] = r.scores.shape;
  for (let t = 0; t < T; t++) {
    let sum = 0;
    for (let s = 0; s < S; s++) sum += r.scores.data[t * S + s];
    const gap = r.logProb[t] - r.baselineLogProb[t];
    assert.ok(Math.abs(sum - gap) <= tol * Math.max(1, Math.abs(gap)), `word ${t}: Σ a = ${sum}, f(x) − f(0) = ${gap}`);
  }
}
