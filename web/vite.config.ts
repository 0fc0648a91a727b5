// Vite config for the AttentionLab page. Root is web/; the build lands in ../dist (repo root).
// The wasm core lives in build/wasm/ (outside web/), so the dev server must be allowed to read the
// repo root. Both the dev and the preview server send a strict CSP as a header (a <meta> CSP would
// not cover workers; the dev server's also allows inline styles, see below); the wasm glue is built with -sDYNAMIC_EXECUTION=0, so it needs no eval.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// Pages and entries of the build: the app, the page for addresses that have none (404.html, which
// static hosts serve by that name), the performance page, the iframe page, examples/ (its index, the example blog posts, the one-widget pages), and the widget
// bundle, whose file name is stable (no hash) because bloggers reference it by name.
const WIDGET_ENTRY = 'attention-lab-widgets';
const input: Record<string, string> = {
  index: `${webRoot}index.html`,
  404: `${webRoot}404.html`,
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
// build: about 1 KB gzip off every page. So are the rows' `section`s (about 0.2 KB): a setting's
// name starts with its section's slug (tests/web/state.test.mjs), which is what the page reads. A
// `doc` or `section` in any other form than a plain string literal stops the build, so that none
// ships unnoticed.
const STATE_TABLE = /\/web\/src\/state-table\.ts$/;
const DOC_ENTRY = /,\s*(?:doc|section):\s*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")(?=\s*[,}])/g;
function stripStateTableDocs(): Plugin {
  return {
    name: 'attention-lab:strip-state-table-docs',
    apply: 'build', // the dev server and the unit tests (tests/web, through Vite) keep the rows whole
    enforce: 'pre',
    transform(code, id) {
      if (!STATE_TABLE.test(id.split('?')[0])) return null;
      const stripped = code.replace(DOC_ENTRY, '');
      const rows = stripped.indexOf('export const PROPS');
      const left = /\b(?:doc|section):/.exec(stripped.slice(rows));
      if (rows < 0 || left) this.error(`state-table.ts: no PROPS, or a doc or section that is not one plain string literal: ${stripped.slice(rows + (left?.index ?? 0), rows + (left?.index ?? 0) + 80)}`);
      return { code: stripped, map: null };
    },
  };
}

// Section string tables (web/src/sections/*-strings.ts: `export const X: Strings = { en: {…},
// zh: {…} };`) ship one language per chunk: the section's own chunk keeps an empty table that
// i18n.ts fills with the languages the page uses (the mounter awaits useLanguage after importing
// the section), so a page or widget downloads the language it shows, not both (about 3 KB gzip for
// §3.3 or §4). The source files stay as they are (both languages side by side, for translators and
// for the tests, which import them directly); a listed table in another shape stops the build,
// naming the file. Only the tables listed here, each imported by its section's module itself: a
// table whose module loads after its section has mounted (a panel loaded on demand, such as the
// model-file panel) would be filled too late, so it stays whole unless it joins its section's
// strings (as §3.3 merges the "ask the model why" panel's).
const SECTION_STRINGS = /\/web\/src\/sections\/(diagram|dot|gpt|idea|multihead|self|transformer|translate|translate-why|why)-strings\.ts$/;
// Tables only the article uses (§3.3's "ask the model why" panel, which widgets and the iframe page
// never mount): filled by the article's useLanguage only, so a widget does not download them.
const ARTICLE_ONLY_STRINGS = /\/web\/src\/sections\/(diagram|translate-why)-strings\.ts$/;
const LANGS = ['en', 'zh'] as const;
const ONE_LANGUAGE = 'virtual:one-language-strings/';

interface TableSpan {
  name: string;
  /** line indexes: the `export const` line, each language's `  en: {` line and its `  },` line, the closing `};` */
  start: number;
  langs: Record<(typeof LANGS)[number], [number, number]>;
  end: number;
}

function stringTables(code: string, file: string): { lines: string[]; tables: TableSpan[] } {
  const lines = code.split('\n');
  const tables: TableSpan[] = [];
  const fail = (line: number, what: string): never => {
    throw new Error(`${file}:${line + 1}: ${what} (a string table is \`export const NAME: Strings = {\`, then \`  en: {\` … \`  },\`, \`  zh: {\` … \`  },\`, \`};\`)`);
  };
  lines.forEach((line, i) => {
    const m = /^export const (\w+): Strings = \{$/.exec(line);
    if (!m) {
      if (/:\s*Strings\b/.test(line) && /^export/.test(line)) fail(i, 'a Strings table in another form');
      return;
    }
    let at = i + 1;
    const langs = {} as TableSpan['langs'];
    for (const lang of LANGS) {
      if (lines[at] !== `  ${lang}: {`) fail(at, `expected \`  ${lang}: {\``);
      const close = lines.indexOf('  },', at + 1);
      if (close < 0) fail(at, `no \`  },\` closes ${lang}`);
      langs[lang] = [at, close];
      at = close + 1;
    }
    if (lines[at] !== '};') fail(at, 'expected `};` after zh');
    tables.push({ name: m[1], start: i, langs, end: at });
  });
  return { lines, tables };
}

function oneLanguageStrings(): Plugin {
  return {
    name: 'attention-lab:one-language-strings',
    apply: 'build', // the dev server and the unit tests (tests/web) keep both languages in each table
    enforce: 'pre',
    resolveId(source) {
      return source.startsWith(ONE_LANGUAGE) ? `\0${source}` : null;
    },
    load(id) {
      if (!id.startsWith(`\0${ONE_LANGUAGE}`)) return null;
      // virtual:one-language-strings/<lang>/<table>/<file>
      const [lang, name, ...path] = id.slice(ONE_LANGUAGE.length + 1).split('/');
      const file = `/${path.join('/')}`;
      this.addWatchFile(file);
      const { lines, tables } = stringTables(readFileSync(file, 'utf8'), file);
      const table = tables.find((t) => t.name === name);
      if (!table) this.error(`${file}: no string table ${name}`);
      const [open, close] = table.langs[lang as (typeof LANGS)[number]];
      return `export default {\n${lines.slice(open + 1, close).join('\n')}\n};\n`;
    },
    transform(code, id) {
      const file = id.split('?')[0];
      if (!SECTION_STRINGS.test(file) || id.includes('?')) return null;
      const { lines, tables } = stringTables(code, file);
      if (tables.length === 0) return null;
      for (const t of [...tables].reverse()) {
        const loaders = LANGS.map((lang) => `${lang}: () => import(${JSON.stringify(`${ONE_LANGUAGE}${lang}/${t.name}${file}`)})`);
        const articleOnly = ARTICLE_ONLY_STRINGS.test(file) ? ', { articleOnly: true }' : '';
        lines.splice(t.start, t.end - t.start + 1, `export const ${t.name}: Strings = oneLanguageStrings({ ${loaders.join(', ')} }${articleOnly});`);
      }
      return { code: `import { oneLanguageStrings } from '../i18n';\n${lines.join('\n')}`, map: null };
    },
  };
}

// The preview server (npm start, the tests) answers an address with no file as a static host
// does: 404, with the built 404.html (its links put under the site's folder), never the article's
// page, which would stay at "Loading…" with its relative scripts missing. appType 'mpa' turns
// off Vite's fallback to index.html; /examples/ still gets examples/index.html.
function notFoundPage(): Plugin {
  return {
    name: 'attention-lab:not-found-page',
    apply: 'serve',
    configurePreviewServer(server) {
      const { outDir } = server.config.build;
      const base = server.config.base;
      // after Vite's static files and its folder → index.html step, before its own empty 404
      return () => {
        server.middlewares.use((req, res, next) => {
          if (req.method !== 'GET' && req.method !== 'HEAD') return next();
          let page: string;
          try {
            page = readFileSync(`${outDir}/404.html`, 'utf8');
          } catch {
            return next();
          }
          const raw = new URL(req.url ?? '/', 'http://x').pathname;
          let path = '';
          try {
            path = decodeURIComponent(raw);
          } catch {
            // a malformed escape (/%E0%A4%A) names no file: the not-found page, not an error
          }
          if (path.endsWith('.html') && existsSync(`${outDir}${path}`)) return next(); // Vite serves it next
          if (path && !path.endsWith('/') && existsSync(`${outDir}${path}/index.html`)) {
            // a folder without its slash (…/examples): where its page's relative links work; the
            // address as it came, still escaped, so no decoded character reaches the header
            res.writeHead(301, { Location: `${base}${raw.slice(1)}/` }).end();
            return;
          }
          res.statusCode = 404;
          for (const [name, value] of Object.entries(securityHeaders(CONTENT_SECURITY_POLICY))) res.setHeader(name, value);
          res.setHeader('Content-Type', 'text/html; charset=utf-8');
          res.end(page.replaceAll('href="/', `href="${base}`));
        });
      };
    },
  };
}

const resolve = {
  // Chart.js's colour helper: the few operations it uses, without the CSS colour-name tables
  // (3.7 KB gzip of every page with a chart; web/src/charts/color-lite.ts says what it keeps)
  alias: [{ find: /^@kurkle\/color$/, replacement: fileURLToPath(new URL('src/charts/color-lite.ts', import.meta.url)) }],
};

/** Groups of small modules loaded together, each one chunk (explained at the app's build below). */
const CHUNK_GROUPS = [
  { name: 'charts', test: /\/web\/src\/charts\/(deferred-chart|line-chart|chart-readout|bar-chart)\.ts$/ },
  { name: 'training', test: /\/web\/src\/sections\/(trainer|translate-charts|translate-step-player)\.ts$/ },
  { name: 'translate-parts', test: /\/web\/src\/sections\/(translate-decode|translate-train)\.ts$/ },
  // (with the design system's CSS, the widgets' theme and the worker's address: every widget page's too)
  { name: 'lab-core', test: /\/web\/src\/(state|state-table|i18n|adopt-css|widgets\/shared-client|widgets\/widget-theme|widgets\/sections|widgets\/gpt-corpus|embed\/figure-embed|sections\/translate-recipes|sections\/transformer-recipes)\.ts$|\/web\/src\/design(-dark)?\.css\?inline$|\/web\/src\/worker\/lab-worker\.ts\?worker&url$|preload-helper/ },
];

// The widget kit (`--mode kit`, scripts/build-kit.mjs): the folder a blogger copies. Its module
// entry has a stable name beside the classic loader (web/src/embed/kit/attention-lab-widgets.js),
// every other file is in assets/, and everything is addressed relative to the importing file (base
// './'), so the folder works wherever it is put. Modules that widgets never load are replaced by a
// stub that throws, so they are not in the folder at all: the full core (only the article's worker
// loads it), the model-file wrappers that only its API uses, and the article's own panels.
export const KIT_DIR = 'attention-lab-widgets';
const KIT_ONLY_IN_ARTICLE = [
  /\/build\/wasm\/attention_lab_core(_fma)?\.mjs$/,
  /\/wasm\/js\/(safetensors|seq2seq-model)\.mjs$/,
  /\/web\/src\/sections\/(translate-article|translate-byo|translate-why-lazy)\.ts$/,
];
const STUB = '\0attention-lab-kit-stub:';
function articleOnlyStubs(patterns: RegExp[]): Plugin {
  return {
    name: 'attention-lab:kit-stubs',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source.startsWith(STUB)) return source;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && patterns.some((p) => p.test(resolved.id)) ? `${STUB}${resolved.id}` : null;
    },
    load(id) {
      if (!id.startsWith(STUB)) return null;
      const file = id.slice(STUB.length).split('/').pop();
      return `throw new Error(${JSON.stringify(`${file} is not in the widget kit: only the AttentionLab article loads it`)});\n`;
    },
  };
}

// The kit's file:// fallback (`--mode kit-file`): one classic script (IIFE) that the loader adds
// when the page was opened from disk, where module scripts, workers and wasm cannot load. It draws
// given matrices and puts a notice in place of every other widget. Its worker client is a stub that
// refuses with that notice (so no worker is bundled into it).
const SHARED_CLIENT = /\/web\/src\/widgets\/shared-client\.ts$/;
/** Builds the widgets with another worker client (`file` in web/src/widgets/) in place of shared-client.ts. */
function workerClient(file: string): Plugin {
  const replacement = fileURLToPath(new URL(`src/widgets/${file}`, import.meta.url));
  return {
    name: `attention-lab:worker-client-${file}`,
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && SHARED_CLIENT.test(resolved.id) ? replacement : null;
    },
  };
}

// embed.html's `<link rel="icon" href="data:,">` keeps a top-level load of the site's copy from
// fetching a favicon; in the kit the page is only ever framed (frames fetch no favicon), and a host
// whose CSP has no `img-src data:` would report the link as a violation.
function framedOnly(): Plugin {
  return {
    name: 'attention-lab:kit-embed-page',
    transformIndexHtml: (html) => html.replace(/\s*<!--[^>]*favicon[^>]*-->\s*<link rel="icon" href="data:," \/>/, ''),
  };
}

// The scripts of the standalone pages (`--mode kit-standalone-<build>`, scripts/build-kit.mjs): one
// classic script per wasm build with every widget and everything they load inlined, the worker
// too (widgets/standalone-client.ts), and that build's wasm as a data: URL inside the worker; the
// other builds are stubs. The site's Standalone HTML export inlines the one a view needs.
export const STANDALONE_DIR = 'standalone';
const WASM_BUILDS = ['attention', 'seq2seq', 'transformer', 'gpt', 'core'] as const;

// A standalone page inlines one wasm build, the plain one: there each FMA build (docs/build.md)
// resolves to its plain build, so the loader's choice loads the same module either way.
function plainForFma(): Plugin {
  return {
    name: 'attention-lab:plain-for-fma',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!/attention_lab_\w+_fma\.mjs$/.test(source)) return null;
      return this.resolve(source.replace(/_fma\.mjs$/, '.mjs'), importer, { ...options, skipSelf: true });
    },
  };
}

// A standalone page fetches nothing: §5's standalone script carries the poems in itself
// (widgets/gpt-corpus-inline.ts in place of gpt-corpus.ts), the others none.
const GPT_CORPUS = /\/web\/src\/widgets\/gpt-corpus\.ts$/;
function inlinePoems(): Plugin {
  const replacement = fileURLToPath(new URL('src/widgets/gpt-corpus-inline.ts', import.meta.url));
  return {
    name: 'attention-lab:inline-poems',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (importer === replacement) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && GPT_CORPUS.test(resolved.id) ? replacement : null;
    },
  };
}

function standaloneConfig(build: string): UserConfig {
  const others = WASM_BUILDS.filter((b) => b !== build).map((b) => new RegExp(`/build/wasm/attention_lab_${b === 'core' ? 'core' : b}\\.mjs$`));
  const stubs = () => [plainForFma(), articleOnlyStubs([...KIT_ONLY_IN_ARTICLE, ...others, /\/web\/src\/embed\/standalone\.ts$/])];
  return {
    root: webRoot,
    base: './',
    publicDir: false,
    plugins: [stripStateTableDocs(), workerClient('standalone-client.ts'), ...(build === 'gpt' ? [inlinePoems()] : []), ...stubs()],
    resolve,
    build: {
      outDir: fileURLToPath(new URL(`../dist/${STANDALONE_DIR}`, import.meta.url)),
      emptyOutDir: false,
      target: 'es2022',
      assetsInlineLimit: () => true,
      lib: { entry: `${webRoot}src/widgets/standalone-entry.ts`, formats: ['iife'], name: 'AttentionLabStandalone', fileName: () => `attention-lab-${build}.js` },
    },
    // a classic worker: Chromium starts a blob: classic worker on a file:// page, not a module one
    worker: { format: 'iife', plugins: stubs },
  };
}

function kitConfig(mode: 'kit' | 'kit-file'): UserConfig {
  const outDir = fileURLToPath(new URL(`../dist/${KIT_DIR}`, import.meta.url));
  if (mode === 'kit-file') {
    return {
      root: webRoot,
      base: './',
      publicDir: false,
      // a page opened from disk cannot read the kit's files, so it cannot make a standalone copy
      plugins: [stripStateTableDocs(), workerClient('file-client.ts'), articleOnlyStubs([/\/web\/src\/embed\/standalone\.ts$/])],
      resolve,
      define: { __KIT_FILE_SCRIPT__: JSON.stringify('./attention-lab-file.js'), __STANDALONE_SCRIPTS__: JSON.stringify('./') },
      build: {
        outDir,
        emptyOutDir: false,
        target: 'es2022',
        lib: { entry: `${webRoot}src/widgets/file-fallback.ts`, formats: ['iife'], name: 'AttentionLabFile', fileName: () => 'attention-lab-file.js' },
      },
    };
  }
  const stubs = () => [articleOnlyStubs(KIT_ONLY_IN_ARTICLE)];
  return {
    root: webRoot,
    base: './',
    publicDir: false,
    // the poems beside assets/, where <gpt-demo> fetches them (widgets/gpt-corpus.ts)
    plugins: [stripStateTableDocs(), oneLanguageStrings(), framedOnly(), poemsCorpus(), ...stubs()],
    resolve,
    // seen from the kit's assets/; a widget's figures make standalone files, sections only in the article
    define: { __KIT_FILE_SCRIPT__: JSON.stringify('../attention-lab-file.js'), __STANDALONE_SCRIPTS__: JSON.stringify('../no-standalone-scripts-in-the-kit/') },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      rolldownOptions: {
        input: { embed: `${webRoot}embed.html`, [WIDGET_ENTRY]: `${webRoot}src/widgets/attention-lab-widgets.ts` },
        treeshake: { propertyReadSideEffects: false },
        output: {
          entryFileNames: (chunk) => (chunk.name === WIDGET_ENTRY ? `${WIDGET_ENTRY}.mjs` : 'assets/[name]-[hash].js'),
          chunkFileNames: 'assets/[name]-[hash].js',
          assetFileNames: 'assets/[name]-[hash][extname]',
          codeSplitting: { includeDependenciesRecursively: false, groups: CHUNK_GROUPS },
        },
      },
    },
    worker: { format: 'es', plugins: stubs },
  };
}

// §5 trains on 唐诗三百首 (build/poems/tang300.txt, made by `npm run build:poems` from Debian's
// fortunes-zh; the repository holds the extractor, not the poems). The site and the widget kit serve
// it as poems/tang300.txt, which §5 and <gpt-demo> fetch when they first come into view, never with
// the page. A build
// without it stops, saying how to make it.
const POEMS_SOURCE = `${repoRoot}build/poems/tang300.txt`;
const POEMS_FILE = 'poems/tang300.txt';
function poemsCorpus(): Plugin {
  return {
    name: 'attention-lab:poems',
    generateBundle() {
      if (!existsSync(POEMS_SOURCE)) this.error(`${POEMS_SOURCE} is missing: run npm run build:poems`);
      this.emitFile({ type: 'asset', fileName: POEMS_FILE, source: readFileSync(POEMS_SOURCE) });
    },
    configureServer(server) {
      // the article's (beside the page) and the widgets' (one folder up from their module) address
      server.middlewares.use((req, res, next) => {
        if (!new URL(req.url ?? '/', 'http://x').pathname.endsWith(`/${POEMS_FILE}`)) return next();
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.end(readFileSync(POEMS_SOURCE));
      });
    },
  };
}

const appConfig: UserConfig = {
  root: webRoot,
  appType: 'mpa',
  plugins: [stripStateTableDocs(), oneLanguageStrings(), notFoundPage(), poemsCorpus()],
  base: './',
  resolve,
  // the kit's file:// script, seen from the site's assets/ (embed/standalone.ts inlines it)
  define: { __KIT_FILE_SCRIPT__: JSON.stringify(`../${KIT_DIR}/attention-lab-file.js`), __STANDALONE_SCRIPTS__: JSON.stringify(`../${STANDALONE_DIR}/`) },
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
        // Groups of small modules that pages load together, each as one chunk (not their
        // dependencies: the export menu is the heatmaps' too), because one file compresses better
        // than several: the app's chart wrappers (about 1 KB gzip off §3.3's and §4's widget pages;
        // a page with line charts only gets the bar chart's 1 KB as well, with room to spare); what
        // §3.3 and §4 share (the trainer, the training curves, the step player: loaded by exactly
        // their pages) and §3.3's decoding view and trainer (§3.3's pages load both; §4's
        // comparison, on request, and the article's panels that need one get the other too), about
        // 0.1 KB gzip each off those widget pages; and what every widget loads before its section
        // (state, its table, strings, the shared worker client, the section loaders, the recipes,
        // Vite's preload helper: 1.2 KB off every widget page; the article loads all of it anyway).
        codeSplitting: { includeDependenciesRecursively: false, groups: CHUNK_GROUPS },
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
};

// `vite build --config web/vite.config.ts` builds the site; `--mode kit` and `--mode kit-file` the widget kit.
export default defineConfig(({ mode }) => {
  if (mode === 'kit' || mode === 'kit-file') return kitConfig(mode);
  if (mode.startsWith('kit-standalone-')) return standaloneConfig(mode.slice('kit-standalone-'.length));
  return appConfig;
});
