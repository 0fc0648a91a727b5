// Loading the wasm core and model files for the CLI; every session (Seq2Seq or GPT) it creates is tracked
// so that main() can .delete() them all before exiting, whatever happened.
import { readFileSync } from 'node:fs';
import { ioMessage, writeAtomic } from './files.mjs';
import { RuntimeError, UsageError } from './options.mjs';

const live = new Set();

/** The API of the full module, or of `variant` (the GPT's commands load the smaller 'gpt' one). */
export async function loadLab(variant) {
  try {
    const mod = await import('../attention-lab.mjs');
    return await mod.loadAttentionLab(variant ? { variant } : undefined);
  } catch (e) {
    const missing = e?.code === 'ERR_MODULE_NOT_FOUND' && /attention_lab_/.test(e.message);
    throw new RuntimeError(missing ? 'the wasm core is not built (build/wasm/ is missing): run `npm run build:wasm`'
      : `cannot load the wasm core: ${e?.message ?? e}`);
  }
}

function track(session) {
  live.add(session);
  return session;
}

/** Frees one session (or, without an argument, every session still alive). */
export function release(session) {
  const all = session ? [session] : [...live];
  for (const s of all) {
    live.delete(s);
    try { s.delete(); } catch { /* already gone */ }
  }
}

/** A new model; the core's config errors (e.g. "attentional_tanh needs attention") are usage errors. */
export function createModel(lab, config) {
  try {
    return track(lab.createSeq2Seq(config));
  } catch (e) {
    throw new UsageError(e.message);
  }
}

/** A new GPT session (--task poems); `textFile` names --text in the core's corpus errors. */
export function createGpt(lab, config, textFile) {
  try {
    return track(lab.createGptSession(config));
  } catch (e) {
    throw new UsageError(textFile !== undefined && /\btext\b/.test(e.message) ? `--text '${textFile}': ${e.message}` : e.message);
  }
}

/** The GPT session in `path` (written by `train --task poems`); bad files are runtime errors naming it. */
export function readGpt(lab, path) {
  const bytes = modelBytes(path, 'MODEL');
  try {
    return track(lab.loadGptSession(bytes));
  } catch (e) {
    const hint = /is not a GPT model/.test(e.message) ? ' (generate reads a model written by `attention-lab train --task poems`)' : '';
    throw new RuntimeError(`MODEL '${path}': ${e.message}${hint}`);
  }
}

/** The bytes of the model file `path` (named `name` in errors: unreadable or empty is a runtime error). */
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

/** The translator (Seq2Seq or Transformer) in `path`: unreadable or corrupt files are runtime errors naming the file. */
export function readModel(lab, path, flag = 'model') {
  const bytes = modelBytes(path, `--${flag}`);
  try {
    return track(lab.loadSeq2Seq(bytes));
  } catch (e) {
    throw new RuntimeError(`--${flag} '${path}': ${e.message}`);
  }
}

/**
 * The model in `path`, a translator or a GPT (`train --task poems`): {gpt: false, model} or
 * {gpt: true, model}, for the commands that read either (info, evaluate).
 */
export function readAnyModel(lab, path, flag = 'model') {
  const bytes = modelBytes(path, `--${flag}`);
  try {
    return { gpt: false, model: track(lab.loadSeq2Seq(bytes)) };
  } catch (e) {
    if (!/is not a Seq2Seq model/.test(e.message)) throw new RuntimeError(`--${flag} '${path}': ${e.message}`);
    try {
      return { gpt: true, model: track(lab.loadGptSession(bytes)) };
    } catch (g) {
      throw new RuntimeError(`--${flag} '${path}': ${/is not a GPT model/.test(g.message) ? 'not a model file of attention-lab train (a translator or a GPT)' : g.message}`);
    }
  }
}

/** Writes the model atomically to --out (or `flag`); returns the bytes written. */
export function writeModel(session, path, saveOptions, flag = 'out') {
  return writeAtomic(path, session.save(saveOptions), flag);
}
