// config.arch of the factories that make either kind of model (Seq2Seq.create in seq2seq.mjs,
// Seq2SeqModel.create in seq2seq-model.mjs): 'rnn' (the default, the recurrent encoder-decoder)
// or 'transformer', whose binding has the same methods, so one JS class wraps both. Also the keys
// of either kind that would have no effect, refused here once for both classes.
import { unwrap } from './unwrap.mjs';
/** @import { Core } from './types/core.js' */
/** @import { EmbindHandle } from './owned-handle.mjs' */

/**
 * What the factories accept: the translators' and the bare models' configs. Their keys are checked
 * here only where a key would have no effect; the core refuses the rest.
 * @typedef {{ arch?: unknown, attention?: unknown, score?: unknown, task?: unknown, taskOptions?: unknown } | null | undefined} ArchConfig
 */

// The taskOptions each task reads (the core takes all six keys from any task and ignores the rest).
const ALL_TASK_OPTIONS = ['seed', 'heldOut', 'train', 'minLen', 'maxLen', 'symbols'];
/** @type {Record<string, string[]>} */
const TASK_OPTIONS = { note: [], dates: ['seed', 'heldOut'], 'zh-en': ['seed', 'heldOut', 'train'], reverse: ALL_TASK_OPTIONS,
  copy: ALL_TASK_OPTIONS, pairs: ['seed'] };

/**
 * Refuses a taskOptions key that the config's task does not read (unknown keys: the core's message).
 * @param {ArchConfig} config
 */
function refuseIdleTaskOptions(config) {
  const task = config?.task, options = config?.taskOptions;
  const reads = typeof task === 'string' && Object.hasOwn(TASK_OPTIONS, task) ? TASK_OPTIONS[task] : undefined;
  if (options === null || typeof options !== 'object' || !reads) return;
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || !ALL_TASK_OPTIONS.includes(key) || reads.includes(key)) continue;
    if (task === 'pairs' && (key === 'heldOut' || key === 'train')) continue; // the core explains the fraction
    const its = reads.length ? `its options: ${reads.join(', ')}` : 'it has none: its five pairs are fixed';
    throw new Error(`config.taskOptions.${key} has no effect with task '${task}' (${its})`);
  }
}

/**
 * attribution()'s `steps` is integrated gradients' step count: with gradient × input (the
 * default method) it would have no effect, so it is refused as a misspelt key is.
 * @param {{ method?: unknown, steps?: unknown } | null | undefined} options
 */
export function refuseIdleAttributionSteps(options) {
  if (options === null || typeof options !== 'object' || options.steps === undefined) return;
  if (options.method !== undefined && options.method !== 'gradient-input') return;
  const method = options.method === undefined ? "'gradient-input', the default" : "'gradient-input'";
  throw new Error(`attribution: steps applies to method 'integrated-gradients' only (the method is ${method})`);
}

/**
 * The new embind handle of the model config.arch names: core[transformer](config) for
 * 'transformer' (the 'transformer' and full modules have it), core[recurrent](config without 'arch', a key the
 * recurrent binding does not know) for 'rnn' or no arch. Throws an Error for any other arch and
 * rethrows the binding's {error}.
 * @param {Core} core
 * @param {ArchConfig} config
 * @param {{ recurrent: string, transformer: string }} factories the names of the two bindings
 * @returns {EmbindHandle}
 */
export function createByArch(core, config, { recurrent, transformer }) {
  const arch = config?.arch;
  // A key that would have no effect is an error, never ignored ('dot', the default, is harmless).
  if (config?.attention === false && config.score !== undefined && config.score !== 'dot') {
    throw new Error(`config.score ${JSON.stringify(String(config.score))} has no effect with attention: false (leave out score, or set attention: true)`);
  }
  refuseIdleTaskOptions(config);
  if (arch === 'transformer') {
    if (typeof core[transformer] !== 'function') {
      throw new Error("this module variant has no Transformer: load variant 'transformer' or 'full'");
    }
    return unwrap(core[transformer](config));
  }
  if (arch !== undefined && arch !== 'rnn') {
    throw new Error(`config.arch must be 'rnn' or 'transformer' (got ${JSON.stringify(String(arch))})`);
  }
  let rnn = config ?? null;
  if (rnn !== null && typeof rnn === 'object' && Object.hasOwn(rnn, 'arch')) {
    const { arch: _arch, ...rest } = rnn;
    rnn = rest;
  }
  if (typeof core[recurrent] !== 'function') {
    throw new Error("this module variant has only the Transformer (config.arch: 'transformer'): load variant 'seq2seq' or 'full' for the recurrent translators");
  }
  return unwrap(core[recurrent](rnn));
}
