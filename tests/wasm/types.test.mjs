// The hand-declared binding shapes, wasm/js/types/attention-lab.d.ts, must match the bindings
// exactly: every result interface lists precisely the fields the wasm module returns, and the
// declarations type-check.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { loadAttentionLab, tensor } from '../../wasm/js/attention-lab.mjs';

const REPO_ROOT = new URL('../../', import.meta.url);
const dts = readFileSync(new URL('wasm/js/types/attention-lab.d.ts', REPO_ROOT), 'utf8');

// Top-level field names of `interface Name { … }` (nested object types skipped).
function fieldsOf(name) {
  const start = dts.indexOf(`export interface ${name} `);
  assert.ok(start >= 0, `interface ${name} not found`);
  const body = dts.slice(dts.indexOf('{', start) + 1);
  const fields = [];
  let depth = 0;
  for (const line of body.split('\n')) {
    if (depth === 0) {
      const m = line.match(/^\s{2}(readonly\s+)?(\w+)\??[:(]/);
      if (m) fields.push(m[2]);
      if (/^}/.test(line)) break;
    }
    depth += (line.match(/[{(]/g) ?? []).length - (line.match(/[})]/g) ?? []).length;
    if (depth < 0) break;
  }
  return fields.sort();
}

let lab;
before(async () => {
  lab = await loadAttentionLab();
});

const ones = (shape) => tensor(shape, new Array(shape.reduce((a, b) => a * b, 1)).fill(0.5));
const proj = (D, out) => Object.fromEntries(['q', 'k', 'v', ...(out ? ['o'] : [])].flatMap((n) => [[`w${n}`, ones([D, D])], [`b${n}`, ones([D])]]));

test('AttentionResult lists exactly what attention() returns', () => {
  const r = lab.attention({ query: ones([1, 2, 4]), key: ones([1, 3, 4]), value: ones([1, 3, 4]), gradOutput: ones([1, 2, 4]) });
  assert.deepEqual(Object.keys(r).sort(), fieldsOf('AttentionResult'));
});

test('SelfAttentionResult lists exactly what selfAttention() returns', () => {
  const r = lab.selfAttention(ones([1, 3, 4]), proj(4), { gradOutput: ones([1, 3, 4]) });
  assert.deepEqual(Object.keys(r).sort(), fieldsOf('SelfAttentionResult'));
  assert.deepEqual(Object.keys(r.grads.params).sort(), fieldsOf('ProjectionParams'));
});

test('MultiHeadResult lists exactly what multiHeadAttention() returns', () => {
  const r = lab.multiHeadAttention(ones([1, 3, 4]), proj(4, true), 2, { gradOutput: ones([1, 3, 4]) });
  assert.deepEqual(Object.keys(r).sort(), fieldsOf('MultiHeadResult'));
  assert.deepEqual(Object.keys(r.grads.params).sort(), [...fieldsOf('ProjectionParams'), 'bo', 'wo'].sort());
});

// Own fields and methods along the prototype chain (the full API extends the attention-only one).
function membersOf(api) {
  const names = [...Object.keys(api)];
  for (let p = Object.getPrototypeOf(api); p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    names.push(...Object.getOwnPropertyNames(p).filter((n) => n !== 'constructor'));
  }
  return names.sort();
}

test('AttentionLab and Ops list exactly the functions the module has', () => {
  assert.deepEqual(membersOf(lab), [...fieldsOf('AttentionOnlyLab'), ...fieldsOf('AttentionLab')].sort());
  assert.deepEqual(Object.keys(lab.ops).sort(), fieldsOf('Ops'));
});

test("AttentionOnlyLab lists exactly the functions of the 'attention' variant", async () => {
  const small = await loadAttentionLab({ variant: 'attention' });
  assert.deepEqual(membersOf(small), fieldsOf('AttentionOnlyLab'));
});

test("Seq2SeqOnlyLab lists exactly the functions of the 'seq2seq' variant", async () => {
  const trainer = await loadAttentionLab({ variant: 'seq2seq' });
  assert.deepEqual(membersOf(trainer), fieldsOf('Seq2SeqOnlyLab'));
});

test('the declarations and an example program type-check', () => {
  const tsc = new URL('../../node_modules/.bin/tsc', import.meta.url).pathname;
  const project = new URL('../types/tsconfig.json', import.meta.url).pathname;
  execFileSync(tsc, ['-p', project], { encoding: 'utf8' });
});
