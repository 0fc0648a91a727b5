// Which wasm build answers a request. The module table (CMakeLists.txt, mirrored by
// wasm/js/modules.mjs) says which API each build offers; the router asks it for the smallest build
// that has the method a request needs, so the first heatmap comes from the smallest download.
// A model's requests go to the build that holds the model. The article (a worker named
// FULL_WORKER_NAME) keeps its models in the full build, which can also save and load them, and
// loads that build in the background after its first answer; widgets load only what they use.
// Free of worker globals: the Node tests route with the real builds.
import { smallestVariantFor, type LabVariant } from '../lab';
import { type LabHandlers } from './handlers';
import type { Request, ResultOf } from './protocol';

/** The API method of the lab object that each request needs (model requests name their model). */
const METHOD_OF: Partial<Record<Request['op'], string>> = {
  attention: 'attention',
  selfAttention: 'selfAttention',
  multiHeadAttention: 'multiHeadAttention',
  'seq2seq.create': 'createSeq2Seq',
  'seq2seq.load': 'loadSeq2Seq',
  // §5's GPT: the small GPT build, loaded when §5 first asks (the article's full build has it too)
  'gpt.create': 'createGptSession',
};

type MemoryStats = ResultOf['memory'];

export class ModuleRouter {
  readonly #load: (variant: LabVariant) => Promise<LabHandlers>;
  readonly #article: boolean;
  readonly #loading = new Map<LabVariant, Promise<LabHandlers>>();
  readonly #loaded = new Map<LabVariant, LabHandlers>();

  /** `load` makes the handlers of one build (called once per build, again after a failed load). */
  constructor(load: (variant: LabVariant) => Promise<LabHandlers>, options: { article: boolean }) {
    this.#load = load;
    this.#article = options.article;
  }

  /** The builds loaded so far. */
  get loaded(): LabVariant[] {
    return [...this.#loaded.keys()];
  }

  /** The handlers of `variant`, loading the build on first use. */
  handlers(variant: LabVariant): Promise<LabHandlers> {
    let loading = this.#loading.get(variant);
    if (!loading) {
      loading = this.#load(variant).then((h) => {
        this.#loaded.set(variant, h);
        return h;
      });
      loading.catch(() => this.#loading.delete(variant)); // a failed load may be retried
      this.#loading.set(variant, loading);
    }
    return loading;
  }

  /** The build for a request that is not a memory request. */
  variantFor(request: Request | undefined): LabVariant {
    const op = typeof request?.op === 'string' ? request.op : '';
    const model = (request as { model?: unknown } | undefined)?.model;
    if (typeof model === 'number') {
      for (const [variant, h] of this.#loaded) if (h.hasModel(model)) return variant;
      // no build holds it: any loaded build answers "no model N"
      return this.#loaded.keys().next().value ?? this.#defaultVariant();
    }
    if (op === 'seq2seq.create' && this.#article) return 'full';
    // a Transformer lives in the smallest build that has it, not in the recurrent translators' one
    if (op === 'seq2seq.create' && (request as { config?: { arch?: unknown } }).config?.arch === 'transformer') {
      return smallestVariantFor('createSeq2Seq.transformer');
    }
    const method = METHOD_OF[op as Request['op']];
    if (method) return smallestVariantFor(method);
    // debug.crash and unknown operations: whichever build is there, else the smallest
    return this.#loaded.keys().next().value ?? this.#defaultVariant();
  }

  /** The handlers that answer `request`. */
  forRequest(request: Request | undefined): Promise<LabHandlers> {
    return this.handlers(this.variantFor(request));
  }

  /** Heap, memory and handles of every loaded build, summed, with each build's own figures. */
  async memory(): Promise<MemoryStats> {
    if (this.#loaded.size === 0) await this.handlers(this.#defaultVariant());
    const total: MemoryStats = { heapUsed: 0, memorySize: 0, handles: 0, models: 0, modules: {} };
    for (const [variant, h] of this.#loaded) {
      const m = h.memory();
      total.heapUsed += m.heapUsed;
      total.memorySize += m.memorySize;
      total.handles += m.handles;
      total.models += m.models;
      total.modules![variant] = m;
    }
    return total;
  }

  /** Called after an answer: the article's full build loads in the background, once. */
  warm(): void {
    if (this.#article && !this.#loading.has('full')) void this.handlers('full').catch(() => {});
  }

  #defaultVariant(): LabVariant {
    return smallestVariantFor('memoryStats');
  }
}
