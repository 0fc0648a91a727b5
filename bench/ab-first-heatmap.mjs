// A/B of two builds of the site on the first-heatmap measure (bench/lib/browser.mjs): each build
// served by its own `vite preview`, one Chromium, loads interleaved A, B, A, B, … so that both see
// the same moments of a noisy machine; prints the median and every load, in ms after navigation.
//
//   npx vite build --config web/vite.config.ts --outDir /tmp/site-before   (on the "before" tree)
//   npm run build:web                                                       (the "after" tree → dist/)
//   node bench/ab-first-heatmap.mjs /tmp/site-before dist '/#view=dot' '#section-dot .heatmap canvas' [loads]
//
// A widget page (a path under /examples/) is probed inside the widgets' shadow roots.
import { gotoFirstHeatmap, openProbedContext } from '../scripts/page-probe.mjs';
import { table } from './lib/common.mjs';
import { interleavedLoads, loadsArgument } from './lib/site-ab.mjs';

const [distA, distB, path, selector, loadsArg] = process.argv.slice(2);
if (!distA || !distB || !path || !selector) {
  throw new Error('usage: node bench/ab-first-heatmap.mjs <before dist> <after dist> <path> <canvas selector> [loads]');
}
const loads = loadsArgument(loadsArg, 9);

const times = await interleavedLoads(distA, distB, loads, async (browser, origin) => {
  const { context } = await openProbedContext(browser, { heatmapSelector: selector, inWidgets: path.startsWith('/examples/') });
  try {
    const page = await context.newPage();
    return await gotoFirstHeatmap(page, `${origin}/${path.replace(/^\//, '')}`);
  } finally {
    await context.close();
  }
});
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
const ms = (v) => String(Math.round(v));
table(`A/B: navigation → first heatmap of ${path} (${loads} loads each, interleaved)`, `A: ${distA}; B: ${distB}.`,
  ['build', 'median ms', 'every load (ms)'],
  [['A (before)', ms(median(times[0])), times[0].map(ms).join(' ')], ['B (after)', ms(median(times[1])), times[1].map(ms).join(' ')],
    ['B ÷ A', (median(times[1]) / median(times[0])).toFixed(2), '']]);
