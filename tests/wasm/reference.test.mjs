// The wasm build against the PyTorch references, and its backward passes against finite
// differences: the same cases and tolerances as tests/native/test_attention_reference.cpp.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { loadReference, mainOutput, mismatch, runCase, tensorOf } from './case-runner.mjs';

const { cases: allCases } = loadReference('attention.json');
// Saturated softmax makes float32 central differences meaningless (see the native test).
const NO_FINITE_DIFFERENCES = new Set(['large_magnitude_x50', 'large_offset_scores', 'softmax_offset_2000']);
const INTEGER_INPUTS = new Set(['ids', 'targets', 'key_padding']);

// tests/wasm/attention-variant.test.mjs imports this file again as `?variant=attention`.
const variant = new URL(import.meta.url).searchParams.get('variant') ?? 'full';
let lab;
before(async () => {
  lab = await loadAttentionLab({ variant });
});
// The attention build has no ops bindings (CMakeLists.txt): its op cases run against the full build only.
const OP_KINDS = new Set(['linear', 'embedding', 'tanh', 'softmax', 'cross_entropy']);
const cases = variant === 'attention' ? allCases.filter((c) => !OP_KINDS.has(c.kind)) : allCases;

const inputsOf = (c) => Object.fromEntries(Object.entries(c.inputs).map(([k, v]) => [k, tensorOf(v)]));

describe('matches PyTorch', () => {
  for (const c of cases) {
    test(c.name, () => {
      const r = runCase(lab, c, inputsOf(c), tensorOf(c.grad_output));
      for (const [name, expected] of Object.entries(c.outputs)) {
        assert.equal(mismatch(r.outputs[name], expected, c.rtol), null, `output ${name}`);
      }
      for (const [name, expected] of Object.entries(c.grads)) {
        assert.equal(mismatch(r.grads[name], expected, c.rtol), null, `gradient of ${name}`);
      }
      assert.deepEqual(Object.keys(r.grads).sort(), Object.keys(c.grads).sort(), 'set of gradients');
    });
  }
});

function lossOf(c, inputs, g) {
  const out = runCase(lab, c, inputs, undefined).outputs[mainOutput(c.kind)];
  let s = 0;
  for (let i = 0; i < out.data.length; i++) s += out.data[i] * g.data[i];
  return s;
}

describe('backward matches finite differences', () => {
  for (const c of cases) {
    if (NO_FINITE_DIFFERENCES.has(c.name)) continue;
    test(c.name, () => {
      const inputs = inputsOf(c);
      const g = tensorOf(c.grad_output);
      const { grads } = runCase(lab, c, inputs, g);
      const eps = 1e-2;
      for (const [name, grad] of Object.entries(grads)) {
        assert.ok(!INTEGER_INPUTS.has(name));
        const x = inputs[name].data;
        let num2 = 0, diff2 = 0;
        for (let i = 0; i < x.length; i++) {
          const orig = x[i];
          x[i] = orig + eps;
          const plus = lossOf(c, inputs, g);
          x[i] = orig - eps;
          const minus = lossOf(c, inputs, g);
          x[i] = orig;
          const numeric = (plus - minus) / (2 * eps);
          num2 += numeric * numeric;
          diff2 += (numeric - grad.data[i]) ** 2;
        }
        const tolerance = 1e-2 * Math.sqrt(num2) + 1e-4 * Math.sqrt(x.length);
        assert.ok(Math.sqrt(diff2) <= tolerance, `gradient of ${name}: error ${Math.sqrt(diff2)} > ${tolerance}`);
      }
    });
  }
});
