// §2 as a reader types into "Your question": each keystroke moves the weights and the answers while
// the box still has the focus (no Tab, no click elsewhere), and a number out of range is said at once;
// while a box is invalid, the answers are marked as those of the last valid question. In English and
// in Chinese. The questions' names label the map's rows whole ("Doing what?", not "Doing wha…") from
// 1280 to 320 px. Needs a build (npm run build:web). Run: node --test tests/e2e/idea.test.mjs
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { openSections } from './sections-harness.mjs';

const ROOT = '.idea-section';

describe('§2 your question, typed', { timeout: 120_000 }, () => {
  const env = openSections('idea');
  before(() => env.start());
  after(() => env.stop());
  afterEach(() => env.assertNoProblems());

  /** Clicks the box of `feature`, selects what it holds and types `text` (the box keeps the focus). */
  async function typeInto(feature, text) {
    const box = env.page.locator(`[data-testid=idea-q-${feature}]`);
    await box.click();
    await env.page.keyboard.press('Control+A');
    await env.page.keyboard.type(text);
    return box;
  }

  for (const [lang, park, saturday, person, kage] of [
    ['en', 'park', 'Saturday', /person.*10/, /“KaGe” \(1\.00\)/],
    ['zh', '公园', '周六', /人物.*10/, /“咖哥”（1\.00）/],
  ]) {
    test(`(${lang}) thing 0, place 2 and time 2 update the "Yours" row while typing; 10000 is refused while focused`, async () => {
      await env.loadOk(`#seed=1&lang=${lang}`, ROOT);
      const answers = env.page.locator(`${ROOT} .idea-answers li`).last();
      let count = await env.computeCount(ROOT);
      await typeInto('thing', '0');
      await env.waitComputed(ROOT, count);
      count = await env.computeCount(ROOT);
      await typeInto('place', '2');
      await env.waitComputed(ROOT, count);
      count = await env.computeCount(ROOT);
      const time = await typeInto('time', '2');
      await env.waitComputed(ROOT, count);
      assert.ok(await time.evaluate((e) => e.matches(':focus')), 'the time box still has the focus');
      assert.equal(await time.inputValue(), '2');
      const yours = await answers.textContent();
      assert.ok(yours.includes(park) && yours.includes(saturday) && /0\.40/.test(yours), `the answer follows the typing: ${yours}`);
      assert.ok(!(await env.page.locator(`${ROOT} .idea-stale`).isVisible()));

      const box = await typeInto('person', '10000');
      assert.ok(await box.evaluate((e) => e.matches(':focus')));
      assert.equal(await box.getAttribute('aria-invalid'), 'true');
      const message = env.page.locator(`${ROOT} [data-testid=field-error]`).first();
      assert.match(await message.textContent(), person);
      assert.ok(await env.page.locator(`${ROOT} .idea-stale`).isVisible(), 'the list is marked as the last valid question');
      assert.equal(await box.inputValue(), '10000', 'the typed text stays');
      // typing 10000 passed through 10, the last valid question: it attends to the person
      assert.match(await answers.textContent(), kage, 'the list keeps the last valid question (person 10)');

      await typeInto('person', '0');
      await env.page.waitForFunction(() => document.querySelector('.idea-section .idea-stale')?.hidden === true);
      assert.equal(await box.getAttribute('aria-invalid'), null);
    });
  }

  for (const lang of ['en', 'zh']) {
    test(`(${lang}) every question names its row of the map whole, in view, at 1280, 390 and 320 px`, async () => {
      try {
        for (const width of [1280, 390, 320]) {
          await env.page.setViewportSize({ width, height: 900 });
          await env.loadOk(`#seed=1&lang=${lang}`, ROOT);
          await env.page.locator('#idea-weights').scrollIntoViewIfNeeded();
          await env.page.waitForFunction(() => document.querySelector('#idea-weights output.heatmap-data')?.dataset.texts);
          const seen = await env.page.evaluate(() => {
            const fig = document.querySelector('#idea-weights');
            const box = fig.querySelector('.chart-box');
            return {
              // the names the screen reader's table gives the rows: the questions, whole
              names: [...fig.querySelectorAll('table.heatmap-table tbody th[scope=row]')].map((th) => th.textContent),
              rows: JSON.parse(fig.querySelector('output.heatmap-data').dataset.texts).filter((b) => b[0] === 'row'),
              view: [box.scrollLeft, box.scrollLeft + box.clientWidth],
            };
          });
          assert.equal(seen.names.length, 5);
          assert.deepEqual(seen.rows.map((b) => b[5]), seen.names, `${lang} ${width} px: the row labels as painted`);
          for (const [, x, , w, , text] of seen.rows) {
            assert.ok(x >= seen.view[0] - 1 && x + w <= seen.view[1] + 1, `${lang} ${width} px: "${text}" at [${x}, ${x + w}] outside the box's view [${seen.view}]`);
          }
        }
      } finally {
        await env.page.setViewportSize({ width: 1280, height: 900 });
      }
    });
  }
});
