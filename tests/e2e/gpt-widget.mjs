// §5 as a blogger's reader meets it in a <gpt-demo> (or the kit's iframe): the poems arrive, a short
// run trains, and the text grows one character at a time with the step's candidates and attention.
// Shared by the kit's journey (embed-kit.test.mjs) and the Standalone HTML test (standalone.test.mjs).
import assert from 'node:assert/strict';

/**
 * Trains `steps` steps in the widget or frame `scope` (a Playwright locator or frame locator), then
 * generates `chars` characters with Next character and, with `write`, the rest of the poem with
 * Write the poem; returns the text and the last step's heatmaps.
 */
export async function gptTrainsAndGenerates(scope, { steps = 10, chars = 2, write = false } = {}) {
  const section = scope.locator('.gpt-section');
  await scope.locator('.gpt-section[data-samples="1"]').waitFor({ timeout: 120_000 }); // the poems and the model at step 0
  assert.match(await scope.locator('[data-testid=gpt-corpus]').textContent(), /242 poems/, 'the corpus line counts the poems (the regular ones of the Tang poems)');
  const settings = scope.locator('details[data-testid=gpt-panel-settings]');
  if (!(await settings.evaluate((d) => d.open))) await settings.locator(':scope > summary').click();
  await scope.locator('[data-testid=gpt-steps]').fill(String(steps));
  await scope.locator('[data-testid=gpt-steps]').dispatchEvent('change');
  await scope.locator('[data-testid=gpt-train]').click();
  await scope.locator(`.gpt-section[data-evaluated-at="${steps}"][data-playing="0"]`).waitFor({ timeout: 180_000 });
  assert.equal(await section.getAttribute('data-samples'), '2', 'a sample at step 0 and at the end');
  for (let n = 1; n <= chars; n++) {
    await scope.locator('[data-testid=gpt-next]').click();
    await scope.locator(`.gpt-generate[data-generated="${n}"]`).waitFor();
  }
  if (write) {
    await scope.locator('[data-testid=gpt-write]').click();
    await scope.locator(`.gpt-generate:not([data-generated="${chars}"])`).waitFor();
  }
  const text = await scope.locator('[data-testid=gpt-text]').textContent();
  const cells = await scope.locator('.gpt-generate output.heatmap-data').evaluateAll((os) => os.map((o) => o.value));
  assert.equal(cells.length, 2, 'the candidates and the attention');
  for (const value of cells) assert.ok(JSON.parse(value).length > 0, `a heatmap drew no numbers: ${value}`);
  return { text, cells };
}
