// How often a section redraws while its model trains in the worker (§3.3 and §4). The worker
// reports after every ~16 ms slice; the page redraws at most once per interval, however often it
// is asked. A redraw (the loss and accuracy charts in Chart.js, then style, paint and the
// compositor's commit) takes about 20 ms of a core in Chromium, and the page's threads share the
// machine's cores with the worker. So the interval depends on the cores:
// - 4 or more: a core to spare for drawing, 30 redraws a second;
// - fewer: 15 a second. On 2 cores at 30 a second the page's threads took 0.8 of a core, and the
//   worker trained §3.3's dates at about 0.8× Node's speed; at 15, at about 0.9× (BENCHMARKS.md,
//   measure 5).

/** The interval in ms: 2 ms under the period, so that a redraw is never put off by a frame. */
export function redrawIntervalMs(cores: number | undefined): number {
  return (cores ?? 2) >= 4 ? 1000 / 30 - 2 : 1000 / 15 - 2;
}

/**
 * Calls `redraw` soon after soon() is called, at most once per interval. In a task of its own, not
 * an animation-frame callback: the heatmaps and charts that the redraw changes then draw in the
 * next frame with it, instead of one or two frames later (each frame a style, layout, paint and
 * commit of its own).
 */
export class RedrawPacer {
  readonly #redraw: () => void;
  readonly #intervalMs: number;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #last = -Infinity;
  #stopped = false;

  constructor(redraw: () => void, intervalMs = redrawIntervalMs(globalThis.navigator?.hardwareConcurrency)) {
    this.#redraw = redraw;
    this.#intervalMs = intervalMs;
  }

  soon(): void {
    if (this.#timer !== null || this.#stopped) return;
    const wait = Math.max(0, this.#last + this.#intervalMs - performance.now());
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#last = performance.now();
      this.#redraw();
    }, wait);
  }

  /** No more redraws (the section is gone). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
