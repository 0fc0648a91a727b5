// §5's GPT in the worker and its training history: the corpus fetched and the session created on
// first use, trained in requests of a few steps (a GPT step takes about 30 ms, so a round trip costs
// little and Pause takes effect within a request), scored on the held-out poems and sampled every
// EVAL_EVERY steps, so the reader sees the loss fall and the babble take form.
import { FORM_TEMPERATURE, POEM_START, regularPoems, SAMPLE_CAP, sampleForm, samplePoem, type FormVerdict } from '../../../wasm/js/gpt-form.mjs';
import { CORPUS_FILE } from '../widgets/gpt-corpus';
import type { GptEvalResult, GptHeadScores, GptInfo, GptSampleOptions, GptSampleResult, LabClient, RemoteGpt } from '../worker/protocol';

/** Held-out loss and a sample at every multiple of this step (and at step 0). */
export const EVAL_EVERY = 100;
/** The poems sampled at each milestone: a small fixed set of seeds (the form rate of the 100 seeds of
 *  docs/gpt.md costs too long in the page), so the reader sees the model change, not the dice. */
export const MILESTONE_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8] as const;
/** A sample as docs/gpt.md defines it: from the poem start, at temperature 0.8, up to the cap. */
export const sampleOptions = (seed: number): GptSampleOptions => ({ temperature: FORM_TEMPERATURE, topK: 0, topP: 1, seed, maxNewTokens: SAMPLE_CAP, topCandidates: 0 });
/** Each training request aims at about this long in the worker. */
const REQUEST_MS = 150;

export interface MilestoneSample {
  seed: number;
  /** the poem generated from the poem start, up to its end (or the whole text when it has none) */
  poem: string;
  form: FormVerdict;
}

export interface Milestone {
  step: number;
  evaluation: GptEvalResult;
  /** one per MILESTONE_SEEDS */
  samples: MilestoneSample[];
  /** the share of samples with the form */
  formRate: number;
  /** what each head learned at this step (gpt-heads.ts shows it) */
  heads: GptHeadScores;
}

/** The Tang poems as the site serves them, beside the page (web/vite.config.ts copies them there). */
export async function fetchCorpus(): Promise<string> {
  const response = await fetch(new URL(CORPUS_FILE, document.baseURI));
  if (!response.ok) throw new Error(`${CORPUS_FILE}: HTTP ${response.status}`);
  return response.text();
}

export interface CorpusSource {
  readonly own: boolean;
  readonly corpus: () => Promise<string>;
}

/** The recipe's corpus: the regular poems (绝句 and 律诗) of the Tang poems that `fetchPoems` reads (docs/gpt.md). */
export function tangSource(fetchPoems: () => Promise<string>): CorpusSource {
  return { own: false, corpus: async () => regularPoems(await fetchPoems()) };
}

export class GptRun {
  readonly #lab: LabClient;
  /** what the run trains on: the recipe's poems (fetched), or the reader's own text */
  readonly source: CorpusSource;
  /** the share of the training windows that are form drills (docs/gpt.md), fixed for the run */
  readonly drills: number;
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

  constructor(lab: LabClient, source: CorpusSource, drills: number) {
    this.#lab = lab;
    this.source = source;
    this.drills = drills;
  }

  get step(): number {
    return this.losses.length;
  }

  /** The session, created on first use (with its step-0 milestone); a failed creation may be retried. */
  ready(): Promise<RemoteGpt> {
    if (this.model) return Promise.resolve(this.model);
    this.#creating ??= (async () => {
      const text = await this.source.corpus();
      const model = await this.#lab.createGpt({ text, drills: this.drills });
      if (this.#deleted) {
        await model.delete();
        throw new Error('model was reset');
      }
      this.info = await model.info();
      this.model = model;
      await this.#milestone();
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
  async play(target: number, onProgress: () => void): Promise<void> {
    const run = ++this.#runs;
    this.target = target;
    this.playing = true;
    try {
      while (this.#loop) await this.#loop.catch(() => {});
      const loop = this.#train(run, onProgress);
      this.#loop = loop;
      await loop.finally(() => {
        if (this.#loop === loop) this.#loop = null;
      });
    } finally {
      if (run === this.#runs) this.playing = false;
    }
  }

  async #train(run: number, onProgress: () => void): Promise<void> {
    const model = await this.ready();
    while (this.playing && run === this.#runs && !this.#deleted && this.step < this.target) {
      const toMilestone = Math.min(this.target, (Math.floor(this.step / EVAL_EVERY) + 1) * EVAL_EVERY) - this.step;
      const steps = Math.max(1, Math.min(toMilestone, Math.round(REQUEST_MS / this.#msPerStep)));
      const t0 = performance.now();
      const result = await model.train(steps);
      if (this.#deleted) return;
      this.#msPerStep = 0.5 * this.#msPerStep + (0.5 * (performance.now() - t0)) / steps;
      for (const loss of result.losses) this.losses.push(loss);
      if (this.step % EVAL_EVERY === 0 || this.step === this.target) await this.#milestone();
      onProgress();
    }
  }

  pause(): void {
    this.playing = false;
  }

  /**
   * `count` generation steps after `text` in one request (sample with maxNewTokens `count`), which
   * reads its last blockSize characters: the model refuses a longer prompt, and those are all it
   * would attend to anyway. Each step keeps its candidates, which reach past top-k's default of 20
   * (so the drawn character is among them unless top-k is off and it ranks lower still), and every
   * layer's and head's attention: Write the poem runs a whole poem on the worker's key/value cache
   * and the page draws once.
   */
  async next(text: string, options: GptSampleOptions, count = 1): Promise<GptSampleResult> {
    const model = await this.ready();
    const context = Array.from(text).slice(-this.info!.config.blockSize).join('');
    return model.sample(context, { ...options, maxNewTokens: count, topCandidates: 64 });
  }

  get evaluation(): GptEvalResult | null {
    return this.milestones.at(-1)?.evaluation ?? null;
  }

  async #milestone(): Promise<void> {
    const model = this.model;
    if (!model) return;
    const step = this.step;
    const evaluation = await model.evaluate();
    const samples: MilestoneSample[] = [];
    for (const seed of MILESTONE_SEEDS) {
      const { generated } = await model.sample(POEM_START, sampleOptions(seed));
      samples.push({ seed, poem: samplePoem(generated) ?? generated, form: sampleForm(generated) });
    }
    const formRate = samples.filter((x) => x.form.ok).length / samples.length;
    const heads = await model.heads();
    if (this.milestones.at(-1)?.step !== step) this.milestones.push({ step, evaluation, samples, formRate, heads });
  }

  async delete(): Promise<void> {
    this.#deleted = true;
    this.playing = false;
    const model = this.model;
    this.model = null;
    if (model) await model.delete().catch(() => {});
  }
}
