#!/usr/bin/env node
// Builds the widget kit, the one folder a blogger copies onto their site, and its zip:
//   dist/attention-lab-widgets/        attention-lab-widgets.js (the classic loader a page includes),
//                                      attention-lab-widgets.mjs and assets/ (the widgets' modules,
//                                      worker and wasm: only what widgets load), attention-lab-file.js
//                                      (the file:// fallback), embed.html + embed-resize.js (iframes),
//                                      README.html (the snippets), LICENSE
//   dist/attention-lab-widgets.zip     the same files (store-only zip, scripts/zip-store.mjs)
//   dist/standalone/attention-lab-<wasm build>.js  the scripts the site's Standalone HTML inlines
// `npm run build:web` runs it after the site's build. node scripts/build-kit.mjs [--dist DIR]
// (default: $ATTENTION_LAB_DIST or dist/).
import { copyFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { distDir } from './serve.mjs';
import { zipStore } from './zip-store.mjs';
import { kitReadme } from './kit-readme.mjs';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const configFile = join(repoRoot, 'web/vite.config.ts');
export const KIT_DIR = 'attention-lab-widgets';
export const STANDALONE_DIR = 'standalone';

/** Every file under `dir`, as paths relative to it with '/', sorted. */
export function listFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path).split('\\').join('/'));
    }
  };
  walk(dir);
  return out;
}

export async function buildKit(dist = distDir) {
  const kit = join(dist, KIT_DIR);
  // the modules, worker, wasm and embed.html; then the file:// fallback beside them
  await build({ configFile, mode: 'kit', logLevel: 'warn', build: { outDir: kit } });
  await build({ configFile, mode: 'kit-file', logLevel: 'warn', build: { outDir: kit } });
  // the scripts of the site's Standalone HTML exports (beside the kit, not in it): one per wasm build
  rmSync(join(dist, STANDALONE_DIR), { recursive: true, force: true });
  for (const wasm of ['attention', 'seq2seq', 'transformer', 'gpt']) {
    await build({ configFile, mode: `kit-standalone-${wasm}`, logLevel: 'warn', build: { outDir: join(dist, STANDALONE_DIR) } });
  }
  // the classic worker each one inlines is also written out on its own by the library build: unused
  rmSync(join(dist, STANDALONE_DIR, 'assets'), { recursive: true, force: true });
  for (const file of ['attention-lab-widgets.js', 'embed-resize.js']) copyFileSync(join(repoRoot, 'web/src/embed/kit', file), join(kit, file));
  copyFileSync(join(repoRoot, 'LICENSE'), join(kit, 'LICENSE'));
  writeFileSync(join(kit, 'README.html'), kitReadme());
  const files = listFiles(kit);
  const zip = zipStore(files.map((f) => [`${KIT_DIR}/${f}`, readFileSync(join(kit, f))]));
  writeFileSync(join(dist, `${KIT_DIR}.zip`), zip);
  return { kit, files };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--dist');
  const dist = i >= 0 ? resolve(process.argv[i + 1]) : distDir;
  const { kit, files } = await buildKit(dist);
  console.log(`widget kit: ${files.length} files in ${relative(process.cwd(), kit) || kit} (and ${KIT_DIR}.zip)`);
}
