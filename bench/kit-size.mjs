#!/usr/bin/env node
// The widget kit's size, as a blogger copies and serves it: every file of
// dist/attention-lab-widgets/ with its bytes and its gzip -9 bytes (what a server sends), the totals,
// the zip, the poems <gpt-demo> fetches, and the standalone scripts the site's Standalone HTML inlines. Prints markdown for the
// README's Embedding section. Not a test: nothing asserts (tests/e2e/embed-kit.test.mjs checks the
// contents). Build first: npm run build:web.   node bench/kit-size.mjs [--dist DIR]
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { KIT_DIR, listFiles, STANDALONE_DIR } from '../scripts/build-kit.mjs';
import { distDir } from '../scripts/serve.mjs';

const i = process.argv.indexOf('--dist');
const dist = i >= 0 ? resolve(process.argv[i + 1]) : distDir;
const kit = join(dist, KIT_DIR);
if (!existsSync(kit)) throw new Error(`${kit} is missing: run npm run build:web first`);

const kb = (n) => (n / 1024).toFixed(1);
const sizes = (path) => {
  const bytes = readFileSync(path);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};

const files = listFiles(kit).map((f) => ({ file: f, ...sizes(join(kit, f)) }));
const total = files.reduce((t, f) => ({ raw: t.raw + f.raw, gzip: t.gzip + f.gzip }), { raw: 0, gzip: 0 });
console.log(`| kit file (${files.length}) | KB | KB gzip |\n|---|---:|---:|`);
for (const f of [...files].sort((a, b) => b.gzip - a.gzip)) console.log(`| ${f.file} | ${kb(f.raw)} | ${kb(f.gzip)} |`);
console.log(`| **all ${files.length} files** | **${kb(total.raw)}** | **${kb(total.gzip)}** |`);
const wasm = files.filter((f) => f.file.endsWith('.wasm'));
console.log(`\nwasm builds in the kit: ${wasm.map((f) => `${f.file.replace(/^assets\//, '')} ${kb(f.gzip)} KB gzip`).join(', ')}`);
const poems = files.find((f) => f.file === 'poems/tang300.txt');
if (poems) console.log(`the poems <gpt-demo> fetches when it comes into view (not with the page): ${poems.file} ${kb(poems.raw)} KB, ${kb(poems.gzip)} KB gzip`);
console.log(`${KIT_DIR}.zip: ${kb(statSync(join(dist, `${KIT_DIR}.zip`)).size)} KB`);
const standalone = join(dist, STANDALONE_DIR);
if (existsSync(standalone)) {
  const scripts = listFiles(standalone).map((f) => `${f} ${kb(statSync(join(standalone, f)).size)} KB`);
  console.log(`standalone scripts (inlined by Standalone HTML, not in the kit): ${scripts.join(', ')}`);
}
