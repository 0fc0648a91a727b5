// The package entry point (`import { loadAttentionLab } from 'attention-lab'`): loads the wasm core
// once, lazily, and wraps its embind functions so that errors become JS Errors. The same file
// serves Node, the browser main thread and Web Workers. Types: shared/types/attention-lab.d.ts.
import { Seq2Seq, asBytes } from './seq2seq.mjs';
import { ImportedSeq2Seq, isSafetensors } from './safetensors.mjs';
import { Seq2SeqModel } from './seq2seq-model.mjs';
import { unwrap } from './unwrap.mjs';

// Three builds of the same core (CMakeLists.txt): 'full' has everything; 'attention' (attention
// only: no ops, no Seq2Seq) and 'seq2seq' (Seq2Seq training and decoding only: no attention
// bindings, no ops, no model files) are fractions of the download, for pages such as embedded
// widgets. Dynamic imports, so a bundler emits each as its own chunk and a page fetches only the
// variants it loads.
const VARIANTS = {
  full: { load: () => import('../../build/wasm/attention_lab_core.mjs'), api: (core) => new AttentionLab(core) },
  attention: {
    load: () => import('../../build/wasm/attention_lab_attention.mjs'),
    api: (core) => new AttentionOnlyLab(core),
  },
  seq2seq: { load: () => import('../../build/wasm/attention_lab_seq2seq.mjs'), api: (core) => new Seq2SeqOnlyLab(core) },
};

const loading = new Map();

/**
 * Loads the module (once per JS realm and variant) and resolves to the API object.
 * options.variant: 'full' (default), 'attention' (no ops, no Seq2Seq methods) or 'seq2seq'
 * (createSeq2Seq only; its models cannot be saved).
 */
export function loadAttentionLab(options) {
  const variant = options?.variant ?? 'full';
  if (!Object.hasOwn(VARIANTS, variant)) {
    return Promise.reject(
      new Error(`unknown variant ${JSON.stringify(String(variant))}: use 'full', 'attention' or 'seq2seq'`),
    );
  }
  if (!loading.has(variant)) {
    const { load, api } = VARIANTS[variant];
    const promise = load()
      .then(({ default: createCore }) => createCore())
      .then((core) => Object.freeze(api(core)));
    promise.catch(() => {
      loading.delete(variant); // a failed load (e.g. network) may be retried
    });
    loading.set(variant, promise);
  }
  return loading.get(variant);
}

/**
 * Memory diagnostics (leak tests, long-running pages): malloc bytes in use, the size of wasm
 * memory (it only grows), and embind's live handle count. Every variant has them.
 */
function memoryStats(core) {
  return { heapUsed: core.heapUsedBytes(), memorySize: core.HEAP8.length, handles: core.count_emval_handles() };
}

class AttentionOnlyLab {
  #core;
  constructor(core) {
    this.#core = core;
  }

  /** Attention of queries over keys with any score function; see the .d.ts for every field. */
  attention(args) {
    return unwrap(this.#core.attention(args ?? null));
  }

  memoryStats() {
    return memoryStats(this.#core);
  }

  /** §3.5: scaled dot-product self-attention with learned Q, K, V projections. */
  selfAttention(x, params, options) {
    return unwrap(this.#core.selfAttention(x ?? null, params ?? null, options ?? null));
  }

  /** §3.6: multi-head self-attention; numHeads must divide the feature size. */
  multiHeadAttention(x, params, numHeads, options) {
    if (typeof numHeads !== 'number') throw new Error('numHeads must be a number');
    return unwrap(this.#core.multiHeadAttention(x ?? null, params ?? null, numHeads, options ?? null));
  }
}

/** The 'seq2seq' module's API: Seq2Seq models to train, evaluate and translate with (no files). */
class Seq2SeqOnlyLab {
  #core;
  constructor(core) {
    this.#core = core;
  }

  /** §3.3: a new Seq2Seq model on one task. The caller owns it: call .delete() when done. */
  createSeq2Seq(config) {
    return Seq2Seq.create(this.#core, config);
  }

  memoryStats() {
    return memoryStats(this.#core);
  }
}

/** The full module's API: the attention API plus the ops and Seq2Seq. */
class AttentionLab extends AttentionOnlyLab {
  #core;
  constructor(core) {
    super(core);
    this.#core = core;
    const c = core;
    // Only the full build has the ops bindings (the attention build leaves them out for size).
    this.ops = Object.freeze({
      linear: (x, weight, bias, options) => unwrap(c.linear(x, weight, bias ?? null, options ?? null)),
      embedding: (ids, table, options) => unwrap(c.embedding(ids, table, options ?? null)),
      tanh: (x, options) => unwrap(c.tanh(x, options ?? null)),
      softmax: (x, options) => unwrap(c.softmax(x, options ?? null)),
      crossEntropy: (logits, targets, options) =>
        unwrap(c.crossEntropy(logits, targets, options ?? null)),
    });
  }

  /** §3.3: a new Seq2Seq model on one task. The caller owns it: call .delete() when done. */
  createSeq2Seq(config) {
    return Seq2Seq.create(this.#core, config);
  }

  /**
   * A Seq2Seq model from .atlb bytes (Seq2Seq.save()), or an ImportedSeq2Seq from a .safetensors
   * translator (PyTorch's format, docs/safetensors.md), told apart by content. The caller owns it:
   * call .delete().
   */
  loadSeq2Seq(bytes) {
    const b = asBytes(bytes);
    if (isSafetensors(b)) return ImportedSeq2Seq.load(this.#core, b);
    return Seq2Seq.load(this.#core, b);
  }

  /** A .safetensors translator (docs/safetensors.md), whatever its first bytes. Call .delete(). */
  loadSafetensors(bytes) {
    return ImportedSeq2Seq.load(this.#core, asBytes(bytes));
  }

  /**
   * The bare encoder-decoder (no task, no vocabulary): parameters by PyTorch state-dict name,
   * explicit id batches, gradients and Adam steps. The caller owns it: call .delete() when done.
   */
  createSeq2SeqModel(config) {
    return Seq2SeqModel.create(this.#core, config);
  }
}

/** Convenience: a tensor from a shape and values (any array-like of numbers). */
export function tensor(shape, values) {
  return { shape: [...shape], data: Float32Array.from(values) };
}
