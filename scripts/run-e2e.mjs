#!/usr/bin/env node
// Runs the end-to-end files side by side (one lane per core, at most four), the longest first.
// `node --test` sorts its files by name, which started the layout file (about three minutes) near
// the end: it ran alone for its last minutes while the other lane idled. Started first, with the
// other long ones, the lanes end within a short file of each other (docs/build.md, "Build time").
// Same reporter (TAP), same exit status as `node --test tests/e2e/`.
//   node scripts/run-e2e.mjs [file …]      (default: every tests/e2e/**/*.test.mjs)
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { run } from 'node:test';
import { tap } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';

const E2E = fileURLToPath(new URL('../tests/e2e/', import.meta.url));
/** The longest files, longest first (lane-seconds measured on 2 cores; the rest take under 90 s). */
const LONGEST = [
  'layout.test.mjs',
  'axe-dark-first.test.mjs',
  'axe-light-first.test.mjs',
  'gpt.test.mjs',
  'lang-keep.test.mjs',
  'claims/translate.test.mjs',
  'embed-kit.test.mjs',
  'transformer.test.mjs',
  'transformer-reader.test.mjs',
];

const all = readdirSync(E2E, { recursive: true })
  .filter((f) => f.endsWith('.test.mjs'))
  .sort();
const chosen = process.argv.length > 2 ? process.argv.slice(2).map((f) => relative(E2E, f)) : all;
const files = [...LONGEST.filter((f) => chosen.includes(f)), ...chosen.filter((f) => !LONGEST.includes(f))].map((f) => join(E2E, f));

const stream = run({ files, concurrency: Math.min(availableParallelism(), 4) });
stream.on('test:fail', () => (process.exitCode = 1));
stream.compose(tap).pipe(process.stdout);
