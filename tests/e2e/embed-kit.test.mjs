// The blogger's journey with the widget kit: open the site's Embed dialog for each kind of view,
// read its snippets (default kit place ./attention-lab-widgets/), copy ONLY the kit folder into a
// post's folder on another origin served with the dialog's own strict CSP line, paste the snippets
// into the post, and see every widget paint, the live ones compute and train, the iframe size itself
// to its content, and no console error. The kit holds no full-core wasm and no article-only module.
// Needs `npm run build:web` (it writes dist/attention-lab-widgets/).
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { listFiles } from '../../scripts/build-kit.mjs';
import { startBlog } from './blog-server.mjs';
import { gptTrainsAndGenerates } from './gpt-widget.mjs';
import { distDir, KEEP_SCREENSHOTS, keepScreenshot, ProblemCollector, startSite } from './harness.mjs';

const KIT = join(distDir, 'attention-lab-widgets');
const POST_DIR = 'posts/2026/attention'; // a sub-folder of the blog
/** the views a blogger embeds, one of each kind of widget element */
const VIEWS = [
  { hash: '#view=dot&seed=3&dot_d=6', section: 'dot', tag: 'attention-playground' },
  { hash: '#view=multihead&seed=2', section: 'multihead', tag: 'multihead-view' },
  { hash: '#view=translate&translate_task=dates&seed=1', section: 'translate', tag: 'seq2seq-demo' },
  { hash: '#view=transformer&transformer_task=dates&seed=1', section: 'transformer', tag: 'transformer-demo' },
  { hash: '#view=gpt&seed=2&gpt_prompt=%E7%99%BD%E6%97%A5&gpt_temperature=0.5&gpt_head=3', section: 'gpt', tag: 'gpt-demo' },
];

/** The post: the pasted snippets (the script tag once), between paragraphs of prose. */
export function postHtml(title, snippets, { lang = 'en', head = '' } = {}) {
  const script = snippets[0].split('\n')[0];
  const bodies = snippets.map((s) => s.split('\n').filter((line) => line !== script).join('\n'));
  return `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
${head}${script}
</head>
<body>
<h1>${title}</h1>
${bodies.map((b, i) => `<p>Paragraph ${i + 1} of the post, before the figure.</p>\n${b}`).join('\n')}
<p>The end.</p>
</body>
</html>
`;
}

describe('the widget kit on a blog of another origin', { timeout: 600_000 }, () => {
  /** @type {Awaited<ReturnType<typeof startSite>>} */
  let site;
  let blog;
  let root;
  /** @type {Record<string, {script: string, iframe: string, markdown: string, csp: string}>} */
  const snippets = {};
  /** the values of the figure embedded from its Export menu */
  let figureCells;
  /** the post: every view's snippet, the figure's and the iframe */
  const allSnippets = () => [...VIEWS.map((v) => snippets[v.section].script), snippets.figure.script, snippets.dot.iframe];

  before(async () => {
    if (!existsSync(`${KIT}/attention-lab-widgets.js`)) throw new Error(`${KIT} is missing: run npm run build:web`);
    site = await startSite();
    const page = site.page;
    for (const view of VIEWS) {
      await site.load(view.hash);
      const open = page.locator(`#section-${view.section} [data-testid="embed-open"]`);
      await open.click();
      const dialog = page.locator('[data-testid="embed-dialog"]');
      await dialog.waitFor({ state: 'visible' });
      assert.equal(await page.locator('[data-testid="embed-kit-place"]').inputValue(), './attention-lab-widgets/');
      const read = (kind) => page.locator(`[data-testid="embed-${kind}"]`).textContent();
      snippets[view.section] = { script: await read('script'), iframe: await read('iframe'), markdown: await read('markdown'), csp: await read('csp') };
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    }
    // one figure: the dot section's weights, from its Export menu's Embed…
    await site.load('#view=dot&seed=3');
    await page.locator('#dot-weights output.heatmap-data[data-shape="3,5"]').waitFor({ state: 'attached' });
    await page.locator('#dot-weights .export-toggle').click();
    await page.locator('#dot-weights [data-export="embed"]').click();
    await page.locator('[data-testid="embed-dialog"]').waitFor({ state: 'visible' });
    figureCells = JSON.parse(await page.locator('#dot-weights output.heatmap-data').evaluate((o) => o.value));
    snippets.figure = { script: await page.locator('[data-testid="embed-script"]').textContent() };
    await page.keyboard.press('Escape');
    site.problems.assertNone();
    // the blog: only the kit, copied beside the post
    root = mkdtempSync(join(tmpdir(), 'attention-blog-'));
    mkdirSync(join(root, POST_DIR), { recursive: true });
    writeFileSync(join(root, 'favicon.ico'), ''); // the blog's own (browsers ask for it)
    cpSync(KIT, join(root, POST_DIR, 'attention-lab-widgets'), { recursive: true });
    const csp = snippets.dot.csp.replace(/^Content-Security-Policy:\s*/, '');
    blog = await startBlog(root, csp);
    assert.notEqual(blog.origin, site.origin);
  });

  after(async () => {
    await site?.close();
    await blog?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** A page of the blog (its own problem collector: the blog is its origin). */
  async function openPost(file, html, { colorScheme = 'light', viewport = { width: 1000, height: 900 } } = {}) {
    writeFileSync(join(root, POST_DIR, file), html);
    const context = await site.browser.newContext({ viewport, colorScheme });
    const page = await context.newPage();
    page.setDefaultTimeout(90_000);
    const problems = new ProblemCollector();
    problems.attach(page, blog.origin);
    const requested = [];
    page.on('request', (r) => requested.push(r.url()));
    context.on('serviceworker', () => {});
    await page.goto(`${blog.origin}/${POST_DIR}/${file}`, { waitUntil: 'load' });
    return { context, page, problems, requested };
  }

  test('the dialog writes kit-relative snippets and the CSP a host needs', () => {
    const dot = snippets.dot;
    assert.match(dot.script, /^<script src="\.\/attention-lab-widgets\/attention-lab-widgets\.js" defer><\/script>\n<attention-playground mechanism="scaled-dot" seed="3" dot_d="6"><\/attention-playground>$/);
    assert.match(dot.iframe, /^<iframe data-attention-lab src="\.\/attention-lab-widgets\/embed\.html#view=dot&amp;seed=3&amp;dot_d=6" [^>]*><\/iframe>\n<script src="\.\/attention-lab-widgets\/embed-resize\.js" defer><\/script>$/);
    assert.equal(dot.markdown, `{% raw %}\n${dot.script}\n{% endraw %}`);
    assert.equal(dot.csp, "Content-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; frame-src 'self'");
    for (const s of Object.values(snippets)) assert.doesNotMatch(s.script + s.iframe, /127\.0\.0\.1|localhost|http/, 'no address of the demo site');
    // §5's element carries the view's settings (the prompt in its own characters, escaped for HTML only)
    const gpt = snippets.gpt.script.split('\n')[1];
    assert.match(gpt, /^<gpt-demo [^>]*><\/gpt-demo>$/);
    for (const attribute of ['seed="2"', 'gpt_prompt="白日"', 'gpt_temperature="0.5"', 'gpt_head="3"']) assert.ok(gpt.includes(` ${attribute}`), `${attribute} in ${gpt}`);
    assert.match(snippets.gpt.iframe, /embed\.html#view=gpt&amp;/);
  });

  test('every widget from the snippets paints, computes and trains under the strict CSP', async () => {
    const html = postHtml('A post with every widget', allSnippets());
    const { context, page, problems, requested } = await openPost('index.html', html);
    try {
      for (const view of VIEWS) {
        const widget = page.locator(view.tag);
        await widget.scrollIntoViewIfNeeded();
        await page.waitForFunction((tag) => document.querySelector(tag)?.dataset.ready === 'true', view.tag);
      }
      // the playground and the multi-head view computed their heatmaps in the worker
      for (const tag of ['attention-playground', 'multihead-view']) {
        const widget = page.locator(tag);
        await widget.scrollIntoViewIfNeeded();
        await widget.locator('output.heatmap-data').first().waitFor({ state: 'attached' });
        await page.waitForFunction((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('output.heatmap-data')].some((o) => o.value !== ''), tag);
      }
      // the figure, with its numbers inline
      const figure = page.locator('attention-heatmap');
      await figure.scrollIntoViewIfNeeded();
      await page.waitForFunction(() => document.querySelector('attention-heatmap')?.dataset.ready === 'true');
      assert.deepEqual(JSON.parse(await figure.locator('output.heatmap-data').evaluate((o) => o.value)), figureCells);
      const shape = await page.locator('attention-playground #dot-output output.heatmap-data').getAttribute('data-shape');
      assert.equal(shape, '3,6', 'the dialog’s dot_d=6 reached the widget');
      // the Seq2Seq demo trains
      const s2s = page.locator('seq2seq-demo');
      await s2s.scrollIntoViewIfNeeded();
      await s2s.locator('[data-testid=translate-play]').click();
      await page.waitForFunction(() => Number(document.querySelector('seq2seq-demo').shadowRoot.querySelector('.translate-section')?.dataset.step) >= 20, null, { timeout: 180_000 });
      await s2s.locator('[data-testid=translate-play]').click(); // pause
      // the Transformer trains 10 steps and translates
      const tf = page.locator('transformer-demo');
      await tf.scrollIntoViewIfNeeded();
      await tf.locator('.transformer-section[data-translated-at="0"]').waitFor({ timeout: 90_000 });
      // the steps field is in the settings panel, closed until the reader opens it
      const settings = tf.locator('details[data-testid=transformer-panel-settings]');
      if (!(await settings.evaluate((d) => d.open))) await settings.locator(':scope > summary').click();
      await tf.locator('[data-testid=transformer-steps]').fill('10');
      await tf.locator('[data-testid=transformer-steps]').dispatchEvent('change');
      await tf.locator('[data-testid=transformer-train]').click();
      await tf.locator('.transformer-section[data-translated-at="10"]').waitFor({ timeout: 180_000 });
      // the GPT fetches the poems from the kit, trains 10 steps and writes from the snippet's prompt
      const gpt = page.locator('gpt-demo');
      await gpt.scrollIntoViewIfNeeded();
      // two characters with Next character, then the rest of the poem in one press of Write the poem
      const { text } = await gptTrainsAndGenerates(gpt, { steps: 10, chars: 2, write: true });
      assert.match(text, /^白日.{3,}/su, `the snippet's prompt, then what was drawn: ${text}`);
      assert.ok(text.endsWith('\n\n') || Array.from(text).length === 2 + 2 + 120, `to the poem's end or 120 characters: ${text}`);
      assert.equal(await gpt.locator('[data-testid=gpt-head]').inputValue(), '3', 'the snippet’s head');
      assert.ok(requested.some((u) => u === `${blog.origin}/${POST_DIR}/attention-lab-widgets/poems/tang300.txt`), 'the poems came from the kit');
      // the iframe: the kit's embed.html computes, and embed-resize.js sizes the frame to its content
      const frameEl = page.locator('iframe[data-attention-lab]');
      await frameEl.scrollIntoViewIfNeeded();
      const frame = page.frameLocator('iframe[data-attention-lab]');
      await frame.locator('#dot-output output.heatmap-data[data-shape="3,6"]').waitFor({ state: 'attached' });
      await page.waitForFunction(() => {
        const f = document.querySelector('iframe[data-attention-lab]');
        const inner = f?.contentDocument?.documentElement.getBoundingClientRect().height ?? 0;
        return inner > 0 && Math.abs(Number(f.height) - Math.ceil(inner)) <= 1;
      });
      const { outer, inner, scroll } = await page.evaluate(() => {
        const f = document.querySelector('iframe[data-attention-lab]');
        const d = f.contentDocument.documentElement;
        return { outer: f.getBoundingClientRect().height, inner: d.getBoundingClientRect().height, scroll: d.scrollHeight - d.clientHeight };
      });
      assert.ok(Math.abs(outer - inner) <= 2, `the frame is ${outer} px tall for ${inner} px of content`);
      assert.ok(scroll <= 1, `no inner scrollbar (${scroll} px hidden)`);
      problems.assertNone('the blog page reported problems');

      // every file the page asked for is in the kit, beside the post; none of the app's
      const kitUrl = `${blog.origin}/${POST_DIR}/attention-lab-widgets/`;
      const fromBlog = requested.filter((u) => u.startsWith(blog.origin));
      for (const url of fromBlog) assert.ok(url.startsWith(kitUrl) || url.startsWith(`${blog.origin}/${POST_DIR}/index.html`), url);
      const used = new Set(fromBlog.map((u) => u.slice(kitUrl.length).split('#')[0]));
      const unused = listFiles(KIT).filter((f) => !used.has(f));
      console.log(`# kit files this page did not load (other language, exports, on-request panels, docs): ${unused.join(' ')}`);
    } finally {
      await context.close();
    }
  });

  /** Every widget of the post mounted (scrolled through), and each one's frame colour and scheme. */
  async function widgetLooks(page) {
    const tags = [...VIEWS.map((v) => v.tag), 'attention-heatmap'];
    for (const tag of tags) {
      await page.locator(tag).first().scrollIntoViewIfNeeded();
      await page.waitForFunction((t) => document.querySelector(t)?.dataset.ready === 'true', tag);
    }
    return page.evaluate((ts) => ts.map((t) => {
      const el = document.querySelector(t);
      const body = el.shadowRoot.querySelector('.widget-body');
      const panel = el.shadowRoot.querySelector('.section-body, figure, .widget-section') ?? body;
      return { tag: t, scheme: el.dataset.scheme, background: getComputedStyle(body).backgroundColor, ink: getComputedStyle(panel).color };
    }), tags);
  }
  const channels = (rgb) => rgb.match(/[\d.]+/g).slice(0, 3).map(Number);
  const isDark = (rgb) => Math.max(...channels(rgb)) < 80;
  const isLight = (rgb) => Math.min(...channels(rgb)) > 180;

  test("widgets follow the blog's dark theme, the reader's preference and theme=; screenshots at 390 and 736 px", async () => {
    writeFileSync(join(root, POST_DIR, 'dark.css'), ':root { color-scheme: dark; background: #0f1115; color: #e5e7eb; }\n');
    writeFileSync(join(root, POST_DIR, 'both.css'), ':root { color-scheme: light dark; }\n');
    const post = (css, extra = '') => postHtml('Attention, in a post', [...allSnippets().slice(0, -1), extra].filter(Boolean), { head: css ? `<link rel="stylesheet" href="${css}">\n` : '' });
    const shots = [];
    for (const [scheme, css] of [['light', null], ['dark', 'dark.css']]) {
      // the theme is the same at any width: the second width is for the screenshots
      for (const width of KEEP_SCREENSHOTS ? [390, 736] : [390]) {
        const file = `${scheme}-${width}.html`;
        const { context, page, problems } = await openPost(file, post(css), { viewport: { width, height: 900 } });
        try {
          const looks = await widgetLooks(page);
          for (const look of looks) {
            assert.equal(look.scheme, scheme, `${look.tag} on the ${scheme} blog`);
            assert.ok(scheme === 'dark' ? isDark(look.background) : isLight(look.background), `${look.tag}: frame ${look.background} on the ${scheme} blog`);
            assert.ok(scheme === 'dark' ? isLight(look.ink) : isDark(look.ink), `${look.tag}: text ${look.ink} on the ${scheme} blog`);
          }
          await page.evaluate(() => scrollTo(0, 0));
          const path = `${process.cwd()}/test-artifacts/kit-blog-${scheme}-${width}.png`;
          await keepScreenshot(page, { path, fullPage: true });
          shots.push(path);
          problems.assertNone();
        } finally {
          await context.close();
        }
      }
    }
    console.log(`# screenshots: ${shots.join(' ')}`);

    // a blog that offers both schemes (color-scheme: light dark): the reader's preference decides,
    // and theme="light" on an element keeps that one light
    const pinned = '<attention-heatmap theme="light" id="pinned" data=\'{"rows":2,"cols":2,"values":[1,0,0,1]}\'></attention-heatmap>';
    for (const colorScheme of ['dark', 'light']) {
      const { context, page, problems } = await openPost(`both-${colorScheme}.html`, post('both.css', pinned), { colorScheme });
      try {
        const looks = await widgetLooks(page);
        for (const look of looks) assert.equal(look.scheme, colorScheme, `${look.tag} when the reader prefers ${colorScheme}`);
        await page.locator('#pinned').scrollIntoViewIfNeeded();
        await page.waitForFunction(() => document.querySelector('#pinned')?.dataset.ready === 'true');
        assert.equal(await page.locator('#pinned').getAttribute('data-scheme'), 'light');
        // the attribute switches it without a remount
        await page.locator('#pinned').evaluate((e) => e.setAttribute('theme', 'dark'));
        assert.equal(await page.locator('#pinned').getAttribute('data-scheme'), 'dark');
        assert.ok(isDark(await page.locator('#pinned').evaluate((e) => getComputedStyle(e.shadowRoot.querySelector('.widget-body')).backgroundColor)));
        // a host sets a token on the element from outside the shadow root
        await page.locator('#pinned').evaluate((e) => e.style.setProperty('--lab-panel', 'rgb(1, 2, 3)'));
        assert.equal(await page.locator('#pinned').evaluate((e) => getComputedStyle(e.shadowRoot.querySelector('.widget-body')).backgroundColor), 'rgb(1, 2, 3)');
        problems.assertNone();
      } finally {
        await context.close();
      }
    }
  });

  test('a kit loaded from another origin: the worker starts through a blob: module, or the widget says which CSP line is missing', async () => {
    // the kit stays on the AttentionLab site; the post names it by its address, as the dialog does
    const page0 = site.page;
    await site.load('#view=dot&seed=3');
    await page0.locator('#section-dot [data-testid="embed-open"]').click();
    await page0.locator('[data-testid="embed-kit-place"]').fill(`${site.origin}/attention-lab-widgets/`);
    const script = await page0.locator('[data-testid="embed-script"]').textContent();
    const csp = (await page0.locator('[data-testid="embed-csp"]').textContent()).replace(/^Content-Security-Policy:\s*/, '');
    await page0.keyboard.press('Escape');
    assert.match(csp, /worker-src 'self' blob: http:/);
    const kitOrigin = site.origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const [name, policy, works] of [['cross-origin-ok', csp, true], ['cross-origin-refused', csp.replace(' blob:', ''), false]]) {
      const dir = join(root, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'index.html'), postHtml('A post with a kit elsewhere', [script]));
      const other = await startBlog(root, policy);
      const context = await site.browser.newContext({ viewport: { width: 1000, height: 900 } });
      const page = await context.newPage();
      const problems = new ProblemCollector();
      problems.attach(page, other.origin);
      problems.allow(new RegExp(`request to another host: ${kitOrigin}/attention-lab-widgets/`));
      if (!works) problems.allow(/Content Security Policy|worker-src/);
      try {
        await page.goto(`${other.origin}/${name}/index.html`);
        if (works) {
          await page.waitForFunction(() => document.querySelector('attention-playground')?.dataset.ready === 'true', null, { timeout: 60_000 });
          await page.waitForFunction(() => [...document.querySelector('attention-playground').shadowRoot.querySelectorAll('output.heatmap-data')].some((o) => o.value !== ''), null, { timeout: 60_000 });
        } else {
          await page.waitForFunction(() => /does not allow the blob: worker/.test(document.querySelector('attention-playground')?.shadowRoot?.textContent ?? ''), null, { timeout: 60_000 });
          const text = await page.locator('attention-playground').evaluate((e) => e.shadowRoot.textContent);
          assert.match(text, /Copy the attention-lab-widgets folder onto this site/);
          assert.match(text, /add `worker-src blob:`/);
        }
        problems.assertNone(name);
      } finally {
        await context.close();
        await other.close();
      }
    }
  });

  test('the kit holds only what widgets load: no full-core wasm, article-only modules are 0.1 KB stubs', () => {
    const files = listFiles(KIT);
    assert.ok(!files.some((f) => /attention_lab_core.*\.wasm$/.test(f)), 'no full-core wasm');
    for (const f of ['attention-lab-widgets.js', 'attention-lab-widgets.mjs', 'attention-lab-file.js', 'embed.html', 'embed-resize.js', 'README.html', 'LICENSE']) {
      assert.ok(files.includes(f), `${f} in the kit`);
    }
    for (const variant of ['attention', 'seq2seq', 'transformer']) assert.ok(files.some((f) => new RegExp(`attention_lab_${variant}-.*\\.wasm$`).test(f)), variant);
    for (const f of files.filter((f) => /(attention_lab_core|safetensors|seq2seq-model|translate-article|translate-byo|translate-why-lazy)-[\w-]+\.js$/.test(f))) {
      assert.match(readFileSync(join(KIT, f), 'utf8'), /^throw Error\(`[\w.-]+ is not in the widget kit/, f);
    }
    assert.ok(!files.some((f) => /^(index|performance)\.html$|^examples\/|^widgets\//.test(f)), 'none of the site’s pages');
    assert.equal(readFileSync(join(KIT, 'LICENSE'), 'utf8'), readFileSync(new URL('../../LICENSE', import.meta.url), 'utf8'));
    // the zip holds the same files under attention-lab-widgets/
    const zip = readFileSync(join(distDir, 'attention-lab-widgets.zip'));
    for (const f of files) assert.ok(zip.includes(Buffer.from(`attention-lab-widgets/${f}`)), `${f} in the zip`);
  });
});
