// The §1 experiment in the worker: a plain and an attention Seq2Seq (identical but for `attention`)
// take turns at small train() calls on the reverse task; between turns one (model, length) cell
// of the accuracy-against-length table is re-evaluated on fixed fresh strings, so the chart moves
// every few hundred ms. Each worker call is kept near CALL_BUDGET_MS by sizing the train chunks
// from the measured time per step. Chunking does not change the numbers: train(a) then train(b)
// is bit-identical to train(a + b), so a seed gives the same curves on every run.
import type { CellName, Seq2SeqConfig } from '#types/seq2seq';
import type { LabClient, RemoteSeq2Seq } from '../worker/protocol';
import { SpeedMeter } from './speed-meter';

const mean = (xs: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return xs.length ? s / xs.length : NaN;
};

export interface WhySettings {
  cell: CellName;
  hidden: number;
  maxLen: number;
  steps: number;
  seed: number;
}

export interface WhySnapshot {
  step: number;
  total: number;
  lengths: number[];
  /** token accuracy per length; null until evaluated */
  plain: (number | null)[];
  attention: (number | null)[];
  exactPlain: (number | null)[];
  exactAttention: (number | null)[];
  lossPlain: number;
  lossAttention: number;
  /**
   * token accuracy at the longest length by the letter's position in the input (front first:
   * reversing, the decoder writes source letter i at target position length − 1 − i); null until
   * evaluated
   */
  lettersPlain: number[] | null;
  lettersAttention: number[] | null;
  /** trained all steps and evaluated every cell afterwards */
  done: boolean;
}

const CALL_BUDGET_MS = 50;
/** strings per length evaluated (the same for both models) */
export const WHY_EVAL_COUNT = 40;
const EVAL_SEED = 1;
/** Reverse needs a higher rate than the note's 1e-3 to show the gap within a minute (see tests/wasm/long-sequence.test.mjs). */
const LEARNING_RATE = 1e-2;

/** 5, 10, 20, 30, … up to maxLen (maxLen itself always included). */
export function whyLengths(maxLen: number): number[] {
  const out = [5, 10];
  for (let l = 20; l < maxLen; l += 10) out.push(l);
  out.push(maxLen);
  return [...new Set(out.filter((l) => l <= maxLen))];
}

export function whyConfig(s: WhySettings, attention: boolean): Seq2SeqConfig {
  return {
    task: 'reverse',
    taskOptions: { minLen: 5, maxLen: s.maxLen, train: 5000, heldOut: 100 },
    cell: s.cell,
    hidden: s.hidden,
    embedding: Math.max(8, Math.round(s.hidden / 2)),
    attention,
    score: 'dot',
    seed: s.seed,
    batchSize: 32,
    learningRate: LEARNING_RATE,
    clipNorm: 1,
  };
}

export class WhyRun {
  readonly #lab: LabClient;
  readonly #settings: WhySettings;
  #onUpdate: (s: WhySnapshot) => void;
  #onError: (err: unknown) => void;
  #models: [RemoteSeq2Seq, RemoteSeq2Seq] | null = null;
  #running = false;
  #looping = false;
  #destroyed = false;
  #msPerStep = [40, 60];
  #nextLength = 0;
  /** lengths evaluated (both models) since the last training step: a full sweep after the end marks done */
  #lengthsAfterEnd = 0;
  readonly #snap: WhySnapshot;
  /**
   * The loop's speed by the wall clock (training and evaluation: what the reader waits for), the
   * fastest of its one-second windows (speed-meter.ts): the first turns pay for the wasm's warm-up,
   * and a page busy mounting its sections once made a run's first seconds five times slower than
   * the rest, so a mean over them asked about a five-minute run that took one.
   */
  readonly #meter = new SpeedMeter();

  constructor(lab: LabClient, settings: WhySettings, onUpdate: (s: WhySnapshot) => void, onError: (err: unknown) => void) {
    this.#lab = lab;
    this.#settings = settings;
    this.#onUpdate = onUpdate;
    this.#onError = onError;
    const lengths = whyLengths(settings.maxLen);
    const empty = () => lengths.map(() => null);
    this.#snap = {
      step: 0,
      total: settings.steps,
      lengths,
      plain: empty(),
      attention: empty(),
      exactPlain: empty(),
      exactAttention: empty(),
      lossPlain: NaN,
      lossAttention: NaN,
      lettersPlain: null,
      lettersAttention: null,
      done: false,
    };
  }

  get settings(): Readonly<WhySettings> {
    return this.#settings;
  }

  /** Reports to another view from now on (the section re-mounted in the other language adopted this run). */
  listen(onUpdate: (s: WhySnapshot) => void, onError: (err: unknown) => void): void {
    this.#onUpdate = onUpdate;
    this.#onError = onError;
  }

  get running(): boolean {
    return this.#running;
  }

  get snapshot(): WhySnapshot {
    return this.#snap;
  }

  /** Measured seconds per training step of both models together (evaluations included); null until measured. */
  get secondsPerStep(): number | null {
    const ms = this.#meter.settled;
    return ms === null ? null : ms / 1000;
  }

  /** Seconds the rest of the run takes at the measured speed; null before a measurement. */
  get secondsLeft(): number | null {
    const perStep = this.secondsPerStep;
    return perStep === null ? null : perStep * (this.#snap.total - this.#snap.step);
  }

  start(): void {
    if (this.#destroyed || this.#snap.done) return;
    if (!this.#running) this.#meter.start(this.#snap.step);
    this.#running = true;
    void this.#loop();
  }

  pause(): void {
    this.#running = false;
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
    this.#running = false;
    const models = this.#models;
    this.#models = null;
    if (models) await Promise.allSettled(models.map((m) => m.delete()));
  }

  async #loop(): Promise<void> {
    if (this.#looping) return;
    this.#looping = true;
    try {
      if (!this.#models) {
        const made = await Promise.all([this.#lab.createSeq2Seq(whyConfig(this.#settings, false)), this.#lab.createSeq2Seq(whyConfig(this.#settings, true))]);
        if (this.#destroyed) {
          await Promise.allSettled(made.map((m) => m.delete()));
          return;
        }
        this.#models = [made[0], made[1]];
      }
      while (this.#running && !this.#destroyed && this.#models) {
        if (this.#snap.step < this.#snap.total) await this.#trainBoth(this.#models);
        if (this.#destroyed) return;
        await this.#evaluateNextLength(this.#models);
        // replaced meanwhile (the reader changed a setting): its step must not cover the new run's
        if (this.#destroyed) return;
        this.#meter.record(this.#snap.step);
        if (this.#snap.step >= this.#snap.total && this.#lengthsAfterEnd >= this.#snap.lengths.length) {
          this.#snap.done = true;
          this.#running = false;
        }
        this.#onUpdate(this.#snap);
      }
    } catch (err) {
      this.#running = false;
      if (!this.#destroyed) this.#onError(err);
    } finally {
      this.#looping = false;
    }
  }

  async #trainBoth(models: [RemoteSeq2Seq, RemoteSeq2Seq]): Promise<void> {
    const remaining = this.#snap.total - this.#snap.step;
    // Both models train the same number of steps per turn, sized for the slower one.
    const chunk = Math.max(1, Math.min(remaining, Math.floor(CALL_BUDGET_MS / Math.max(...this.#msPerStep))));
    for (const k of [0, 1] as const) {
      const t0 = performance.now();
      const r = await models[k].train(chunk);
      this.#msPerStep[k] = 0.7 * this.#msPerStep[k] + 0.3 * ((performance.now() - t0) / chunk);
      const loss = mean(r.losses);
      if (k === 0) this.#snap.lossPlain = loss;
      else this.#snap.lossAttention = loss;
      this.#snap.step = r.step;
    }
    this.#lengthsAfterEnd = 0;
  }

  /** Both models at the next length, so that the two curves always reach the same lengths. */
  async #evaluateNextLength(models: [RemoteSeq2Seq, RemoteSeq2Seq]): Promise<void> {
    const li = this.#nextLength;
    this.#nextLength = (li + 1) % this.#snap.lengths.length;
    const options = { length: this.#snap.lengths[li], count: WHY_EVAL_COUNT, seed: EVAL_SEED };
    const plain = await models[0].evaluate(options);
    if (this.#destroyed) return;
    const attention = await models[1].evaluate(options);
    this.#snap.plain[li] = plain.tokenAccuracy;
    this.#snap.exactPlain[li] = plain.exactMatch;
    this.#snap.attention[li] = attention.tokenAccuracy;
    this.#snap.exactAttention[li] = attention.exactMatch;
    if (li === this.#snap.lengths.length - 1) {
      const length = options.length;
      // target positions 0 … length − 1 (the last is <eos>'s), by source position
      const bySource = (r: { tokenAccuracyByPosition: number[] }) => r.tokenAccuracyByPosition.slice(0, length).reverse();
      this.#snap.lettersPlain = bySource(plain);
      this.#snap.lettersAttention = bySource(attention);
    }
    this.#lengthsAfterEnd++;
  }
}
