// §3.3's play / pause / step: the model (and its plain companion, to the same step) train as
// streams inside the worker, with no request round trip per chunk, at most translate_speed steps per
// frame (60 frames a second); the page redraws at most 30 times a second (15 below 4 cores),
// decodes the sentence again every REDECODE_MS and evaluates every EVALUATE_EVERY steps. A run ends at the end of the recipe (playing again
// continues beyond it) or on pause. Scrolled away it trains on (a reader who starts it and reads on
// to §4 comes back to a trained model) but neither redraws nor decodes until it is back in view.
// The section (translate.ts) owns the models and the page; this file owns the running state.
import { errorText } from './dom';
import { Redraw } from '../redraw';
import { trainingRedrawMs } from './training-redraw';
import { timeLeftText } from './translate-text';
import { DivergedError, type TranslateTrainer } from './translate-train';

/** Held-out evaluation while playing, every this many steps (and at every pause). */
const EVALUATE_EVERY = 200;
/** While playing, the sentence is decoded again at most this often (the decoding shown is never far behind the model). */
const REDECODE_MS = 1000;
/** translate_speed is in steps per frame; the worker's throttle is in steps per second */
const FRAMES_PER_SECOND = 60;
/** playing on after the recipe: until paused */
const OPEN_ENDED_STEPS = 10_000_000;

/** What the player needs from the section. */
export interface PlayerHost {
  trainer(): TranslateTrainer;
  plain(): TranslateTrainer | null;
  /** translate_speed: steps per frame */
  speed(): number;
  t(key: string): string;
  evaluate(): Promise<void>;
  translate(): Promise<void>;
  /** decodes the sentence again with the model as it is now, while it trains */
  redecode(): void;
  render(): void;
  /** the section's error line ('' clears it) */
  showError(text: string): void;
}

export class TranslatePlayer {
  readonly #host: PlayerHost;
  playing = false;
  /** a training call or stream is running */
  busy = false;
  /** the current run's start (performance.now(), step), or null while not playing */
  runStart: { ms: number; step: number } | null = null;
  /** in view (the shell's IntersectionObserver says); off screen a run trains without drawing */
  #active = true;
  /** the redraws while playing (redraw.ts: 30 a second, 15 below 4 cores) */
  readonly #redraws: Redraw;
  #destroyed = false;
  /** the training streams while playing; #running settles when they have ended */
  #streams: Array<{ done: Promise<void>; stop(): void }> = [];
  #running: Promise<void> | null = null;

  constructor(host: PlayerHost) {
    this.#host = host;
    this.#redraws = new Redraw(() => this.#host.render(), { everyMs: trainingRedrawMs() });
  }

  /** While playing towards the recipe's end: the time left at the speed measured since play (after a second of it). */
  timeLeft(step: number, recipeSteps: number): string {
    const start = this.runStart;
    if (!this.playing || !start || step >= recipeSteps) return '';
    const seconds = (performance.now() - start.ms) / 1000;
    if (seconds < 1 || step <= start.step) return '';
    return timeLeftText(this.#host.t, recipeSteps - step, (step - start.step) / seconds);
  }

  setPlaying(playing: boolean): void {
    this.playing = playing;
    if (!playing) this.#stopStreams();
    if (playing) this.#host.showError('');
    this.#host.render();
    if (playing) this.#schedule();
    if (!playing) void this.#host.evaluate().then(() => this.#host.translate());
  }

  /** Off screen the run goes on without drawing; back in view it is drawn at once. */
  setActive(active: boolean): void {
    const back = active && !this.#active;
    this.#active = active;
    if (back && this.playing) this.#host.render();
  }

  async stepOnce(): Promise<void> {
    this.setPlaying(false);
    await this.#train(1, () => false);
    await this.#host.evaluate();
    await this.#host.translate();
  }

  destroy(): void {
    this.#destroyed = true;
    this.playing = false;
    this.#stopStreams();
    this.#redraws.stop();
  }

  /** Starts playing (the training streams) unless they already run. */
  #schedule(): void {
    if (this.#running || this.#destroyed || this.busy) return;
    this.#running = this.#run().finally(() => {
      this.#running = null;
      // played again (or scrolled back) while the last streams were ending
      if (this.playing && !this.#destroyed) this.#schedule();
    });
  }

  #stopStreams(): void {
    for (const stream of this.#streams) stream.stop();
  }

  #failed(err: unknown): void {
    this.playing = false;
    const text = err instanceof DivergedError ? `${this.#host.t('translate.diverged')} (${err.message})` : errorText(err);
    this.#host.showError(`${this.#host.t('error.prefix')}${text}`);
    void this.#host.translate();
  }

  async #run(): Promise<void> {
    const host = this.#host;
    const trainer = host.trainer();
    const plain = host.plain();
    const recipe = trainer.recipeSteps;
    const steps = trainer.step < recipe ? recipe - trainer.step : OPEN_ENDED_STEPS;
    const target = trainer.step + steps;
    const maxStepsPerSecond = host.speed() * FRAMES_PER_SECOND;
    let evaluatedBlock = Math.floor(trainer.step / EVALUATE_EVERY);
    // the first redecode comes at the first slice: the untrained decoding goes at once
    let redecodedAt = -Infinity;
    const onProgress = (): void => {
      if (trainer !== host.trainer()) return;
      redraw();
      if (this.#active && performance.now() - redecodedAt >= REDECODE_MS) {
        redecodedAt = performance.now();
        host.redecode();
      }
      const block = Math.floor(trainer.step / EVALUATE_EVERY);
      if (block > evaluatedBlock && trainer.step < recipe) {
        evaluatedBlock = block;
        void host.evaluate();
      }
    };
    this.busy = true;
    this.runStart = { ms: performance.now(), step: trainer.step };
    const redraw = (): void => {
      if (this.#active) this.#redraws.request();
    };
    this.#streams = [trainer.play(steps, { maxStepsPerSecond, onProgress })];
    if (plain && plain.step < target) this.#streams.push(plain.play(target - plain.step, { maxStepsPerSecond, onProgress: redraw }));
    try {
      await Promise.all(this.#streams.map((stream) => stream.done));
      // A pause can leave the plain model behind: it follows to the same step.
      if (plain && trainer === host.trainer() && plain.step < trainer.step) await plain.train(trainer.step - plain.step);
    } catch (err) {
      this.#stopStreams();
      if (trainer !== host.trainer()) return;
      this.#failed(err);
    } finally {
      this.#streams = [];
      this.busy = false;
      this.runStart = null;
      if (trainer === host.trainer()) {
        if (trainer.step >= target && this.playing) this.setPlaying(false);
        else host.render();
      }
    }
  }

  async #train(steps: number, shouldStop: () => boolean): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    const host = this.#host;
    const trainer = host.trainer();
    const plain = host.plain();
    try {
      await trainer.train(steps, shouldStop);
      // The plain model follows step for step, so the two are always compared at equal steps.
      if (plain && plain.step < trainer.step) await plain.train(trainer.step - plain.step);
    } catch (err) {
      if (trainer !== host.trainer()) return;
      this.#failed(err);
    } finally {
      this.busy = false;
      if (trainer === host.trainer()) host.render();
    }
  }
}
