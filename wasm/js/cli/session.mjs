// Loading the wasm core and model files for the CLI; every Seq2Seq session it creates is tracked
// so that main() can .delete() them all before exiting, whatever happened.
import { readFileSync } from 'node:fs';
import { ioMessage, writeAtomic } from './files.mjs';
import { RuntimeError, UsageError } from './options.mjs';

const live = new Set();

export async function loadLab() {
  let mod;
  try {
    mod = await import('../attention-lab.mjs');
  } catch (e) {
    const missing = e?.code === 'ERR_MODULE_NOT_FOUND' && /attention_lab_core/.test(e.message);
    throw new RuntimeError(missing ? 'the wasm core is not built (build/wasm/ is missing): run `npm run build:wasm`'
      : `cannot load the wasm core: ${e?.message ?? e}`);
  }
  return mod.loadAttentionLab();
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

/** The model in `path`: unreadable or corrupt files are runtime errors naming the file. */
export function readModel(lab, path, flag = 'model') {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new RuntimeError(`cannot read --${flag} '${path}': ${ioMessage(e)}`);
  }
  if (bytes.length === 0) throw new RuntimeError(`--${flag} '${path}' is empty`);
  try {
    return track(lab.loadSeq2Seq(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
  } catch (e) {
    throw new RuntimeError(`--${flag} '${path}': ${e.message}`);
  }
}

/** Writes the model atomically to --out (or `flag`); returns the bytes written. */
export function writeModel(session, path, saveOptions, flag = 'out') {
  return writeAtomic(path, session.save(saveOptions), flag);
}
