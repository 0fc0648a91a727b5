// On a touch phone, §3.1's and §3.4's help says to tap (not only hover or focus), and a tap does
// what it says: a word tapped in the head view becomes the focus (the address's self_focus), in
// English and in Chinese. Needs a build (npm run build:web). Run: node --test tests/e2e/touch.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { usePhone, useSite } from './harness.mjs';

describe('touch wording and taps', { timeout: 120_000 }, () => {
  let site;
  useSite((s) => {
    site = s;
  });
  const phone = usePhone(() => site);

  for (const [lang, tap] of [
    ['en', /\btap\b/],
    ['zh', /轻触/],
  ]) {
    test(`(${lang}) §3.1 and §3.4 say tap; tapping a word of the head view chooses it`, async () => {
      const { page } = phone;
      await phone.open(`#view=dot&lang=${lang}`);
      await page.waitForSelector('.dot-section[data-state="ok"]');
      assert.match(await page.locator('.dot-section').innerText(), tap);
      await phone.open(`#view=self&lang=${lang}&seed=1`);
      await page.waitForSelector('.self-section[data-state="ok"]');
      assert.match(await page.locator('.self-head .self-help').innerText(), tap);
      const word = page.locator('.self-headview-token[data-index="2"]').first();
      await word.scrollIntoViewIfNeeded();
      const box = await word.boundingBox();
      await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForFunction(() => /self_focus=2(&|$)/.test(location.hash));
    });
  }
});
