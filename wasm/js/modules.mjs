// The wasm modules and the JS API each one offers: the JS mirror of the module table in
// CMakeLists.txt (explained in docs/build.md). Hand-kept; tests/wasm/modules.test.mjs checks it
// against CMakeLists.txt and against what each built module actually exports.
//
// A module's API is decided by the binding files it links (one file, one piece of API), so this
// file lists, per binding file, the embind names it exports and the methods of the object that
// loadAttentionLab() resolves to. Loaders and routers ask `moduleFor(method)` instead of
// guessing from operation names.
/** @import { CoreFactory } from './types/core.js' */

/**
 * A row of MODULES. `load` and `fma` import build/wasm/<file>.mjs and <file>_fma.mjs.
 * @typedef {object} WasmModule
 * @property {string} variant
 * @property {string} file
 * @property {readonly string[]} bindings
 * @property {() => Promise<{ default: CoreFactory }>} load
 * @property {() => Promise<{ default: CoreFactory }>} [fma]
 */

/**
 * Per wasm/bindings/<file>.cpp: its embind exports and the lab API methods they back.
 * @type {Readonly<Record<string, { exports: string[], api: string[] }>>}
 */
export const BINDINGS = Object.freeze({
  convert: { exports: [], api: [] }, // JS ⇄ C++ conversion, used by every binding
  seq2seq_convert: { exports: [], api: [] }, // the translators' and bare models' conversion
  why_convert: { exports: [], api: [] }, // interventions and attribution: their conversion
  diagnostics_bindings: { exports: ['heapUsedBytes'], api: ['memoryStats'] },
  attention_bindings: {
    // kernelGemm: the GEMM kernels alone, for their tests (tests/wasm/kernels.test.mjs);
    // attentionStage / attentionRunStaged: attention's staged path (staged-attention.mjs)
    exports: ['attention', 'selfAttention', 'multiHeadAttention', 'kernelGemm', 'attentionStage', 'attentionRunStaged'],
    api: ['attention', 'selfAttention', 'multiHeadAttention'],
  },
  ops_bindings: {
    // kernelActivation: the wasm sigmoid / tanh / GELU / exp kernels alone; kernelCrossEntropyStep:
    // the models' one-pass loss and gradient; both for tests/wasm/kernels.test.mjs
    exports: ['linear', 'embedding', 'tanh', 'softmax', 'crossEntropy', 'kernelActivation', 'kernelCrossEntropyStep'],
    api: ['ops'],
  },
  seq2seq_bindings: { exports: ['createSeq2Seq', 'Seq2SeqSession'], api: ['createSeq2Seq'] },
  // interventions, attribution and the timeline of a Seq2Seq session: model methods, and
  // translate's interventions (elsewhere they throw, saying so)
  seq2seq_why_bindings: {
    exports: ['seq2seqAttribution', 'seq2seqRecordTimeline', 'seq2seqStopTimeline', 'seq2seqTimeline'],
    api: ['Seq2Seq.attribution', 'Seq2Seq.timeline'],
  },
  seq2seq_model_bindings: {
    exports: ['createSeq2SeqModel', 'Seq2SeqModelHandle'],
    api: ['createSeq2SeqModel'],
  },
  // 'Seq2Seq.save': a method of the models createSeq2Seq returns (elsewhere it throws, saying so)
  seq2seq_file_bindings: { exports: ['saveSeq2Seq', 'loadSeq2Seq'], api: ['loadSeq2Seq', 'Seq2Seq.save'] },
  // the bare Transformer: createSeq2SeqModel({ arch: 'transformer', … }) (docs/transformer.md)
  transformer_model_bindings: {
    exports: ['createTransformerModel', 'TransformerModelHandle'],
    api: ['createSeq2SeqModel'],
  },
  // the Transformer translator: createSeq2Seq({ arch: 'transformer', … }), its save and load
  transformer_session_bindings: {
    // createSeq2Seq: in the 'transformer' build it makes Transformers only (seq2seq.mjs says so)
    exports: ['createTransformerSession', 'TransformerSession'],
    api: ['createSeq2Seq', 'createSeq2Seq.transformer'],
  },
  // attribution and the timeline of a Transformer session (translate's interventions are the
  // session bindings')
  transformer_why_bindings: {
    exports: ['transformerAttribution', 'transformerRecordTimeline', 'transformerStopTimeline', 'transformerTimeline'],
    api: ['Transformer.attribution', 'Transformer.timeline'],
  },
  // the Transformer's model files: 'Transformer.save' (a method of its models) and loadSeq2Seq of a
  // Transformer file
  transformer_file_bindings: {
    exports: ['saveTransformer', 'exportTransformerSafetensors', 'loadTransformer', 'isTransformerFile'],
    api: ['Transformer.save', 'loadSeq2Seq.transformer'],
  },
  // the GPT (docs/architecture.md): its embind class, no method of the lab object yet
  gpt_bindings: {
    exports: ['createGptModel', 'createGptModelFromSafetensors', 'GptModelHandle'],
    api: [],
  },
  // the GPT's generation options and steps, shared by its two bindings
  gpt_convert: { exports: [], api: [] },
  // the GPT session (docs/gpt.md): lab.createGptSession / loadGptSession
  gpt_session_bindings: {
    exports: ['createGptSession', 'loadGptSession', 'GptSessionHandle'],
    api: ['createGptSession', 'loadGptSession'],
  },
  // PyTorch's .safetensors translators in and out (docs/safetensors.md)
  safetensors_bindings: {
    exports: ['importSafetensors', 'exportSeq2SeqSafetensors', 'ImportedSeq2Seq'],
    api: ['loadSafetensors'],
  },
});

/**
 * The modules, smallest download first (gzip -9 of the .wasm, `bash scripts/build-wasm.sh`
 * prints them). `variant` is loadAttentionLab's option; `file` the build/wasm/<file>.{mjs,wasm}
 * pair; `bindings` the BINDINGS row of CMakeLists.txt, in its order. A row with `fma` has a
 * second build, <file>_fma, whose GEMM kernels use relaxed SIMD's fused multiply-add (the rows
 * with FMA in CMakeLists.txt): `fma` imports it, for engines that validate relaxed SIMD.
 * @type {readonly WasmModule[]}
 */
export const MODULES = Object.freeze(/** @type {WasmModule[]} */ ([
  {
    variant: 'attention',
    file: 'attention_lab_attention',
    bindings: ['convert', 'diagnostics_bindings', 'attention_bindings'],
    load: () => import('../../build/wasm/attention_lab_attention.mjs'),
  },
  {
    variant: 'seq2seq',
    file: 'attention_lab_seq2seq',
    bindings: ['convert', 'seq2seq_convert', 'diagnostics_bindings', 'seq2seq_bindings'],
    load: () => import('../../build/wasm/attention_lab_seq2seq.mjs'),
  },
  {
    variant: 'transformer',
    file: 'attention_lab_transformer',
    bindings: ['convert', 'seq2seq_convert', 'diagnostics_bindings', 'transformer_session_bindings'],
    load: () => import('../../build/wasm/attention_lab_transformer.mjs'),
    fma: () => import('../../build/wasm/attention_lab_transformer_fma.mjs'),
  },
  {
    variant: 'gpt',
    file: 'attention_lab_gpt',
    bindings: ['convert', 'diagnostics_bindings', 'gpt_convert', 'gpt_session_bindings'],
    load: () => import('../../build/wasm/attention_lab_gpt.mjs'),
    fma: () => import('../../build/wasm/attention_lab_gpt_fma.mjs'),
  },
  {
    variant: 'full',
    file: 'attention_lab_core',
    bindings: [
      'convert',
      'seq2seq_convert',
      'why_convert',
      'diagnostics_bindings',
      'attention_bindings',
      'ops_bindings',
      'seq2seq_bindings',
      'seq2seq_why_bindings',
      'seq2seq_model_bindings',
      'seq2seq_file_bindings',
      'safetensors_bindings',
      'transformer_model_bindings',
      'transformer_session_bindings',
      'transformer_why_bindings',
      'transformer_file_bindings',
      'gpt_convert',
      'gpt_bindings',
      'gpt_session_bindings',
    ],
    load: () => import('../../build/wasm/attention_lab_core.mjs'),
    fma: () => import('../../build/wasm/attention_lab_core_fma.mjs'),
  },
]).map((m) => Object.freeze({ ...m, bindings: Object.freeze(m.bindings) })));

/**
 * The embind names a module exports (beyond emscripten's own).
 * @param {string} variant
 * @returns {string[]}
 */
export function exportsOf(variant) {
  return moduleNamed(variant).bindings.flatMap((b) => BINDINGS[b].exports);
}

/**
 * The lab API methods a module offers ('ops' is an object of functions; 'Seq2Seq.save' a model method).
 * @param {string} variant
 * @returns {string[]}
 */
export function apiOf(variant) {
  return moduleNamed(variant).bindings.flatMap((b) => BINDINGS[b].api);
}

/**
 * The smallest module that offers every one of `methods` (names as in apiOf); throws if none does.
 * @param {...string} methods
 * @returns {WasmModule}
 */
export function moduleFor(...methods) {
  const found = MODULES.find((m) => methods.every((name) => apiOf(m.variant).includes(name)));
  if (!found) throw new Error(`no wasm module offers ${methods.join(', ')}`);
  return found;
}

/** @param {string} variant */
function moduleNamed(variant) {
  const found = MODULES.find((m) => m.variant === variant);
  if (!found) {
    throw new Error(
      `unknown variant ${JSON.stringify(String(variant))}: use ${MODULES.map((m) => `'${m.variant}'`).join(', ')}`,
    );
  }
  return found;
}
