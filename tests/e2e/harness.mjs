// Shared harness of the end-to-end tests: a `vite preview` server over the built site
// (ATTENTION_LAB_DIST or dist/, with the strict CSP header), Chromium's headless shell via playwright-core,
// a problem collector (console errors, page errors, failed requests, HTTP errors, requests to other
// hosts, dialogs: any of these fails a test), and screenshots into test-artifacts/.
//
//   import { startSite } from './harness.mjs';
//   const site = await startSite();              // in before()
//   await site.load('#view=dot&seed=3');          // fresh load, waits for the shell to be ready
//   site.problems.assertNone();                   // in afterEach()
//   await site.screenshot('dot');                 // test-artifacts/dot.png
//   await site.close();                           // in after()
// or, inside a describe(), all three hooks at once:
//   let site, page;
//   useSite((s) => { site = s; page = s.page; });
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { after, afterEach, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { distDir, startPreview } from '../../scripts/serve.mjs';

export { distDir };
/** The browser a reader runs (Debian's chromium): the benchmarks' page figures come from it. */
export const CHROMIUM = '/usr/bin/chromium';
/**
 * The browser the end-to-end tests drive: Chromium's headless shell (Debian's
 * chromium-headless-shell), the same engine at the same version as CHROMIUM without the browser
 * around it (no windows, no address bar, no profile services), which is what Playwright runs
 * headless by default. The suite is CPU-bound on two cores, and the shell does the same tests with
 * a fifth less CPU (docs/build.md, "The end-to-end suite's time"). launch-args.test.mjs drives
 * CHROMIUM itself.
 */
export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
// Playwright's own --disable-features list (its chromiumSwitches, playwright-core 1.65.1). Chromium
// reads only the last --disable-features of a command line, so ours must repeat it:
// tests/e2e/launch-args.test.mjs checks that a browser launched with LAUNCH_ARGS still has every
// feature a default launch disables.
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
  'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
];
// Every page Playwright opens is a new browser window, and Chromium 156 loads each window's address
// bar popup as a web page of its own, in a renderer: about 100 scripts, and 200-250 ms of a core
// while the page under test loads. A reader's browser has its popup loaded once, long before, so
// it is no part of a page load: with 2 cores here, it slowed the article's first heatmap from
// about 550 to about 800 ms. The page-load figures (bench/lib/browser.mjs) are the page's own
// without it.
const DISABLED_FEATURES = [...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];
export const LAUNCH_ARGS = [
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const artifactsDir = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

/**
 * Screenshots are for people to look at, not assertions: LAB_SCREENSHOTS=0 leaves them out (CI does,
 * where they took a third of the layout test's time), anything else keeps them in test-artifacts/.
 */
export const KEEP_SCREENSHOTS = process.env.LAB_SCREENSHOTS !== '0';

/** `target.screenshot(options)` (a page or a locator) when screenshots are kept; nothing otherwise. */
export async function keepScreenshot(target, options) {
  if (KEEP_SCREENSHOTS) await target.screenshot(options);
}

/** Presses the page's language button and waits for the section (its root: `root`) mounted in that language. */
export async function switchLanguage(page, lang, root) {
  await page.click(`#lang-switch button[data-lang=${lang}]`);
  // the old sections are gone at once: the root found is the new one's
  await page.waitForFunction(([l, r]) => document.documentElement.lang.startsWith(l) && document.querySelector(r) !== null, [lang, root]);
}

/** The app's favicon (web/public/favicon.svg). */
const FAVICON_PATH = '/favicon.svg';

/** Everything that must not happen on a page; tests assert the list is empty after each test. */
export class ProblemCollector {
  /** @type {string[]} */
  problems = [];
  /** @type {string[]} */
  dialogs = [];
  /** @type {RegExp[]} problems a test expects (e.g. the worker's deliberate crash); cleared by take() */
  #allowed = [];
  /** which page load a request belongs to: leaving a page aborts its requests, which is no fault */
  #epoch = 0;
  #requestEpoch = new WeakMap();
  /** when the last page was left (ms since 1970, the clock of the browser's request timings) */
  #leftAt = 0;
  /**
   * Aborted requests, judged when the problems are read: the commit of the navigation that aborted
   * them (framenavigated, which moves #leftAt) can reach Node after the failure does.
   */
  #aborted = [];

  /** Call before navigating away: requests of the old page that get aborted are not problems. */
  nextPage() {
    this.#epoch++;
    this.#leftAt = Date.now();
  }

  /**
   * A request the old page started. The epoch alone is not enough: a worker's request reaches Node
   * on the worker's own channel, so its 'request' event can arrive after the page was left.
   */
  #fromLeftPage(req) {
    return this.#requestEpoch.get(req) !== this.#epoch || req.timing().startTime < this.#leftAt;
  }

  /**
   * @param {import('playwright-core').Page} page
   * @param {string} origin the server's origin: requests anywhere else are problems
   */
  attach(page, origin) {
    const add = (text) => {
      if (!this.#allowed.some((re) => re.test(text))) this.problems.push(text);
    };
    page.on('console', (msg) => {
      if (msg.type() === 'error') add(`console error: ${msg.text()}`);
    });
    page.on('pageerror', (err) => add(`page error: ${err.message}`));
    // A request that starts after a navigation began but before the new document commits (a
    // worker's wasm fetch on a busy machine) still belongs to the old document, and its abort is no
    // fault either: the commit moves the line (a change of the hash alone is no new document).
    let documentUrl = '';
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      const url = frame.url().replace(/#.*$/, '');
      if (url !== documentUrl) this.#leftAt = Math.max(this.#leftAt, Date.now());
      documentUrl = url;
    });
    page.on('request', (req) => {
      // a new top-level document: whatever the old one still loads may be aborted, harmlessly
      if (req.isNavigationRequest() && req.frame() === page.mainFrame()) {
        this.#epoch++;
        this.#leftAt = Math.max(this.#leftAt, req.timing().startTime || Date.now());
      }
      this.#requestEpoch.set(req, this.#epoch);
      const url = req.url();
      if (!url.startsWith(origin) && !/^(data|blob|about):/.test(url)) add(`request to another host: ${url}`);
    });
    page.on('requestfailed', (req) => {
      const error = req.failure()?.errorText ?? '';
      // Chromium fetches the favicon for its own UI and aborts that fetch when the URL changes (the
      // app rewrites its hash with replaceState); a missing favicon still shows up as an HTTP error.
      if (error === 'net::ERR_ABORTED' && new URL(req.url()).pathname === FAVICON_PATH) return;
      if (error === 'net::ERR_ABORTED') this.#aborted.push({ req, add });
      else add(`request failed: ${req.url()} (${error})`);
    });
    page.on('response', (res) => {
      if (res.status() >= 400) add(`HTTP ${res.status()}: ${res.url()}`);
    });
    page.on('dialog', (dialog) => {
      this.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      dialog.dismiss().catch(() => {});
    });
  }

  /** Lets problems matching `pattern` pass until the next take()/assertNone(). */
  allow(pattern) {
    this.#allowed.push(pattern);
  }

  /** The problems so far (dialogs included), and a clean slate. */
  take() {
    for (const { req, add } of this.#aborted.splice(0)) {
      if (!this.#fromLeftPage(req)) add(`request failed: ${req.url()} (net::ERR_ABORTED)`);
    }
    const seen = [...this.problems, ...this.dialogs.map((d) => `dialog ${d}`)];
    this.problems.length = 0;
    this.dialogs.length = 0;
    this.#allowed = [];
    return seen;
  }

  assertNone(message = 'the page reported problems') {
    assert.deepEqual(this.take(), [], message);
  }
}

/** How often a wait on a page condition (waitForFunction) tests it, in ms. */
export const POLL_MS = 100;

/**
 * Makes every waitForFunction of this process poll every POLL_MS unless it says otherwise.
 * Playwright's default tests the condition on every animation frame, and a page asked for frames
 * keeps painting them: while a test waits on the page's worker (most waits), its renderer, its
 * compositor and the GPU process worked at 60 frames a second for nothing (5% of the end-to-end
 * suite's CPU and time; docs/build.md, "Build time"). A condition that must be caught
 * within a frame passes `polling: 'raf'` itself. Page.waitForFunction calls its main frame's, so the
 * frame's method (shared by every page of every browser) is the one wrapped, once.
 * @param {import('playwright-core').Page} page
 */
function pollOnATimer(page) {
  const frame = Object.getPrototypeOf(page.mainFrame());
  if (frame.waitForFunction.pollsOnATimer) return;
  const waitForFunction = frame.waitForFunction;
  frame.waitForFunction = function (pageFunction, arg, options = {}) {
    return waitForFunction.call(this, pageFunction, arg, { polling: POLL_MS, ...options });
  };
  frame.waitForFunction.pollsOnATimer = true;
}

/**
 * Starts the preview server and Chromium, opens one page with a problem collector.
 * @param {{viewport?: {width: number, height: number}, dist?: string, locale?: string}} [options]
 */
export async function startSite({ viewport = { width: 1280, height: 900 }, dist = distDir, locale = 'en-US' } = {}) {
  if (!existsSync(`${dist}/index.html`)) {
    throw new Error(`${dist}/index.html is missing: run \`npm run build:web\` (or set ATTENTION_LAB_DIST) before the e2e tests.`);
  }
  if (!existsSync(HEADLESS_SHELL)) throw new Error(`${HEADLESS_SHELL} not found: apt-get install -y chromium-headless-shell`);
  const server = await startPreview({ port: 0, strictPort: true, logLevel: 'error', dist });
  let browser;
  try {
    browser = await chromium.launch({ executablePath: HEADLESS_SHELL, args: LAUNCH_ARGS, timeout: 30_000 });
  } catch (err) {
    await server.close();
    throw err;
  }
  const context = await browser.newContext({ viewport, locale });
  const page = await context.newPage();
  pollOnATimer(page);
  // Waits end as soon as their condition holds; the limit only matters on a loaded machine, and
  // scripts/test-all.sh runs the e2e files side by side (one per core): a page training while
  // another Chromium trains can take twice as long as alone.
  page.setDefaultTimeout(60_000);
  const origin = new URL(server.url).origin;
  const problems = new ProblemCollector();
  problems.attach(page, origin);

  return {
    url: server.url,
    origin,
    browser,
    context,
    page,
    problems,
    /**
     * A fresh load of `path` + `hash` (via about:blank, so a new hash is a new document), waiting
     * until the shell marked itself ready. Returns the navigation response.
     */
    async load(hash = '', path = '/') {
      // Requests the old page had in flight are aborted by leaving it: no fault. Its favicon request
      // may even start while about:blank loads, so the epoch moves on both before and after.
      problems.nextPage();
      await page.goto('about:blank');
      problems.nextPage();
      const res = await page.goto(new URL(`${path}${hash}`, server.url).href, { waitUntil: 'load' });
      if (path === '/' || path === '/index.html') {
        await page.waitForFunction(() => document.body.dataset.ready !== undefined);
        assert.equal(await page.evaluate(() => document.body.dataset.ready), 'true', 'the shell did not start');
      }
      return res;
    },
    /** Saves test-artifacts/<name>.png (full page unless fullPage: false), unless LAB_SCREENSHOTS=0. */
    async screenshot(name, { fullPage = true, target = page } = {}) {
      mkdirSync(artifactsDir, { recursive: true });
      const path = `${artifactsDir}${name}.png`;
      await keepScreenshot(target, target === page ? { path, fullPage } : { path });
      return path;
    },
    async close() {
      try {
        await context.close();
        await browser.close();
      } finally {
        await server.close();
      }
    },
  };
}

/**
 * The hooks of a describe() that drives one site: startSite(options) before its tests, then
 * onStart(site) (which keeps the site, its page, and may prepare them); after each test, that
 * nothing went wrong (the problem collector); after the suite, the site closed.
 * @param {(site: Awaited<ReturnType<typeof startSite>>) => unknown} onStart
 * @param {Parameters<typeof startSite>[0]} [options]
 */
export function useSite(onStart, options) {
  /** @type {Awaited<ReturnType<typeof startSite>> | undefined} */
  let site;
  before(async () => {
    site = await startSite(options);
    await onStart(site);
  });
  afterEach(() => site.problems.assertNone());
  after(() => site?.close());
}

/** Sideways overflow of the page in CSS pixels (0 when nothing scrolls horizontally). */
export function horizontalOverflow(page) {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}

/** Fraction of non-transparent pixels of a canvas (a drawn chart is well above 0.2). */
export function canvasInk(page, selector) {
  return page.evaluate((sel) => {
    const canvas = document.querySelector(sel);
    if (!(canvas instanceof HTMLCanvasElement) || canvas.width < 20 || canvas.height < 20) return 0;
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
    return painted / (data.length / 4);
  }, selector);
}

/**
 * canvasInk, polled until the canvas has some (a resize clears a canvas, and its redraw may land
 * a few frames later on a loaded machine); 0 if it has none within `timeoutMs`.
 */
export function waitForCanvasInk(page, selector, timeoutMs = 15_000) {
  return readUntil(() => canvasInk(page, selector), (ink) => ink > 0, timeoutMs);
}

/**
 * `read()` again every 100 ms until `done(result)` or `timeoutMs` have passed; the last result,
 * for the caller to assert on. For what follows a frame or an observer's callback (a repaint, the
 * contents' mark), which comes when the browser gets to it.
 * @template T
 * @param {() => Promise<T>} read
 * @param {(result: T) => boolean} done
 * @returns {Promise<T>}
 */
export async function readUntil(read, done, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await read();
    if (done(result) || Date.now() >= deadline) return result;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Opens a section's collapsed panel (sections/panel.ts) as a reader does, by clicking its title,
 * unless it is open already; waits until it is open. `testId`: the panel's data-testid.
 * @param {import('playwright-core').Page} page
 * @param {string} testId
 */
export async function openPanel(page, testId) {
  const panel = page.locator(`details[data-testid="${testId}"]`);
  if (!(await panel.evaluate((d) => d.open))) await panel.locator(':scope > summary').click();
  await page.waitForFunction((id) => document.querySelector(`details[data-testid="${id}"]`)?.open === true, testId);
}

/**
 * Types `value` into the number field `field` (its setting `name`) without leaving it, then opens
 * the panel `panel` (its setting `panelSetting`) by the address, as a link or the back button
 * would: the field must keep what was typed, and apply it when the reader leaves it (Tab).
 * `openSetting`: the setting of the panel the field is in, written to the address first (a hash
 * written without it would close that panel).
 */
export async function typedFieldOutlivesAnotherSetting(page, { field, name, value, openSetting, panel, panelSetting }) {
  await page.fill(`[data-testid=${field}]`, value); // typed, not yet committed
  await page.waitForFunction((s) => new RegExp(`${s}=1`).test(location.hash), openSetting);
  await page.evaluate((s) => { location.hash += `&${s}=1`; }, panelSetting);
  await page.waitForFunction((id) => document.querySelector(`details[data-testid="${id}"]`)?.open === true, panel);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), field, 'still in the field');
  assert.equal(await page.inputValue(`[data-testid=${field}]`), value, 'what the reader typed was kept');
  await page.keyboard.press('Tab'); // the reader leaves the field: its change commits it
  await page.waitForFunction(([n, v]) => new RegExp(`${n}=${v}(&|$)`).test(location.hash), [name, value]);
}

/** Scrolls to the bottom in steps of most of a screen, so every part that starts when seen has started. */
export async function scrollThrough(page) {
  for (let i = 0; i < 80; i++) {
    const done = await page.evaluate(() => {
      window.scrollBy(0, window.innerHeight * 0.8);
      return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
    });
    await page.waitForTimeout(150);
    if (done) break;
  }
}

/**
 * A phone beside a describe()'s site (call after useSite): a 390 × 844 touch page in its own browser
 * context, with its own problem collector. `open(hash)` loads the app there and waits for the shell.
 * @param {() => Awaited<ReturnType<typeof startSite>>} getSite
 */
export function usePhone(getSite) {
  const phone = {
    /** @type {import('playwright-core').Page} */
    page: undefined,
    problems: new ProblemCollector(),
    context: undefined,
    async open(hash) {
      phone.problems.nextPage();
      await phone.page.goto('about:blank');
      phone.problems.nextPage();
      await phone.page.goto(new URL(`/${hash}`, getSite().url).href, { waitUntil: 'load' });
      await phone.page.waitForFunction(() => document.body.dataset.ready === 'true');
    },
  };
  before(async () => {
    const site = getSite();
    phone.context = await site.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    phone.page = await phone.context.newPage();
    phone.page.setDefaultTimeout(60_000);
    phone.problems.attach(phone.page, site.origin);
  });
  afterEach(() => phone.problems.assertNone());
  after(() => phone.context?.close());
  return phone;
}
