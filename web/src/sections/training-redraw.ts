// The interval of §3.3's and §4's Redraw (redraw.ts) while they train: apart from redraw.ts, which
// every heatmap's page loads and which needs none of it.

/**
 * How often a section redraws while its model trains in the worker (§3.3 and §4). The worker
 * reports after every ~16 ms slice; a redraw (the loss and accuracy charts in Chart.js, then style,
 * paint and the compositor's commit) takes about 20 ms of a core in Chromium, and the page's threads
 * share the machine's cores with the worker. So the interval depends on the cores:
 * - 4 or more: a core to spare for drawing, 30 redraws a second;
 * - fewer: 15 a second. On 2 cores at 30 a second the page's threads took 0.8 of a core, and the
 *   worker trained §3.3's dates at about 0.8× Node's speed; at 15, at about 0.9× (BENCHMARKS.md,
 *   "The page ÷ Node ratio while training").
 * 2 ms under the period, so that a redraw is never put off by a frame.
 */
export function redrawIntervalMs(cores: number | undefined): number {
  return (cores ?? 2) >= 4 ? 1000 / 30 - 2 : 1000 / 15 - 2;
}

/** the interval of a section's redraws while it trains, on this machine */
export const trainingRedrawMs = (): number => redrawIntervalMs(globalThis.navigator?.hardwareConcurrency);
