// The architecture diagrams (web/src/diagrams/) and the positional-encoding figure, as a reader
// uses them: in §3.3 and §4 every part of the SVG is a named button and the SVG has a title and
// description in the page's language; hovering a view lights the parts it shows, stepping the
// decoding lights the step's path, and activating a part brings its view into sight and focus (at
// once when the reader asked for reduced motion). §4's diagram follows the settings (heads, pre- or
// post-norm). The figure of 我 爱 我: the two 我 rows of the self-attention output are equal without
// positions and differ with them, in English and Chinese; its sinusoid table holds
// sin/cos(pos / 10000^(2i/d)). At a phone's width (390, 320 px) both diagrams take their narrow
// layout, whole in the width with their text at a legible size. Export menus open at their button. Screenshots of §3.3 and §4 at
// 1280, 768 and 390 px in both languages go to test-artifacts/diagrams-<lang>-<width>-<section>.png.
// Needs `npm run build:web` first. Run: node --test tests/e2e/diagrams.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { artifactsDir, KEEP_SCREENSHOTS, keepScreenshot, useSite } from './harness.mjs';

const TR = '#section-translate .translate-section';
const TF = '#section-transformer .transformer-section';
const lit = (page, testId) => page.locator(`[data-testid=${testId}]`).evaluate((f) => f.dataset.lit ?? '');

describe('architecture diagrams and positional encoding', { timeout: 400_000 }, () => {
  let site;
  /** @type {import('playwright-core').Page} */
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const waitTranslated = async () => {
    await page.waitForFunction(() => document.querySelector('.translate-decode')?.dataset.modelStep !== undefined, null, { timeout: 90_000 });
    await page.waitForFunction(() => document.querySelector('.transformer-section')?.dataset.translatedAt !== undefined, null, { timeout: 90_000 });
  };

  test('§3.3: named parts; hover lights, stepping lights the path, a part goes to its view', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await site.load('#lang=en&seed=1');
    await waitTranslated();
    const fig = page.locator(`${TR} [data-testid=translate-diagram]`);
    assert.equal(await fig.locator('svg > title').textContent(), 'The encoder-decoder with attention');
    assert.match(await fig.locator('svg > desc').textContent(), /context vector/);
    // each part is named by the text it shows (or its label where it shows none) and described by what it does
    const parts = await fig.locator('[role=button]').evaluateAll((els) =>
      els.map((e) => [e.dataset.part, `${e.getAttribute('aria-label') ?? e.querySelector('text')?.textContent ?? ''} ${e.querySelector('desc')?.textContent ?? ''}`, e.getAttribute('tabindex')]),
    );
    assert.deepEqual(parts.map((p) => p[0]), ['enc', 'dec', 'scores', 'weights', 'context', 'output']);
    for (const [id, name, tabindex] of parts) {
      assert.ok(name && name.length > 10, `${id} has a name`);
      assert.equal(tabindex, '0', `${id} is a Tab stop`);
    }

    // hovering a view lights the parts it shows
    await page.locator(`${TR} figure#translate-attention`).hover();
    assert.equal(await lit(page, 'translate-diagram'), 'scores weights');
    await page.locator(`${TR} [data-testid=translate-source]`).hover();
    assert.equal(await lit(page, 'translate-diagram'), 'enc');
    await page.mouse.move(1, 1);

    // stepping: from the start nothing, then step 1's path and its attention in the weight cells
    await page.click(`${TR} [data-testid=translate-decode-restart]`);
    await page.mouse.move(1, 1); // off the decoding controls, which light the path while hovered
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-diagram]')?.dataset.lit === '');
    await page.click(`${TR} [data-testid=translate-decode-step]`);
    await page.mouse.move(1, 1);
    await page.waitForFunction(() => document.querySelector('[data-testid=translate-diagram]')?.dataset.lit === 'dec scores weights context output');
    const sourceCount = await page.locator(`${TR} [data-testid=translate-source] .translate-token`).count();
    const weights = await fig.locator('[data-part=weights] rect.lab-diagram-cell').evaluateAll((rs) => rs.map((r) => Number(r.style.fillOpacity)));
    assert.equal(weights.length, Math.min(8, sourceCount));
    assert.ok(weights.some((w) => w > 0.04), 'the cells carry the step’s weights');
    assert.match(await fig.locator('[data-part=dec] text').textContent(), /Decoder state s1/);

    // activating a part (keyboard) brings its view into sight and focus
    await fig.locator('[data-part=weights]').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'translate-attention');
    const box = await page.locator(`${TR} figure#translate-attention`).boundingBox();
    assert.ok(box && box.y < 900 && box.y + box.height > 0, 'the attention map is in sight');

    // with reduced motion, the jump is immediate (no smooth scroll)
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.evaluate(() => window.scrollTo(0, 0));
    await fig.locator('[data-part=enc]').scrollIntoViewIfNeeded();
    const before = await page.evaluate(() => scrollY);
    await fig.locator('[data-part=output]').click();
    const after = await page.evaluate(() => scrollY);
    assert.notEqual(after, before, 'the page moved at once');
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('translate-output-row')), true);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
  });

  test('§4: drawn from the settings; the maps light their kind of attention; a part opens its setting', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await site.load('#lang=en&seed=1&view=transformer');
    await page.waitForFunction(() => document.querySelector('.transformer-section')?.dataset.translatedAt !== undefined, null, { timeout: 90_000 });
    const fig = page.locator(`${TF} [data-testid=transformer-diagram]`);
    assert.equal(await fig.locator('svg > title').textContent(), 'The encoder-decoder Transformer');
    const labels = await fig.locator('[role=button][tabindex="0"]').evaluateAll((els) => els.map((e) => e.dataset.part));
    assert.deepEqual(labels, ['embed', 'norm', 'enc-self', 'residual', 'ff', 'dec-self', 'cross', 'out']);
    assert.match(await fig.locator('[data-part=cross] text').textContent(), /Cross-attention · 4 heads/);
    // pre-norm (the default): a norm sits under each sublayer; post-norm: above its ⊕
    const normUnder = () =>
      fig.evaluate((f) => {
        const y = (sel) => f.querySelector(sel).getBBox().y;
        return y('[data-part=norm]') > y('[data-part=enc-self]');
      });
    assert.equal(await normUnder(), true);

    for (const [kind, part] of [['encoder', 'enc-self'], ['decoder', 'dec-self'], ['cross', 'cross']]) {
      await page.locator(`${TF} [data-testid=transformer-grid-${kind}]`).hover();
      assert.equal(await lit(page, 'transformer-diagram'), part);
    }
    await page.locator(`${TF} [data-testid=transformer-panel-positions] summary`).click();
    await page.locator(`${TF} [data-testid=transformer-positional]`).hover();
    assert.equal(await lit(page, 'transformer-diagram'), 'embed');
    await page.locator(`${TF} [data-testid=transformer-panel-positions] summary`).click(); // closed again
    await page.mouse.move(1, 1);
    await page.click(`${TF} [data-testid=transformer-decode-restart]`);
    await page.click(`${TF} [data-testid=transformer-decode-step]`);
    await page.mouse.move(1, 1);
    await page.waitForFunction(() => document.querySelector('[data-testid=transformer-diagram]')?.dataset.lit === 'embed dec-self cross ff out');

    // the norm part opens the settings panel at the norm setting; switching to post-norm redraws
    await fig.locator('[data-part=norm]').first().click();
    await page.waitForFunction(() => document.activeElement?.dataset.testid === 'transformer-norm-first');
    assert.equal(await page.locator('details[data-testid=transformer-panel-settings]').evaluate((d) => d.open), true);
    await page.selectOption(`${TF} [data-testid=transformer-norm-first]`, '0');
    await page.waitForFunction(() => /transformer_norm_first=0/.test(location.hash));
    assert.equal(await normUnder(), false);
    await page.fill(`${TF} [data-testid=transformer-heads]`, '2');
    await page.dispatchEvent(`${TF} [data-testid=transformer-heads]`, 'change');
    await page.waitForFunction(() => /Cross-attention · 2 heads/.test(document.querySelector('[data-testid=transformer-diagram] [data-part=cross]')?.textContent ?? ''));
    // the embeddings part opens the positional encoding's panel and goes to the figure
    await fig.locator('[data-part=embed]').first().click();
    await page.waitForFunction(() => document.activeElement?.dataset.testid === 'transformer-positional');
    assert.equal(await page.locator('details[data-testid=transformer-panel-positions]').evaluate((d) => d.open), true);
  });

  for (const lang of ['en', 'zh']) {
    test(`${lang}: 我 爱 我 — equal rows without positions, different with them; the sinusoid table`, async () => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await site.load(`#lang=${lang}&seed=1&view=transformer&transformer_open_positions=1`); // the figure's panel, opened
      const pe = page.locator(`${TF} [data-testid=transformer-positional]`);
      await pe.waitFor();
      const rows = (testId) => page.locator(`${TF} [data-testid=${testId}] tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
      const without = await rows('transformer-pe-without');
      const withPositions = await rows('transformer-pe-with');
      assert.equal(without.length, 3);
      // each word is numbered by its position, as the table below numbers the rows added to it
      assert.deepEqual(await page.locator(`${TF} [data-testid=transformer-pe-with] tbody th`).allTextContents(), ['0 我', '1 爱', '2 我']);
      assert.deepEqual(without[0], without[2], 'without positions the two 我 rows are equal');
      assert.notDeepEqual(without[0], without[1]);
      assert.notDeepEqual(withPositions[0], withPositions[2], 'with positions the two 我 rows differ');
      assert.equal(Number(await page.locator(`${TF} [data-testid=transformer-pe-without]`).getAttribute('data-distance')), 0);
      assert.ok(Number(await page.locator(`${TF} [data-testid=transformer-pe-with]`).getAttribute('data-distance')) > 0.05);
      const verdicts = await pe.locator('.lab-positional-verdict').allTextContents();
      if (lang === 'en') assert.deepEqual([verdicts[0], verdicts[1].replace(/[\d.]+\.$/, 'N.')], ['Positions 0 and 2 (both 我): equal.', 'Positions 0 and 2 (both 我): differ, by up to N.']);
      else assert.deepEqual([verdicts[0], verdicts[1].replace(/[\d.]+。$/, 'N。')], ['位置 0 和位置 2（都是“我”）：相等。', '位置 0 和位置 2（都是“我”）：不同，最多相差 N。']);
      // the table: 6 positions × the demo's 8 dimensions of sin/cos(pos / 10000^(2i/d))
      await page.locator('#transformer-positions').scrollIntoViewIfNeeded();
      await page.waitForFunction(() => document.querySelector('#transformer-positions output.heatmap-data')?.value);
      const table = await page.evaluate(() => {
        const out = document.querySelector('#transformer-positions output.heatmap-data');
        return { shape: out.dataset.shape, values: JSON.parse(out.value) };
      });
      assert.equal(table.shape, '6,8');
      const flat = table.values.flat();
      for (const [pos, c] of [[1, 0], [3, 1], [5, 4], [2, 7]]) {
        const i = c - (c % 2);
        const angle = pos / 10000 ** (i / 8);
        const expected = c % 2 ? Math.cos(angle) : Math.sin(angle);
        assert.ok(Math.abs(flat[pos * 8 + c] - expected) < 1e-6, `PE(${pos}, ${c})`);
      }
    });
  }

  test('an export menu opens at its button', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await site.load('#lang=en&seed=1&transformer_open_positions=1'); // the positions figure's panel, opened
    await waitTranslated();
    for (const selector of ['#transformer-positions', `${TR} figure#translate-attention`, '#section-dot figure.heatmap', '#section-multihead figure.heatmap']) {
      const toggle = page.locator(`${selector} .export-toggle`).first();
      await toggle.scrollIntoViewIfNeeded();
      await toggle.click();
      const [t, l] = await Promise.all([toggle.boundingBox(), page.locator(`${selector} .export-list:not([hidden])`).first().boundingBox()]);
      assert.ok(l.y >= t.y + t.height - 1 && l.y <= t.y + t.height + 10, `${selector}: the menu opens just under its button`);
      const near = Math.min(Math.abs(l.x - t.x), Math.abs(l.x + l.width - (t.x + t.width)));
      assert.ok(near <= 2, `${selector}: the menu lines up with its button (${JSON.stringify({ t, l })})`);
      await page.keyboard.press('Escape');
    }
  });

  test("a field's error: the boxes beside it stay where they were, and it covers nothing below", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await site.load('#lang=en&seed=1&translate_open_settings=1&transformer_open_settings=1');
    await waitTranslated();
    for (const [input, value] of [[`${TR} [data-testid=translate-speed]`, '500'], [`${TR} [data-testid=translate-hidden]`, '9999'], [`${TF} [data-testid=transformer-heads]`, '3']]) {
      const others = () =>
        page.locator(input).evaluate((el) => {
          // relative to the row: whatever loads above it may move the whole page meanwhile
          const own = el.closest('.al-field');
          const row = el.closest('.al-controls');
          const top = row.getBoundingClientRect();
          const ownTop = Math.round(own.getBoundingClientRect().top - top.top);
          return [...row.querySelectorAll(':scope > *')].filter((f) => f !== own).map((f) => {
            const r = f.getBoundingClientRect();
            return { left: Math.round(r.left - top.left), top: Math.round(r.top - top.top), beside: Math.round(r.top - top.top) === ownTop };
          });
        });
      await page.locator(input).scrollIntoViewIfNeeded();
      const before = await others();
      await page.fill(input, value);
      await page.dispatchEvent(input, 'change');
      await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('aria-invalid') === 'true', input);
      assert.ok((await page.locator(input).evaluate((el) => el.closest('.al-field').querySelector('.lab-field-error').textContent)).length > 0);
      const after = await others();
      assert.deepEqual(
        after.filter((_, i) => before[i].beside),
        before.filter((f) => f.beside),
        `${input}: its message moved the boxes beside it`,
      );
      const covered = await page.locator(input).evaluate((el) => {
        const m = el.closest('.al-field').querySelector('.lab-field-error').getBoundingClientRect();
        const row = el.closest('.al-controls');
        return [...row.querySelectorAll('input, select, button'), row.nextElementSibling]
          .filter((o) => o && o !== el && o.getClientRects().length)
          .filter((o) => {
            const r = o.getBoundingClientRect();
            return m.left < r.right && r.left < m.right && m.top < r.bottom && r.top < m.bottom;
          })
          .map((o) => o.dataset.testid ?? o.className);
      });
      assert.deepEqual(covered, [], `${input}: its message covers what is below it`);
    }
  });

  for (const lang of ['en', 'zh']) {
    test(`${lang}: turned to a phone's width, both diagrams take their narrow layout: whole, text at its size, the step still lit`, async () => {
      await page.setViewportSize({ width: 1280, height: 900 });
      await site.load(`#lang=${lang}&seed=1`);
      await waitTranslated();
      await page.click(`${TR} [data-testid=translate-decode-restart]`);
      await page.click(`${TR} [data-testid=translate-decode-step]`);
      await page.mouse.move(1, 1);
      await page.waitForFunction(() => document.querySelector('[data-testid=translate-diagram]')?.dataset.lit === 'dec scores weights context output');
      // wide: a figure wider than a phone
      const fits = (testId) =>
        page.locator(`[data-testid=${testId}]`).evaluate((f) => {
          const svg = f.querySelector('svg').getBoundingClientRect();
          const box = f.getBoundingClientRect();
          // the size of the text on screen: the SVG's 12-unit labels scaled to its drawn width
          const scale = svg.width / f.querySelector('svg').viewBox.baseVal.width;
          return { narrow: f.classList.contains('narrow'), whole: f.scrollWidth <= f.clientWidth + 1 && svg.right <= box.right + 1, label: 12 * scale };
        });
      assert.equal((await fits('translate-diagram')).narrow, false);
      for (const width of [390, 320]) {
        await page.setViewportSize({ width, height: 844 });
        for (const id of ['translate-diagram', 'transformer-diagram']) {
          await page.waitForFunction((t) => document.querySelector(`[data-testid=${t}]`)?.classList.contains('narrow'), id);
          const f = await fits(id);
          assert.ok(f.whole, `${id} at ${width} px: the whole picture in the width`);
          assert.ok(f.label >= 9, `${id} at ${width} px: labels of ${f.label.toFixed(1)} px`);
        }
        assert.equal(await lit(page, 'translate-diagram'), 'dec scores weights context output', 'the step played is still lit');
        await site.screenshot(`diagrams-narrow-${lang}-${width}-translate`, { target: page.locator(`${TR} [data-testid=translate-diagram]`) });
        await site.screenshot(`diagrams-narrow-${lang}-${width}-transformer`, { target: page.locator(`${TF} [data-testid=transformer-diagram]`) });
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.waitForFunction(() => !document.querySelector('[data-testid=translate-diagram]')?.classList.contains('narrow'));
    });
  }

  // for people to look at: layout.test.mjs checks these sections at these widths (nothing sticks out
  // of its card, no box cut at the side)
  test('screenshots of §3.3 and §4 at three widths in both languages', { skip: !KEEP_SCREENSHOTS && 'LAB_SCREENSHOTS=0' }, async () => {
    for (const lang of ['en', 'zh']) {
      for (const width of [1280, 768, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await site.load(`#lang=${lang}&seed=1`);
        await waitTranslated();
        await page.evaluate(() => document.getElementById('toc')?.style.setProperty('visibility', 'hidden'));
        for (const id of ['translate', 'transformer']) {
          const card = page.locator(`section.article-section[data-section="${id}"]`);
          await card.scrollIntoViewIfNeeded();
          await page.waitForTimeout(200);
          await keepScreenshot(card, { path: `${artifactsDir}diagrams-${lang}-${width}-${id}.png` });
        }
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        assert.equal(overflow, 0, `${lang} ${width} px: nothing scrolls sideways`);
      }
    }
  });
});
