// Vite config for the AttentionLab page. Root is web/; the build lands in ../dist (repo root).
// The wasm core lives in build/wasm/ (outside web/), so the dev server must be allowed to read the
// repo root. Both the dev and the preview server send a strict CSP as a header (a <meta> CSP would
// not cover workers); the wasm glue is built with -sDYNAMIC_EXECUTION=0, so it needs no eval.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
].join('; ');

const headers = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export default defineConfig({
  root: webRoot,
  base: '/',
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
  },
  worker: {
    format: 'es',
  },
  server: {
    host: '127.0.0.1',
    headers,
    fs: {
      allow: [repoRoot],
    },
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    headers,
  },
});
