// The §3.3 model in the worker and its training history. Training runs in chunks sized so that one
// worker call takes about CALL_BUDGET_MS (from the measured time per step), so play / pause / step
// stay responsive and other sections' calls get their turn. A diverged run keeps the completed
// steps' losses; the session in the worker keeps its last good weights, so the model stays usable.
import type { CellName, EvaluateResult, HeldOutExample, Seq2SeqConfig, Seq2SeqInfo, TrainResult } from '#shared/types/seq2seq';
import type { ScoreName } from '#shared/types/attention-lab';
import type { LabClient, RemoteSeq2Seq, TrainStream } from '../worker/protocol';
import { RECIPE_STEPS, type TaskName } from './translate-recipes';

export type { TaskName } from './translate-recipes';
export { RECIPE_STEPS, RECIPES } from './translate-recipes';
export type ScoreSetting = ScoreName | 'none';

export interface TrainSettings {
  task: TaskName;
  cell: CellName;
  hidden: number;
  score: ScoreSetting;
  lr: number;
  seed: number;
}

/** Held-out examples fetched for the sentence panel (long sentences of the grammar corpus). */
const HELD_OUT_FETCHED = 100;

const CALL_BUDGET_MS = 50;

export function trainConfig(s: TrainSettings): Seq2SeqConfig {
  const attention = s.score !== 'none';
  const config: Seq2SeqConfig = {
    task: s.task,
    cell: s.cell,
    hidden: s.hidden,
    attention,
    score: s.score === 'none' ? 'dot' : s.score,
    seed: s.seed,
    learningRate: s.lr,
  };
  // The note's recipe is batch 1 without clipping (the core's defaults for `note`). Dates follows
  // the TF.js example's model (Luong's tanh layer), on smaller batches to keep a step short.
  if (s.task === 'dates') Object.assign(config, { batchSize: 16, clipNorm: 1, attentionalTanh: attention });
  return config;
}

/** Thrown by train() when the run diverged; its steps that did complete are already in the history. */
export class DivergedError extends Error {}

export class TranslateTrainer {
  readonly #lab: LabClient;
  readonly settings: TrainSettings;
  model: RemoteSeq2Seq | null = null;
  info: Seq2SeqInfo | null = null;
  vocabulary: { source: string[]; target: string[] } = { source: [], target: [] };
  /** the task's first held-out examples with their alignments (the note: its five pairs) */
  heldOut: HeldOutExample[] = [];
  /** the last evaluate() on the held-out set, and the step it was taken at */
  evaluation: EvaluateResult | null = null;
  evaluatedAt = -1;
  /** wall time of the train calls so far, in ms (the worker's time, as the page sees it) */
  trainMs = 0;
  readonly losses: number[] = [];
  readonly accuracies: number[] = [];
  #creating: Promise<RemoteSeq2Seq> | null = null;
  #msPerStep = 5;
  #deleted = false;

  constructor(lab: LabClient, settings: TrainSettings) {
    this.#lab = lab;
    this.settings = settings;
  }

  get step(): number {
    return this.losses.length;
  }

  get recipeSteps(): number {
    return RECIPE_STEPS[this.settings.task];
  }

  /** The model, created on first use. */
  ready(): Promise<RemoteSeq2Seq> {
    if (this.model) return Promise.resolve(this.model);
    this.#creating ??= (async () => {
      const model = await this.#lab.createSeq2Seq(trainConfig(this.settings));
      if (this.#deleted) {
        await model.delete();
        throw new Error('model was reset');
      }
      const [info, vocabulary, heldOut] = await Promise.all([model.info(), model.vocabulary(), model.heldOut(HELD_OUT_FETCHED)]);
      this.info = info;
      this.vocabulary = vocabulary;
      this.heldOut = heldOut;
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

  /** Trains `steps` steps in calls of about CALL_BUDGET_MS; throws DivergedError on divergence. */
  async train(steps: number, shouldStop: () => boolean = () => false): Promise<void> {
    const model = await this.ready();
    let left = steps;
    while (left > 0 && !this.#deleted && !shouldStop()) {
      const chunk = Math.max(1, Math.min(left, Math.floor(CALL_BUDGET_MS / this.#msPerStep)));
      const t0 = performance.now();
      let result: TrainResult;
      try {
        result = await model.train(chunk);
      } catch (err) {
        const completed = (err as { completed?: TrainResult }).completed;
        if (!completed) throw err;
        this.#record(completed);
        throw new DivergedError((err as Error).message);
      }
      const ms = performance.now() - t0;
      this.trainMs += ms;
      this.#msPerStep = 0.6 * this.#msPerStep + 0.4 * Math.max(0.05, ms / chunk);
      this.#record(result);
      left -= chunk;
    }
  }

  /**
   * Trains `steps` steps as one stream in the worker (no round trip per chunk), at most
   * `maxStepsPerSecond`; `onProgress` runs after each slice is recorded. `done` rejects with
   * DivergedError on divergence (the finished steps are recorded first).
   */
  play(steps: number, options: { maxStepsPerSecond?: number; onProgress(): void }): { done: Promise<void>; stop(): void } {
    let stream: TrainStream | null = null;
    let stopped = false;
    const done = (async () => {
      const model = await this.ready();
      if (stopped || this.#deleted) return;
      stream = model.trainStream(steps, {
        maxStepsPerSecond: options.maxStepsPerSecond,
        onProgress: (progress, ms) => {
          if (this.#deleted) return;
          this.trainMs += ms;
          this.#record(progress);
          options.onProgress();
        },
      });
      try {
        await stream.done;
      } catch (err) {
        const completed = (err as { completed?: TrainResult }).completed;
        if (!completed) throw err;
        this.#record(completed);
        throw new DivergedError((err as Error).message);
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

  /** Evaluates on the held-out set unless this step is evaluated already. */
  async evaluate(): Promise<EvaluateResult> {
    const model = await this.ready();
    if (this.evaluation && this.evaluatedAt === this.step) return this.evaluation;
    const step = this.step;
    // At most 500 examples: all of zh-en's and the note's, a quarter of the dates task's.
    const result = await model.evaluate({ maxExamples: 500 });
    this.evaluation = result;
    this.evaluatedAt = step;
    return result;
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
