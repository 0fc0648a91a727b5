// Which wasm build answers a call. The module table (CMakeLists.txt, mirrored by
// wasm/js/modules.mjs) says which API each build offers; the router asks it for the smallest build
// that has the method a call needs, so the first heatmap comes from the smallest download.
// A model's calls go to the build that holds the model. The article (a worker named
// FULL_WORKER_NAME) keeps its models in the full build, which can also save and load them, and
// loads that build in the background after its first answer; widgets load only what they use.
// Free of worker globals: the Node tests route with the real builds.
import { smallestVariantFor, type LabVariant } from '../lab';
import { type LabHandlers } from './handlers';
import type { LabApi, MemoryFigures } from './protocol';

/**
 * Where a call goes: 'model', the build that holds the model its first argument names; 'any', a
 * loaded build, else the smallest (calls every build answers alike); 'every', all loaded builds,
 * their figures summed; or the build a function picks from the call's arguments.
 */
type Route<K extends keyof LabApi> = 'model' | 'any' | 'every' | ((article: boolean, ...args: Parameters<LabApi[K]>) => LabVariant);

/** The smallest build whose lab has the wasm API method `method`. */
const smallest = (method: string) => (): LabVariant => smallestVariantFor(method);

/** Every LabApi method's route: a method without one, or one LabApi lacks, does not compile. */
const ROUTES: { [K in keyof LabApi]: Route<K> } = {
  attention: smallest('attention'),
  selfAttention: smallest('selfAttention'),
  multiHeadAttention: smallest('multiHeadAttention'),
  memory: 'every',
  // the article's models live in its full build; a Transformer lives in the smallest build that
  // has it, not in the recurrent translators' one
  'seq2seq.create': (article, config) =>
    article ? 'full' : smallestVariantFor(config?.arch === 'transformer' ? 'createSeq2Seq.transformer' : 'createSeq2Seq'),
  'seq2seq.load': smallest('loadSeq2Seq'),
  'seq2seq.info': 'model',
  'seq2seq.train': 'model',
  'seq2seq.trainStream': 'model',
  'seq2seq.evaluate': 'model',
  'seq2seq.translate': 'model',
  'seq2seq.attribution': 'model',
  'seq2seq.recordTimeline': 'model',
  'seq2seq.stopTimeline': 'model',
  'seq2seq.timeline': 'model',
  'seq2seq.exportTimeline': 'model',
  'seq2seq.save': 'model',
  'seq2seq.vocabulary': 'model',
  'seq2seq.heldOut': 'model',
  'seq2seq.delete': 'model',
  // §5's GPT: the small GPT build, loaded when §5 first asks (the article's full build has it too)
  'gpt.create': smallest('createGptSession'),
  'gpt.info': 'model',
  'gpt.train': 'model',
  'gpt.evaluate': 'model',
  'gpt.sample': 'model',
  'gpt.heads': 'model',
  'gpt.delete': 'model',
  // the builds share one set of streams
  'stream.stop': 'any',
  'debug.crash': 'any',
};

type Method = keyof LabApi;

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

  /** LabApi over every build (what the worker exposes): each method calls call(). */
  readonly api = Object.fromEntries(
    Object.keys(ROUTES).map((method) => [method, (...args: unknown[]) => this.call(method as Method, args)]),
  ) as Record<Method, (...args: unknown[]) => Promise<unknown>>;

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

  /** Answers one call in the build its route names; after it, the article's full build loads in the background. */
  async call(method: Method, args: unknown[]): Promise<unknown> {
    if (ROUTES[method] === 'every') return this.memory();
    let h: LabHandlers;
    try {
      h = await this.handlers(this.variantFor(method, args));
    } catch (err) {
      const error = new Error(`could not load the wasm core: ${err instanceof Error ? err.message : String(err)}`);
      if (err instanceof Error) error.name = err.name;
      throw error;
    }
    try {
      return (h.api[method] as (...a: unknown[]) => unknown)(...args);
    } finally {
      this.#warm();
    }
  }

  /** The build for a call that is not a memory call. */
  variantFor(method: Method, args: unknown[]): LabVariant {
    const route = ROUTES[method] as Route<Method>;
    if (typeof route === 'function') return (route as (article: boolean, ...a: unknown[]) => LabVariant)(this.#article, ...args);
    const model = args[0];
    if (route === 'model' && typeof model === 'number') {
      for (const [variant, h] of this.#loaded) if (h.hasModel(model)) return variant;
    }
    // no build holds it (any loaded build answers "no model N"), or any build answers
    return this.#loaded.keys().next().value ?? smallestVariantFor('memoryStats');
  }

  /** Heap, memory and handles of every loaded build, summed, with each build's own figures. */
  async memory(): Promise<ReturnType<LabApi['memory']>> {
    if (this.#loaded.size === 0) await this.handlers(smallestVariantFor('memoryStats'));
    const total: ReturnType<LabApi['memory']> = { heapUsed: 0, memorySize: 0, handles: 0, models: 0, modules: {} };
    for (const [variant, h] of this.#loaded) {
      const m: MemoryFigures = h.api.memory();
      total.heapUsed += m.heapUsed;
      total.memorySize += m.memorySize;
      total.handles += m.handles;
      total.models += m.models;
      total.modules![variant] = m;
    }
    return total;
  }

  #warm(): void {
    if (this.#article && !this.#loading.has('full')) void this.handlers('full').catch(() => {});
  }
}
