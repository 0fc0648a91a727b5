// The harness's Chromium switches (harness.mjs, LAUNCH_ARGS). Chromium reads only the last
// --disable-features, so the harness repeats Playwright's own list before adding the address bar
// popups: this reads back, from chrome://version, which features a browser really runs without,
// for a launch with Playwright's defaults alone and for one with LAUNCH_ARGS.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { CHROMIUM, LAUNCH_ARGS } from './harness.mjs';

/** The features a browser launched with `args` runs without (its command-line variations). */
async function disabledFeatures(args) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args, timeout: 30_000 });
  try {
    const page = await browser.newPage();
    await page.goto('chrome://version/?show-variations-cmd');
    const text = await page.textContent('#variations-cmd');
    const match = /--disable-features="?([^"\s]*)"?/.exec(text ?? '');
    assert.ok(match, `chrome://version lists no --disable-features: ${text}`);
    return new Set(match[1].split(',').filter(Boolean));
  } finally {
    await browser.close();
  }
}

test('LAUNCH_ARGS keeps every feature Playwright disables, and disables the address bar popups', { skip: !existsSync(CHROMIUM) && `${CHROMIUM} not found` }, async () => {
  const withoutOurs = LAUNCH_ARGS.filter((arg) => !arg.startsWith('--disable-features='));
  const playwrights = await disabledFeatures(withoutOurs);
  const ours = await disabledFeatures(LAUNCH_ARGS);
  assert.ok(playwrights.size > 0, 'a default launch disables no features: the check would prove nothing');
  const lost = [...playwrights].filter((f) => !ours.has(f));
  assert.deepEqual(lost, [], `LAUNCH_ARGS re-enables what Playwright disables (update PLAYWRIGHT_DISABLED_FEATURES in harness.mjs): ${lost.join(', ')}`);
  for (const feature of ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']) assert.ok(ours.has(feature), `${feature} is still enabled`);
});
