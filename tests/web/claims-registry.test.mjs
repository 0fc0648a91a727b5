// The claims registry (tests/e2e/claims/registry.mjs) against the string tables: every "Try this"
// prompt and every sentence that reads like an outcome is registered with an e2e test (or listed
// as no claim, with the reason), every registered key exists in both languages, and every
// registered test exists in its file (claims-harness.mjs names each test by its claim). A new prompt cannot land without its test.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CLAIMS, NOT_CLAIMS, OUTCOME } from '../e2e/claims/registry.mjs';
import { loadWeb } from './setup.mjs';

const claimsDir = fileURLToPath(new URL('../e2e/claims/', import.meta.url));
const webDir = fileURLToPath(new URL('../../web/src/', import.meta.url));

/** Every string table of the web app: the exports of each *-strings.ts and of the files that declare one. */
async function allTables() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory()) walk(`${path}/`);
      else if (entry.name.endsWith('.ts') && /: Strings = \{/.test(readFileSync(path, 'utf8'))) files.push(path.slice(webDir.length, -3));
    }
  };
  walk(webDir);
  const tables = [];
  for (const file of files) {
    for (const [name, value] of Object.entries(await loadWeb(file))) {
      if (value && typeof value === 'object' && value.en && value.zh && !Array.isArray(value)) tables.push({ name: `${file}:${name}`, table: value });
    }
  }
  return tables;
}

const tables = await allTables();
const registered = new Set(CLAIMS.flatMap((c) => c.keys));

test('the string tables are found (every section’s)', () => {
  for (const prefix of ['why.', 'idea.', 'dot.', 'translate.', 'self.', 'multihead.', 'transformer.']) {
    assert.ok(tables.some(({ table }) => Object.keys(table.en).some((k) => k.startsWith(prefix))), prefix);
  }
});

test('every “Try this” prompt is a registered claim', () => {
  for (const { name, table } of tables) {
    for (const key of Object.keys(table.en)) if (/\.try\./.test(key)) assert.ok(registered.has(key), `${name}: ${key} has no claim test in tests/e2e/claims/registry.mjs`);
  }
});

test('every sentence that reads like an outcome is a registered claim or named as none', () => {
  for (const { name, table } of tables) {
    for (const [key, text] of Object.entries(table.en)) {
      if (!OUTCOME.test(text) || registered.has(key)) continue;
      assert.ok(key in NOT_CLAIMS, `${name}: ${key} (“${text.slice(0, 80)}…”) reads like an outcome: register it with a test, or say in NOT_CLAIMS why it is none`);
    }
  }
});

test('every registered key exists in both languages; every claim’s test exists in its file', () => {
  const ids = new Set();
  for (const claim of CLAIMS) {
    assert.ok(!ids.has(claim.id), `claim id ${claim.id} twice`);
    ids.add(claim.id);
    for (const key of claim.keys) {
      assert.ok(tables.some(({ table }) => table.en[key] && table.zh[key]), `${claim.id}: ${key} is missing in English or Chinese`);
    }
    const source = readFileSync(`${claimsDir}${claim.file}`, 'utf8');
    // claim('<id>', …), or an entry ['<id>', …] of claimsByLanguage
    assert.match(source, new RegExp(`(claim\\(|\\[\\s*)'${claim.id}',`), `${claim.id}: no claim('${claim.id}', …) in tests/e2e/claims/${claim.file}`);
  }
  for (const key of Object.keys(NOT_CLAIMS)) assert.ok(tables.some(({ table }) => key in table.en), `NOT_CLAIMS names ${key}, which no table has`);
});
