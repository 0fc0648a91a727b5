// LabApi (protocol.ts) for one wasm build: each operation a thin call into the wasm API
// (wasm/js/attention-lab.mjs), and the models it made. Kept free of worker globals and of the wasm
// loader so that Node tests can drive it with the real module or with a fake.
import type { AttentionLab, GptSession, Seq2Seq } from '#types/attention-lab';
import type { AnyLab } from '../lab';
import type { LabApi } from './protocol';
import { TrainStreams } from './train-stream';

/** What the builds of one worker share. */
export interface Shared {
  /** where model ids come from: one counter for every build, so that an id names one model across them */
  newModelId?: () => number;
  /** the running training streams (`stream.stop` may reach any build) */
  streams?: TrainStreams;
}

export class LabHandlers {
  readonly #lab: AnyLab;
  readonly #crash: () => void;
  readonly #models = new Map<number, Seq2Seq>();
  readonly #gpts = new Map<number, GptSession>();
  readonly #newModelId: () => number;
  readonly #streams: TrainStreams;

  /** `lab`: any variant; an operation its build lacks is an Error. `crash` makes the worker die (debug.crash). */
  constructor(lab: AnyLab, crash: () => void, { newModelId = counter(), streams = new TrainStreams() }: Shared = {}) {
    this.#lab = lab;
    this.#crash = crash;
    this.#newModelId = newModelId;
    this.#streams = streams;
  }

  /** The operations; an Error thrown is the wasm API's, for bad input. */
  readonly api: LabApi = {
    attention: (args) => this.#need('attention')(args),
    selfAttention: (x, params, options) => this.#need('selfAttention')(x, params, options),
    multiHeadAttention: (x, params, numHeads, options) => this.#need('multiHeadAttention')(x, params, numHeads, options),
    // this build's heap, memory, embind handles and live models (router.ts sums the builds)
    memory: () => ({ ...this.#lab.memoryStats(), models: this.#models.size + this.#gpts.size }),
    // a Transformer has the same methods; its info and translations carry more fields
    'seq2seq.create': (config) => this.#adopt(this.#need('createSeq2Seq')(config) as Seq2Seq),
    'seq2seq.load': (bytes) => this.#adopt(this.#need('loadSeq2Seq')(bytes)),
    'seq2seq.info': (model) => this.model(model).info(),
    'seq2seq.train': (model, steps) => this.model(model).train(steps),
    'seq2seq.trainStream': (model, steps, limits, progress) => this.#streams.run(progress, this.model(model), steps, limits),
    'seq2seq.evaluate': (model, options) => this.model(model).evaluate(options),
    'seq2seq.translate': (model, text, options) => this.model(model).translate(text, options),
    'seq2seq.attribution': (model, text, options) => this.model(model).attribution(text, options),
    'seq2seq.recordTimeline': (model, probe, options) => this.model(model).recordTimeline(probe, options),
    'seq2seq.stopTimeline': (model) => this.model(model).stopTimeline(),
    'seq2seq.timeline': (model) => this.model(model).timeline(),
    'seq2seq.exportTimeline': (model) => this.model(model).exportTimeline(),
    'seq2seq.save': (model, options) => this.model(model).save(options),
    'seq2seq.vocabulary': (model) => {
      const m = this.model(model);
      return { source: m.sourceVocabulary(), target: m.targetVocabulary() };
    },
    'seq2seq.heldOut': (model, count) => this.model(model).heldOut(count),
    'seq2seq.delete': (model) => {
      this.#models.get(model)?.delete();
      this.#models.delete(model);
    },
    'gpt.create': (config) => this.#adopt(this.#need('createGptSession')(config), this.#gpts),
    'gpt.info': (model) => this.gpt(model).info(),
    'gpt.train': (model, steps) => this.gpt(model).train(steps),
    'gpt.evaluate': (model) => this.gpt(model).evaluate(),
    'gpt.sample': (model, prompt, options) => this.gpt(model).sample(prompt, options),
    'gpt.heads': (model, zeroHeads) => this.gpt(model).headScores({ zeroHeads }),
    'gpt.delete': (model) => {
      this.#gpts.get(model)?.delete();
      this.#gpts.delete(model);
    },
    'stream.stop': (stream) => this.#streams.stop(stream),
    'debug.crash': () => {
      this.#crash();
      return new Promise<never>(() => {}); // the crash is the answer
    },
  };

  /** Whether model `id` lives in this build. */
  hasModel(id: number): boolean {
    return this.#models.has(id) || this.#gpts.has(id);
  }

  /** The lab's method `name`, or an Error naming what this build lacks. */
  #need<K extends keyof AttentionLab>(name: K): AttentionLab[K] {
    const lab = this.#lab as Partial<AttentionLab>;
    const method = lab[name];
    if (typeof method !== 'function') {
      throw new Error(`${name}: not in this worker's wasm build (the widgets' lighter builds leave it out)`);
    }
    return (method as (...args: unknown[]) => unknown).bind(lab) as AttentionLab[K];
  }

  /** Keeps a new model (in `into`, the translators' map unless told) under a new id, with its info. */
  #adopt<M extends Seq2Seq | GptSession>(model: M, into: Map<number, M> = this.#models as Map<number, M>): { model: number; info: ReturnType<M['info']> } {
    let info;
    try {
      info = model.info();
    } catch (err) {
      model.delete();
      throw err;
    }
    const id = this.#newModelId();
    into.set(id, model);
    return { model: id, info: info as ReturnType<M['info']> };
  }

  /** The live model `id`; an Error if it was deleted or lost in a restart. */
  model(id: number): Seq2Seq {
    const model = this.#models.get(id);
    if (!model) throw new Error(`no model ${id} in the worker (deleted, or lost in a restart)`);
    return model;
  }

  /** The live GPT session `id`; an Error if it was deleted or lost in a restart. */
  gpt(id: number): GptSession {
    const session = this.#gpts.get(id);
    if (!session) throw new Error(`no GPT ${id} in the worker (deleted, or lost in a restart)`);
    return session;
  }
}

/** 1, 2, 3, … */
export function counter(): () => number {
  let next = 1;
  return () => next++;
}
