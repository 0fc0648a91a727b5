// The harness of the site A/Bs (bench/ab-first-heatmap.mjs, bench/ab-long-tasks.mjs): two builds
// of the site, each served by its own `vite preview`, one Chromium, loads interleaved A, B, B, A, …
// so that both see the same moments of a noisy machine.
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, LAUNCH_ARGS } from '../../tests/e2e/harness.mjs';
import { startPreview } from '../../scripts/serve.mjs';

/** `loads`: a whole number from 1 to 100 (a command-line argument, `fallback` when absent). */
export function loadsArgument(arg, fallback) {
  const loads = Number(arg ?? fallback);
  if (!Number.isInteger(loads) || loads < 1 || loads > 100) throw new Error('loads: a whole number from 1 to 100');
  return loads;
}

/**
 * Runs `load(browser, origin)` `loads` times on each of the builds in `distA` and `distB`,
 * interleaved; returns each build's results in order, [A's, B's].
 */
export async function interleavedLoads(distA, distB, loads, load) {
  const servers = [await startPreview({ dist: resolve(distA), port: 0 }), await startPreview({ dist: resolve(distB), port: 0 })];
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
  const results = [[], []];
  try {
    // A warm-up load of each (the files into the OS's cache, Chromium's first renderers), then
    // pairs in alternating order (A B, B A, …): a build loaded right after the other was
    // measured up to 8% faster than the other (the same build on both sides, A always first).
    for (const k of [0, 1]) await load(browser, new URL(servers[k].url).origin);
    for (let i = 0; i < loads; i++) {
      for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) results[k].push(await load(browser, new URL(servers[k].url).origin));
    }
  } finally {
    await browser.close();
    await Promise.all(servers.map((s) => s.close()));
  }
  return results;
}
