// One figure out of the article and into other pages: its JSON export pasted into
// <attention-heatmap data=…> shows the same cells, and that widget's own JSON export is the same
// file again; its Embed… item gives that element with the numbers inline; its "Standalone HTML"
// file opens from disk with the network off and draws the same cells. A post that uses the kit,
// opened from disk, draws its given matrix and says in place of each live widget that it needs a
// web server. Needs `npm run build:web`.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { startBlog } from './blog-server.mjs';
import { gptTrainsAndGenerates } from './gpt-widget.mjs';
import { distDir, keepScreenshot, ProblemCollector, startSite } from './harness.mjs';

const KIT = join(distDir, 'attention-lab-widgets');
const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";
const escapeAttribute = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

describe('a figure as JSON, as an element, as one HTML file; a post opened from disk', { timeout: 300_000 }, () => {
  /** @type {Awaited<ReturnType<typeof startSite>>} */
  let site;
  let root;
  let blog;
  /** the dot section's weights heatmap, as its JSON export */
  let exported;

  before(async () => {
    site = await startSite();
    root = mkdtempSync(join(tmpdir(), 'attention-standalone-'));
    cpSync(KIT, join(root, 'attention-lab-widgets'), { recursive: true });
    writeFileSync(join(root, 'favicon.ico'), '');
    blog = await startBlog(root, STRICT_CSP);
  });

  after(async () => {
    await site?.close();
    await blog?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** Clicks the figure's Export menu item `kind` and returns the downloaded file's text. */
  async function exportFile(page, figure, kind) {
    await page.locator(`${figure} .export-toggle`).first().click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`${figure} [data-export="${kind}"]`).first().click()]);
    return { name: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') };
  }

  /** A fresh page of its own (context options: offline, colour scheme…), checked for problems. */
  async function newPage(origin, options = {}) {
    const context = await site.browser.newContext({ viewport: { width: 900, height: 800 }, ...options });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const problems = new ProblemCollector();
    problems.attach(page, origin);
    return { context, page, problems };
  }

  /** The cells a heatmap (in a widget's shadow root or not) drew: shape and values. */
  const cells = (page, scope) =>
    page.waitForFunction((s) => {
      const host = document.querySelector(s);
      const out = (host?.shadowRoot ?? document).querySelector('output.heatmap-data');
      return out && out.value !== '' ? { shape: out.dataset.shape, values: JSON.parse(out.value) } : null;
    }, scope).then((h) => h.jsonValue());

  test("a figure's JSON export is the data attribute's format, both ways, and Embed… gives that element", async () => {
    const page = site.page;
    await site.load('#view=dot&seed=3');
    await page.waitForSelector('#dot-weights output.heatmap-data[data-shape="3,5"]', { state: 'attached' });
    const json = await exportFile(page, '#dot-weights', 'json');
    assert.match(json.name, /\.json$/);
    exported = JSON.parse(json.text);
    assert.equal(exported.rowLabels.length, 3);
    const appCells = { shape: '3,5', values: JSON.parse(await page.locator('#dot-weights output.heatmap-data').evaluate((o) => o.value)) };

    // Embed…: the dialog's element carries exactly these numbers
    await page.locator('#dot-weights .export-toggle').click();
    await page.locator('#dot-weights [data-export="embed"]').click();
    await page.locator('[data-testid="embed-dialog"]').waitFor({ state: 'visible' });
    const snippet = await page.locator('[data-testid="embed-script"]').textContent();
    assert.equal(await page.locator('.embed-snippet-iframe').isHidden(), true, 'no iframe form for one figure');
    const data = await page.evaluate((html) => new DOMParser().parseFromString(html, 'text/html').querySelector('attention-heatmap')?.getAttribute('data'), snippet);
    assert.deepEqual(JSON.parse(data), exported);
    await page.keyboard.press('Escape');
    site.problems.assertNone();

    // the export file pasted as it is into a post on another origin, with the kit
    const post = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>pasted</title><script src="./attention-lab-widgets/attention-lab-widgets.js" defer></script></head>
<body><attention-heatmap data="${escapeAttribute(json.text)}"></attention-heatmap></body></html>`;
    writeFileSync(join(root, 'pasted.html'), post);
    const { context, page: blogPage, problems } = await newPage(blog.origin, { acceptDownloads: true });
    try {
      await blogPage.goto(`${blog.origin}/pasted.html`);
      assert.deepEqual(await cells(blogPage, 'attention-heatmap'), appCells, 'the same cells');
      assert.equal(await blogPage.locator('attention-heatmap figcaption h3').textContent(), exported.title);
      // and back: the widget's own JSON export is the same file
      const again = await exportFile(blogPage, 'attention-heatmap', 'json');
      assert.deepEqual(JSON.parse(again.text), exported);
      problems.assertNone();
    } finally {
      await context.close();
    }
  });

  test('Standalone HTML of a figure opens from disk, offline, and draws the same cells', async () => {
    const page = site.page;
    await site.load('#view=dot&seed=3');
    await page.waitForSelector('#dot-weights output.heatmap-data[data-shape="3,5"]', { state: 'attached' });
    const appCells = { shape: '3,5', values: JSON.parse(await page.locator('#dot-weights output.heatmap-data').evaluate((o) => o.value)) };
    const file = await exportFile(page, '#dot-weights', 'html');
    assert.match(file.name, /\.html$/);
    site.problems.assertNone();
    const path = join(root, file.name);
    writeFileSync(path, file.text);
    console.log(`# standalone HTML of one heatmap: ${Buffer.byteLength(file.text)} bytes`);
    const { context, page: disk, problems } = await newPage('file://', { offline: true });
    try {
      await disk.goto(pathToFileURL(path).href);
      assert.deepEqual(await cells(disk, 'attention-heatmap'), appCells);
      // painted: the canvas is not blank
      const painted = await disk.locator('attention-heatmap canvas').first().evaluate((c) => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let coloured = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240)) coloured++;
        return coloured;
      });
      assert.ok(painted > 500, `${painted} coloured pixels`);
      problems.assertNone();
    } finally {
      await context.close();
    }
  });

  test('Standalone HTML of each kind of live view opens from disk, offline, computes and trains', async () => {
    const page = site.page;
    const views = [
      { hash: '#view=dot&seed=3&dot_d=6', section: 'dot', tag: 'attention-playground' },
      { hash: '#view=multihead&seed=2', section: 'multihead', tag: 'multihead-view' },
      { hash: '#view=translate&translate_task=dates&seed=1', section: 'translate', tag: 'seq2seq-demo' },
      { hash: '#view=transformer&transformer_task=dates&seed=1', section: 'transformer', tag: 'transformer-demo' },
      { hash: '#view=gpt&seed=1', section: 'gpt', tag: 'gpt-demo' },
    ];
    const sizes = [];
    for (const view of views) {
      await site.load(view.hash);
      await page.locator(`#section-${view.section} [data-testid="embed-open"]`).click();
      await page.locator('[data-testid="embed-dialog"]').waitFor({ state: 'visible' });
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="embed-standalone"]').click()]);
      const text = readFileSync(await download.path(), 'utf8');
      await page.keyboard.press('Escape');
      site.problems.assertNone();
      const path = join(root, download.suggestedFilename());
      writeFileSync(path, text);
      sizes.push(`${download.suggestedFilename()} ${(Buffer.byteLength(text) / 1024).toFixed(0)} KB`);
      const { context, page: disk, problems } = await newPage('file://', { offline: true });
      try {
        await disk.goto(pathToFileURL(path).href);
        await disk.waitForFunction((t) => document.querySelector(t)?.dataset.ready === 'true', view.tag);
        const widget = disk.locator(view.tag);
        if (view.section === 'translate') {
          await widget.locator('[data-testid=translate-play]').click();
          await disk.waitForFunction(() => Number(document.querySelector('seq2seq-demo').shadowRoot.querySelector('.translate-section')?.dataset.step) >= 20, null, { timeout: 180_000 });
          await widget.locator('[data-testid=translate-play]').click();
        } else if (view.section === 'transformer') {
          await widget.locator('.transformer-section[data-translated-at="0"]').waitFor({ timeout: 90_000 });
          await widget.locator('[data-testid=transformer-panel-settings] summary').click(); // where the steps are
          await widget.locator('[data-testid=transformer-steps]').fill('10');
          await widget.locator('[data-testid=transformer-steps]').dispatchEvent('change');
          await widget.locator('[data-testid=transformer-train]').click();
          await widget.locator('.transformer-section[data-translated-at="10"]').waitFor({ timeout: 180_000 });
        } else if (view.section === 'gpt') {
          await gptTrainsAndGenerates(widget, { steps: 10, chars: 1 }); // the poems are in the file
        } else {
          await disk.waitForFunction((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('output.heatmap-data')].some((o) => o.value !== ''), view.tag);
          if (view.section === 'dot') assert.equal(await widget.locator('#dot-output output.heatmap-data').getAttribute('data-shape'), '3,6', 'the view’s settings came along');
        }
        await keepScreenshot(disk, { path: `${process.cwd()}/test-artifacts/standalone-${view.section}.png` });
        problems.assertNone(`${view.section} standalone`);
      } finally {
        await context.close();
      }
    }
    console.log(`# standalone HTML files: ${sizes.join(', ')}`);
  });

  test('a post with the kit opened from disk: the given matrix draws, each live widget says a web server is needed', async () => {
    const post = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>from disk</title><script src="./attention-lab-widgets/attention-lab-widgets.js" defer></script></head>
<body>
<attention-heatmap data='{"rows":["a","b"],"cols":["x","y"],"values":[[0.9,0.1],[0.3,0.7]]}'></attention-heatmap>
<attention-playground mechanism="self"></attention-playground>
<seq2seq-demo task="dates"></seq2seq-demo>
<gpt-demo></gpt-demo>
<attention-heatmap mechanism="self" text="the cat sat"></attention-heatmap>
</body></html>`;
    const path = join(root, 'from-disk.html');
    writeFileSync(path, post);
    const { context, page, problems } = await newPage('file://', { offline: true });
    try {
      await page.goto(pathToFileURL(path).href);
      assert.deepEqual(await cells(page, 'attention-heatmap'), { shape: '2,2', values: [0.9, 0.1, 0.3, 0.7] });
      for (const selector of ['attention-playground', 'seq2seq-demo', 'gpt-demo', 'attention-heatmap[mechanism]']) {
        await page.locator(selector).scrollIntoViewIfNeeded();
        await page.waitForFunction((s) => document.querySelector(s)?.dataset.ready === 'error', selector);
        const text = await page.locator(`${selector} .widget-error`).first().textContent();
        assert.match(text, /opened from a file \(file:\/\/\).*web server/s, selector);
      }
      await keepScreenshot(page, { path: `${process.cwd()}/test-artifacts/kit-from-disk.png`, fullPage: true });
      problems.assertNone();
    } finally {
      await context.close();
    }
  });
});
