// §5's GPT in the worker and its training history: the corpus fetched and the session created on
// first use, trained in requests of a few steps (a GPT step takes about 50 ms, so a round trip costs
// little and Pause takes effect within a request), scored on the held-out poems and sampled every
// EVAL_EVERY steps, so the reader sees the loss fall and the babble change.
import type { GptEvalResult, GptHeadScores, GptInfo, GptSampleOptions, GptSampleResult, LabClient, RemoteGpt } from '../worker/protocol';

/** Held-out loss and a sample at every multiple of this step (and at step 0). */
export const EVAL_EVERY = 100;
/** The samples of the training run: seeded, so the reader sees the model change, not the dice. */
export const SAMPLE_OPTIONS: GptSampleOptions = { temperature: 0.8, topK: 0, topP: 1, seed: 1, maxNewTokens: 24, topCandidates: 1 };
/** Each training request aims at about this long in the worker. */
const REQUEST_MS = 150;

export interface Milestone {
  step: number;
  evaluation: GptEvalResult;
  /** the generated characters after the prompt */
  sample: string;
  /** what each head learned at this step (gpt-heads.ts shows it) */
  heads: GptHeadScores;
}

/** The corpus as the site serves it (web/vite.config.ts copies build/poems/tang300.txt there). */
export const CORPUS_FILE = 'poems/tang300.txt';

export async function fetchCorpus(): Promise<string> {
  const response = await fetch(new URL(CORPUS_FILE, document.baseURI));
  if (!response.ok) throw new Error(`${CORPUS_FILE}: HTTP ${response.status}`);
  return response.text();
}

export class GptRun {
  readonly #lab: LabClient;
  readonly #corpus: () => Promise<string>;
  model: RemoteGpt | null = null;
  info: GptInfo | null = null;
  readonly losses: number[] = [];
  readonly milestones: Milestone[] = [];
  /** training now (a Pause ends the loop after its current request) */
  playing = false;
  /** the step the current run trains to */
  target = 0;
  #msPerStep = 60;
  #creating: Promise<RemoteGpt> | null = null;
  #deleted = false;
  /** counts play() calls: an older loop stops at its next check */
  #runs = 0;
  /** the training loop running now, until it has ended */
  #loop: Promise<void> | null = null;

  constructor(lab: LabClient, corpus: () => Promise<string>) {
    this.#lab = lab;
    this.#corpus = corpus;
  }

  get step(): number {
    return this.losses.length;
  }

  /** The session, created on first use (with its step-0 milestone); a failed creation may be retried. */
  ready(prompt: () => string): Promise<RemoteGpt> {
    if (this.model) return Promise.resolve(this.model);
    this.#creating ??= (async () => {
      const text = await this.#corpus();
      const model = await this.#lab.createGpt({ text });
      if (this.#deleted) {
        await model.delete();
        throw new Error('model was reset');
      }
      this.info = await model.info();
      this.model = model;
      await this.#milestone(prompt());
      return model;
    })();
    const creating = this.#creating;
    creating.catch(() => {
      if (this.#creating === creating) this.#creating = null;
    });
    return creating;
  }

  /**
   * Trains to `target`, scoring and sampling at every EVAL_EVERY steps and at the end; `onProgress`
   * after every request. Ends early when paused (playing set false) or reset. A loop still waiting on
   * its last request (paused just before) ends first, so that two never train at once.
   */
  async play(target: number, prompt: () => string, onProgress: () => void): Promise<void> {
    const run = ++this.#runs;
    this.target = target;
    this.playing = true;
    try {
      while (this.#loop) await this.#loop.catch(() => {});
      const loop = this.#train(run, prompt, onProgress);
      this.#loop = loop;
      await loop.finally(() => {
        if (this.#loop === loop) this.#loop = null;
      });
    } finally {
      if (run === this.#runs) this.playing = false;
    }
  }

  async #train(run: number, prompt: () => string, onProgress: () => void): Promise<void> {
    const model = await this.ready(prompt);
    while (this.playing && run === this.#runs && !this.#deleted && this.step < this.target) {
      const toMilestone = Math.min(this.target, (Math.floor(this.step / EVAL_EVERY) + 1) * EVAL_EVERY) - this.step;
      const steps = Math.max(1, Math.min(toMilestone, Math.round(REQUEST_MS / this.#msPerStep)));
      const t0 = performance.now();
      const result = await model.train(steps);
      if (this.#deleted) return;
      this.#msPerStep = 0.5 * this.#msPerStep + (0.5 * (performance.now() - t0)) / steps;
      for (const loss of result.losses) this.losses.push(loss);
      if (this.step % EVAL_EVERY === 0 || this.step === this.target) await this.#milestone(prompt());
      onProgress();
    }
  }

  pause(): void {
    this.playing = false;
  }

  /** One generation step after `text` (sample with maxNewTokens 1). */
  async next(text: string, options: GptSampleOptions, prompt: () => string): Promise<GptSampleResult> {
    const model = await this.ready(prompt);
    return model.sample(text, { ...options, maxNewTokens: 1, topCandidates: 5 });
  }

  get evaluation(): GptEvalResult | null {
    return this.milestones.at(-1)?.evaluation ?? null;
  }

  async #milestone(prompt: string): Promise<void> {
    const model = this.model;
    if (!model) return;
    const step = this.step;
    const evaluation = await model.evaluate();
    const sample = await model.sample(prompt, SAMPLE_OPTIONS);
    const heads = await model.heads();
    if (this.milestones.at(-1)?.step !== step) this.milestones.push({ step, evaluation, sample: sample.generated, heads });
  }

  async delete(): Promise<void> {
    this.#deleted = true;
    this.playing = false;
    const model = this.model;
    this.model = null;
    if (model) await model.delete().catch(() => {});
  }
}
