// axe-core (WCAG 2.0–2.2, levels A and AA) on every page of the built site: the article, the
// performance page, the iframe page and every widget page under examples/, in English and Chinese
// (the `lang` setting in the hash; a widget page in Chinese is the same page with <html lang="zh-CN">,
// which its widgets follow, or its own .zh.html; ZH_ELSEWHERE: five whose widgets are checked in
// Chinese on other pages), in the light and the dark colour scheme; after load
// (the page scrolled through, so every lazily started widget and section has drawn), and for the
// pages that train (the article's §3.3, §4 and §5, with one character generated, and the training
// widgets) after a few seconds of training. Any violation fails; the count per page is printed either way.
// Each page is loaded once and checked in both schemes: loaded in one, then with the system setting
// switched to the other (as a reader's phone does at dusk), so the page must follow the switch too.
// The pages are shared between two test files that run side by side: axe-light-first.test.mjs loads
// every other page in the light scheme, axe-dark-first.test.mjs the rest in the dark one.
// Needs a build (npm run build:web, or ATTENTION_LAB_DIST=<outDir>).
// Run: node --test tests/e2e/axe-light-first.test.mjs tests/e2e/axe-dark-first.test.mjs
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { ProblemCollector, scrollThrough, startSite } from './harness.mjs';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];


const EXAMPLES = readdirSync(new URL('../../web/examples/', import.meta.url)).filter((f) => f.endsWith('.html'));
/**
 * Example pages not also checked in Chinese (served with lang="zh-CN"): their widgets, in the same
 * modes, are checked in Chinese on attention-post.zh.html (the why, dot and self playgrounds, the
 * multi-head view) or test-one-live-heatmap.html (the self heatmap); index.html is a list of links.
 */
const ZH_ELSEWHERE = new Set(['index.html', 'test-below-fold.html', 'test-one-multihead.html', 'test-one-why.html', 'test-two-widgets.html']);
const TRAINING_WIDGETS = new Set(['test-one-seq2seq.html', 'test-one-seq2seq.zh.html', 'test-one-transformer.html', 'test-one-transformer.zh.html']);

/**
 * The matrix: { name, path, hash, lang ('en' | 'zh'), rewriteLang (serve the page with
 * <html lang="zh-CN">), train (what to train afterwards) }. A page with its own .zh.html twin is
 * run in its own language only.
 */
function pages() {
  const list = [];
  for (const lang of ['en', 'zh']) {
    list.push({ name: `article ${lang}`, path: '/', hash: `#lang=${lang}`, lang, train: 'article' });
    list.push({ name: `performance ${lang}`, path: '/performance.html', hash: `#lang=${lang}`, lang });
    list.push({ name: `embed translate ${lang}`, path: '/embed.html', hash: `#view=translate&lang=${lang}`, lang, train: 'widget' });
  }
  for (const file of EXAMPLES) {
    const zhTwin = EXAMPLES.includes(file.replace(/\.html$/, '.zh.html'));
    const isZh = file.endsWith('.zh.html');
    for (const lang of ['en', 'zh']) {
      if ((isZh && lang === 'en') || (zhTwin && lang === 'zh') || (lang === 'zh' && ZH_ELSEWHERE.has(file))) continue;
      list.push({
        name: `${file}${!isZh && lang === 'zh' ? ' (lang=zh-CN)' : ''}`,
        path: `/examples/${file}`,
        hash: '',
        lang,
        rewriteLang: lang === 'zh' && !isZh,
        train: TRAINING_WIDGETS.has(file) ? 'widget' : undefined,
      });
    }
  }
  return list;
}

/** Every widget on the page has settled (data-ready set), and the page has been quiet a moment. */
async function settle(page) {
  // a widget starts once it has been in view; a quick scroll on a busy machine can pass one between
  // two frames, so each that has not settled is brought into view in turn
  const showNext = () =>
    page.evaluate(() => {
      const next = [...document.querySelectorAll('*')].find((e) => e.localName.includes('-') && e.shadowRoot && e.dataset.ready === undefined);
      next?.scrollIntoView({ block: 'center' });
      return next !== undefined;
    });
  for (let i = 0; i < 20 && (await showNext()); i++) await page.waitForTimeout(500);
  await page
    .waitForFunction(
      () => [...document.querySelectorAll('*')].filter((e) => e.localName.includes('-') && e.shadowRoot).every((e) => e.dataset.ready !== undefined),
      undefined,
      { timeout: 60_000 },
    )
    .catch(async (err) => {
      // which widget, and whether it ever mounted (data-active is set once it has)
      const pending = await page.evaluate(() =>
        [...document.querySelectorAll('*')]
          .filter((e) => e.localName.includes('-') && e.shadowRoot && e.dataset.ready === undefined)
          .map((e) => `<${e.localName} ${[...e.attributes].map((a) => `${a.name}="${a.value}"`).join(' ')}>`),
      );
      throw new Error(`widgets not ready after 60 s: ${pending.join(', ')} (${err.message})`);
    });
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.waitForTimeout(500);
}

/**
 * Presses Pause if the run has not ended by itself: a Pause that has disabled itself (the recipe
 * finished within the wait) is left alone at once rather than waited on for the click's timeout.
 */
async function pauseIfRunning(pause) {
  if (await pause.isEnabled()) await pause.click({ timeout: 5_000 }).catch(() => {}); // it may end meanwhile
}

/** Trains for about `ms`: §3.3 and §4 in the article, each training widget (in its shadow root) elsewhere. */
async function train(page, kind, ms = 3000) {
  if (kind === 'article') {
    for (const [start, stop, section] of [['translate-play', 'translate-pause', '#section-translate .translate-section'], ['transformer-train', 'transformer-pause', '#section-transformer .transformer-section'], ['gpt-train', 'gpt-pause', '#section-gpt .gpt-section']]) {
      const button = page.locator(`[data-testid=${start}]`).first();
      await button.scrollIntoViewIfNeeded();
      await button.click();
      await page.waitForTimeout(ms);
      await pauseIfRunning(page.locator(`[data-testid=${stop}]`).first());
      await page.waitForFunction((s) => document.querySelector(s)?.dataset.playing === '0', section, { timeout: 60_000 });
    }
    // §5's generation figures (the candidates, the attention) appear with a first generated character
    await page.click('[data-testid=gpt-next]');
    await page.waitForFunction(() => document.querySelector('.gpt-generate')?.dataset.generated === '1', undefined, { timeout: 60_000 });
  } else {
    const button = page.locator('[data-testid=translate-play], [data-testid=transformer-train]').first();
    await button.scrollIntoViewIfNeeded();
    await button.click();
    await page.waitForTimeout(ms);
    await pauseIfRunning(page.locator('[data-testid=translate-pause], [data-testid=transformer-pause]').first());
    // the locator pierces the widget's shadow root, where its section marks whether it plays
    await page.locator('.translate-section[data-playing="0"], .transformer-section[data-playing="0"]').first().waitFor({ state: 'attached', timeout: 60_000 });
  }
  await page.waitForTimeout(1500); // the pause's evaluation, translation and redraw
}

/** axe in every frame of the page, run from the top one; the violations as plain objects. */
async function runAxe(page) {
  for (const frame of page.frames()) await frame.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    (tags) =>
      // eslint-disable-next-line no-undef
      axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }).then((r) =>
        r.violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.map((n) => ({ target: n.target.flat(Infinity).join(' >>> '), html: n.html.slice(0, 160), summary: n.failureSummary })),
        })),
      ),
    TAGS,
  );
  return violations;
}

/** The suite for the pages loaded in `firstScheme` (every other page), each then checked in the other scheme too. */
export function axeSuite(firstScheme) {
  const schemes = firstScheme === 'light' ? ['light', 'dark'] : ['dark', 'light'];
  const counts = [];
  describe(`axe-core, WCAG 2.2 AA, pages loaded in the ${firstScheme} scheme, then in the other`, { timeout: 1_800_000 }, () => {
    let site, context, page, problems;
    before(async () => {
      site = await startSite();
      context = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: firstScheme });
      page = await context.newPage();
      page.setDefaultTimeout(60_000);
      problems = new ProblemCollector();
      problems.attach(page, site.origin);
    });
    after(async () => {
      await context?.close();
      await site?.close();
    });

    /** axe in each scheme, the loaded one first, leaving the page in the scheme it was in. */
    async function inBothSchemes(order) {
      const result = {};
      for (const scheme of order) {
        await page.emulateMedia({ colorScheme: scheme });
        // the switch's redraws (the charts' and the widgets' colours follow the media query)
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await page.waitForTimeout(300);
        result[scheme] = await runAxe(page);
      }
      return result;
    }

    const share = pages().filter((_, i) => i % 2 === (firstScheme === 'light' ? 0 : 1));
    for (const spec of share) {
      test(`${spec.name}: no violations in either scheme after load${spec.train ? ' and after training' : ''}`, async () => {
        await page.unrouteAll();
        if (spec.rewriteLang) {
          await page.route(`${site.origin}${spec.path}`, async (route) => {
            const response = await route.fetch();
            const body = (await response.text()).replace(/<html lang="en">/, '<html lang="zh-CN">');
            await route.fulfill({ response, body });
          });
        }
        await page.emulateMedia({ colorScheme: firstScheme });
        problems.nextPage();
        await page.goto('about:blank');
        problems.nextPage();
        await page.goto(`${site.origin}${spec.path}${spec.hash}`, { waitUntil: 'load' });
        if (spec.path === '/') await page.waitForFunction(() => document.body.dataset.ready === 'true');
        await scrollThrough(page);
        await settle(page);
        const found = [];
        const loaded = await inBothSchemes(schemes);
        for (const scheme of schemes) found.push(...loaded[scheme].map((v) => ({ ...v, when: `load, ${scheme}` })));
        let trained = null;
        if (spec.train) {
          await train(page, spec.train);
          // the page is in the second scheme now: check it first, then the one it loaded in
          trained = await inBothSchemes([...schemes].reverse());
          for (const scheme of schemes) found.push(...trained[scheme].map((v) => ({ ...v, when: `trained, ${scheme}` })));
        }
        const nodes = (list) => list.reduce((a, v) => a + v.nodes.length, 0);
        const per = (r) => schemes.map((c) => `${c} ${String(nodes(r[c])).padStart(3)}`).join(' ');
        counts.push(`${spec.name.padEnd(52)} load: ${per(loaded)}${trained ? `  trained: ${per(trained)}` : ''}`);
        console.log(`axe ${counts.at(-1)}`);
        const report = found.map((v) => `[${v.when}] ${v.id} (${v.impact}, ${v.nodes.length}): ${v.help}\n${v.nodes.slice(0, 4).map((n) => `    ${n.target}\n      ${n.html}\n      ${n.summary?.split('\n').slice(0, 3).join(' | ')}`).join('\n')}`);
        problems.assertNone(`${spec.name}: the page reported problems`);
        assert.equal(found.length, 0, `${spec.name} (loaded ${firstScheme}): ${found.length} rules violated\n${report.join('\n')}`);
      });
    }
  });
  after(() => console.log(`axe violations (elements) per page, loaded ${firstScheme}:\n${counts.map((c) => `  ${c}`).join('\n')}`));
}
