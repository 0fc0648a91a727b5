// §3.1–3.2's claims (registry.mjs), in English and Chinese, on the default settings.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { openPanel, useSite } from '../harness.mjs';
import { argmax, assertPrompt, claim, countedSection, heatmap, row } from './claims-harness.mjs';

const SEC = '.dot-section';

describe('§3.1–3.2 claims', { timeout: 120_000 }, () => {
  let site;
  let page;
  useSite((s) => {
    site = s;
    page = s.page;
  });

  const { after, open } = countedSection(() => ({ site, page }), 'dot', SEC);
  const editor = (cls) => page.$$eval(`${SEC} table.${cls} input`, (inputs) => inputs.map((i) => Number(i.value)));
  const meanRowMax = (map) => {
    let sum = 0;
    for (let r = 0; r < map.shape[0]; r++) sum += Math.max(...row(map, r));
    return sum / map.shape[0];
  };
  const sweep = async (d) => {
    await page.waitForFunction((n) => document.querySelector('.dot-sweep-data')?.getAttribute('data-d') === String(n), d);
    return JSON.parse(await page.locator('.dot-sweep-data').evaluate((o) => o.value));
  };

  claim('dot-hover', async (lang) => {
    await open(lang);
    await assertPrompt(page, lang, 'dot.try.hover');
    await page.locator('#dot-weights canvas').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((s) => document.querySelector(s)?.dataset.linked === '1,2', SEC, { timeout: 10_000 });
    assert.equal(await page.locator(`${SEC} table.dot-query tr.matrix-row-linked th`).textContent(), 'q2');
    assert.equal(await page.locator(`${SEC} table.dot-key tr.matrix-row-linked th`).textContent(), 'k3');
    const arithmetic = (await page.locator('[data-testid="dot-link"]').textContent()) ?? '';
    assert.match(arithmetic, /q2·k3 = /);
    const weight = row(await heatmap(page, 'dot-weights'), 1)[2];
    assert.ok(arithmetic.includes(weight.toFixed(4)), `${weight} in ${arithmetic}`);
  });

  claim('dot-cell', async (lang) => {
    await open(lang);
    await assertPrompt(page, lang, 'dot.try.cell');
    await after(() => page.locator(`${SEC} table.dot-query input`).first().fill('5'));
    const k = await editor('dot-key');
    const d = k.length / 5;
    const firsts = [0, 1, 2, 3, 4].map((j) => k[j * d]);
    const top = argmax(firsts);
    assert.ok(firsts[top] > 0, `some key has a positive first number: ${firsts}`);
    const q1 = row(await heatmap(page, 'dot-weights'), 0);
    assert.equal(argmax(q1), top, `q1's weights ${q1} against the keys' first numbers ${firsts}`);
    assert.ok(q1[top] > 0.5, `q1 piles onto k${top + 1}: ${q1}`);
  });

  claim('dot-scale', async (lang) => {
    await open(lang);
    await assertPrompt(page, lang, 'dot.try.scale');
    const before = meanRowMax(await heatmap(page, 'dot-weights'));
    const selects = page.locator(`${SEC} .al-controls select`);
    await after(() => selects.nth(0).selectOption('dot'));
    const sharper = meanRowMax(await heatmap(page, 'dot-weights'));
    assert.ok(sharper > before + 0.05, `dot: mean largest weight ${sharper} against ${before} scaled, the default`);
    await openPanel(page, 'dot-panel-sweep'); // the sweep sits in its panel, as a reader finds it
    const at64 = await sweep(64);
    await page.locator('.dot-sweep-slider').fill('90'); // 2^9
    const at512 = await sweep(512);
    assert.ok(at512.unscaled.maxWeight > 0.9, `unscaled at 512: ${at512.unscaled.maxWeight}`);
    assert.ok(at512.unscaled.maxWeight > at64.unscaled.maxWeight, `unscaled: 64 ${at64.unscaled.maxWeight}, 512 ${at512.unscaled.maxWeight}`);
    assert.ok(Math.abs(at512.scaled.maxWeight - at64.scaled.maxWeight) < 0.1, `scaled: 64 ${at64.scaled.maxWeight}, 512 ${at512.scaled.maxWeight}`);
    // the intro's saturation: entropy towards 0 and a vanishing gradient, unscaled only
    assert.ok(at512.unscaled.entropy < at64.unscaled.entropy && at512.unscaled.entropy < 0.4, `entropy ${at512.unscaled.entropy}`);
    assert.ok(at512.unscaled.jacobian < at512.scaled.jacobian / 2, `gradient ${at512.unscaled.jacobian} vs ${at512.scaled.jacobian}`);
    console.log(`# dot-scale ${lang}: mean largest weight, scaled ${before.toFixed(3)} → dot ${sharper.toFixed(3)}; unscaled max weight 64: ${at64.unscaled.maxWeight.toFixed(3)}, 512: ${at512.unscaled.maxWeight.toFixed(3)}; scaled ${at64.scaled.maxWeight.toFixed(3)} → ${at512.scaled.maxWeight.toFixed(3)}; entropy ${at512.unscaled.entropy.toFixed(3)}`);
  });
});
