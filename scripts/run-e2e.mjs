#!/usr/bin/env node
// Runs the end-to-end files side by side (one lane per core, at most four), the longest first.
// `node --test` sorts its files by name, which started the layout file (about three minutes) near
// the end: it ran alone for its last minutes while the other lane idled. Started longest first,
// the lanes end within a short file of each other (docs/build.md, "Build time").
// Same reporter (TAP), same exit status as `node --test tests/e2e/`.
//   node scripts/run-e2e.mjs [file …]      (default: every tests/e2e/**/*.test.mjs)
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';

const E2E = fileURLToPath(new URL('../tests/e2e/', import.meta.url));
/**
 * The files longest first, as measured in a fresh-clone CI run on 2 cores (2026-12-06, seconds
 * of their suites): started in this order the two lanes end within a short file of each other
 * (longest-first scheduling); a long file started late would run alone at the end. Files not
 * listed take under 32 s and follow in name order.
 */
const LONGEST = [
  'axe-light-first.test.mjs', // 172
  'axe-dark-first.test.mjs', // 160
  'layout.test.mjs', // 132
  'gpt.test.mjs', // 129
  'claims/translate.test.mjs', // 113
  'lang-keep.test.mjs', // 86
  'transformer-reader.test.mjs', // 81
  'embed-kit.test.mjs', // 70
  'translate-live.test.mjs', // 69
  'claims/transformer.test.mjs', // 68
  'translate.test.mjs', // 60
  'transformer.test.mjs', // 59
  'smoke.test.mjs', // 58
  'linked-views.test.mjs', // 51
  'bring-your-own.test.mjs', // 51
  'standalone.test.mjs', // 45
  'widgets.test.mjs', // 44
  'keyboard.test.mjs', // 42
  'claims/why.test.mjs', // 38
  'page-height.test.mjs', // 37
  'why.test.mjs', // 37
  'diagrams.test.mjs', // 35
  'transformer-why.test.mjs', // 34
  'gpt-heads.test.mjs', // 34
  'embed-button.test.mjs', // 32
];

const all = readdirSync(E2E, { recursive: true })
  .filter((f) => f.endsWith('.test.mjs'))
  .sort();
const chosen = process.argv.length > 2 ? process.argv.slice(2).map((f) => relative(E2E, f)) : all;
const files = [...LONGEST.filter((f) => chosen.includes(f)), ...chosen.filter((f) => !LONGEST.includes(f))].map((f) => join(E2E, f));

const stream = run({ files, concurrency: Math.min(availableParallelism(), 4) });
stream.on('test:fail', () => (process.exitCode = 1));
stream.compose(tap).pipe(process.stdout);
