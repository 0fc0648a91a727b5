#!/usr/bin/env node
// Serves the built page (dist/) with `vite preview` on 127.0.0.1, port 4173 or the next free one.
// `npm start` runs this after the build. Tests import startPreview() to get a server of their own.
//   node scripts/serve.mjs [--port N]     (or PORT=N)
// ATTENTION_LAB_DIST=/tmp/x-dist serves another build directory (helpers build into their own).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { preview } from 'vite';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const configFile = fileURLToPath(new URL('../web/vite.config.ts', import.meta.url));
/** The directory served: $ATTENTION_LAB_DIST if set, else the repo's dist/. */
export const distDir = process.env.ATTENTION_LAB_DIST
  ? resolve(process.env.ATTENTION_LAB_DIST)
  : fileURLToPath(new URL('../dist', import.meta.url));

/**
 * Starts `vite preview` over a built site (default: distDir) on 127.0.0.1, with the CSP headers of
 * web/vite.config.ts.
 * @param {{port?: number, strictPort?: boolean, logLevel?: 'info'|'warn'|'error'|'silent', dist?: string, base?: string}} [options]
 *   port 0 picks any free port; otherwise the given port (default 4173) or the next free one.
 *   base: the folder the site is served from (default '/'; e.g. '/blog/lab/', as a host's sub-folder).
 * @returns {Promise<{url: string, close: () => Promise<void>}>}
 */
export async function startPreview({ port = 4173, strictPort = false, logLevel = 'warn', dist = distDir, base = '/' } = {}) {
  if (!existsSync(`${dist}/index.html`)) {
    throw new Error(`${dist}/index.html is missing: build the page first (npm run build:web).`);
  }
  const server = await preview({
    configFile,
    root: fileURLToPath(new URL('../web', import.meta.url)),
    logLevel,
    base,
    build: { outDir: dist },
    preview: { host: '127.0.0.1', port, strictPort, open: false },
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) {
    await server.close();
    throw new Error('vite preview started but reported no local address');
  }
  let closing = null;
  return {
    url,
    close: () => (closing ??= server.close()),
  };
}

function portFromArgs(argv, env) {
  const i = argv.indexOf('--port');
  const raw = i >= 0 ? argv[i + 1] : env.PORT;
  if (raw === undefined) return 4173;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`invalid port: ${JSON.stringify(raw)}`);
  }
  return port;
}

async function main() {
  process.chdir(repoRoot);
  const { url, close } = await startPreview({ port: portFromArgs(process.argv.slice(2), process.env), logLevel: 'warn' });
  console.log(`\n  AttentionLab is running at ${url}\n  (Ctrl+C to stop)\n`);
  const stop = () => {
    close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    console.error(`AttentionLab: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  });
}
