// Loading the wasm core and model files for the CLI; every session (Seq2Seq or GPT) it creates is tracked
// so that main() can .delete() them all before exiting, whatever happened.
import { readFileSync } from 'node:fs';
import { ioMessage, writeAtomic } from './files.mjs';
import { RuntimeError, UsageError } from './options.mjs';
import { errorMessage } from './messages.mjs';
/**
 * @import {
 *  AttentionLab, GptOnlyLab, GptSession, GptSessionConfig, ImportedSeq2Seq, ImportedSeq2SeqInfo,
 *  ImportedTransformerInfo, Seq2Seq, Seq2SeqConfig, Seq2SeqInfo, TransformerSeq2SeqConfig,
 *  TransformerSeq2SeqInfo, TransformerTranslateResult, TranslateOptions, TranslateResult,
 *  SaveOptions
 * } from '../types/attention-lab.js'
 */

/**
 * A translator's info() as the CLI reads it: a session's (trained here, recurrent or Transformer)
 * has no `format`; a translator read from .safetensors says 'safetensors'.
 * @typedef {(Seq2SeqInfo & { arch: 'rnn', format?: undefined }) | (TransformerSeq2SeqInfo & { format?: undefined })} SessionInfo
 */
/**
 * A translator session, recurrent or Transformer (one class: its info().arch tells them apart,
 * and a Transformer's translation carries every layer's and head's attention).
 * @typedef {Omit<Seq2Seq, 'info' | 'translate'> & { info(): SessionInfo, translate(text: string, options?: TranslateOptions): TranslateResult | TransformerTranslateResult }} Session
 */
/**
 * A translator of a model file: a session, or one read from .safetensors.
 * @typedef {Session | (Omit<ImportedSeq2Seq, 'info' | 'translate'> & { info(): ImportedSeq2SeqInfo | ImportedTransformerInfo, translate(text: string, options?: TranslateOptions): TranslateResult | TransformerTranslateResult })} Translator
 */

/**
 * Whether the translator is a session (trained here), not one read from .safetensors.
 * @param {Translator} model
 * @returns {model is Session}
 */
export const isSession = (model) => model.info().format !== 'safetensors';

/** @type {Set<{ delete(): void }>} */
const live = new Set();

/**
 * The API of the full module, or of `variant` (the GPT's commands load the smaller 'gpt' one).
 * @overload
 * @returns {Promise<AttentionLab>}
 */
/**
 * @overload
 * @param {'gpt'} variant
 * @returns {Promise<GptOnlyLab>}
 */
/**
 * @param {'gpt'} [variant]
 * @returns {Promise<AttentionLab | GptOnlyLab>}
 */
export async function loadLab(variant) {
  try {
    const mod = await import('../attention-lab.mjs');
    return await (variant ? mod.loadAttentionLab({ variant }) : mod.loadAttentionLab());
  } catch (e) {
    const error = /** @type {NodeJS.ErrnoException | undefined} */ (e);
    const missing = error?.code === 'ERR_MODULE_NOT_FOUND' && /attention_lab_/.test(error.message);
    throw new RuntimeError(missing ? 'the wasm core is not built (build/wasm/ is missing): run `npm run build:wasm`'
      : `cannot load the wasm core: ${error?.message ?? e}`);
  }
}

/**
 * @template {{ delete(): void }} S
 * @param {S} session
 * @returns {S}
 */
function track(session) {
  live.add(session);
  return session;
}

/**
 * Frees one session (or, without an argument, every session still alive).
 * @param {{ delete(): void }} [session]
 */
export function release(session) {
  const all = session ? [session] : [...live];
  for (const s of all) {
    live.delete(s);
    try { s.delete(); } catch { /* already gone */ }
  }
}

/**
 * A new model; the core's config errors (e.g. "attentional_tanh needs attention") are usage errors.
 * @param {AttentionLab} lab
 * @param {Seq2SeqConfig | TransformerSeq2SeqConfig} config
 * @returns {Session}
 */
export function createModel(lab, config) {
  try {
    return track(/** @type {Session} */ (lab.createSeq2Seq(config)));
  } catch (e) {
    throw new UsageError(errorMessage(e));
  }
}

/**
 * A new GPT session (--task poems); `textFile` names --text in the core's corpus errors.
 * @param {GptOnlyLab} lab
 * @param {GptSessionConfig} config
 * @param {string | undefined} textFile
 */
export function createGpt(lab, config, textFile) {
  try {
    return track(lab.createGptSession(config));
  } catch (e) {
    const message = errorMessage(e);
    throw new UsageError(textFile !== undefined && /\btext\b/.test(message) ? `--text '${textFile}': ${message}` : message);
  }
}

/**
 * The GPT session in `path` (written by `train --task poems`); bad files are runtime errors naming it.
 * @param {GptOnlyLab} lab
 * @param {string} path
 */
export function readGpt(lab, path) {
  const bytes = modelBytes(path, 'MODEL');
  try {
    return track(lab.loadGptSession(bytes));
  } catch (e) {
    const message = errorMessage(e);
    const hint = /is not a GPT model/.test(message) ? ' (generate reads a model written by `attention-lab train --task poems`)' : '';
    throw new RuntimeError(`MODEL '${path}': ${message}${hint}`);
  }
}

/**
 * The bytes of the model file `path` (named `name` in errors: unreadable or empty is a runtime error).
 * @param {string} path
 * @param {string} name
 */
function modelBytes(path, name) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new RuntimeError(`cannot read ${name} '${path}': ${ioMessage(e)}`);
  }
  if (bytes.length === 0) throw new RuntimeError(`${name} '${path}' is empty`);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The translator (Seq2Seq or Transformer) in `path`: unreadable or corrupt files are runtime errors naming the file.
 * @param {AttentionLab} lab
 * @param {string} path
 * @param {string} [flag]
 * @returns {Translator}
 */
export function readModel(lab, path, flag = 'model') {
  const bytes = modelBytes(path, `--${flag}`);
  try {
    return track(/** @type {Translator} */ (lab.loadSeq2Seq(bytes)));
  } catch (e) {
    throw new RuntimeError(`--${flag} '${path}': ${errorMessage(e)}`);
  }
}

/**
 * The model in `path`, a translator or a GPT (`train --task poems`): {gpt: false, model} or
 * {gpt: true, model}, for the commands that read either (info, evaluate).
 * @param {AttentionLab} lab
 * @param {string} path
 * @param {string} [flag]
 * @returns {{ gpt: false, model: Translator } | { gpt: true, model: GptSession }}
 */
export function readAnyModel(lab, path, flag = 'model') {
  const bytes = modelBytes(path, `--${flag}`);
  try {
    return { gpt: false, model: track(/** @type {Translator} */ (lab.loadSeq2Seq(bytes))) };
  } catch (e) {
    if (!/is not a Seq2Seq model/.test(errorMessage(e))) throw new RuntimeError(`--${flag} '${path}': ${errorMessage(e)}`);
    try {
      return { gpt: true, model: track(lab.loadGptSession(bytes)) };
    } catch (g) {
      const message = errorMessage(g);
      throw new RuntimeError(`--${flag} '${path}': ${/is not a GPT model/.test(message) ? 'not a model file of attention-lab train (a translator or a GPT)' : message}`);
    }
  }
}

/**
 * Writes the model atomically to --out (or `flag`); returns the bytes written.
 * @param {{ save(options?: SaveOptions): Uint8Array }} session
 * @param {string} path
 * @param {SaveOptions} [saveOptions]
 * @param {string} [flag]
 */
export function writeModel(session, path, saveOptions, flag = 'out') {
  return writeAtomic(path, session.save(saveOptions), flag);
}
