// examples/ as a blogger finds it: the article's footer links to it (both languages); its index
// lists every page of web/examples/ and each link opens that page; an address with no page gets a
// 404 and the "page not found" page (with its way back), never the article stuck at "Loading…".
// Needs `npm run build:web` first. Run: node --test tests/e2e/examples.test.mjs
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { useSite } from './harness.mjs';
import { loadWeb } from '../web/setup.mjs';

const { PAGE_STRINGS } = await loadWeb('shell/page-strings');

const examplesDir = fileURLToPath(new URL('../../web/examples/', import.meta.url));
/** every page of the folder but its index, with the title its source gives it */
const PAGES = readdirSync(examplesDir)
  .filter((f) => f.endsWith('.html') && f !== 'index.html')
  .map((file) => ({ file, title: /<title>([^<]*)<\/title>/.exec(readFileSync(`${examplesDir}${file}`, 'utf8'))[1] }));

describe('examples/ and addresses with no page', { timeout: 300_000 }, () => {
  let site;
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  for (const lang of ['en', 'zh']) {
    test(`the article's footer links to examples/ [${lang}]`, async () => {
      await site.load(`#lang=${lang}`);
      const link = page.locator('#site-footer a', { hasText: PAGE_STRINGS[lang]['shell.examplesLink'] });
      assert.equal(await link.count(), 1, 'one link to the examples in the footer');
      site.problems.nextPage();
      const [res] = await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), link.click()]);
      assert.equal(res?.status(), 200);
      assert.equal(new URL(page.url()).pathname, '/examples/');
      assert.match(await page.title(), /Examples/);
    });
  }

  test('examples/ lists every example page with a line of its own, and each link opens it', async () => {
    assert.ok(PAGES.length >= 10, `the folder's pages: ${PAGES.map((p) => p.file)}`);
    const res = await site.load('', '/examples/');
    assert.equal(res?.status(), 200);
    const items = await page.$$eval('main li', (lis) => lis.map((li) => ({ href: li.querySelector('a')?.getAttribute('href'), text: li.textContent.trim() })));
    for (const { file } of PAGES) {
      const item = items.find((i) => i.href === `./${file}`);
      assert.ok(item, `examples/ lists ${file}`);
      assert.ok(item.text.length > 20, `${file} has a line saying what it is: “${item.text}”`);
    }
    assert.equal(items.length, PAGES.length, `one line per page: ${JSON.stringify(items.map((i) => i.href))}`);
    for (const { file, title } of PAGES) {
      await site.load('', '/examples/');
      site.problems.nextPage();
      const [opened] = await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.click(`main a[href="./${file}"]`)]);
      assert.equal(opened?.status(), 200, `${file} opens`);
      assert.equal(new URL(page.url()).pathname, `/examples/${file}`);
      assert.equal(await page.title(), title, `${file} is the page itself`);
    }
    // the pages' own scripts may still be loading as the test moves on: that is no fault of the index
    await page.goto('about:blank');
    site.problems.take();
  });

  test('an address with no page: 404 and the "page not found" page, whose links lead back', async () => {
    for (const path of ['/no-such-page', '/examples/assets/attention-lab.js', '/examples/nope.html', '/assets/missing.js', '/%E0%A4%A', '/examples%0d%0aX-Injected:%201']) {
      site.problems.allow(/HTTP 404|status of 404/);
      const res = await site.load('', path);
      assert.equal(res?.status(), 404, `${path}: 404`);
      assert.match(await page.locator('h1').textContent(), /Page not found/, `${path}: the not-found page`);
      assert.equal(await page.locator('#site-title').count(), 0, `${path}: not the article's page`);
    }
    const links = await page.$$eval('main a', (as) => as.map((a) => a.href));
    assert.deepEqual(links.map((h) => new URL(h).pathname), ['/', '/examples/', '/', '/examples/']);
    // a folder asked for without its slash goes to the folder, where its relative links work
    const res = await site.load('', '/examples');
    assert.equal(res?.status(), 200);
    assert.equal(new URL(page.url()).pathname, '/examples/');
  });
});
