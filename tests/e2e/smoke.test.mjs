// Browser smoke test of the built page (dist/) in Debian's Chromium, via playwright-core.
// Needs `npm run build:web` first; builds nothing itself. Run: node --test tests/e2e/
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { after, afterEach, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { distDir, startPreview } from '../../scripts/serve.mjs';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

describe('AttentionLab page', { timeout: 90_000 }, () => {
  /** @type {{url: string, close: () => Promise<void>} | undefined} */
  let server;
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  /** @type {import('playwright-core').BrowserContext | undefined} */
  let context;
  /** @type {import('playwright-core').Page} */
  let page;
  /** console errors, page errors, failed requests, HTTP errors, dialogs: any of these fails the run */
  const problems = [];
  const dialogs = [];

  before(async () => {
    if (!existsSync(`${distDir}/index.html`)) {
      throw new Error(`dist/ is missing (${distDir}/index.html): run \`npm run build:web\` before the e2e tests.`);
    }
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install -y chromium`);
    server = await startPreview({ port: 0, strictPort: true, logLevel: 'error' });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    // Waits end as soon as their condition holds; the limit only matters on a loaded 2-core machine.
    page.setDefaultTimeout(30_000);
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`));
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
    });
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      dialog.dismiss().catch(() => {});
    });
  });

  // Every test must leave no console error, page error, failed request or dialog behind.
  afterEach(() => {
    const seen = [...problems, ...dialogs.map((d) => `dialog ${d}`)];
    problems.length = 0;
    dialogs.length = 0;
    assert.deepEqual(seen, [], 'the page reported problems');
  });

  after(async () => {
    try {
      await context?.close();
      await browser?.close();
    } finally {
      await server?.close();
    }
  });

  /** Loads the page at `hash` and waits until the first result is drawn. */
  async function load(hash = '') {
    // via about:blank, so a new hash is a fresh page load (not a same-document hash change)
    await page.goto('about:blank');
    const res = await page.goto(`${server.url}${hash}`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.dataset.ready !== undefined);
    assert.equal(await page.evaluate(() => document.body.dataset.ready), 'true', (await statusText()) ?? '');
    return res;
  }

  const statusText = () => page.locator('#status').textContent();
  const computeCount = () => page.evaluate(() => Number(document.body.dataset.computeCount ?? 0));

  /** The weights the page last drew: {shape: [N, M], values: number[]} */
  async function weights() {
    return page.evaluate(() => {
      const out = document.querySelector('#weights output.heatmap-data');
      if (!(out instanceof HTMLOutputElement)) throw new Error('no weights output');
      return { shape: (out.dataset.shape ?? '').split(',').map(Number), values: JSON.parse(out.value) };
    });
  }

  function assertRowsSumToOne({ shape: [n, m], values }) {
    assert.equal(values.length, n * m);
    for (let r = 0; r < n; r++) {
      const row = values.slice(r * m, (r + 1) * m);
      assert.ok(row.every((w) => w >= 0 && w <= 1), `row ${r} has weights outside [0, 1]`);
      const sum = row.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-5, `row ${r} sums to ${sum}`);
    }
  }

  test('serves the page with a strict CSP and renders four non-blank heatmaps', async () => {
    const res = await load();
    assert.match(res?.headers()['content-security-policy'] ?? '', /script-src 'self' 'wasm-unsafe-eval'/);
    assert.match(await page.title(), /AttentionLab/);
    // the note's shapes by default: 3 queries, 5 keys, d = 4, scaled scores
    assert.equal(await page.inputValue('#score'), 'scaled');
    assert.equal(await page.locator('#query-editor input').count(), 3 * 4);
    assert.equal(await page.locator('#key-editor input').count(), 5 * 4);

    const canvases = page.locator('#heatmaps canvas');
    assert.equal(await canvases.count(), 4);
    const inked = await page.evaluate(() =>
      [...document.querySelectorAll('#heatmaps canvas')].map((c) => {
        const canvas = /** @type {HTMLCanvasElement} */ (c);
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let painted = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
        return canvas.width > 50 && canvas.height > 50 ? painted / (data.length / 4) : 0;
      }),
    );
    for (const [i, share] of inked.entries()) assert.ok(share > 0.2, `heatmap ${i} looks blank (${share})`);

    const w = await weights();
    assert.deepEqual(w.shape, [3, 5]);
    assertRowsSumToOne(w);
    // The formula line is text, with the Unicode transpose and root.
    assert.match((await page.locator('#formula').textContent()) ?? '', /softmax\(QKᵀ\/√d\) V/);
  });

  test('the URL hash holds the settings and is read back', async () => {
    await load('#seed=3&score=dot&n=2&m=6&d=3');
    assert.equal(await page.inputValue('#seed'), '3');
    assert.equal(await page.inputValue('#score'), 'dot');
    assert.equal(await page.inputValue('#size-n'), '2');
    assert.equal(await page.inputValue('#size-m'), '6');
    assert.equal(await page.inputValue('#size-d'), '3');
    const w = await weights();
    assert.deepEqual(w.shape, [2, 6]);
    assertRowsSumToOne(w);
    // the same seed gives the same matrices
    const first = await page.inputValue('#query-editor input >> nth=0');
    await load('#seed=3&score=dot&n=2&m=6&d=3');
    assert.equal(await page.inputValue('#query-editor input >> nth=0'), first);

    await page.selectOption('#size-m', '4');
    await page.waitForFunction(() => location.hash.includes('m=4'));
    assert.deepEqual((await weights()).shape, [2, 4]);
  });

  test('editing a query cell changes the weights; bad input keeps the last result', async () => {
    await load('#seed=7&score=scaled&n=3&m=5&d=4');
    const before = await weights();
    const count = await computeCount();
    const cell = page.locator('#query-editor input').first();
    await cell.fill('4.5');
    await page.waitForFunction((c) => Number(document.body.dataset.computeCount) > c, count);
    const edited = await weights();
    assertRowsSumToOne(edited);
    assert.notDeepEqual(edited.values, before.values);
    // only q1 changed, so rows q2, q3 must be as before
    assert.deepEqual(edited.values.slice(5), before.values.slice(5));

    // an empty box: inline error, last good heatmap kept
    const good = await computeCount();
    await cell.fill('');
    await page.waitForFunction(() => document.querySelector('#status')?.getAttribute('data-kind') === 'error');
    assert.match((await statusText()) ?? '', /q1, d1: empty or not a number/);
    assert.equal(await cell.getAttribute('aria-invalid'), 'true');
    assert.equal(await computeCount(), good);
    assert.deepEqual(await weights(), edited);

    await cell.fill('0.25');
    await page.waitForFunction(() => document.querySelector('#status')?.getAttribute('data-kind') === 'ok');
    assertRowsSumToOne(await weights());
  });

  test('heatmap cells can be read with the keyboard', async () => {
    await load('#seed=1&score=scaled&n=3&m=5&d=4');
    await page.locator('#weights canvas').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    const text = (await page.locator('#weights-focus').textContent()) ?? '';
    const { values } = await weights();
    assert.match(text, /^q2 · k2: \d\.\d{4}$/);
    assert.ok(Math.abs(Number(text.split(': ')[1]) - values[1 * 5 + 1]) < 1e-4);
  });

  test('a hostile hash is ignored and never rendered as HTML', async () => {
    const hostile = '#seed=<img src=x onerror=alert(1)>&score=<script>alert(2)</script>&n=99&d=2';
    await load(hostile);
    // the valid part (d=2) applies; the rest falls back to the defaults
    assert.equal(await page.inputValue('#size-d'), '2');
    assert.equal(await page.inputValue('#size-n'), '3');
    assert.equal(await page.inputValue('#score'), 'scaled');
    assert.equal(await page.inputValue('#seed'), '1');
    assert.equal(await page.locator('img').count(), 0);
    assert.equal(await page.locator('body script:not([src])').count(), 0);
    const status = (await statusText()) ?? '';
    assert.match(status, /Ignored invalid setting\(s\) in the address: seed, score, n/);
    assert.doesNotMatch(status, /<img|onerror|alert/);
    // the address is rewritten to the settings actually used
    assert.equal(await page.evaluate(() => location.hash), '#seed=1&score=scaled&n=3&m=5&d=2');
    await page.waitForTimeout(300); // give an injected handler time to fire, if there were one
    assert.deepEqual(dialogs, []);
  });

  test('screenshots at desktop and phone width', async () => {
    mkdirSync(artifacts, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await load('#seed=1&score=scaled&n=3&m=5&d=4');
    await page.screenshot({ path: `${artifacts}smoke.png`, fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await load('#seed=1&score=scaled&n=3&m=5&d=4');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page scrolls sideways at 390px by ${overflow}px`);
    await page.screenshot({ path: `${artifacts}smoke-390.png`, fullPage: true });
  });
});
