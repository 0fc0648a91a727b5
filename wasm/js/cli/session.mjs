// Loading the wasm core and model files for the CLI; every Seq2Seq session it creates is tracked
// so that main() can .delete() them all before exiting, whatever happened.
import { readFileSync, writeFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
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

export function ioMessage(e) {
  return { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'is a directory', ENOTDIR: 'not a directory' }[e.code]
    ?? e.message;
}

/** The model in `path`: unreadable or corrupt files are runtime errors naming the file. */
export function readModel(lab, path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new RuntimeError(`cannot read model file '${path}': ${ioMessage(e)}`);
  }
  if (bytes.length === 0) throw new RuntimeError(`model file '${path}' is empty`);
  try {
    return track(lab.loadSeq2Seq(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
  } catch (e) {
    throw new RuntimeError(`model file '${path}': ${e.message}`);
  }
}

/** Fails early (before hours of training) if `path` cannot be written. */
export function checkWritable(path) {
  let st;
  try { st = statSync(path); } catch { /* a new file */ }
  if (st?.isDirectory()) throw new UsageError(`--out '${path}' is a directory`);
  const probe = `${resolve(path)}.${process.pid}.probe`;
  try {
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (e) {
    const why = e.code === 'ENOENT' ? 'no such directory' : ioMessage(e);
    throw new UsageError(`cannot write the model file in '${dirname(resolve(path))}': ${why}`);
  }
}

/** Writes the model atomically (temp file + rename), so an interrupted write never leaves half a file. */
export function writeModel(session, path, saveOptions) {
  const bytes = session.save(saveOptions);
  const tmp = `${resolve(path)}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, bytes);
    renameSync(tmp, path);
  } catch (e) {
    try { rmSync(tmp, { force: true }); } catch { /* nothing to clean */ }
    throw new RuntimeError(`cannot write model file '${path}': ${ioMessage(e)}`);
  }
  return bytes.byteLength;
}
