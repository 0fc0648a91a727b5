// The embeddable widgets in Debian's Chromium against the built site, served by vite
// preview with the strict CSP header: the example post, one worker shared by several widgets, lazy
// start below the fold, bad and hostile attributes, the iframe page, and the download of a page with
// one widget. Needs a build first (npm run build:web, or ATTENTION_LAB_DIST=<outDir> for another one).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { after, afterEach, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { startPreview } from '../../scripts/serve.mjs';
import { artifactsDir as artifacts, distDir as dist, HEADLESS_SHELL, keepScreenshot, LAUNCH_ARGS, ProblemCollector } from './harness.mjs';
import { loadOneWidgetPage, ONE_WIDGET_PAGES, wasmBuildOf } from './one-widget-pages.mjs';

/**
 * the budget for a page with one widget, everything it downloads before the reader does anything,
 * gzipped (a page's own: one-widget-pages.mjs): 200 KiB (docs/build.md).
 */
const BUDGET_GZIP_BYTES = 200 * 1024;

// the whole suite: 28 tests, four of them at three widths; minutes on a loaded 2-core machine
describe('embeddable widgets', { timeout: 420_000 }, () => {
  let server;
  let baseUrl;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {import('playwright-core').BrowserContext} */
  let context;
  /** @type {import('playwright-core').Page} */
  let page;
  /** console errors, page errors, failed requests, requests to other hosts, dialogs (harness.mjs) */
  let problems = new ProblemCollector();
  /** every response of the current page: url, status, body promise */
  let responses = [];
  let workers = [];

  before(async () => {
    if (!existsSync(`${dist}/examples/attention-post.html`)) {
      throw new Error(`${dist}/examples/attention-post.html is missing: build first (npm run build:web)`);
    }
    server = await startPreview({ port: 0, strictPort: true, logLevel: 'error' });
    baseUrl = new URL(server.url).origin;
    browser = await chromium.launch({ executablePath: HEADLESS_SHELL, args: LAUNCH_ARGS, timeout: 30_000 });
  });

  after(async () => {
    try {
      await browser?.close();
    } finally {
      await server?.close();
    }
  });

  /**
   * A fresh context and page per test, so worker and request counts are per page; it goes to `path`
   * at `origin` (default: the site's) unless `navigate` is false (for a caller that navigates itself).
   */
  async function open(path, { navigate = true, origin = baseUrl } = {}) {
    const viewport = { width: 1100, height: 800 };
    await context?.close();
    problems = new ProblemCollector();
    responses = [];
    workers = [];
    context = await browser.newContext({ viewport });
    page = await context.newPage();
    page.setDefaultTimeout(60_000);
    problems.attach(page, origin);
    page.on('worker', (worker) => workers.push(worker.url()));
    // context-level, so that the worker's own fetches (the wasm) are counted too
    context.on('response', (res) => {
      responses.push({ url: res.url(), status: res.status(), body: res.body().catch(() => Buffer.alloc(0)) });
    });
    return navigate ? page.goto(`${origin}${path}`, { waitUntil: 'load' }) : null;
  }

  afterEach(async () => {
    const seen = problems.take();
    await context?.close();
    context = undefined;
    assert.deepEqual(seen, [], 'the page reported problems');
  });

  const urls = () => responses.map((r) => r.url);

  /** Polls `condition` (a node-side check of the collected events) until it holds or 30 s pass. */
  async function eventually(condition, message) {
    for (let i = 0; i < 300 && !condition(); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(condition(), message);
  }
  const wasmFetches = () => urls().filter((u) => u.endsWith('.wasm')).length;

  /** Waits until the widget `selector` finished mounting; returns 'true' or 'error'. */
  async function ready(selector) {
    await page.locator(selector).scrollIntoViewIfNeeded();
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.ready !== undefined, selector);
    return page.evaluate((s) => document.querySelector(s)?.dataset.ready, selector);
  }

  /** The text of a widget's inline error box ('' when hidden). */
  function alertText(selector) {
    return page.evaluate((s) => {
      const box = document.querySelector(s)?.shadowRoot?.querySelector('[role="alert"]');
      return box && !box.hidden ? box.textContent : '';
    }, selector);
  }

  /** Elements in any widget's shadow root that markup in attributes could have produced. */
  function injected() {
    return page.evaluate(() =>
      [...document.querySelectorAll('*')]
        .flatMap((el) => (el.shadowRoot ? [...el.shadowRoot.querySelectorAll('img, script, svg, b, iframe')] : []))
        .map((el) => el.localName)
        .concat([...document.querySelectorAll('img, body script, svg, b')].map((el) => `light:${el.localName}`)),
    );
  }

  /** The last values a widget's heatmap drew ({shape, values}) from its hidden <output>. */
  function heatmapValues(selector) {
    return page.evaluate((s) => {
      const out = document.querySelector(s)?.shadowRoot?.querySelector('output.heatmap-data');
      if (!out || !out.value) return null;
      return { shape: out.dataset.shape.split(',').map(Number), values: JSON.parse(out.value) };
    }, selector);
  }

  for (const [file, lang] of [
    ['attention-post.html', 'en'],
    ['attention-post.zh.html', 'zh'],
  ]) {
    test(`the example post ${file} renders every widget under the strict CSP header`, async () => {
      const res = await open(`/examples/${file}`);
      const csp = res.headers()['content-security-policy'] ?? '';
      assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
      // no inline styles either (a <style> element would be refused, and reported as a console error)
      assert.match(csp, /style-src 'self'(;|$)/);
      const widgets = await page.evaluate(() =>
        [...document.querySelectorAll('attention-heatmap, attention-playground, seq2seq-demo, multihead-view')].map(
          (el, i) => ((el.id ||= `w${i}`), `#${el.id}`),
        ),
      );
      assert.equal(widgets.length, 8, 'a widget in each section');
      let heatmaps = 0;
      for (const w of widgets) {
        assert.equal(await ready(w), 'true', `${w}: ${await alertText(w)}`);
        assert.equal(await alertText(w), '', `${w} shows an error`);
        // something was rendered into the shadow root (a heatmap canvas or a section's DOM)
        const rendered = await page.evaluate((s) => document.querySelector(s).shadowRoot.querySelector('.widget-body').childElementCount, w);
        assert.ok(rendered > 0, `${w} rendered nothing`);
        // the widget's, the section's and the heatmap's styles apply (adopted stylesheets)
        const styled = await page.evaluate((s) => {
          const root = document.querySelector(s).shadowRoot;
          const radius = (el) => (el ? getComputedStyle(el).borderTopLeftRadius : null);
          return { body: radius(root.querySelector('.widget-body')), heatmaps: [...root.querySelectorAll('.heatmap')].map(radius) };
        }, w);
        assert.equal(styled.body, '8px', `${w}: widget.css does not apply`);
        assert.ok(styled.heatmaps.every((r) => r === '8px'), `${w}: heatmap.css does not apply (${styled.heatmaps})`);
        heatmaps += styled.heatmaps.length;
      }
      assert.ok(heatmaps >= widgets.length - 1, `only ${heatmaps} heatmaps in ${widgets.length} widgets`);
      // the given matrix of §2, drawn exactly as given
      assert.deepEqual(await heatmapValues(widgets[1]), { shape: [3, 3], values: [0.86, 0.09, 0.05, 0.07, 0.88, 0.05, 0.04, 0.06, 0.9] });
      // the host's `p { text-align: justify }` does not reach into a shadow root
      const align = await page.evaluate((s) => getComputedStyle(document.querySelector(s).shadowRoot.querySelector('p.focus-text')).textAlign, widgets[1]);
      assert.notEqual(align, 'justify');
      // lang="auto" follows the host page's language
      const langs = await page.evaluate(() =>
        [...document.querySelectorAll('attention-playground, seq2seq-demo, multihead-view')].map((el) => el.shadowRoot.querySelector('.widget-section')?.lang),
      );
      assert.deepEqual([...new Set(langs)], [lang]);
      await eventually(() => workers.length >= 1 && wasmFetches() >= 1, 'the widgets started a worker');
      assert.equal(workers.length, 1, 'every widget on the page uses one worker');
      // one module per variant at most: the attention-only one, and the Seq2Seq one for the trainers
      const wasm = urls().filter((u) => u.endsWith('.wasm'));
      assert.equal(new Set(wasm).size, wasm.length, `a wasm module fetched twice: ${wasm.join(' ')}`);
      assert.equal(wasm.length, 2, wasm.join(' '));
      assert.ok(wasm.some((u) => /\/attention_lab_attention-[\w-]+\.wasm$/.test(u)), wasm.join(' '));
      assert.ok(wasm.some((u) => /\/attention_lab_seq2seq-[\w-]+\.wasm$/.test(u)), wasm.join(' '));
      assert.ok(urls().every((u) => u.startsWith(baseUrl)), 'no request to another host');
      mkdirSync(artifacts, { recursive: true });
      await keepScreenshot(page, { path: `${artifacts}widgets-post-${lang}.png`, fullPage: true });
    });
  }

  test('two widgets on one page share one module and one worker', async () => {
    await open('/examples/test-two-widgets.html');
    assert.equal(await ready('#first'), 'true');
    assert.equal(await ready('#second'), 'true');
    // the live self-attention heatmap: 6 words attend over 6, rows are probabilities
    await page.waitForFunction(() => document.querySelector('#second').shadowRoot.querySelector('output.heatmap-data')?.value);
    const { shape, values } = await heatmapValues('#second');
    assert.deepEqual(shape, [6, 6]);
    for (let r = 0; r < 6; r++) {
      const row = values.slice(r * 6, r * 6 + 6);
      assert.ok(row.every((w) => w >= 0 && w <= 1));
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, `row ${r} does not sum to 1`);
    }
    // "the" (words 1 and 5) has one vector, so both rows attend identically
    assert.deepEqual(values.slice(0, 6), values.slice(24, 30));
    await eventually(() => workers.length >= 1 && wasmFetches() >= 1, 'the widgets started a worker');
    await page.waitForTimeout(300); // a second worker, if there were one, would have shown up by now
    assert.equal(workers.length, 1, `workers: ${workers.join(', ')}`);
    assert.equal(wasmFetches(), 1);
    // neither widget trains, so the page gets the attention-only build
    assert.ok(urls().some((u) => /\/attention_lab_attention-[\w-]+\.wasm$/.test(u)), urls().join(' '));
    assert.equal(urls().filter((u) => u.endsWith('/widgets/attention-lab-widgets.js')).length, 1);

    // a changed attribute is a new state: the widget redraws for it, on the same worker
    await page.evaluate(() => document.querySelector('#second').setAttribute('text', 'a b c'));
    await page.waitForFunction(() => document.querySelector('#second').shadowRoot.querySelector('output.heatmap-data')?.dataset.shape === '3,3');
    // removing a widget tears it down without disturbing the other
    await page.evaluate(() => document.querySelector('#first').remove());
    await page.evaluate(() => document.querySelector('#second').setAttribute('seed', '9'));
    await page.waitForFunction(() => document.querySelector('#second').dataset.ready === 'true');
    await page.waitForFunction(() => document.querySelector('#second').shadowRoot.querySelector('output.heatmap-data')?.value);
    assert.equal(workers.length, 1);
    assert.equal(wasmFetches(), 1);
  });

  test('a widget below the fold loads nothing until scrolled to, and pauses when scrolled away', async () => {
    await open('/examples/test-below-fold.html');
    await page.waitForTimeout(800); // time enough for an eager widget to have started
    assert.equal(await page.evaluate(() => document.querySelector('#far').dataset.ready), undefined);
    assert.equal(workers.length, 0, 'no worker before the widget is visible');
    assert.equal(wasmFetches(), 0, 'no wasm before the widget is visible');
    const before = urls().length;
    assert.ok(urls().every((u) => !/\/assets\/(dot|heatmap|client)-/.test(u)), `loaded early: ${urls().join(' ')}`);

    assert.equal(await ready('#far'), 'true');
    assert.ok(urls().length > before);
    await eventually(() => workers.length === 1 && wasmFetches() === 1, 'the worker and the wasm load once visible');
    assert.equal(await page.evaluate(() => document.querySelector('#far').dataset.active), 'true');
    await page.locator('#top').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('#far').dataset.active === 'false');
  });

  test('bad attributes show an inline error as text, and the rest of the page works', async () => {
    await open('/examples/test-bad-attributes.html');
    const expect = {
      '#bad-range': [/dot_d/, /outside 1 … 8/],
      '#bad-seed': [/seed/, /not a whole number/],
      '#bad-json': [/data/, /not valid JSON/],
      '#bad-shape': [/values has 3 numbers, expected 2 × 2 = 4/],
      '#bad-mechanism': [/mechanism/, /expected one of/],
      '#unknown-attr': [/dot-d/, /sede/, /not a setting/],
    };
    for (const [selector, patterns] of Object.entries(expect)) {
      await ready(selector);
      const text = await alertText(selector);
      for (const p of patterns) assert.match(text, p, `${selector}: ${text}`);
      assert.doesNotMatch(text, /<img|alert\(/, `${selector} echoes the hostile value`);
    }
    // invalid values fall back to the defaults, so these widgets still work
    for (const s of ['#bad-range', '#bad-seed', '#bad-mechanism', '#unknown-attr']) assert.equal(await ready(s), 'true', s);
    // invalid matrix data: only the error, no chart
    for (const s of ['#bad-json', '#bad-shape']) {
      assert.equal(await ready(s), 'error');
      assert.equal(await page.evaluate((q) => document.querySelector(q).shadowRoot.querySelectorAll('canvas').length, s), 0);
    }
    // hostile labels and text are data: drawn, never parsed as markup
    assert.equal(await ready('#hostile-labels'), 'true');
    assert.deepEqual(await heatmapValues('#hostile-labels'), { shape: [1, 1], values: [1] });
    assert.equal(await ready('#bad-text'), 'true');
    await page.waitForFunction(() => document.querySelector('#bad-text').shadowRoot.querySelector('output.heatmap-data')?.value);
    assert.equal(await ready('#good'), 'true');
    assert.equal(await alertText('#good'), '');
    assert.equal(await page.locator('#host-text').textContent(), 'Host page text.');
    await page.waitForTimeout(300); // an injected handler would have fired by now
    assert.deepEqual(await injected(), []);
    assert.deepEqual(problems.dialogs, []);
    mkdirSync(artifacts, { recursive: true });
    await keepScreenshot(page, { path: `${artifacts}widgets-bad-attributes.png`, fullPage: true });
  });

  test('old attribute names (mh_, s2s_, tf_) still set a widget; a change to one mounts it afresh', async () => {
    await open('/examples/test-one-multihead.html');
    await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<multihead-view id="old" mh_d="8" mh_heads="4" mh_scale_hide="1"></multihead-view>'));
    // in view, where a widget mounts (the page's own widget above may grow after it and push it
    // out: then a changed attribute waits, as it should, until the reader scrolls to it)
    const inView = () => page.locator('#old').scrollIntoViewIfNeeded();
    await inView();
    assert.equal(await ready('#old'), 'true');
    assert.equal(await alertText('#old'), '', 'no attribute reported as unknown');
    await page.waitForFunction(() => document.querySelector('#old').shadowRoot.querySelectorAll('.multihead-head').length === 4);
    assert.equal(await page.locator('#old select').nth(0).inputValue(), '8');
    const scaleHidden = () => {
      const hidden = document.querySelector('#old').shadowRoot.querySelector('select:has(option[value="per-head"])').closest('[hidden]');
      return hidden !== null && hidden.getClientRects().length === 0; // hidden, and not drawn
    };
    assert.ok(await page.evaluate(scaleHidden), 'mh_scale_hide hides the scale control');
    await inView();
    await page.evaluate(() => document.querySelector('#old').setAttribute('mh_heads', '2'));
    await page.waitForFunction(() => document.querySelector('#old').shadowRoot.querySelectorAll('.multihead-head').length === 2);
    // given both spellings, the slug's wins
    await inView();
    await page.evaluate(() => document.querySelector('#old').setAttribute('multihead_heads', '1'));
    await page.waitForFunction(() => document.querySelector('#old').shadowRoot.querySelectorAll('.multihead-head').length === 1);
    assert.equal(await alertText('#old'), '');
  });

  test('the iframe page renders one section from its hash', async () => {
    await open('/embed.html#view=dot&seed=4&dot_n=2&dot_score=dot');
    await page.waitForFunction(() => document.body.dataset.ready !== undefined);
    assert.equal(await page.evaluate(() => document.body.dataset.ready), 'true');
    assert.equal(await page.locator('#embed-error').isHidden(), true);
    assert.equal(await page.locator('.embed-section.embed-dot').count(), 1);
    assert.ok((await page.locator('.embed-section *').count()) > 0);
    assert.equal(await page.locator('h1, header').count(), 0, 'no page chrome');
    // the hash's settings are the section's: 2 queries against the default 5 keys
    await page.waitForFunction(() => [...document.querySelectorAll('output.heatmap-data')].some((o) => o.dataset.shape === '2,5'));
    // a new hash from the host page shows the new state
    await page.evaluate(() => (location.hash = '#view=dot&seed=4&dot_n=3&dot_m=2'));
    await page.waitForFunction(() => [...document.querySelectorAll('output.heatmap-data')].some((o) => o.dataset.shape === '3,2'));
    mkdirSync(artifacts, { recursive: true });
    await keepScreenshot(page, { path: `${artifacts}widgets-embed-dot.png`, fullPage: true });
  });

  test('the iframe page shows §5 from its hash: the poems from beside it, the prompt and head given', async () => {
    await open('/embed.html#view=gpt&seed=2&gpt_prompt=%E7%99%BD%E6%97%A5&gpt_head=3');
    await page.locator('.embed-gpt .gpt-section[data-samples="1"]').waitFor({ timeout: 120_000 });
    assert.ok(responses.some((r) => r.url === `${baseUrl}/poems/tang300.txt` && r.status === 200), 'the poems beside embed.html');
    assert.equal(await page.locator('[data-testid=gpt-prompt]').inputValue(), '白日');
    assert.equal(await page.locator('[data-testid=gpt-head]').inputValue(), '3');
    assert.equal(await page.locator('#embed-error').isHidden(), true);
  });

  test('the iframe page lists bad hash entries as text', async () => {
    await open(`/embed.html#view=<img src=x onerror=alert(1)>&seed=-5&${encodeURIComponent('<b>x</b>')}=1`);
    await page.waitForFunction(() => document.body.dataset.ready !== undefined);
    assert.equal(await page.evaluate(() => document.body.dataset.ready), 'error');
    const text = await page.locator('#embed-error').textContent();
    assert.match(text, /must name one section with view=…, one of:/);
    assert.match(text, /view=dot: 3\.1–3\.2 Dot-product/);
    assert.match(text, /seed/);
    assert.match(text, /<b>x<\/b>: not a setting/); // the unknown key, shown as text
    await page.waitForTimeout(300);
    assert.deepEqual(await injected(), []);
    assert.equal(workers.length, 0);
  });

  test('the iframe page with no view, its address then mended in the same tab: the section loads, in the new language', async () => {
    await open('/embed.html');
    await page.waitForFunction(() => document.body.dataset.ready === 'error');
    await page.evaluate(() => { location.hash = '#view=dot&lang=zh'; });
    await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 60_000 });
    assert.equal(await page.locator('#embed-error').isHidden(), true);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh');
    await page.locator('.embed-dot').waitFor();
  });

  test('the iframe page with no view, in Chinese: the message and the list of views in Chinese', async () => {
    await open(`/embed.html#lang=zh&${encodeURIComponent('<i>y</i>')}=1`);
    await page.waitForFunction(() => document.body.dataset.ready !== undefined);
    assert.equal(await page.evaluate(() => document.body.dataset.ready), 'error');
    const lines = await page.locator('#embed-error p').allTextContents();
    assert.ok(lines.includes('错误：地址中须用 view=… 指定一个栏目，可选：'), lines.join('\n'));
    for (const line of ['view=why：1. 问题：长距离依赖与信息压缩', 'view=multihead：3.6 多头注意力', 'view=transformer：4. Transformer 模型']) assert.ok(lines.includes(line), line);
    assert.ok(lines.includes('错误：<i>y</i>：不是可用的设置'), 'the unknown key, as text, in Chinese');
    assert.doesNotMatch(lines.join('\n'), /Error|must name|not a setting/);
    assert.equal(await page.locator('#embed-error i').count(), 0);
  });

  test('the built site works from a sub-folder of its host (a GitHub Pages project site)', async () => {
    const sub = await startPreview({ port: 0, strictPort: true, logLevel: 'error', base: '/blog/lab/' });
    const origin = new URL(sub.url).origin;
    try {
      // widgets of both kinds: the bundle, its chunks, the worker and each wasm build come from the folder
      for (const build of ['attention', 'seq2seq']) {
        const spec = ONE_WIDGET_PAGES.find((s) => s.wasm === build && !s.start);
        await open('', { navigate: false, origin });
        assert.equal(await loadOneWidgetPage(page, `${origin}/blog/lab`, spec), 'true', spec.path);
        assert.deepEqual(urls().map((u) => wasmBuildOf(u)).filter(Boolean), [spec.wasm]);
        const outside = urls().map((u) => new URL(u).pathname).filter((p) => !p.startsWith('/blog/lab/'));
        assert.deepEqual(outside, [], `${spec.path}: a file was looked for outside the folder`);
      }
      // the iframe page and the app
      await open('/blog/lab/embed.html#view=dot&seed=4&dot_n=2', { origin });
      await page.waitForFunction(() => document.body.dataset.ready !== undefined);
      assert.equal(await page.evaluate(() => document.body.dataset.ready), 'true');
      await page.waitForFunction(() => [...document.querySelectorAll('output.heatmap-data')].some((o) => o.dataset.shape === '2,5'));
      await open('/blog/lab/#view=dot', { origin });
      await page.waitForFunction(() => document.body.dataset.ready === 'true');
      await page.waitForFunction(() => document.querySelector('output.heatmap-data')?.value);
      assert.deepEqual(urls().map((u) => new URL(u).pathname).filter((p) => !p.startsWith('/blog/lab/')), []);
    } finally {
      await context?.close();
      context = undefined;
      await sub.close();
    }
  });

  // A page downloads its sections' strings in one language (web/vite.config.ts, i18n.ts): the
  // widgets of §3.3 and §4 must still show every text in theirs, at every width.
  for (const [path, element, lang] of [
    ['/examples/test-one-seq2seq.html', 'seq2seq-demo', 'en'],
    ['/examples/test-one-seq2seq.zh.html', 'seq2seq-demo', 'zh'],
    ['/examples/test-one-transformer.html', 'transformer-demo', 'en'],
    ['/examples/test-one-transformer.zh.html', 'transformer-demo', 'zh'],
  ]) {
    test(`<${element}> in ${lang} shows its own strings, no keys, at 1280, 768 and 390 px`, async () => {
      await open(path);
      for (const width of [1280, 768, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.waitForFunction((s) => document.querySelector(s)?.dataset.ready === 'true', element);
        const text = await page.evaluate((s) => document.querySelector(s).shadowRoot.querySelector('.widget-body').innerText, element);
        // a string missing from its table shows as its key (i18n.ts's translator)
        assert.doesNotMatch(text, /\b(?:transformer|translate|why|multihead|self|dot|idea|try|export|field|heatmap)\.[a-z][\w.]*\b/, `${path} at ${width} px shows a string key`);
        if (lang === 'zh') assert.match(text, /[\u4e00-\u9fff]{4}/, `${path}: Chinese text`);
        assert.match(text, lang === 'zh' ? /训练/ : /\bTrain\b/, `${path} at ${width} px: the Train button in ${lang}`);
        await keepScreenshot(page, { path: `${artifacts}widgets-one-${element}-${lang}-${width}.png`, fullPage: true });
      }
    });
  }

  test('a page without scripts shows a section through the iframe', async () => {
    await open('/examples/test-iframe.html');
    const frame = page.frameLocator('#lab-frame');
    await frame.locator('body[data-ready="true"]').waitFor();
    assert.equal(await frame.locator('.embed-self').count(), 1);
  });

  /** gzip size of every response body of the current page, by file. */
  async function download() {
    const files = [];
    for (const r of responses) {
      const body = await r.body;
      files.push({ url: r.url.replace(baseUrl, ''), raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    }
    return { total: files.reduce((a, f) => a + f.gzip, 0), files };
  }

  for (const spec of ONE_WIDGET_PAGES) {
    test(`download of a page with one ${spec.label} (gzip, all included)`, async (t) => {
      await open(spec.path, { navigate: false });
      assert.equal(await loadOneWidgetPage(page, baseUrl, spec), 'true');
      const all = await download();
      // a corpus the widget fetches on coming into view is reported, not counted: the budget is its
      // code's. Its size is the served file's (the DevTools body of a text/plain fetch is re-encoded)
      const isCorpus = (f) => spec.corpus !== undefined && f.url.endsWith(`/${spec.corpus}`);
      if (spec.corpus) assert.equal(all.files.filter(isCorpus).length, 1, `${spec.path} fetched ${spec.corpus} once`);
      const files = all.files.filter((f) => !isCorpus(f));
      const total = files.reduce((a, f) => a + f.gzip, 0);
      t.diagnostic(`one ${spec.label}: ${total} B = ${(total / 1024).toFixed(1)} KiB gzip (budget ${(spec.budgetKB ?? BUDGET_GZIP_BYTES / 1024)} KiB)`);
      if (spec.corpus) {
        const bytes = readFileSync(`${dist}/${spec.corpus}`);
        const gzip = gzipSync(bytes, { level: 9 }).length;
        t.diagnostic(`  and its corpus ${spec.corpus}, fetched on coming into view, outside the budget: ${bytes.length} B, ${gzip} B = ${(gzip / 1024).toFixed(1)} KiB gzip`);
      }
      for (const f of files) t.diagnostic(`  ${f.url}: ${f.raw} B, ${f.gzip} B gzip`);
      const builds = files.map((f) => wasmBuildOf(f.url)).filter(Boolean);
      assert.deepEqual(builds, spec.wasm ? [spec.wasm] : [], `${spec.path} loads the ${spec.wasm ?? 'no'} wasm build`);
      if (!spec.wasm) assert.equal(workers.length, 0, 'a given matrix needs no worker');
      // Chart.js comes only with the charts: never for a page of heatmaps alone
      if (!spec.charts) assert.ok(!files.some((f) => /chart-setup/.test(f.url)), `${spec.path} downloaded Chart.js`);
      else assert.ok(files.some((f) => /chart-setup/.test(f.url)), `${spec.path} has charts but no Chart.js`);
      const budget = (spec.budgetKB ?? BUDGET_GZIP_BYTES / 1024) * 1024;
      t.diagnostic(`  headroom: ${((budget - total) / 1024).toFixed(1)} KiB`);
      assert.ok(total <= budget, `${spec.path}: ${total} B gzip > budget ${budget} B`);
    });
  }

  test('a page with one <seq2seq-demo> fetches Chart.js with its first training step, for the curves, not before', async () => {
    const spec = ONE_WIDGET_PAGES.find((p) => p.path === '/examples/test-one-seq2seq.html');
    await open(spec.path, { navigate: false });
    assert.equal(await loadOneWidgetPage(page, baseUrl, spec), 'true');
    const chartJs = () => responses.filter((r) => /chart-setup/.test(r.url)).length;
    assert.equal(chartJs(), 0, 'Chart.js before any training');
    assert.equal(await page.locator('seq2seq-demo .translate-topk canvas').count(), 0, 'the candidates are drawn without a canvas');
    const arrived = context.waitForEvent('response', { predicate: (r) => /chart-setup/.test(r.url()), timeout: 60_000 });
    await page.locator('seq2seq-demo [data-testid=translate-step]').click();
    await arrived;
    await page.locator('seq2seq-demo .translate-charts .translate-step-chart canvas').first().waitFor({ state: 'visible' });
    assert.equal(chartJs(), 1);
  });
});
