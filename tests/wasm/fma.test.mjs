// The FMA builds (docs/build.md, "The FMA build"): loadAttentionLab picks a variant's relaxed-SIMD
// build where the engine validates relaxed SIMD and today's build elsewhere. Node 20 runs relaxed
// SIMD only with --experimental-wasm-relaxed-simd, so each case runs fma-probe.mjs in a child Node
// with and without the flag. The probe's product tells the builds apart by their rounding (see the
// probe). The PyTorch reference and determinism files also run on the FMA build
// (scripts/test-all.sh, "FMA build").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';

const PROBE = new URL('./fma-probe.mjs', import.meta.url).pathname;
const FLAG = '--experimental-wasm-relaxed-simd';
const run = (flags) => JSON.parse(execFileSync(process.execPath, [...flags, PROBE], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
const FUSED = 2 ** -24;

test('without relaxed SIMD the loader keeps the plain build, and fma: true says why it cannot', () => {
  const r = run([]);
  assert.equal(r.hasRelaxedSimd, false);
  assert.equal(r.chosen, 0, 'the product rounded before the add: the plain build');
  assert.equal(r.plain, 0);
  assert.match(r.fma.error, /fma: true needs relaxed SIMD, which this engine lacks \(Node 20: run with --experimental-wasm-relaxed-simd\)/);
  // the FMA build itself does not compile here: the choice is what keeps such engines working
  for (const [variant, e] of Object.entries(r.exports)) assert.ok(e.error, `${variant}: the FMA build loaded without relaxed SIMD`);
});

test('with relaxed SIMD the loader picks the FMA build: one rounding per multiply-add', () => {
  const r = run([FLAG]);
  assert.equal(r.hasRelaxedSimd, true);
  assert.equal(r.chosen, FUSED, 'rounded once: the FMA build');
  assert.equal(r.fma, FUSED);
  assert.equal(r.plain, 0, 'fma: false loads the plain build');
  assert.deepEqual(Object.keys(r.exports).sort(), ['full', 'gpt', 'transformer']);
  for (const [variant, e] of Object.entries(r.exports)) assert.deepEqual(e.names, e.expected, `${variant}: its FMA build exports its bindings' names`);
});

test('the fma option refuses what it cannot do, in its own words', async () => {
  await assert.rejects(loadAttentionLab({ fma: 'yes' }), /fma must be true or false \(got "yes"\)/);
  await assert.rejects(loadAttentionLab({ variant: 'attention', fma: true }), /variant 'attention' has no FMA build: use 'full', 'transformer' or 'gpt'/);
});
