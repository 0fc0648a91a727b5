// Vite config for the AttentionLab page. Root is web/; the build lands in ../dist (repo root).
// The wasm core lives in build/wasm/ (outside web/), so the dev server must be allowed to read the
// repo root. Both the dev and the preview server send a strict CSP as a header (a <meta> CSP would
// not cover workers; the dev server's also allows inline styles, see below); the wasm glue is built with -sDYNAMIC_EXECUTION=0, so it needs no eval.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// Pages and entries of the build: the app, the performance page, the iframe page, the example blog post(s), and the widget
// bundle, whose file name is stable (no hash) because bloggers reference it by name.
const WIDGET_ENTRY = 'attention-lab-widgets';
const input: Record<string, string> = {
  index: `${webRoot}index.html`,
  embed: `${webRoot}embed.html`,
  performance: `${webRoot}performance.html`,
  [WIDGET_ENTRY]: `${webRoot}src/widgets/attention-lab-widgets.ts`,
};
for (const file of readdirSync(`${webRoot}examples`)) {
  if (file.endsWith('.html')) input[`examples/${file.slice(0, -5)}`] = `${webRoot}examples/${file}`;
}

// The built site's policy (vite preview, the tests): no inline scripts and no inline styles either;
// the components adopt their CSS as constructable stylesheets (src/adopt-css.ts), which
// style-src 'self' allows, so widgets keep their styles on hosts as strict as this.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
].join('; ');

const securityHeaders = (csp: string) => ({
  'Content-Security-Policy': csp,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
});
// The dev server injects imported CSS files as <style> elements (hot reload), so it allows them.
const DEV_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

// The state table's `doc` lines are for the README's attribute table (scripts/attribute-table.mjs
// reads the source itself); every page and widget imports the table, so they are left out of the
// build: about 1 KB gzip off every page. A `doc` in any other form than a plain string literal stops
// the build, so that none ships unnoticed.
const STATE_TABLE = /\/web\/src\/state-table\.ts$/;
const DOC_ENTRY = /,\s*doc:\s*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")(?=\s*\})/g;
function stripStateTableDocs(): Plugin {
  return {
    name: 'attention-lab:strip-state-table-docs',
    enforce: 'pre',
    transform(code, id) {
      if (!STATE_TABLE.test(id.split('?')[0])) return null;
      const stripped = code.replace(DOC_ENTRY, '');
      const rows = stripped.indexOf('export const PROPS');
      const left = /\bdoc:/.exec(stripped.slice(rows));
      if (rows < 0 || left) this.error(`state-table.ts: no PROPS, or a doc that is not one plain string literal at the end of its row: ${stripped.slice(rows + (left?.index ?? 0), rows + (left?.index ?? 0) + 80)}`);
      return { code: stripped, map: null };
    },
  };
}

export default defineConfig({
  root: webRoot,
  plugins: [stripStateTableDocs()],
  base: './',
  resolve: {
    // Chart.js's colour helper: the few operations it uses, without the CSS colour-name tables
    // (3.7 KB gzip of every page with a chart; web/src/charts/color-lite.ts says what it keeps)
    alias: [{ find: /^@kurkle\/color$/, replacement: fileURLToPath(new URL('src/charts/color-lite.ts', import.meta.url)) }],
  },
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      input,
      // Property reads are assumed free of side effects (Rollup's "smallest" preset does the same), so
      // unused Chart.js classes (time, radial scales…) are dropped: about 10 KB gzip off every page.
      treeshake: { propertyReadSideEffects: false },
      output: {
        entryFileNames: (chunk) => (chunk.name === WIDGET_ENTRY ? `widgets/${WIDGET_ENTRY}.js` : 'assets/[name]-[hash].js'),
      },
    },
  },
  worker: {
    format: 'es',
  },
  server: {
    host: '127.0.0.1',
    headers: securityHeaders(DEV_CONTENT_SECURITY_POLICY),
    fs: {
      allow: [repoRoot],
    },
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    headers: securityHeaders(CONTENT_SECURITY_POLICY),
  },
});
