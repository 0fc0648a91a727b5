// Which wasm build the page's worker loads for §5 (docs/build.md, "The FMA build"): in an engine
// with relaxed SIMD (Chromium) the GPT's FMA build, and the plain one never downloads; in an engine
// without it (Safari) the plain build, and the FMA file never downloads. Chromium has no switch
// left that turns relaxed SIMD off (--js-flags=--no-experimental-wasm-relaxed-simd changes nothing
// since it shipped), so the second case serves the worker's script with a first line that makes
// WebAssembly.validate refuse any module with relaxed_madd's opcode, as such an engine does.
// Needs a build (npm run build:web). Run: node --test tests/e2e/fma-choice.test.mjs
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useSite } from './harness.mjs';
import { wasmBuildOf } from './one-widget-pages.mjs';

const SEC = '.gpt-section';

/** An engine without relaxed SIMD, as far as validation goes: f32x4.relaxed_madd (0xfd 0x85 0x02) is invalid. */
const NO_RELAXED_SIMD = `{
  const validate = WebAssembly.validate;
  const relaxed = (b) => { const u = new Uint8Array(b.buffer ?? b, b.byteOffset ?? 0, b.byteLength); for (let i = 2; i < u.length; i++) if (u[i - 2] === 0xfd && u[i - 1] === 0x85 && u[i] === 0x02) return true; return false; };
  WebAssembly.validate = (bytes) => !relaxed(bytes) && validate(bytes);
}
`;

for (const [engine, withoutRelaxedSimd, expected] of [
  ['with relaxed SIMD', false, 'gpt_fma'],
  ['without relaxed SIMD', true, 'gpt'],
]) {
  describe(`§5 in an engine ${engine}`, { timeout: 300_000 }, () => {
    let site;
    useSite(async (s) => {
      site = s;
      if (withoutRelaxedSimd) {
        await s.context.route(/\/assets\/lab-worker-[\w-]+\.js$/, async (route) => {
          const response = await route.fetch();
          await route.fulfill({ response, body: NO_RELAXED_SIMD + (await response.text()) });
        });
      }
    });

    test(`trains on the ${expected} build, and the other GPT build is never fetched`, async () => {
      const page = site.page;
      const builds = [];
      const record = (request) => builds.push(wasmBuildOf(request.url()));
      page.context().on('request', record);
      try {
        await site.load('#view=gpt&lang=en&gpt_steps=10');
        await page.waitForFunction((s) => document.querySelector(s)?.dataset.samples === '1', SEC);
        await page.click('[data-testid=gpt-train]');
        await page.waitForFunction((s) => document.querySelector(s)?.dataset.evaluatedAt === '10', SEC, { timeout: 120_000 });
      } finally {
        page.context().off('request', record);
      }
      const gpt = builds.filter((b) => b?.startsWith('gpt'));
      assert.deepEqual(gpt, [expected], `the GPT builds fetched: ${gpt}`);
    });
  });
}
