// wasm/js/modules.mjs (the JS mirror of CMakeLists.txt's module table) must say exactly what is
// built: the same modules with the same binding files as the table, each built module exporting
// the embind names of its bindings and none of the others, and loadAttentionLab() of each
// variant offering exactly the API methods listed for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { BINDINGS, MODULES, apiOf, exportsOf, moduleFor } from '../../wasm/js/modules.mjs';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';

const REPO_ROOT = new URL('../../', import.meta.url);
const cmake = readFileSync(new URL('CMakeLists.txt', REPO_ROOT), 'utf8');

/** The rows of the table: lab_wasm_module(<file> … BINDINGS <names…> COMPILE …). */
function cmakeRows() {
  const rows = new Map();
  for (const m of cmake.matchAll(/^\s*lab_wasm_module\((\w+)([^)]*)\)/gm)) {
    const bindings = /\bBINDINGS\s+([\s\S]*?)\s+(?:COMPILE|LINK|FOLDERS|EXPORT)\b/.exec(m[2]);
    assert.ok(bindings, `row ${m[1]} has BINDINGS`);
    rows.set(m[1], bindings[1].split(/\s+/));
  }
  return rows;
}

test('modules.mjs lists the modules and bindings of the CMake table', () => {
  const rows = cmakeRows();
  assert.deepEqual([...rows.keys()].sort(), MODULES.map((m) => m.file).sort());
  for (const m of MODULES) assert.deepEqual(m.bindings, rows.get(m.file), m.file);
  // every binding file is described, and every described one exists
  const files = readdirSync(new URL('wasm/bindings/', REPO_ROOT))
    .filter((f) => f.endsWith('.cpp'))
    .map((f) => f.slice(0, -'.cpp'.length));
  assert.deepEqual(files.sort(), Object.keys(BINDINGS).sort());
});

/** Embind names in an instance: those of every binding anywhere, found on this instance. */
function boundNames(core) {
  const all = Object.values(BINDINGS).flatMap((b) => b.exports);
  return all.filter((name) => name in core).sort();
}

for (const m of MODULES) {
  test(`${m.file} exports exactly the names of its bindings`, async () => {
    const { default: create } = await m.load();
    const core = await create();
    assert.deepEqual(boundNames(core), [...exportsOf(m.variant)].sort());
    for (const name of exportsOf(m.variant)) assert.equal(typeof core[name], 'function', name);
  });

  test(`loadAttentionLab({variant: '${m.variant}'}) offers exactly the API of its bindings`, async () => {
    const lab = await loadAttentionLab({ variant: m.variant });
    const methods = Object.values(BINDINGS).flatMap((b) => b.api).filter((name) => !name.includes('.'));
    const offered = apiOf(m.variant);
    for (const name of methods) {
      const has = name === 'ops' ? typeof lab.ops === 'object' : typeof lab[name] === 'function';
      assert.equal(has, offered.includes(name), `${m.variant}: ${name}`);
    }
  });
}

test('moduleFor picks the smallest module that offers the methods', () => {
  assert.equal(moduleFor('attention').variant, 'attention');
  assert.equal(moduleFor('createSeq2Seq').variant, 'seq2seq');
  assert.equal(moduleFor('createSeq2Seq', 'Seq2Seq.save').variant, 'full');
  assert.equal(moduleFor('ops').variant, 'full');
  assert.equal(moduleFor('memoryStats').variant, 'attention');
  assert.equal(moduleFor('createSeq2Seq.transformer').variant, 'transformer');
  assert.equal(moduleFor('createSeq2Seq.transformer', 'Transformer.save').variant, 'full');
  assert.throws(() => moduleFor('fly'), /no wasm module offers fly/);
  assert.throws(() => apiOf('tiny'), /unknown variant "tiny": use 'attention', 'seq2seq', 'transformer', 'gpt', 'full'/);
});
