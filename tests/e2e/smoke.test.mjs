// The article's shell in Debian's Chromium against the built site (dist/ or ATTENTION_LAB_DIST):
// strict CSP, every section mounted in the note's order with no console errors, the language
// switch, the URL hash (hostile values render as text, view=<id>, back/forward, old setting
// names), the worker crash banner and restart, heatmap exports, phone width. Sections test
// themselves in their own files.
// Needs `npm run build:web` first. Run: node --test tests/e2e/smoke.test.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { horizontalOverflow, startSite, useSite, waitForCanvasInk } from './harness.mjs';

const ORDER = ['why', 'idea', 'dot', 'translate', 'self', 'multihead', 'transformer', 'gpt'];

describe('article shell', { timeout: 180_000 }, () => {
  /** @type {Awaited<ReturnType<typeof startSite>>} */
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const sectionIds = () => page.$$eval('main section.article-section', (els) => els.map((e) => e.dataset.section));
  const headings = () => page.$$eval('main section.article-section > h2', (els) => els.map((e) => e.textContent));

  /** Waits until some heatmap canvas has ink: the worker computed and a section drew. */
  async function firstHeatmapDrawn() {
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.heatmap canvas')].some((c) => {
        if (!(c instanceof HTMLCanvasElement) || c.width < 20) return false;
        const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) return true;
        return false;
      }),
    );
  }

  test('serves the strict CSP and mounts every section in the note order, with a table of contents', async () => {
    const res = await site.load();
    const csp = res?.headers()['content-security-policy'] ?? '';
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
    assert.doesNotMatch(csp, /(^|\s)'unsafe-eval'/);
    assert.match(csp, /style-src 'self'(;|$)/, 'no inline styles: the sections adopt their CSS');
    assert.match(await page.title(), /AttentionLab/);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.deepEqual(await sectionIds(), ORDER);
    const titles = await headings();
    assert.ok(titles.every((t) => t && t.trim().length > 3), JSON.stringify(titles));
    assert.deepEqual(await page.$$eval('#toc-list .toc-link', (els) => els.map((e) => e.textContent)), titles);
    assert.equal(await page.locator('.section-error').count(), 0, 'no section failed to mount');
    assert.ok((await page.locator('math').count()) > 0, 'formulas are MathML');
    await firstHeatmapDrawn();
    // the sections' and the heatmap's own CSS apply (adopted stylesheets, allowed by that policy)
    assert.equal(await page.$eval('.dot-formula', (e) => getComputedStyle(e).fontSize), '16.8px');
    assert.equal(await page.$eval('.heatmap', (e) => getComputedStyle(e).position), 'relative');
    assert.equal(await page.evaluate(() => location.hash), '#seed=1', 'the address holds the state');
    // the favicon is served (a 404 would be a problem reported by the collector)
    const icon = await page.evaluate(async () => (await fetch('/favicon.svg')).status);
    assert.equal(icon, 200);

    // the table of contents scrolls to a section without touching the hash (the hash is the state)
    await page.click('#toc-list .toc-link[data-section="multihead"]');
    await page.waitForFunction(() => document.activeElement?.id === 'section-multihead-title');
    assert.equal(await page.evaluate(() => location.hash), '#seed=1');
    await site.screenshot('shell-en');
  });

  test('language switch: Chinese headings, lang attribute and hash; reload keeps it; browser default', async () => {
    await site.load('#seed=2');
    const english = await headings();
    await page.click('#lang-switch button[data-lang="zh"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    assert.equal(await page.getAttribute('#lang-switch button[data-lang="zh"]', 'aria-pressed'), 'true');
    const chinese = await headings();
    assert.equal(chinese.length, ORDER.length);
    for (const [i, h] of chinese.entries()) {
      assert.notEqual(h, english[i]);
      assert.match(h, /[\u4e00-\u9fff]/, `heading ${i} is not Chinese: ${h}`);
    }
    assert.match((await page.textContent('#site-title')) ?? '', /注意力/);
    await page.waitForFunction(() => location.hash.includes('lang=zh'));
    assert.equal(await page.evaluate(() => location.hash), '#lang=zh&seed=2');
    await firstHeatmapDrawn();
    await site.screenshot('shell-zh');

    await site.load('#lang=zh&seed=2');
    assert.deepEqual(await headings(), chinese);
    await page.click('#lang-switch button[data-lang="en"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    assert.deepEqual(await headings(), english);

    // no lang setting: the browser's language decides
    const zhContext = await site.browser.newContext({ locale: 'zh-CN' });
    try {
      const zhPage = await zhContext.newPage();
      await zhPage.goto(site.url);
      await zhPage.waitForFunction(() => document.body.dataset.ready === 'true');
      assert.equal(await zhPage.getAttribute('html', 'lang'), 'zh-CN');
    } finally {
      await zhContext.close();
    }
  });

  test('hostile hashes render as text: no markup, no script, no dialog', async () => {
    const scripts = async () => page.$$eval('script', (els) => els.map((e) => e.getAttribute('src') ?? 'INLINE'));
    await site.load();
    const baseline = await scripts();

    await site.load('#<img src=x onerror=alert(1)>');
    const notice = page.locator('.notice-settings');
    assert.match((await notice.textContent()) ?? '', /"<img src"/);
    assert.equal(await page.locator('img').count(), 0);

    const text = '<script>alert(2)</script><img src=x onerror=alert(3)>';
    await site.load(`#translate_text=${encodeURIComponent(text)}&seed=${encodeURIComponent('<b>1</b>')}&dot_d=1e309&x=${'%3Csvg%20onload%3Dalert(4)%3E'}`);
    const noticeText = (await notice.textContent()) ?? '';
    assert.match(noticeText, /seed: not a whole number/);
    assert.match(noticeText, /dot_d: /);
    assert.doesNotMatch(noticeText, /<b>|1e309/, 'rejected values are not echoed');
    assert.equal(await page.locator('img, svg[onload], b').count(), 0);
    assert.deepEqual(await scripts(), baseline, 'no script element was added');
    const html = await page.evaluate(() => document.body.innerHTML);
    assert.doesNotMatch(html, /<script>alert|<img src="?x/);
    // the valid hostile-looking sentence is kept, as text, in the state
    await page.waitForFunction(() => location.hash.includes('translate_text='));
    const hash = await page.evaluate(() => location.hash);
    assert.equal(new URLSearchParams(hash.slice(1)).get('translate_text'), text);
    assert.doesNotMatch(hash, /seed=%3Cb|dot_d=1e309/, 'the address is rewritten to the settings in use');

    await page.click('.notice-settings .notice-dismiss');
    assert.equal(await notice.count(), 0);
    await page.waitForTimeout(300); // time for an injected handler to fire, were there one
    assert.deepEqual(site.problems.dialogs, []);
  });

  test('view=<id> shows one section; "show all" and back/forward-style hash changes re-layout', async () => {
    await site.load('#view=dot');
    assert.deepEqual(await sectionIds(), ['dot']);
    assert.equal(await page.isVisible('#toc'), false);
    await firstHeatmapDrawn();
    await site.screenshot('shell-view-dot');

    await page.click('.show-all');
    await page.waitForFunction((n) => document.querySelectorAll('main section.article-section').length === n, ORDER.length);
    await page.waitForFunction(() => !location.hash.includes('view='));

    // an edited address (as back/forward would give) is applied without a reload
    await page.evaluate(() => {
      location.hash = '#view=why&seed=4';
    });
    await page.waitForFunction(() => document.querySelectorAll('main section.article-section').length === 1);
    assert.deepEqual(await sectionIds(), ['why']);
    await page.evaluate(() => {
      location.hash = '#view=bogus';
    });
    await page.waitForSelector('.notice-settings');
    assert.match((await page.textContent('.notice-settings')) ?? '', /view: expected one of/);
    // like at load, a value the address cannot use falls back to its default (the whole article)
    await page.waitForFunction((n) => document.querySelectorAll('main section.article-section').length === n, ORDER.length);
    assert.equal(await page.evaluate(() => location.hash), '#seed=1');
  });

  test('the Performance page shows the committed results, their date and notes, as text; the footer links it', async () => {
    const results = JSON.parse(readFileSync(new URL('shared/bench/results.json', new URL('../../', import.meta.url)), 'utf8'));
    await site.load();
    assert.equal(await page.getAttribute('#site-footer a.footer-link', 'href'), './performance.html');
    // an old link to the section goes to the page
    await site.load('#view=performance');
    await page.waitForURL(/performance\.html/);
    await page.waitForSelector('.perf-machine');
    await site.load('', '/performance.html');
    await page.waitForSelector('.perf-machine');
    assert.doesNotMatch((await page.textContent('body')) ?? '', /\bissue/i, 'no issue wording on the page');
    // plain table: row headers are not bold
    assert.equal(await page.$eval('.perf-browser th[scope="row"]', (e) => getComputedStyle(e).fontWeight), '400');
    assert.match((await page.textContent('.perf-machine')) ?? '', new RegExp(results.date.slice(0, 10)));
    assert.deepEqual(await page.$$eval('.perf-notes li', (els) => els.map((e) => e.textContent)), results.notes ?? []);
    // every widget page and every timed page of the first heatmap has its row, in the page's
    // language (the bench's English text only in results.json), and no figure reads NaN or undefined
    const timed = results.browser?.first_heatmap;
    for (const [lang, hash] of [['en', ''], ['zh', '#lang=zh']]) {
      await site.load(hash, '/performance.html');
      await page.waitForSelector('.perf-browser');
      const rows = new Map(await page.$$eval('.perf-browser th[scope="row"]', (els) => els.map((e) => [e.dataset.row, { text: e.textContent, code: e.querySelector('code')?.textContent }])));
      for (const w of results.browser?.widgets ?? []) assert.equal(rows.get(`widget:${w.path}`)?.code, w.page, `${lang}: the row of ${w.page} shows its element`);
      for (const m of Array.isArray(timed) ? timed : []) assert.ok(rows.has(`heatmap:${m.path}`), `${lang}: first-heatmap row for ${m.page}`);
      for (const [id, { text }] of rows) {
        assert.equal(/[\u4e00-\u9fff]/.test(text), lang === 'zh', `${lang}: row ${id} is in the page's language: ${text}`);
        assert.doesNotMatch(text, /`/, `${lang}: row ${id} shows no markdown quotes`);
      }
      assert.doesNotMatch((await page.textContent('.perf-browser')) ?? '', /NaN|undefined/);
    }
  });

  test('§2: each question attends to its own word; the weights equal softmax(q·k/√5) of the fixed vectors', async () => {
    await site.load('#view=idea&idea_strength=4&idea_q=0,2,2,0,0');
    await page.waitForFunction(() => document.querySelector('.idea-section')?.dataset.state === 'ok');
    await page.waitForFunction(() => document.querySelector('#idea-weights output.heatmap-data')?.value);
    const shown = await page.evaluate(() => {
      const out = document.querySelector('#idea-weights output.heatmap-data');
      return { shape: out.dataset.shape, values: JSON.parse(out.value) };
    });
    assert.equal(shown.shape, '5,5');
    // independent computation: words en order KaGe, reads, novels, park, Saturday; features
    // person, place, time, action, thing; keys of length 2, questions of length 4
    const keys = [[2, 0, 0, 0, 0], [0, 0, 0, 2, 0.4], [0, 0, 0, 0.4, 2], [0, 2, 0, 0, 0], [0, 0, 2, 0, 0]];
    // Doing what? (做什么) asks for the action
    const questions = [[4, 0, 0, 0, 0], [0, 4, 0, 0, 0], [0, 0, 4, 0, 0], [0, 0, 0, 4, 0], [0, 2, 2, 0, 0]];
    const expected = questions.flatMap((q) => {
      const s = keys.map((k) => k.reduce((a, x, i) => a + x * q[i], 0) / Math.sqrt(5));
      const e = s.map((x) => Math.exp(x - Math.max(...s)));
      const sum = e.reduce((a, b) => a + b, 0);
      return e.map((x) => x / sum);
    });
    shown.values.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) < 1e-5, `weight ${i}: ${v} vs ${expected[i]}`));
    const argmax = (r) => shown.values.slice(r * 5, r * 5 + 5).indexOf(Math.max(...shown.values.slice(r * 5, r * 5 + 5)));
    assert.deepEqual([0, 1, 2, 3].map(argmax), [0, 3, 4, 1], 'who → KaGe, where → park, when → Saturday, doing what → reads');
    // the action question says it asks for an action (a bare "What?" would as well ask for the novels)
    const questionRows = await page.$$eval('#idea-weights table.heatmap-table th[scope=row]', (ths) => ths.map((th) => th.textContent));
    assert.equal(questionRows[3], 'Doing what?');
    // the reader's question (place and time) splits between park and Saturday
    assert.ok(Math.abs(shown.values[4 * 5 + 3] - shown.values[4 * 5 + 4]) < 1e-6 && shown.values[4 * 5 + 3] > 0.3);
    await site.screenshot('idea', { fullPage: false });
  });

  test('a worker crash shows an alert with Restart; restart brings a fresh worker and redraws', async () => {
    await site.load('#view=dot');
    await firstHeatmapDrawn();
    const [worker] = page.workers();
    assert.ok(worker, 'the lab worker runs');
    // LabApi's own debug.crash, called inside the worker: the page exposes no hook
    await worker.evaluate(() => self.dispatchEvent(new MessageEvent('message', { data: { id: -1, method: 'debug.crash', args: [] } })));
    const banner = page.locator('.crash-banner[role="alert"]');
    await banner.waitFor();
    assert.match((await banner.textContent()) ?? '', /worker stopped.*debug\.crash/s);
    await site.screenshot('shell-crash', { fullPage: false });

    // wipe the numbers the section last drew: only a recomputation in the new worker refills them
    const before = await page.evaluate(() => {
      const out = document.querySelector('figure.heatmap output.heatmap-data');
      const value = out.value;
      out.value = '';
      return value;
    });
    assert.ok(before.length > 2);
    const fresh = page.waitForEvent('worker');
    await page.click('[data-testid="worker-restart"]');
    await banner.waitFor({ state: 'detached' });
    const second = await fresh;
    assert.notEqual(second, worker);
    await page.waitForFunction(() => document.querySelector('figure.heatmap output.heatmap-data')?.value);
    const after = await page.evaluate(() => document.querySelector('figure.heatmap output.heatmap-data').value);
    assert.equal(after, before, 'the new worker gives the same numbers for the same state');
    assert.equal(await page.locator('.section-error').count(), 0);
  });

  test('training runs in the worker: no wasm on the main thread; long tasks reported', async (t) => {
    await page.addInitScript(() => {
      const w = /** @type {any} */ (window);
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });
    });
    await site.load('#view=translate&translate_hidden=32');
    const play = page.locator('[data-testid="translate-play"]');
    await play.waitFor();
    const startedAt = await page.evaluate(() => performance.now());
    await play.click();
    const progress = () => page.locator('[data-testid="translate-progress"]').evaluate((e) => Number(e.value));
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="translate-progress"]')?.value) >= 20);
    await page.locator('[data-testid="translate-pause"]').click();
    await page.waitForTimeout(400); // the chunk in flight when pause was clicked may still land
    const paused = await progress();
    const total = await page.locator('[data-testid="translate-progress"]').evaluate((e) => Number(e.max));
    // how far training got before the click is the machine's speed, not the page's behaviour
    assert.ok(paused >= 20 && paused < total, `paused at step ${paused} of ${total}`);
    await page.waitForTimeout(800);
    assert.equal(await progress(), paused, 'pause stops training');

    // structure, not timing: the page's own resources hold no wasm; the worker's do
    const mainResources = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    assert.ok(!mainResources.some((u) => u.endsWith('.wasm')), 'the main thread fetched no wasm');
    const [worker] = page.workers();
    const workerResources = await worker.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    assert.ok(workerResources.some((u) => u.endsWith('.wasm')), 'the worker loaded the wasm');

    // wall-clock figures are machine-dependent: reported, not asserted (scripts/measure-page.mjs)
    const tasks = (await page.evaluate(() => window.__longTasks)).filter((x) => x.start >= startedAt);
    t.diagnostic(`main-thread long tasks while training: ${tasks.length}, longest ${Math.round(Math.max(0, ...tasks.map((x) => x.duration)))} ms`);

    // the footer's promise: the same link, trained again, gives the same numbers, step for step
    const lossesOf = async (steps) => {
      await page.waitForFunction((n) => JSON.parse(document.querySelector('[data-testid=translate-losses]')?.value || '[]').length >= n, steps);
      return page.evaluate((n) => JSON.parse(document.querySelector('[data-testid=translate-losses]').value).slice(0, n), steps);
    };
    const first = await lossesOf(20);
    await site.load('#view=translate&translate_hidden=32');
    await page.locator('[data-testid="translate-play"]').click();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="translate-progress"]')?.value) >= 20);
    await page.locator('[data-testid="translate-pause"]').click();
    assert.deepEqual(await lossesOf(20), first, 'the reloaded link trains to the same losses');
  });

  test('heatmap exports: CSV and JSON hold the drawn numbers, PNG is the figure (title and legend too)', async () => {
    await site.load('#view=dot&seed=5');
    await firstHeatmapDrawn();
    const figure = page.locator('figure.heatmap').filter({ has: page.locator('output.heatmap-data') }).first();
    await page.waitForFunction(() => document.querySelector('figure.heatmap output.heatmap-data')?.value);
    const drawn = await figure.evaluate((fig) => {
      const out = fig.querySelector('output.heatmap-data');
      return { shape: out.dataset.shape.split(',').map(Number), values: JSON.parse(out.value) };
    });

    const download = async (kind) => {
      await figure.locator('button.export-toggle').click();
      const wait = page.waitForEvent('download');
      await figure.locator(`button[data-export="${kind}"]`).click();
      const d = await wait;
      return { name: d.suggestedFilename(), bytes: readFileSync(await d.path()) };
    };

    const csv = await download('csv');
    assert.match(csv.name, /\.csv$/);
    const lines = csv.bytes.toString('utf8').replace(/^\ufeff/, '').trimEnd().split('\r\n');
    assert.equal(lines.length, drawn.shape[0] + 1);
    // each number in its shortest float32 form: the same float32 as the drawn value
    const numbers = lines.slice(1).flatMap((l) => l.split(',').slice(1).map(Number));
    assert.deepEqual(numbers.map(Math.fround), drawn.values.map(Math.fround));

    const json = JSON.parse((await download('json')).bytes.toString('utf8'));
    assert.deepEqual([json.rows, json.cols], drawn.shape);
    assert.deepEqual(json.values, drawn.values);
    assert.equal(json.rowLabels.length, drawn.shape[0]);

    const png = await download('png');
    assert.match(png.name, /\.png$/);
    assert.equal(png.bytes.subarray(1, 4).toString('latin1'), 'PNG');
    const [w, h] = [png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)];
    const canvas = await figure.locator('canvas').evaluate((c) => [c.width, c.height]);
    assert.ok(w >= canvas[0] * 0.5 && h > canvas[1], `the PNG (${w}×${h}) holds the canvas (${canvas.join('×')}) with its title and legend`);
  });

  test('phone width (375 px): no sideways scrolling; screenshots', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    try {
      await site.load();
      await firstHeatmapDrawn();
      await page.waitForTimeout(300); // let the charts finish their resize pass
      assert.equal(await horizontalOverflow(page), 0);
      // wide content scrolls inside its own box: every section fits the viewport
      const widest = await page.$$eval('main section.article-section', (els) => Math.max(...els.map((e) => e.getBoundingClientRect().right)));
      assert.ok(widest <= 375, `a section reaches ${widest}px`);
      assert.ok((await waitForCanvasInk(page, '.heatmap canvas')) > 0, 'heatmaps still draw at phone width');
      await site.screenshot('shell-375');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});

// Its own site and time budget: the shell's suite above is near its limit on a loaded machine.
describe('old links', { timeout: 90_000 }, () => {
  /** @type {Awaited<ReturnType<typeof startSite>>} */
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  test('an address naming a section or its heading (what the skip links point at) opens there, with no notice; a word that names nothing is reported', async () => {
    // the heading at the top of the window, less the room the contents' jumps leave above a title
    // (within a frame of the sections above growing): `off` is how far it is from there
    const measure = (i) => {
      const h = document.getElementById(i);
      const room = parseFloat(getComputedStyle(h).scrollMarginTop) + (parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0);
      return { off: h.getBoundingClientRect().top - room, focused: document.activeElement?.id, hash: location.hash };
    };
    const place = async (id) => {
      let seen = await page.evaluate(measure, id);
      for (let tries = 0; tries < 50 && Math.abs(seen.off) >= 2; ++tries) {
        await page.waitForTimeout(200);
        seen = await page.evaluate(measure, id);
      }
      return seen;
    };
    await site.load('#section-gpt');
    const gpt = await place('section-gpt-title');
    assert.ok(Math.abs(gpt.off) < 2, `§5's heading is ${gpt.off} px from the top of the window`);
    assert.equal(gpt.focused, 'section-gpt-title', 'the heading has the focus, for keyboard and screen readers');
    assert.equal(await page.locator('.notice-settings').count(), 0, 'a place is not reported as an unknown setting');
    // the place stays in the address beside the settings, as a plain anchor does: copied, it opens there
    await page.waitForFunction(() => /seed=/.test(location.hash));
    const kept = await page.evaluate(() => location.hash);
    assert.match(kept, /^#section-gpt&/, `the address keeps the place: ${kept}`);
    // §5 mounts where the reader is, and its corpus loads
    await page.waitForFunction(() => document.querySelector('.gpt-section')?.dataset.samples === '1', null, { timeout: 60_000 });
    // a heading's id, as in a skip link's href
    await site.load('#section-multihead-title');
    const multihead = await place('section-multihead-title');
    assert.ok(Math.abs(multihead.off) < 2, `§3.6's heading is ${multihead.off} px from the top of the window`);
    // with settings beside it: the place and the settings (§5 in Chinese)
    await site.load('#section-gpt&lang=zh');
    const zh = await place('section-gpt-title');
    assert.ok(Math.abs(zh.off) < 2, `§5's heading is ${zh.off} px from the top of the window`);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    assert.equal(await page.locator('.notice-settings').count(), 0, 'neither the place nor lang is reported');
    await page.waitForFunction(() => /lang=zh/.test(location.hash));
    const zhHash = await page.evaluate(() => location.hash);
    assert.ok(zhHash.startsWith('#section-gpt&') && zhHash.includes('lang=zh'), `the place and the settings stay in the address: ${zhHash}`);
    // a reader who copies that address opens §5 in Chinese again
    await site.load(zhHash);
    assert.ok(Math.abs((await place('section-gpt-title')).off) < 2, 'the copied address opens at §5');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
    await site.load('#no-such-place');
    assert.ok((await page.locator('.notice-settings').textContent()).includes('"no-such-place"'), 'a word that names no place is reported');
  });

  test('an old link (s2s_, tf_, mh_ names) opens with its settings, and the address is rewritten to the slug names', async () => {
    await site.load('#view=translate&s2s_task=dates&s2s_open_settings=1&tf_heads=2&mh_d=8');
    assert.deepEqual(await page.$$eval('main section.article-section', (els) => els.map((e) => e.dataset.section)), ['translate']);
    assert.equal(await page.locator('.notice-settings').count(), 0, 'no setting reported as unknown');
    assert.equal(await page.inputValue('[data-testid=translate-task]'), 'dates');
    assert.equal(await page.locator('details[data-testid=translate-panel-settings]').getAttribute('open'), '');
    await page.waitForFunction(() => location.hash.includes('translate_task=dates'));
    const hash = new URLSearchParams(await page.evaluate(() => location.hash.slice(1)));
    assert.deepEqual(
      [hash.get('translate_task'), hash.get('translate_open_settings'), hash.get('transformer_heads'), hash.get('multihead_d')],
      ['dates', '1', '2', '8'],
    );
    assert.ok(![...hash.keys()].some((k) => /^(s2s|tf|mh)_/.test(k)), hash.toString());
  });
});
