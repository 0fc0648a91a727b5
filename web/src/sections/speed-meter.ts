// The speed of a training run, for the question §1 and §4 ask before a long run. One sample is too noisy: on a
// busy machine (another section training in the same worker, the page's first drawing, a build in
// the background) a run's first second once went ten times slower than the rest. So the run is
// measured in windows of WINDOW_MS by the wall clock (what the reader waits for), and the speed a
// decision rests on is the fastest of at least MIN_WINDOWS of them: one slow window cannot make a
// run that finishes within a minute look long, and a machine slow in every window still is found
// out after MIN_WINDOWS windows. Free of the page (the clock is injected) so the unit tests drive it.

/**
 * A run longer than this (at the measured speed) asks before it carries on: well over a minute,
 * so that the shorter run it offers (ABOUT_A_MINUTE_SECONDS) saves at least a fifth of the wait.
 * Asking pauses the run, so a question about a few seconds costs a reader who has scrolled on a
 * model that never trained.
 */
export const LONG_RUN_SECONDS = 75;
/** What the shorter run the question offers takes. */
export const ABOUT_A_MINUTE_SECONDS = 60;
/** One measuring window. */
export const WINDOW_MS = 1000;
/** Windows measured before a run is judged long. */
export const MIN_WINDOWS = 2;

export class SpeedMeter {
  readonly #now: () => number;
  /** where the window being measured started: clock and step (null: no run) */
  #window: { ms: number; step: number } | null = null;
  #best = Infinity;
  #latest: number | null = null;
  /** windows measured in this run */
  windows = 0;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** A run starts at `step`: the measuring starts over. */
  start(step: number): void {
    this.#window = { ms: this.#now(), step };
    this.#best = Infinity;
    this.#latest = null;
    this.windows = 0;
  }

  /** The run reached `step`: closes the window once it has lasted WINDOW_MS and trained a step. */
  record(step: number): void {
    const window = this.#window;
    if (!window) return;
    const now = this.#now();
    const ms = now - window.ms;
    if (ms < WINDOW_MS || step <= window.step) return;
    const perStep = ms / (step - window.step);
    this.#latest = perStep;
    this.#best = Math.min(this.#best, perStep);
    this.windows++;
    this.#window = { ms: now, step };
  }

  /** ms per step of the last window (the time left while running), null before the first. */
  get latest(): number | null {
    return this.#latest;
  }

  /** ms per step a decision rests on: the fastest window, once MIN_WINDOWS were measured; else null. */
  get settled(): number | null {
    return this.windows >= MIN_WINDOWS ? this.#best : null;
  }

  /** The fastest window so far (the estimate of the next run), null before the first. */
  get best(): number | null {
    return this.windows > 0 ? this.#best : null;
  }
}

/** Whether a run that takes `seconds` more is long enough to ask before it carries on (over LONG_RUN_SECONDS). */
export function isLongWait(seconds: number): boolean {
  return seconds > LONG_RUN_SECONDS;
}

/** Whether `stepsLeft` steps at `msPerStep` make a long wait (false while the speed is unknown). */
export function isLongRun(msPerStep: number | null, stepsLeft: number): boolean {
  return msPerStep !== null && isLongWait((stepsLeft * msPerStep) / 1000);
}
