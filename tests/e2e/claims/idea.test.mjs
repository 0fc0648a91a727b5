// §2's claims (registry.mjs), in English and Chinese, on the default settings.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { useSite } from '../harness.mjs';
import { argmax, assertPrompt, claim, countedSection, fill, heatmap, row, text } from './claims-harness.mjs';

const SEC = '.idea-section';

describe('§2 claims', { timeout: 120_000 }, () => {
  let site;
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const section = countedSection(() => ({ site, page }), 'idea', SEC);
  const after = async (change) => {
    await section.after(change);
    return heatmap(page, 'idea-weights');
  };
  const open = async (lang) => {
    await section.open(lang);
    return heatmap(page, 'idea-weights');
  };
  const answers = () => page.locator(`${SEC} .idea-answers li`).allTextContents();
  async function setYours(values) {
    for (const [feature, value] of Object.entries(values)) {
      await after(async () => {
        await page.fill(`[data-testid=idea-q-${feature}]`, String(value));
        await page.dispatchEvent(`[data-testid=idea-q-${feature}]`, 'change');
      });
    }
    return heatmap(page, 'idea-weights');
  }

  claim('idea-sharpness', async (lang) => {
    const start = await open(lang);
    await assertPrompt(page, lang, 'idea.try.strength');
    const zero = await after(() => page.fill('[data-testid=idea-strength]', '0'));
    const names = [text(lang, 'idea.q.who'), text(lang, 'idea.q.where'), text(lang, 'idea.q.when'), text(lang, 'idea.q.doing')];
    const shown = await answers();
    for (let r = 0; r < 4; r++) {
      for (const w of row(zero, r)) assert.ok(Math.abs(w - 0.2) < 1e-6, `sharpness 0, ${names[r]}: ${row(zero, r)}`);
      assert.equal(shown[r], fill(text(lang, 'idea.answer.even'), { question: names[r], w: '0.20' }));
    }
    const six = await after(() => page.fill('[data-testid=idea-strength]', '6'));
    const picked = [0, 1, 2, 3].map((r) => argmax(row(six, r)));
    for (let r = 0; r < 4; r++) assert.ok(Math.max(...row(six, r)) > 0.9, `sharpness 6, ${names[r]}: ${row(six, r)}`);
    assert.equal(new Set(picked).size, 4, `each question picks its own word: ${picked}`);
    // the slider scales only the fixed questions: the reader's row is the same at 0, 4 and 6
    assert.deepEqual(row(zero, 4), row(start, 4));
    assert.deepEqual(row(six, 4), row(start, 4));
  });

  claim('idea-yours', async (lang) => {
    await open(lang);
    await assertPrompt(page, lang, 'idea.try.yours');
    const map = await setYours({ thing: 0, place: 2, time: 2 });
    const words = await page.locator(`${SEC} .idea-word`).allTextContents();
    const park = words.indexOf(lang === 'zh' ? '公园' : 'park');
    const saturday = words.indexOf(lang === 'zh' ? '周六' : 'Saturday');
    const yours = row(map, 4);
    assert.ok(Math.abs(yours[park] - yours[saturday]) < 1e-6, `even split: ${yours}`);
    yours.forEach((w, c) => c === park || c === saturday || assert.ok(w < yours[park] / 2, `${words[c]} ${w} against ${yours[park]}`));
    const quoted = (word) => fill(text(lang, 'idea.quoted'), { word });
    const split = fill(text(lang, 'idea.answer.split'), {
      question: text(lang, 'idea.q.yoursShort'),
      words: [park, saturday].sort((a, b) => a - b).map((c) => quoted(words[c])).join(text(lang, 'idea.and')),
      w: yours[park].toFixed(2),
    });
    assert.equal((await answers())[4], split);
  });

  claim('idea-meaning', async (lang) => {
    const start = await open(lang);
    const changed = await setYours({ person: 3 });
    for (let r = 0; r < 4; r++) assert.deepEqual(row(changed, r), row(start, r), 'the keys and the other questions stay');
    assert.notDeepEqual(row(changed, 4), row(start, 4), 'the changed query moves its own weights');
  });
});
