// §4's Transformer in the worker and its training history: created on first use, trained as one
// stream in the worker (no round trip per chunk, the worker's own time per slice recorded), scored
// on the held-out set. A diverged run keeps the steps that completed; the session in the worker
// keeps its last good weights, so the model stays usable.
import type { EvaluateResult, TrainResult, TransformerSeq2SeqInfo, TransformerTranslateResult, TranslateOptions } from '#shared/types/seq2seq';
import type { LabClient, RemoteSeq2Seq, TrainStream } from '../worker/protocol';
import { transformerConfig, type TransformerSettings } from './transformer-recipes';

/** Thrown by play() when the run diverged; its finished steps are already in the history. */
export class TransformerDivergedError extends Error {}

/** Held-out evaluation: at most this many examples (a quarter of the dates task's 2000). */
export const EVALUATED_EXAMPLES = 500;

export class TransformerTrainer {
  readonly #lab: LabClient;
  readonly settings: TransformerSettings;
  model: RemoteSeq2Seq | null = null;
  info: TransformerSeq2SeqInfo | null = null;
  vocabulary: { source: string[]; target: string[] } = { source: [], target: [] };
  evaluation: EvaluateResult | null = null;
  evaluatedAt = -1;
  /** the worker's time inside train() so far, in ms */
  trainMs = 0;
  readonly losses: number[] = [];
  readonly accuracies: number[] = [];
  #creating: Promise<RemoteSeq2Seq> | null = null;
  #deleted = false;

  constructor(lab: LabClient, settings: TransformerSettings) {
    this.#lab = lab;
    this.settings = settings;
  }

  get step(): number {
    return this.losses.length;
  }

  /** ms per step measured so far (null before any step) */
  get msPerStep(): number | null {
    return this.step > 0 ? this.trainMs / this.step : null;
  }

  /** The model, created on first use; rejects with the core's message for settings it refuses. */
  ready(): Promise<RemoteSeq2Seq> {
    if (this.model) return Promise.resolve(this.model);
    this.#creating ??= (async () => {
      const model = await this.#lab.createSeq2Seq(transformerConfig(this.settings));
      if (this.#deleted) {
        await model.delete();
        throw new Error('model was reset');
      }
      // (the Transformer's session offers no heldOut(): the examples are the section's own)
      const [info, vocabulary] = await Promise.all([model.info(), model.vocabulary()]);
      this.info = info as unknown as TransformerSeq2SeqInfo;
      this.vocabulary = vocabulary;
      this.model = model;
      return model;
    })();
    const creating = this.#creating;
    creating.catch(() => {
      if (this.#creating === creating) this.#creating = null;
    });
    return creating;
  }

  /** Trains `steps` steps as one worker stream; `done` rejects with TransformerDivergedError on divergence. */
  play(steps: number, onProgress: () => void): { done: Promise<void>; stop(): void } {
    let stream: TrainStream | null = null;
    let stopped = false;
    const done = (async () => {
      const model = await this.ready();
      if (stopped || this.#deleted) return;
      stream = model.trainStream(steps, {
        onProgress: (progress, ms) => {
          if (this.#deleted) return;
          this.trainMs += ms;
          this.#record(progress);
          onProgress();
        },
      });
      try {
        await stream.done;
      } catch (err) {
        const completed = (err as { completed?: TrainResult }).completed;
        if (!completed) throw err;
        this.#record(completed);
        throw new TransformerDivergedError((err as Error).message);
      }
    })();
    return {
      done,
      stop: () => {
        stopped = true;
        stream?.stop();
      },
    };
  }

  async evaluate(): Promise<EvaluateResult> {
    const model = await this.ready();
    if (this.evaluation && this.evaluatedAt === this.step) return this.evaluation;
    const step = this.step;
    const result = await model.evaluate({ maxExamples: EVALUATED_EXAMPLES });
    this.evaluation = result;
    this.evaluatedAt = step;
    return result;
  }

  async translate(text: string, options?: TranslateOptions): Promise<TransformerTranslateResult> {
    const model = await this.ready();
    return (await model.translate(text, options)) as unknown as TransformerTranslateResult;
  }

  #record(r: TrainResult): void {
    for (let i = 0; i < r.losses.length; i++) {
      this.losses.push(r.losses[i]);
      this.accuracies.push(r.tokenAccuracy[i]);
    }
  }

  async delete(): Promise<void> {
    this.#deleted = true;
    const model = this.model;
    this.model = null;
    if (model) await model.delete().catch(() => {});
  }
}
