// The "Embed" button of each section header (embed-dialog.ts) in Chromium against the built site:
// the dialog shows the script and iframe snippets of the current state (a changed setting is in
// both), hostile URL text is escaped in them and never becomes an element, Copy works and falls
// back to selecting the text when the clipboard refuses, Esc and the close button close it and
// focus returns to the button; the iframe snippet's embed.html address shows the same numbers.
// Build first: npx vite build --config web/vite.config.ts --outDir /tmp/x && ATTENTION_LAB_DIST=/tmp/x node --test tests/e2e/embed-button.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startSite, useSite } from './harness.mjs';

const HOSTILE = '<img src=x onerror=alert(1)>';

describe('Embed button and dialog', { timeout: 180_000 }, () => {
  /** @type {Awaited<ReturnType<typeof startSite>>} */
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const dialog = () => page.locator('[data-testid="embed-dialog"]');
  const snippet = (kind) => page.locator(`[data-testid="embed-${kind}"]`).textContent();

  /** The values a heatmap last drew (its hidden <output>), once it has drawn some. */
  async function heatmapValues(figId) {
    const out = page.locator(`#${figId} output.heatmap-data`);
    await page.waitForFunction((sel) => (document.querySelector(sel)?.value ?? '') !== '', `#${figId} output.heatmap-data`);
    return { shape: (await out.getAttribute('data-shape')).split(',').map(Number), values: JSON.parse(await out.evaluate((o) => o.value)) };
  }

  /**
   * Parses a snippet the way a host page would (an inert <template>: nothing runs or loads) and
   * returns what it would create: each element's tag and attributes.
   */
  const parseSnippet = (html) =>
    page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'text/html');
      return [...doc.querySelectorAll('head *, body *')].map((e) => ({
        tag: e.localName,
        attributes: Object.fromEntries([...e.attributes].map((a) => [a.name, a.value])),
      }));
    }, html);

  test('every section but performance has an Embed button in its header', async () => {
    await site.load('#seed=1');
    const sections = await page.$$eval('main section.article-section', (els) =>
      els.map((e) => [e.dataset.section, e.querySelectorAll(':scope > [data-testid="embed-open"]').length]),
    );
    assert.ok(sections.length >= 6, JSON.stringify(sections));
    for (const [id, count] of sections) assert.equal(count, id === 'performance' ? 0 : 1, `${id}: ${count} Embed buttons`);
    assert.equal(await page.locator('#section-dot [data-testid="embed-open"]').textContent(), 'Embed');
    // Chinese label from the shell's strings
    await page.click('#lang-switch button[data-lang="zh"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN' && document.body.dataset.ready === 'true');
    assert.equal(await page.locator('#section-dot [data-testid="embed-open"]').textContent(), '嵌入');
    await page.click('#section-dot [data-testid="embed-open"]');
    await dialog().waitFor({ state: 'visible' });
    assert.equal(await page.locator('[data-testid="embed-copy-script"]').textContent(), '复制');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
  });

  test("each section's Embed button stays on its title's first line at 1280 and 390 px, both languages: a long title wraps instead", async () => {
    for (const hash of ['#seed=1', '#seed=1&lang=zh']) {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await site.load(hash);
        const placed = await page.$$eval('main section.article-section', (els) =>
          els.filter((s) => s.querySelector(':scope > [data-testid="embed-open"]')).map((s) => {
            const title = s.querySelector(':scope > .section-title');
            const range = document.createRange();
            range.selectNodeContents(title);
            const lines = [...new Set([...range.getClientRects()].map((r) => Math.round(r.top)))];
            const first = range.getClientRects()[0];
            const button = s.querySelector(':scope > [data-testid="embed-open"]').getBoundingClientRect();
            const mid = (button.top + button.bottom) / 2;
            return { id: s.dataset.section, title: title.textContent, lines: lines.length, onFirstLine: mid >= first.top - 8 && mid <= first.bottom + 8, inside: button.right <= s.getBoundingClientRect().right };
          }),
        );
        for (const p of placed) {
          assert.ok(p.onFirstLine && p.inside, `${hash} at ${width} px: ${p.id}'s Embed button is not beside its title (${p.title}, ${p.lines} lines)`);
        }
        if (width === 390 && !hash.includes('zh')) assert.ok(placed.some((p) => p.lines > 1), 'at 390 px some English title wraps beside its button');
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('the dialog shows the changed setting in both snippets; the iframe address shows the same numbers', async () => {
    await site.load('#view=dot&seed=3');
    await page.waitForSelector('.dot-section[data-state="ok"]');
    await page.selectOption('.dot-section select >> nth=3', '6'); // score, n, m, d
    await page.waitForFunction(() => location.hash.includes('dot_d=6'));
    await page.waitForFunction(() => document.querySelector('#dot-output output.heatmap-data')?.dataset.shape === '3,6');
    const appWeights = await heatmapValues('dot-weights');
    const appOutput = await heatmapValues('dot-output');
    assert.deepEqual(appOutput.shape, [3, 6], 'the output has d = 6 columns');

    const open = page.locator('#section-dot [data-testid="embed-open"]');
    await open.focus();
    await page.keyboard.press('Enter'); // keyboard opens it
    await dialog().waitFor({ state: 'visible' });
    assert.equal(await page.evaluate(() => document.querySelector('[data-testid="embed-dialog"]').contains(document.activeElement)), true, 'focus moved into the dialog');

    const script = await snippet('script');
    const iframe = await snippet('iframe');
    await site.screenshot('embed-dialog', { fullPage: false });
    assert.match(script, /dot_d="6"/);
    assert.match(script, /seed="3"/);
    assert.match(script, /^<script src="\.\/attention-lab-widgets\/attention-lab-widgets\.js" defer><\/script>/);
    const [scriptTag, widget] = await parseSnippet(script);
    assert.equal(scriptTag.tag, 'script');
    assert.equal(widget.tag, 'attention-playground');
    assert.equal(widget.attributes.dot_d, '6');

    const [frame] = await parseSnippet(iframe);
    assert.equal(frame.tag, 'iframe');
    // the kit's embed.html, beside the post (here: the kit the site itself serves)
    const src = new URL(frame.attributes.src, site.url);
    assert.equal(src.origin, site.origin);
    assert.equal(src.pathname, '/attention-lab-widgets/embed.html');
    const params = new URLSearchParams(src.hash.slice(1));
    assert.equal(params.get('view'), 'dot');
    assert.equal(params.get('dot_d'), '6');
    assert.match(iframe, /dot_d=6/);
    // the proposed height fits the view as measured in the app (its section body)
    const bodyHeight = await page.$eval('#section-dot .section-body', (e) => e.getBoundingClientRect().height);
    const height = Number(frame.attributes.height);
    assert.ok(height >= bodyHeight && height <= bodyHeight * 1.25 + 60, `iframe height ${height} for a ${bodyHeight} px view`);

    // Esc closes and gives the focus back to the button
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'embed-open');

    // the iframe's page, loaded as the snippet says, computes the same numbers
    // (the site's own embed.html: the same page as the kit's, which is only ever framed and so has
    // no favicon link; tests/e2e/embed-kit.test.mjs loads that one in its iframe on a blog)
    await site.load('', `/embed.html${src.hash}`);
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    await page.waitForFunction(() => {
      const out = document.querySelector('#dot-weights output.heatmap-data');
      return out instanceof HTMLOutputElement && out.value !== '' && out.dataset.shape === '3,5';
    });
    const embedWeights = await heatmapValues('dot-weights');
    assert.deepEqual(embedWeights, appWeights, 'weights heatmap values equal');
    assert.deepEqual(await heatmapValues('dot-output'), appOutput, 'output heatmap values equal');
    // and the embed page, at the app's width, fits into that height (no inner scrollbar)
    const embedHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(embedHeight <= height, `embed.html is ${embedHeight} px tall, the iframe ${height}`);
  });

  test('hostile URL text is escaped in the snippets and never becomes an element', async () => {
    await site.load(`#view=translate&translate_text=${encodeURIComponent(HOSTILE)}`);
    await page.click('#section-translate [data-testid="embed-open"]');
    await dialog().waitFor({ state: 'visible' });
    const script = await snippet('script');
    const iframe = await snippet('iframe');
    assert.ok(script.includes('translate_text="&lt;img src=x onerror=alert(1)&gt;"'), script);
    assert.ok(!script.includes('<img') && !iframe.includes('<img'), 'no raw tag in the snippets');
    assert.equal(await page.locator('[data-testid="embed-dialog"] img').count(), 0, 'the dialog holds no <img>');
    assert.equal(await page.locator('img[src="x"]').count(), 0, 'the page holds no injected <img>');
    // as a host page would read them: the text comes back whole, as an attribute value
    const [, widget] = await parseSnippet(script);
    assert.equal(widget.tag, 'seq2seq-demo');
    assert.equal(widget.attributes.translate_text, HOSTILE);
    const elements = await parseSnippet(iframe);
    assert.deepEqual(elements.map((e) => e.tag), ['iframe', 'script']);
    assert.equal(new URLSearchParams(new URL(elements[0].attributes.src, site.url).hash.slice(1)).get('translate_text'), HOSTILE);
    // a kit place that cannot go into a snippet is refused next to the field, never escaped into one
    const place = page.locator('[data-testid="embed-kit-place"]');
    await place.fill('./my "kit"/');
    assert.equal(await place.getAttribute('aria-invalid'), 'true');
    assert.match(await page.locator('#embed-kit-error').textContent(), /may not contain spaces, quotes/);
    assert.equal(await snippet('script'), '');
    await place.fill('../static/lab');
    assert.equal(await place.getAttribute('aria-invalid'), null);
    assert.match(await snippet('script'), /^<script src="\.\.\/static\/lab\/attention-lab-widgets\.js" defer>/);
    await page.click('[data-testid="embed-close"]');
    await dialog().waitFor({ state: 'hidden' });
  });

  test('Copy writes the snippet to the clipboard, or selects it and says to press Ctrl+C', async () => {
    await site.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
    await site.load('#view=why&seed=2');
    await page.click('#section-why [data-testid="embed-open"]');
    await dialog().waitFor({ state: 'visible' });
    const iframe = await snippet('iframe');
    await page.click('[data-testid="embed-copy-iframe"]');
    await page.waitForFunction(() => document.querySelector('.embed-snippet-iframe .embed-copy-status')?.textContent !== '');
    assert.equal(await page.locator('.embed-snippet-iframe .embed-copy-status').textContent(), 'Copied.');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), iframe);

    // a refusing clipboard: no error, the text is selected for Ctrl+C
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    const script = await snippet('script');
    await page.locator('[data-testid="embed-copy-script"]').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.embed-snippet-script .embed-copy-status')?.textContent !== '');
    assert.match(await page.locator('.embed-snippet-script .embed-copy-status').textContent(), /Ctrl\+C/);
    assert.equal(await page.evaluate(() => getSelection()?.toString()), script);

    // and no clipboard API at all
    await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true }));
    await page.click('[data-testid="embed-copy-iframe"]');
    await page.waitForFunction(() => /Ctrl\+C/.test(document.querySelector('.embed-snippet-iframe .embed-copy-status')?.textContent ?? ''));
    assert.equal(await page.evaluate(() => getSelection()?.toString()), iframe);

    await page.click('[data-testid="embed-close"]');
    await dialog().waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'embed-open');
  });

  test('while a section\'s dialog is open, the contents mark that section, even with its button below the reading line', async () => {
    await site.load('#seed=1');
    const marked = () => page.$eval('#toc [aria-current="true"]', (b) => b.dataset.section).catch(() => null);
    // §3.1's Embed button low on the screen (85% down), its section's top below the contents' reading
    // line (40% down): the contents mark the section above, §2
    await page.evaluate(() => {
      const button = document.querySelector('#section-dot [data-testid="embed-open"]');
      window.scrollBy({ top: button.getBoundingClientRect().top - 0.85 * window.innerHeight, behavior: 'instant' });
    });
    await page.waitForFunction(() => document.querySelector('#toc [aria-current="true"]')?.dataset.section === 'idea');
    const top = await page.$eval('#section-dot', (s) => s.getBoundingClientRect().top / window.innerHeight);
    assert.ok(top > 0.4 && top < 0.95, `§3.1 starts ${top.toFixed(2)} down the screen`);
    await page.click('#section-dot [data-testid="embed-open"]');
    await dialog().waitFor({ state: 'visible' });
    assert.equal(await marked(), 'dot', 'the contents behind the dialog mark the section it embeds');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.querySelector('#toc [aria-current="true"]')?.dataset.section === 'idea');
    // a figure's Export menu, Embed…: its first figure is about 780 px into §3.1, so on a tall screen
    // (2000 px) with §3.1's top 45% down
    await page.setViewportSize({ width: 1280, height: 2000 });
    await page.evaluate(() => {
      const section = document.querySelector('#section-dot');
      window.scrollBy({ top: section.getBoundingClientRect().top - 0.45 * window.innerHeight, behavior: 'instant' });
    });
    await page.waitForFunction(() => document.querySelector('#toc [aria-current="true"]')?.dataset.section === 'idea');
    await page.locator('#dot-scores .export-toggle').click();
    await page.locator('#dot-scores [data-export="embed"]').click();
    await dialog().waitFor({ state: 'visible' });
    assert.equal(await marked(), 'dot', "behind a figure's Embed dialog, the contents mark the figure's section");
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.querySelector('#toc [aria-current="true"]')?.dataset.section === 'idea');
  });
});
