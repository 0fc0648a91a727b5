// The §3.3 model in the worker and its training history (trainer.ts: created on first use, one
// stream per play, scored on the held-out set). Step-by-step training runs in chunks sized so that
// one worker call takes about CALL_BUDGET_MS (from the measured time per step), so play / pause /
// step stay responsive and other sections' calls get their turn.
import type { CellName, HeldOutExample, Seq2SeqConfig, Seq2SeqInfo } from '#types/seq2seq';
import type { ScoreName } from '#types/attention-lab';
import type { LabClient, RemoteSeq2Seq } from '../worker/protocol';
import { DivergedError, Trainer, type PlayOptions } from './trainer';
import { RECIPE_STEPS, type TaskName } from './translate-recipes';
import { trainingDefaults } from '../../../wasm/js/task-defaults.mjs';

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
  // The task's batch, clipping and tanh layer where it sets them (dates), else the core's defaults.
  return Object.assign(config, trainingDefaults(s.task, attention));
}

export { DivergedError } from './trainer';

export class TranslateTrainer extends Trainer<Seq2SeqInfo> {
  readonly settings: TrainSettings;
  /** the task's first held-out examples with their alignments (the note: its five pairs) */
  heldOut: HeldOutExample[] = [];
  #msPerStep = 5;

  constructor(lab: LabClient, settings: TrainSettings) {
    super(lab, DivergedError);
    this.settings = settings;
  }

  get recipeSteps(): number {
    return RECIPE_STEPS[this.settings.task];
  }

  protected config(): Seq2SeqConfig {
    return trainConfig(this.settings);
  }

  protected async loaded(model: RemoteSeq2Seq): Promise<void> {
    const [info, vocabulary, heldOut] = await Promise.all([model.info(), model.vocabulary(), model.heldOut(HELD_OUT_FETCHED)]);
    this.info = info;
    this.vocabulary = vocabulary;
    this.heldOut = heldOut;
  }

  /** Trains `steps` steps in calls of about CALL_BUDGET_MS; throws DivergedError on divergence. */
  async train(steps: number, shouldStop: () => boolean = () => false): Promise<void> {
    const model = await this.ready();
    let left = steps;
    while (left > 0 && !this.deleted && !shouldStop()) {
      const chunk = Math.max(1, Math.min(left, Math.floor(CALL_BUDGET_MS / this.#msPerStep)));
      const t0 = performance.now();
      const result = await this.recordingDivergence(model.train(chunk));
      const ms = performance.now() - t0;
      this.trainMs += ms;
      this.#msPerStep = 0.6 * this.#msPerStep + 0.4 * Math.max(0.05, ms / chunk);
      this.record(result);
      left -= chunk;
    }
  }

  /**
   * Trains `steps` steps as one stream in the worker (no round trip per chunk), at most
   * `maxStepsPerSecond`; `onProgress` runs after each slice is recorded. `done` rejects with
   * DivergedError on divergence (the finished steps are recorded first).
   */
  play(steps: number, options: PlayOptions): { done: Promise<void>; stop(): void } {
    return this.playStream(steps, options);
  }
}
