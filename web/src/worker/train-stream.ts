// Continuous training inside the worker (LabApi's seq2seq.trainStream). Asked for in chunks, one
// call at a time, the worker would sit idle between an answer and the next call while the page
// redrew (training in the page then ran at about half of Node's speed). A stream trains slice after
// slice with no round trip: each slice (~sliceMs) reports its steps to the
// call's Progress, then the worker yields to its event loop, where a stop or another section's
// call is served, and goes on. Kept free of worker globals (clock, yield and sleep are injected)
// so the Node tests drive it with the real wasm module.
import type { Seq2Seq } from '#types/attention-lab';
import type { Progress, StreamLimits, TrainResult, TrainStreamEnd } from './protocol';

export interface StreamDeps {
  now(): number;
  /** lets queued messages run, without the 4 ms clamp of nested timers */
  yieldNow(): Promise<void>;
  sleep(ms: number): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** plain timers (Node's tests); the worker yields through messageChannelYield() instead */
const TIMERS: StreamDeps = { now: () => performance.now(), yieldNow: () => sleep(0), sleep };

/** Limits that keep a typo or a hostile URL from starting an endless or absurd stream. */
export const STREAM_LIMITS = { maxSteps: 10_000_000, minSliceMs: 1, maxSliceMs: 1000, defaultSliceMs: 16 };

/** Checks a stream's numbers; the Error names the field and the allowed range. */
export function validateStream(steps: number, limits: StreamLimits = {}): { steps: number; sliceMs: number; rate: number } {
  const { sliceMs = STREAM_LIMITS.defaultSliceMs, maxStepsPerSecond } = limits;
  if (!Number.isInteger(steps) || steps < 1 || steps > STREAM_LIMITS.maxSteps) {
    throw new Error(`trainStream: steps must be a whole number from 1 to ${STREAM_LIMITS.maxSteps}, got ${String(steps)}`);
  }
  if (typeof sliceMs !== 'number' || !(sliceMs >= STREAM_LIMITS.minSliceMs && sliceMs <= STREAM_LIMITS.maxSliceMs)) {
    throw new Error(`trainStream: sliceMs must be from ${STREAM_LIMITS.minSliceMs} to ${STREAM_LIMITS.maxSliceMs}, got ${String(sliceMs)}`);
  }
  if (maxStepsPerSecond !== undefined && !(typeof maxStepsPerSecond === 'number' && maxStepsPerSecond > 0 && Number.isFinite(maxStepsPerSecond))) {
    throw new Error(`trainStream: maxStepsPerSecond must be a positive number, got ${String(maxStepsPerSecond)}`);
  }
  return { steps, sliceMs, rate: maxStepsPerSecond ?? Infinity };
}

/** Steps of one slice, gathered across the slice's train() calls. */
class SliceSteps {
  losses: number[] = [];
  accuracy: number[] = [];
  step = 0;

  add(r: TrainResult): void {
    for (let i = 0; i < r.losses.length; i++) {
      this.losses.push(r.losses[i]);
      this.accuracy.push(r.tokenAccuracy[i]);
    }
    this.step = r.step;
  }

  result(): TrainResult {
    return { losses: Float32Array.from(this.losses), tokenAccuracy: Float32Array.from(this.accuracy), step: this.step };
  }
}

export class TrainStreams {
  readonly #deps: StreamDeps;
  /** running streams by the id of their call: set to true to stop */
  readonly #stopRequested = new Map<number, boolean>();
  /** measured milliseconds per step of each model (sizes the train() calls inside a slice) */
  readonly #msPerStep = new WeakMap<Seq2Seq, number>();

  constructor(deps: StreamDeps = TIMERS) {
    this.#deps = deps;
  }

  get running(): number {
    return this.#stopRequested.size;
  }

  /** Stops stream `id` after its current slice; false if it is not running. */
  stop(id: number): boolean {
    if (!this.#stopRequested.has(id)) return false;
    this.#stopRequested.set(id, true);
    return true;
  }

  /** Trains `model` for the call that `progress` reports to, to the stream's end. */
  async run(progress: Progress<[TrainResult, number]>, model: Seq2Seq, steps: number, limits: StreamLimits): Promise<TrainStreamEnd> {
    const checked = validateStream(steps, limits);
    this.#stopRequested.set(progress.id, false);
    try {
      return await this.#loop(progress, model, checked);
    } finally {
      this.#stopRequested.delete(progress.id);
    }
  }

  async #loop(progress: Progress<[TrainResult, number]>, model: Seq2Seq, { steps, sliceMs, rate }: ReturnType<typeof validateStream>): Promise<TrainStreamEnd> {
    const { now, yieldNow, sleep } = this.#deps;
    const start = now();
    let done = 0;
    while (done < steps) {
      if (this.#stopRequested.get(progress.id)) return { steps: done, stopped: true };
      // The throttle: no more steps than the rate allows by now (at least one step per wait).
      const allowed = rate === Infinity ? steps : Math.min(steps, Math.floor(((now() - start) / 1000) * rate) + 1);
      if (allowed <= done) {
        await sleep(Math.max(1, ((done + 1) / rate) * 1000 - (now() - start)));
        continue;
      }
      const t0 = now();
      const slice = this.#slice(model, allowed - done, sliceMs);
      const ms = now() - t0;
      done += slice.losses.length;
      progress.report(slice.result(), ms);
      await yieldNow();
    }
    return { steps: done, stopped: false };
  }

  /** Trains up to `maxSteps` steps for about `sliceMs`; a divergence rethrows with the slice's steps as `completed`. */
  #slice(model: Seq2Seq, maxSteps: number, sliceMs: number): SliceSteps {
    const { now } = this.#deps;
    const slice = new SliceSteps();
    const t0 = now();
    let left = maxSteps;
    do {
      const msPerStep = this.#msPerStep.get(model) ?? 5;
      const remaining = sliceMs - (now() - t0);
      const chunk = Math.max(1, Math.min(left, Math.floor(remaining / msPerStep)));
      const t1 = now();
      try {
        slice.add(model.train(chunk));
      } catch (err) {
        const completed = (err as { completed?: TrainResult }).completed;
        if (completed) {
          slice.add(completed);
          (err as { completed?: TrainResult }).completed = slice.result();
        }
        throw err;
      }
      const measured = Math.max(0.01, (now() - t1) / chunk);
      this.#msPerStep.set(model, 0.5 * msPerStep + 0.5 * measured);
      left -= chunk;
    } while (left > 0 && now() - t0 < sliceMs);
    return slice;
  }
}

/** A zero-delay yield for workers: a MessageChannel message runs after queued events, unclamped. */
export function messageChannelYield(): () => Promise<void> {
  const channel = new MessageChannel();
  const waiting: Array<() => void> = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(null);
    });
}
