// How the page redraws what has already been drawn once (a canvas's first draw is first-draw.ts's:
// it waits for the canvas to come near the screen). However often something asks, the work runs
// once, soon, and at most once per interval:
// - `{ everyMs }`: in a task of its own (a timeout). What a redraw changes (text, heatmaps, charts)
//   then draws in the next frame together, instead of one or two frames later, and the changes of
//   several figures never add up to one long task that would hold up the reader's input.
// - `{ frame: true }`: in the next animation frame, for a canvas repaint or a render that must land
//   in the frame being prepared.

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

export type RedrawTiming = { everyMs: number } | { frame: true };

export class Redraw {
  readonly #run: () => void;
  readonly #timing: RedrawTiming;
  /** the pending timeout or animation frame, or null */
  #pending: ReturnType<typeof setTimeout> | number | null = null;
  /** when the last run started (performance.now()), for `everyMs` */
  #last = -Infinity;
  #stopped = false;

  constructor(run: () => void, timing: RedrawTiming) {
    this.#run = run;
    this.#timing = timing;
  }

  /** Runs the redraw soon: once, however often this is called before it runs. */
  request(): void {
    if (this.#pending !== null || this.#stopped) return;
    const timing = this.#timing;
    if ('frame' in timing) {
      this.#pending = requestAnimationFrame(() => {
        this.#pending = null;
        this.#run();
      });
      return;
    }
    const wait = Math.max(0, this.#last + timing.everyMs - performance.now());
    this.#pending = setTimeout(() => {
      this.#pending = null;
      this.#last = performance.now();
      this.#run();
    }, wait);
  }

  /** No more redraws (the owner is gone); a pending one is dropped. */
  stop(): void {
    this.#stopped = true;
    if (this.#pending === null) return;
    if ('frame' in this.#timing) cancelAnimationFrame(this.#pending as number);
    else clearTimeout(this.#pending);
    this.#pending = null;
  }
}
