// What §3.3's and §4's trainers share: the model in the worker, created on first use (a failed
// creation may be retried by the next call), its training history (loss and token accuracy per
// step, the worker's time), training as one stream in the worker (no round trip per chunk), and
// the held-out evaluation, cached per step. A diverged run keeps the steps that completed; the
// session in the worker keeps its last good weights, so the model stays usable.
import type { EvaluateResult, Seq2SeqConfig, TrainResult, TransformerSeq2SeqConfig } from '#types/seq2seq';
import type { LabClient, RemoteSeq2Seq, TrainStream } from '../worker/protocol';

/** Thrown when a run diverged; its steps that did complete are already in the history. */
export class DivergedError extends Error {}

/** Held-out evaluation: at most this many examples (all of zh-en's and the note's, a quarter of the dates task's 2000). */
export const EVALUATED_EXAMPLES = 500;

export interface PlayOptions {
  /** at most this many steps per second (the worker sleeps between slices) */
  maxStepsPerSecond?: number;
  /** runs after each slice is recorded */
  onProgress(): void;
}

export abstract class Trainer<Info> {
  protected readonly lab: LabClient;
  model: RemoteSeq2Seq | null = null;
  info: Info | null = null;
  vocabulary: { source: string[]; target: string[] } = { source: [], target: [] };
  /** the last evaluate() on the held-out set, and the step it was taken at */
  evaluation: EvaluateResult | null = null;
  evaluatedAt = -1;
  /** the worker's time inside train() so far, in ms */
  trainMs = 0;
  readonly losses: number[] = [];
  readonly accuracies: number[] = [];
  #creating: Promise<RemoteSeq2Seq> | null = null;
  /** the training stream running now (playStream), until it has ended */
  #streaming: Promise<void> | null = null;
  readonly #Diverged: new (message: string) => DivergedError;
  protected deleted = false;

  constructor(lab: LabClient, Diverged: new (message: string) => DivergedError) {
    this.lab = lab;
    this.#Diverged = Diverged;
  }

  /** The session's config for createSeq2Seq. */
  protected abstract config(): Seq2SeqConfig | TransformerSeq2SeqConfig;
  /** Reads what the section needs of a new model (info, vocabulary, …) before it is used. */
  protected abstract loaded(model: RemoteSeq2Seq): Promise<void>;

  get step(): number {
    return this.losses.length;
  }

  /** The model, created on first use; rejects with the core's message for settings it refuses. */
  ready(): Promise<RemoteSeq2Seq> {
    if (this.model) return Promise.resolve(this.model);
    this.#creating ??= (async () => {
      const model = await this.lab.createSeq2Seq(this.config());
      if (this.deleted) {
        await model.delete();
        throw new Error('model was reset');
      }
      await this.loaded(model);
      this.model = model;
      return model;
    })();
    const creating = this.#creating;
    // A failed creation (say, the worker restarting) may be retried by the next call.
    creating.catch(() => {
      if (this.#creating === creating) this.#creating = null;
    });
    return creating;
  }

  /**
   * Trains `steps` steps as one stream in the worker; `done` rejects with the trainer's
   * DivergedError on divergence (the finished steps are recorded first).
   */
  playStream(steps: number, options: PlayOptions): { done: Promise<void>; stop(): void } {
    let stream: TrainStream | null = null;
    let stopped = false;
    const done = (async () => {
      const model = await this.ready();
      if (stopped || this.deleted) return;
      stream = model.trainStream(steps, {
        maxStepsPerSecond: options.maxStepsPerSecond,
        onProgress: (progress, ms) => {
          if (this.deleted) return;
          this.trainMs += ms;
          this.record(progress);
          options.onProgress();
        },
      });
      await this.recordingDivergence(stream.done);
    })();
    const streaming = done.catch(() => {}).finally(() => {
      if (this.#streaming === streaming) this.#streaming = null;
    });
    this.#streaming = streaming;
    return {
      done,
      stop: () => {
        stopped = true;
        stream?.stop();
      },
    };
  }

  /** Resolves once no training stream of this model runs (a stopped one has recorded its last slice). */
  async idle(): Promise<void> {
    while (this.#streaming) await this.#streaming;
  }

  /** Evaluates on the held-out set unless this step is evaluated already. */
  async evaluate(): Promise<EvaluateResult> {
    const model = await this.ready();
    if (this.evaluation && this.evaluatedAt === this.step) return this.evaluation;
    const step = this.step;
    const result = await model.evaluate({ maxExamples: EVALUATED_EXAMPLES });
    this.evaluation = result;
    this.evaluatedAt = step;
    return result;
  }

  async delete(): Promise<void> {
    this.deleted = true;
    const model = this.model;
    this.model = null;
    if (model) await model.delete().catch(() => {});
  }

  /** `training`'s result; a divergence ({completed}) records its finished steps and becomes a DivergedError. */
  protected async recordingDivergence<T>(training: Promise<T>): Promise<T> {
    try {
      return await training;
    } catch (err) {
      const completed = (err as { completed?: TrainResult }).completed;
      if (!completed) throw err;
      this.record(completed);
      throw new this.#Diverged((err as Error).message);
    }
  }

  protected record(r: TrainResult): void {
    for (let i = 0; i < r.losses.length; i++) {
      this.losses.push(r.losses[i]);
      this.accuracies.push(r.tokenAccuracy[i]);
    }
  }
}
