// Every kind of widget alone on a page (web/examples/test-one-*.html), with the wasm build it must
// load: none for a given matrix, the attention-only build for widgets that never train, the
// Seq2Seq-only build for those that do, the Transformer-only build for the Transformer; the two
// largest pages in Chinese as well (a page downloads its strings in one language, and the Chinese
// ones are the larger). tests/e2e/widgets.test.mjs checks each page's download against the budget;
// bench/lib/browser.mjs reports it.

/**
 * @typedef {object} OneWidgetPage
 * @property {string} path the page, under the site root
 * @property {string} element the widget's tag name
 * @property {string} label how reports name it
 * @property {'attention' | 'seq2seq' | 'transformer' | 'transformer_fma' | 'gpt' | 'gpt_fma' | 'core' | 'core_fma' | null} wasm the one wasm build it loads (in Chromium), or none
 * @property {string} [start] the test id of a button the widget waits for before computing anything
 * @property {number} [budgetKB] its download budget, KiB gzip (default: 200, tests/e2e/widgets.test.mjs)
 * @property {boolean} [charts] it shows a line or bar chart before the reader does anything (or after `start`): Chart.js is part of its download
 * @property {string} [corpus] a text file it fetches beside its code, outside the budget: the test reports its size
 */

/** @type {OneWidgetPage[]} */
export const ONE_WIDGET_PAGES = [
  { path: '/examples/test-one-heatmap.html', element: 'attention-heatmap', label: '<attention-heatmap data=…>', wasm: null, budgetKB: 30 },
  { path: '/examples/test-one-live-heatmap.html', element: 'attention-heatmap', label: '<attention-heatmap mechanism=self>', wasm: 'attention' },
  { path: '/examples/test-one-playground.html', element: 'attention-playground', label: '<attention-playground mechanism=scaled-dot>', wasm: 'attention', charts: true },
  { path: '/examples/test-one-multihead.html', element: 'multihead-view', label: '<multihead-view>', wasm: 'attention' },
  { path: '/examples/test-one-encoder-decoder.html', element: 'attention-playground', label: '<attention-playground mechanism=encoder-decoder>', wasm: 'seq2seq' },
  { path: '/examples/test-one-why.html', element: 'attention-playground', label: '<attention-playground mechanism=why>', wasm: 'seq2seq', start: 'why-start', charts: true },
  { path: '/examples/test-one-seq2seq.html', element: 'seq2seq-demo', label: '<seq2seq-demo task=note>', wasm: 'seq2seq' },
  { path: '/examples/test-one-seq2seq.zh.html', element: 'seq2seq-demo', label: '<seq2seq-demo task=note lang=zh>', wasm: 'seq2seq' },
  // the Transformer has its own widget build (wasm/js/modules.mjs), and of it a build with fused
  // multiply-add, which Chromium (relaxed SIMD) loads instead: that one alone, within the budget
  { path: '/examples/test-one-transformer.html', element: 'transformer-demo', label: '<transformer-demo task=dates>', wasm: 'transformer_fma' },
  { path: '/examples/test-one-transformer.zh.html', element: 'transformer-demo', label: '<transformer-demo task=dates lang=zh>', wasm: 'transformer_fma' },
  { path: '/examples/test-one-playground-transformer.html', element: 'attention-playground', label: '<attention-playground mechanism=transformer>', wasm: 'transformer_fma' },
  // §5's GPT: its own build, its curves (and Chart.js) from the first training step; the poems it
  // fetches on coming into view are reported apart (`corpus`)
  { path: '/examples/test-one-gpt.html', element: 'gpt-demo', label: '<gpt-demo>', wasm: 'gpt_fma', corpus: 'poems/tang300.txt' },
];

/** The wasm build a response URL is (`attention`, `seq2seq`, `transformer`, `core`, each `_fma` too), or undefined. */
export const wasmBuildOf = (url) => /attention_lab_(\w+)-[\w-]+\.wasm$/.exec(url)?.[1];

/**
 * Opens `spec.path` at `origin` in `page` and resolves once everything the widget needs has arrived:
 * it has mounted and drawn its first canvas (section code loaded), its wasm has arrived (it comes
 * later, from the worker; pressing `start` first if the widget waits for it), Chart.js too if it has
 * charts, and the network has then been idle for 500 ms. Returns the widget's data-ready ('true' or 'error').
 * @param {import('playwright-core').Page} page
 * @param {string} origin
 * @param {OneWidgetPage} spec
 */
export async function loadOneWidgetPage(page, origin, { path, element, wasm, start, charts }) {
  // listening from before navigation, so a fast fetch cannot slip past
  const wasmArrived = wasm ? page.context().waitForEvent('response', { predicate: (r) => wasmBuildOf(r.url()) !== undefined, timeout: 60_000 }) : null;
  wasmArrived?.catch(() => {}); // awaited below unless the widget failed to start
  // Chart.js comes on demand, after the page's first heatmap (or at most 2 s): part of the download
  const chartsArrived = charts ? page.context().waitForEvent('response', { predicate: (r) => /chart-setup/.test(r.url()), timeout: 60_000 }) : null;
  chartsArrived?.catch(() => {});
  await page.goto(`${origin}${path}`, { waitUntil: 'load' });
  await page.locator(element).scrollIntoViewIfNeeded();
  await page.waitForFunction((s) => document.querySelector(s)?.dataset.ready !== undefined, element);
  const ready = await page.evaluate((s) => document.querySelector(s).dataset.ready, element);
  if (ready !== 'true') return ready;
  await page.waitForFunction((s) => document.querySelector(s).shadowRoot.querySelector('canvas'), element);
  if (start) await page.locator(`[data-testid="${start}"]`).click();
  if (wasmArrived) await wasmArrived;
  if (chartsArrived) await chartsArrived;
  await page.waitForLoadState('networkidle');
  return ready;
}
