// The package entry point (`import { loadAttentionLab } from 'attention-lab'`): loads the wasm core
// once, lazily, and wraps its embind functions so that errors become JS Errors. The same file
// serves Node, the browser main thread and Web Workers. Types: the JSDoc here, and the API object
// and binding shapes in types/attention-lab.d.ts (the package's types entry re-exports both).
import { Seq2Seq, asBytes } from './seq2seq.mjs';
import { GptSession } from './gpt.mjs';
import { MODULES, apiOf } from './modules.mjs';
import { stagedAttention } from './staged-attention.mjs';
import { unwrap } from './unwrap.mjs';
import { idsOf } from './ids.mjs';
/** @import { Core } from './types/core.js' */
/** @import { WasmModule } from './modules.mjs' */
/** @import { AttentionArgs, AttentionLab, LoadAttentionLab, Ops, Tensor } from './types/attention-lab.js' */
/** @typedef {typeof import('./safetensors.mjs') & typeof import('./seq2seq-model.mjs')} Wrappers */

// The builds of the same core are the rows of MODULES (wasm/js/modules.mjs, the JS mirror of
// CMakeLists.txt's module table): 'full' has everything; 'attention' and 'seq2seq' are fractions
// of the download, for pages such as embedded widgets. Each row's `load` is a literal dynamic
// import, so a bundler emits each module as its own chunk and a page fetches only what it loads.
// The API object of a variant has exactly the methods apiOf(variant) lists, built from METHODS.
const DEFAULT_VARIANT = 'full';

/**
 * The wrappers of the model files and of the bare models, imported with a build whose API has
 * these methods (the full one): the widgets' builds have none of them, so a widget's worker does
 * not download them (about 2 KB gzip).
 */
const WRAPPERS = Object.freeze({
  loadSeq2Seq: () => import('./safetensors.mjs'),
  loadSafetensors: () => import('./safetensors.mjs'),
  createSeq2SeqModel: () => import('./seq2seq-model.mjs'),
});

/**
 * Per lab API method (the names of BINDINGS[…].api in modules.mjs): given the module instance
 * and the WRAPPERS it needs (one object of their exports), the function the API object offers.
 * Errors from the bindings become JS Errors (unwrap). Each is checked against the method of the
 * AttentionLab interface that it implements, except the results of createSeq2Seq, loadSeq2Seq and
 * createSeq2SeqModel: their declared types follow the config or the bytes (conditional and generic
 * types) where tsc cannot, so those results are cast.
 * @type {{ readonly [K in keyof AttentionLab]: (core: Core, wrappers: Wrappers) => AttentionLab[K] }}
 */
const METHODS = Object.freeze({
  /**
   * Memory diagnostics (leak tests, long-running pages): malloc bytes in use, the size of wasm
   * memory (it only grows), and embind's live handle count. Every variant has them.
   */
  memoryStats: (core) => () => ({
    heapUsed: core.heapUsedBytes(),
    memorySize: core.HEAP8.length,
    handles: core.count_emval_handles(),
  }),

  /**
   * Attention of queries over keys with any score function; see the .d.ts for every field. Small
   * calls without weights or gradients take the staged path (staged-attention.mjs), the same
   * computation without converting the argument object through embind.
   */
  attention: (core) => {
    const staged = stagedAttention(core);
    return (args) => {
      checkAttentionKeys(args);
      return unwrap(staged(args) ?? core.attention(args ?? null));
    };
  },

  /** §3.5: scaled dot-product self-attention with learned Q, K, V projections. */
  selfAttention: (core) => (x, params, options) =>
    unwrap(core.selfAttention(x ?? null, params ?? null, options ?? null)),

  /** §3.6: multi-head self-attention; numHeads must divide the feature size. */
  multiHeadAttention: (core) => (x, params, numHeads, options) => {
    if (typeof numHeads !== 'number') throw new Error('numHeads must be a number');
    return unwrap(core.multiHeadAttention(x ?? null, params ?? null, numHeads, options ?? null));
  },

  /** The ops on their own (an object of functions, not a method). */
  ops: (core) =>
    Object.freeze(/** @satisfies {Ops} */ ({
      linear: (x, weight, bias, options) => unwrap(core.linear(x, weight, bias ?? null, options ?? null)),
      embedding: (ids, table, options) => unwrap(core.embedding(idsOf(ids), table, options ?? null)),
      tanh: (x, options) => unwrap(core.tanh(x, options ?? null)),
      softmax: (x, options) => unwrap(core.softmax(x, options ?? null)),
      crossEntropy: (logits, targets, options) => unwrap(core.crossEntropy(logits, idsOf(targets), options ?? null)),
    })),

  /**
   * §3.3: a new Seq2Seq model on one task. The caller owns it: call .delete() when done. Its
   * .save() works where the module has the model-file bindings ('Seq2Seq.save' in apiOf).
   */
  createSeq2Seq: (core) => (config) => /** @type {any} */ (Seq2Seq.create(core, config)),

  /**
   * A Seq2Seq model from .atlb bytes (Seq2Seq.save()), or an ImportedSeq2Seq from a .safetensors
   * translator (PyTorch's format, docs/safetensors.md), told apart by content. The caller owns it:
   * call .delete().
   */
  loadSeq2Seq: (core, { ImportedSeq2Seq, isSafetensors }) => (bytes) => {
    const b = asBytes(bytes);
    return /** @type {any} */ (isSafetensors(b) ? ImportedSeq2Seq.load(core, b) : Seq2Seq.load(core, b));
  },

  /** A .safetensors translator (docs/safetensors.md), whatever its first bytes. Call .delete(). */
  loadSafetensors: (core, { ImportedSeq2Seq }) => (bytes) => ImportedSeq2Seq.load(core, asBytes(bytes)),

  /**
   * The bare encoder-decoder (no task, no vocabulary): parameters by PyTorch state-dict name,
   * explicit id batches, gradients and Adam steps. The caller owns it: call .delete() when done.
   */
  createSeq2SeqModel: (core, { Seq2SeqModel }) => (config) => /** @type {any} */ (Seq2SeqModel.create(core, config)),

  /**
   * A character-level GPT on a corpus (the Tang poems or the caller's text; docs/gpt.md): train,
   * evaluate against unigram and bigram baselines, sample, save. The caller must .delete() it.
   */
  createGptSession: (core) => (config) => GptSession.create(core, config),

  /** A GPT session from GptSession.save() bytes. The caller must .delete() it. */
  loadGptSession: (core) => (bytes) => GptSession.load(core, bytes),
});

/**
 * The API object of one variant: exactly apiOf(variant), without model methods ('Seq2Seq.save').
 * Its type is the variant's interface in types/attention-lab.d.ts: the names come from the module
 * table at run time (tests/wasm/modules.test.mjs holds the table to the builds).
 * @param {string} variant
 * @param {Core} core
 * @returns {Promise<object>}
 */
async function apiObject(variant, core) {
  /** @type {Readonly<Record<string, () => Promise<object>>>} */
  const wrapperLoads = WRAPPERS;
  /** @type {Readonly<Record<string, (core: Core, wrappers: Wrappers) => unknown>>} */
  const methods = METHODS;
  const names = [...new Set(apiOf(variant).filter((name) => !name.includes('.')))];
  const loads = [...new Set(names.filter((name) => Object.hasOwn(wrapperLoads, name)).map((name) => wrapperLoads[name]))];
  /** @type {Wrappers} */
  const wrappers = Object.assign({}, ...(await Promise.all(loads.map((load) => load()))));
  return Object.freeze(
    Object.fromEntries(
      names.map((name) => {
        if (!Object.hasOwn(methods, name)) throw new Error(`modules.mjs lists ${name}, which attention-lab.mjs lacks`);
        return [name, methods[name](core, wrappers)];
      }),
    ),
  );
}

/** @type {Map<string, Promise<object>>} */
const loading = new Map();

/**
 * The smallest module with relaxed SIMD's f32x4.relaxed_madd (opcode 0xfd 0x85 0x02): a function
 * returning relaxed_madd of three v128 constants. Engines without relaxed SIMD (Safari, Node 20
 * without --experimental-wasm-relaxed-simd) reject it.
 */
const RELAXED_MADD_MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: () -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, 0x3d, 0x01, 0x3b, 0x00, // code section: one body of 59 bytes, no locals
  ...[0, 1, 2].flatMap(() => [0xfd, 0x0c, ...new Array(16).fill(0)]), // v128.const 0, three times
  0xfd, 0x85, 0x02, 0x0b, // f32x4.relaxed_madd, end
]);

/**
 * Whether this engine runs relaxed SIMD, so loadAttentionLab picks a variant's FMA build.
 * @returns {boolean}
 */
export function hasRelaxedSimd() {
  return typeof WebAssembly === 'object' && WebAssembly.validate(RELAXED_MADD_MODULE);
}

/**
 * Loads the module (once per JS realm, variant and build) and resolves to the API object.
 * options.variant: 'full' (default), 'attention' (no ops, no Seq2Seq methods), 'seq2seq'
 * (createSeq2Seq only; its models cannot be saved), 'transformer' or 'gpt'.
 * options.fma: whether to load the variant's FMA build (GEMM with fused multiply-add: faster, and
 * rounded once per product, so its numbers differ from the other build's in the last bits). By
 * default, where the engine has relaxed SIMD and the variant has such a build; `false` loads the
 * plain build anyway; `true` where the engine or the variant has none is an Error.
 * Its signatures, one per variant, are LoadAttentionLab's: the API object's type follows the variant.
 * @type {LoadAttentionLab}
 */
export const loadAttentionLab = (/** @type {{ variant?: unknown, fma?: unknown } | undefined} */ options) => {
  const variant = options?.variant ?? DEFAULT_VARIANT;
  const module = MODULES.find((m) => m.variant === variant);
  if (!module) return Promise.reject(new Error(`unknown variant ${JSON.stringify(String(variant))}: use ${variantList()}`));
  const asked = options?.fma;
  if (asked !== undefined && typeof asked !== 'boolean') {
    return Promise.reject(new Error(`fma must be true or false (got ${JSON.stringify(String(asked))})`));
  }
  if (asked && !module.fma) return Promise.reject(new Error(`variant '${variant}' has no FMA build: use ${variantList((m) => m.fma)}`));
  if (asked && !hasRelaxedSimd()) {
    return Promise.reject(new Error('fma: true needs relaxed SIMD, which this engine lacks (Node 20: run with --experimental-wasm-relaxed-simd)'));
  }
  const fma = asked ?? (Boolean(module.fma) && hasRelaxedSimd());
  const key = `${variant}${fma ? '+fma' : ''}`;
  if (!loading.has(key)) {
    const promise = (fma && module.fma ? module.fma() : module.load())
      .then(({ default: createCore }) => createCore())
      .then((core) => apiObject(module.variant, core));
    promise.catch(() => {
      loading.delete(key); // a failed load (e.g. network) may be retried
    });
    loading.set(key, promise);
  }
  return /** @type {Promise<any>} */ (loading.get(key));
};

/**
 * "'full', 'attention' or 'seq2seq'": the default first, then the rest of MODULES (those `which` keeps).
 * @param {(m: WasmModule) => unknown} [which]
 */
function variantList(which = () => true) {
  const kept = MODULES.filter(which).map((m) => m.variant);
  const names = [...kept.filter((v) => v === DEFAULT_VARIANT), ...kept.filter((v) => v !== DEFAULT_VARIANT)];
  const quoted = names.map((v) => `'${v}'`);
  return `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/**
 * Keys of attention() that have no effect with the score asked for are errors, never ignored:
 * temperature is the cosine score's, params the general and additive scores'.
 * @param {AttentionArgs | null | undefined} args
 */
function checkAttentionKeys(args) {
  if (args === null || typeof args !== 'object') return; // the core says what is wrong
  const score = args.score ?? 'scaled'; // the core's default (attention_bindings.cpp, staged-attention.mjs)
  const named = args.score === undefined ? "'scaled', the default" : JSON.stringify(String(score)).replace(/"/g, "'");
  if (args.temperature !== undefined && score !== 'cosine') {
    throw new Error(`temperature applies to score 'cosine' only (the score is ${named})`);
  }
  const params = args.params !== undefined && args.params !== null && (typeof args.params !== 'object' || Object.keys(args.params).length > 0);
  if (params && score !== 'general' && score !== 'additive') {
    throw new Error(`params applies to the scores 'general' and 'additive' only (the score is ${named})`);
  }
}

/**
 * Convenience: a tensor from a shape and values (any array-like of numbers); their counts must agree.
 * @param {readonly number[]} shape
 * @param {ArrayLike<number>} values
 * @returns {Tensor}
 */
export function tensor(shape, values) {
  const dims = [...shape];
  if (!dims.every((d) => Number.isInteger(d) && d >= 0)) {
    throw new Error(`tensor(): shape must be whole numbers >= 0 (got [${dims.join(', ')}])`);
  }
  const data = Float32Array.from(values);
  const size = dims.reduce((a, b) => a * b, 1);
  if (data.length !== size) throw new Error(`tensor(): shape [${dims.join(', ')}] needs ${size} values, got ${data.length}`);
  return { shape: dims, data };
}
