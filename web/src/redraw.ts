// How the page redraws what has already been drawn once (a canvas's first draw is first-draw.ts's:
// it waits for the canvas to come near the screen). However often something asks, the work runs
// once, soon, and at most once per interval:
// - `{ everyMs }`: in a task of its own (a timeout). What a redraw changes (text, heatmaps, charts)
//   then draws in the next frame together, instead of one or two frames later, and the changes of
//   several figures never add up to one long task that would hold up the reader's input.
// - `{ frame: true }`: in the next animation frame, for a canvas repaint or a render that must land
//   in the frame being prepared.

export type RedrawTiming = { everyMs: number } | { frame: true };

export class Redraw {
  readonly #run: () => void;
  readonly #timing: RedrawTiming;
  /** cancels the pending timeout or animation frame; null when none is pending */
  #cancel: (() => void) | null = null;
  /** when the last run started (performance.now()), for `everyMs` */
  #last = -Infinity;
  #stopped = false;

  constructor(run: () => void, timing: RedrawTiming) {
    this.#run = run;
    this.#timing = timing;
  }

  /** Runs the redraw soon: once, however often this is called before it runs. */
  request(): void {
    if (this.#cancel || this.#stopped) return;
    const run = (): void => {
      this.#cancel = null;
      this.#last = performance.now();
      this.#run();
    };
    const timing = this.#timing;
    if ('frame' in timing) {
      const id = requestAnimationFrame(run);
      this.#cancel = () => cancelAnimationFrame(id);
    } else {
      // (a negative delay is none)
      const id = setTimeout(run, this.#last + timing.everyMs - performance.now());
      this.#cancel = () => clearTimeout(id);
    }
  }

  /** No more redraws (the owner is gone); a pending one is dropped. */
  stop(): void {
    this.#stopped = true;
    this.#cancel?.();
    this.#cancel = null;
  }
}
