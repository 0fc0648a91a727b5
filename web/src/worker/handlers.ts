// The worker's side of the protocol (protocol.ts): one function per operation, each a thin call into
// the wasm API (wasm/js/attention-lab.mjs). Kept free of worker globals and of the wasm loader so
// that Node tests can drive it with the real module or with a fake.
import type { AttentionLab, GptSession, Seq2Seq } from '#shared/types/attention-lab';
import type { AnyLab } from '../lab';
import type { ErrorPayload, Request, ResponseMessage, TrainResult } from './protocol';

/** Returned by handle() for a request that gets no answer (debug.crash). */
export const NO_RESPONSE: unique symbol = Symbol('no response');

export interface Handled {
  result: unknown;
  /** the ArrayBuffers inside result: results are fresh copies, so they move instead of being cloned */
  transfer: ArrayBuffer[];
}

export class LabHandlers {
  readonly #lab: AnyLab;
  readonly #crash: () => void;
  readonly #models = new Map<number, Seq2Seq>();
  readonly #gpts = new Map<number, GptSession>();
  readonly #newModelId: () => number;

  /**
   * `lab`: any variant; an operation its build lacks is an Error. `crash` makes the worker die
   * (debug.crash). `newModelId`: where model ids come from; a worker with several builds shares one
   * counter so that an id names one model across them.
   */
  constructor(lab: AnyLab, crash: () => void, newModelId: () => number = counter()) {
    this.#lab = lab;
    this.#crash = crash;
    this.#newModelId = newModelId;
  }

  /** This build's heap, memory, embind handles and live models. */
  memory(): { heapUsed: number; memorySize: number; handles: number; models: number } {
    return { ...this.#lab.memoryStats(), models: this.#models.size + this.#gpts.size };
  }

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

  get modelCount(): number {
    return this.#models.size + this.#gpts.size;
  }

  /** Runs one request; throws the wasm API's Error on bad input. */
  handle(request: Request): Handled | typeof NO_RESPONSE {
    const result = this.#dispatch(request);
    if (result === NO_RESPONSE) return result;
    return { result, transfer: collectBuffers(result) };
  }

  #dispatch(request: Request): unknown {
    if (typeof request !== 'object' || request === null || typeof request.op !== 'string') {
      throw new TypeError('request must be an object with an op');
    }
    switch (request.op) {
      case 'attention':
        return this.#need('attention')(request.args);
      case 'selfAttention':
        return this.#need('selfAttention')(request.x, request.params, request.options);
      case 'multiHeadAttention':
        return this.#need('multiHeadAttention')(request.x, request.params, request.numHeads, request.options);
      case 'seq2seq.create':
        // a Transformer has the same methods; its info and translations carry more fields
        return this.#adopt(this.#need('createSeq2Seq')(request.config) as Seq2Seq);
      case 'seq2seq.load':
        return this.#adopt(this.#need('loadSeq2Seq')(request.bytes));
      case 'seq2seq.info':
        return this.model(request.model).info();
      case 'seq2seq.train':
        return this.model(request.model).train(request.steps);
      case 'seq2seq.evaluate':
        return this.model(request.model).evaluate(request.options);
      case 'seq2seq.translate':
        return this.model(request.model).translate(request.text, request.options);
      case 'seq2seq.attribution':
        return this.model(request.model).attribution(request.text, request.options);
      case 'seq2seq.recordTimeline':
        this.model(request.model).recordTimeline(request.probe, request.options);
        return null;
      case 'seq2seq.stopTimeline':
        this.model(request.model).stopTimeline();
        return null;
      case 'seq2seq.timeline':
        return this.model(request.model).timeline();
      case 'seq2seq.exportTimeline':
        return this.model(request.model).exportTimeline();
      case 'seq2seq.save':
        return this.model(request.model).save(request.options);
      case 'seq2seq.vocabulary': {
        const model = this.model(request.model);
        return { source: model.sourceVocabulary(), target: model.targetVocabulary() };
      }
      case 'seq2seq.heldOut':
        return this.model(request.model).heldOut(request.count);
      case 'seq2seq.delete': {
        const model = this.#models.get(request.model);
        model?.delete();
        this.#models.delete(request.model);
        return null;
      }
      case 'gpt.create':
        return this.#adopt(this.#need('createGptSession')(request.config), this.#gpts);
      case 'gpt.info':
        return this.gpt(request.model).info();
      case 'gpt.train':
        return this.gpt(request.model).train(request.steps);
      case 'gpt.evaluate':
        return this.gpt(request.model).evaluate();
      case 'gpt.sample':
        return this.gpt(request.model).sample(request.prompt, request.options);
      case 'gpt.heads':
        return this.gpt(request.model).headScores({ zeroHeads: request.zeroHeads });
      case 'gpt.delete':
        this.#gpts.get(request.model)?.delete();
        this.#gpts.delete(request.model);
        return null;
      case 'memory':
        return this.memory();
      case 'debug.crash':
        this.#crash();
        return NO_RESPONSE;
      default:
        throw new TypeError(`unknown operation ${JSON.stringify(String((request as { op: unknown }).op).slice(0, 40))}`);
    }
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

/** Every distinct ArrayBuffer reachable through typed arrays in a result. */
export function collectBuffers(value: unknown, out = new Set<ArrayBuffer>(), depth = 0): ArrayBuffer[] {
  if (depth > 8 || value === null || typeof value !== 'object') return [...out];
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) out.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const item of value) collectBuffers(item, out, depth + 1);
  } else {
    for (const item of Object.values(value)) collectBuffers(item, out, depth + 1);
  }
  return [...out];
}

/** An Error as a structured-clone-safe payload (a diverged run keeps its completed steps). */
export function errorPayload(err: unknown): ErrorPayload {
  if (err instanceof Error) {
    const payload: ErrorPayload = { name: err.name, message: err.message };
    const completed = (err as Error & { completed?: TrainResult }).completed;
    if (completed) payload.completed = completed;
    return payload;
  }
  return { name: 'Error', message: String(err) };
}

/** The response message for one request, and what to transfer with it. */
export function respond(id: number, run: () => Handled | typeof NO_RESPONSE): { message: ResponseMessage; transfer: ArrayBuffer[] } | null {
  try {
    const handled = run();
    if (handled === NO_RESPONSE) return null;
    return { message: { id, ok: true, result: handled.result }, transfer: handled.transfer };
  } catch (err) {
    return { message: { id, ok: false, error: errorPayload(err) }, transfer: [] };
  }
}
