// What the browser measurements (scripts/measure-page.mjs, bench/lib/browser.mjs) install in a
// page: a probe that runs before the page's own scripts, and a gzip tally of every response.
import { gzipSync } from 'node:zlib';

/** The probe's console message once a heatmap has ink. */
export const FIRST_HEATMAP_MESSAGE = 'page-probe:first-heatmap';

/**
 * Runs in the page before its scripts (context.addInitScript(pageProbe, options)), recording in
 * window.__probe: main-thread long tasks (> 50 ms, buffered), the time of the first animation frame
 * in which a canvas matching `heatmapSelector` has ink (`inWidgets`: inside the page's widgets'
 * shadow roots too), canvas clears (every chart clears its canvas once before each draw: redraws)
 * and wasm compilations on the main thread (must stay 0: the wasm runs in the worker). When the
 * first heatmap has ink it logs `firstHeatmapMessage` to the console (openProbedContext passes
 * FIRST_HEATMAP_MESSAGE, which gotoFirstHeatmap waits for).
 * @param {{heatmapSelector: string, inWidgets?: boolean, firstHeatmapMessage: string}} options
 */
export function pageProbe({ heatmapSelector, inWidgets = false, firstHeatmapMessage }) {
  const w = /** @type {any} */ (window);
  w.__probe = { longTasks: [], firstHeatmap: null, clears: 0, wasm: 0 };
  const clearRect = CanvasRenderingContext2D.prototype.clearRect;
  CanvasRenderingContext2D.prototype.clearRect = function (...args) {
    w.__probe.clears++;
    return clearRect.apply(this, args);
  };
  for (const name of ['instantiate', 'instantiateStreaming', 'compile', 'compileStreaming']) {
    const original = WebAssembly[name];
    WebAssembly[name] = function (...args) {
      w.__probe.wasm++;
      return original.apply(this, args);
    };
  }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__probe.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const inked = (c) => {
    if (c.width < 20 || c.height < 20) return false;
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    for (let i = 3; i < data.length; i += 16) if (data[i] > 0) return true;
    return false;
  };
  const poll = () => {
    const roots = [document];
    if (inWidgets) for (const e of document.querySelectorAll('*')) if (e.shadowRoot) roots.push(e.shadowRoot);
    if (roots.some((r) => [...r.querySelectorAll(heatmapSelector)].some(inked))) {
      w.__probe.firstHeatmap = performance.now();
      console.debug(firstHeatmapMessage);
    } else requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
}

/**
 * Loads `url` in `page` (a probed context's) and returns the probe's first-heatmap time (ms after
 * navigation). It waits for the probe's console message rather than with page.waitForFunction,
 * which evaluates Playwright's own script in the page (20 ms of compiling) and polls it at every
 * frame, on the main thread of the very load it times: the article's first heatmap measured
 * 490 ms that way against 481 (12 loads each, interleaved in alternating order).
 * @param {import('playwright-core').Page} page
 * @param {string} url
 * @returns {Promise<number>}
 */
export async function gotoFirstHeatmap(page, url, timeout = 60_000) {
  const seen = page.waitForEvent('console', { predicate: (m) => m.text() === FIRST_HEATMAP_MESSAGE, timeout });
  seen.catch(() => {}); // a failed navigation is the error reported
  await page.goto(url);
  await seen;
  return page.evaluate(() => /** @type {any} */ (window).__probe.firstHeatmap);
}

/**
 * A fresh browser context (empty cache) with pageProbe installed and, with `tally`, a tally of
 * every response of its pages and their workers (context-level, so the worker's wasm fetch counts),
 * each body gzip -9 here: what a static host with gzip sends (vite preview itself does not
 * compress). Only for the loads that measure a download: fetching each body through the DevTools
 * protocol while the page loads kept the browser process busy, and the article's first heatmap
 * measured 472 ms with the tally against 414 without (10 loads each, alternating order).
 * @param {import('playwright-core').Browser} browser
 * @param {{heatmapSelector?: string, inWidgets?: boolean, tally?: boolean}} [options]
 */
export async function openProbedContext(browser, { heatmapSelector = '.heatmap canvas', inWidgets = false, tally = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(pageProbe, { heatmapSelector, inWidgets, firstHeatmapMessage: FIRST_HEATMAP_MESSAGE });
  if (!tally) {
    const transfer = () => Promise.reject(new Error('openProbedContext: this context was opened without { tally: true }'));
    return { context, transfer };
  }
  const bodies = [];
  const sizes = (url, b) => ({ url, raw: b.length, gzip: gzipSync(b, { level: 9 }).length });
  context.on('response', (res) => {
    bodies.push(
      res.body().then(
        (b) => sizes(res.url(), b),
        // Redirects and aborted requests have no body. A served file's body can also be gone from
        // the browser's buffers by the time it is asked for (seen on a loaded machine: Chart.js's
        // 43 KB left out of every widget page's total): fetch it again from the static server.
        () =>
          res.status() === 200
            ? fetch(res.url()).then(async (r) => (r.ok ? sizes(res.url(), Buffer.from(await r.arrayBuffer())) : null), () => null)
            : null,
      ),
    );
  });
  /** @returns {Promise<{files: {url: string, raw: number, gzip: number}[], raw: number, gzip: number}>} */
  const transfer = async () => {
    const files = (await Promise.all(bodies)).filter(Boolean);
    return { files, raw: files.reduce((a, f) => a + f.raw, 0), gzip: files.reduce((a, f) => a + f.gzip, 0) };
  };
  return { context, transfer };
}
