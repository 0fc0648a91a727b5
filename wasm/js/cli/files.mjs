// The CLI's files, so that nothing is lost: an --out that is one of the inputs is refused; the
// folder of --out is checked (exists, writable, room for the model) before any training; files are
// written atomically (a temp file beside them, then rename); text inputs must be valid UTF-8, and
// a line that is not is named.
import { accessSync, constants, readFileSync, renameSync, rmSync, statSync, statfsSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { RuntimeError, UsageError } from './options.mjs';

/** @type {Record<string, string>} */
const IO_WORDS = { ENOENT: 'no such file', EACCES: 'permission denied', EPERM: 'permission denied', EISDIR: 'is a directory',
  ENOTDIR: 'not a directory', EROFS: 'the file system is read-only', ENOSPC: 'the disk is full', EDQUOT: 'the disk quota is exceeded' };

/**
 * A failed file operation in the command line's words ("no such file"), or node's message.
 * @param {unknown} e what node:fs threw
 */
export function ioMessage(e) {
  const { code, message } = /** @type {NodeJS.ErrnoException} */ (e);
  return IO_WORDS[String(code)] ?? message;
}

/** @param {string} path */
const statOrNull = (path) => { try { return statSync(path); } catch { return null; } };

/**
 * Refuses an --out that is one of the inputs (`inputs`: {flag: path}), compared as files (device
 * and inode), so that a symbolic or hard link to an input is caught too.
 * @param {string} out
 * @param {Record<string, string | undefined>} inputs
 */
export function refuseOverwrite(out, inputs) {
  const o = statOrNull(out);
  if (!o) return;
  for (const [flag, path] of Object.entries(inputs)) {
    if (path === undefined || path === '-') continue;
    const i = statOrNull(path);
    if (i && i.dev === o.dev && i.ino === o.ino) {
      const how = resolve(out) === resolve(path) ? '' : ' (through a link)';
      throw new UsageError(`--out '${out}' is the same file as --${flag} '${path}'${how}: writing there would destroy it; choose another --out`);
    }
  }
}

/**
 * Free bytes in `dir`. ATTENTION_LAB_FREE_BYTES stands in for the disk in the tests of a full disk.
 * @param {string} dir
 */
function freeBytes(dir) {
  const simulated = process.env.ATTENTION_LAB_FREE_BYTES;
  if (simulated !== undefined && simulated !== '') return Number(simulated);
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}

/**
 * Fails early (before any training) if --out cannot be written: the folder must exist, be a folder
 * and be writable. `flag` names the option in messages.
 * @param {string} path
 * @param {string} [flag]
 */
export function checkOut(path, flag = 'out') {
  const st = statOrNull(path);
  if (st?.isDirectory()) throw new UsageError(`--${flag} '${path}' is a folder; give a file name`);
  const dir = dirname(resolve(path));
  const d = statOrNull(dir);
  if (!d) throw new UsageError(`--${flag} '${path}': the folder '${dir}' does not exist`);
  if (!d.isDirectory()) throw new UsageError(`--${flag} '${path}': '${dir}' is not a folder`);
  // access(W_OK) answers for the user (root passes it on a chmod'ed folder, not on a read-only
  // mount); writing and removing a file tells what rename will meet.
  const probe = resolve(dir, `.${basename(path)}.${process.pid}.check`);
  try {
    accessSync(dir, constants.W_OK);
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (e) {
    throw new UsageError(`--${flag} '${path}': cannot write in the folder '${dir}' (${ioMessage(e)})`);
  }
}

/**
 * Fails if the folder of `path` has no room for `bytes` more (the temp file, before the rename).
 * @param {string} path
 * @param {number} bytes
 * @param {string} [flag]
 */
export function checkRoom(path, bytes, flag = 'out') {
  const dir = dirname(resolve(path));
  const free = freeBytes(dir);
  if (free < bytes) {
    const kib = (/** @type {number} */ n) => `${Math.ceil(n / 1024).toLocaleString('en-US')} KiB`;
    throw new RuntimeError(`--${flag} '${path}': the folder '${dir}' has ${kib(free)} free, the model needs ${kib(bytes)}; free some space or choose another --${flag}`);
  }
}

/**
 * Writes `bytes` atomically: a temp file in the same folder, then rename (never half a file).
 * @param {string} path
 * @param {Uint8Array} bytes
 * @param {string} [flag]
 * @returns {number} the bytes written
 */
export function writeAtomic(path, bytes, flag = 'out') {
  const tmp = resolve(dirname(resolve(path)), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, bytes);
    renameSync(tmp, path);
  } catch (e) {
    try { rmSync(tmp, { force: true }); } catch { /* nothing to clean */ }
    throw new RuntimeError(`cannot write --${flag} '${path}': ${ioMessage(e)}; the file there, if any, is unchanged`);
  }
  return bytes.byteLength;
}

const fatal = new TextDecoder('utf-8', { fatal: true });

/**
 * The text of `bytes`, which must be UTF-8: otherwise an error naming the flag, the file and the
 * first line that is not (1-based, as editors count).
 * @param {Uint8Array} bytes
 * @param {string} flag
 * @param {string} path
 */
export function decodeUtf8(bytes, flag, path) {
  try {
    return fatal.decode(bytes);
  } catch {
    let line = 1, start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i === bytes.length || bytes[i] === 0x0a) {
        try { fatal.decode(bytes.subarray(start, i)); } catch {
          throw new UsageError(`--${flag} '${path}' line ${line} is not valid UTF-8; save the file as UTF-8`);
        }
        line++;
        start = i + 1;
      }
    }
    throw new UsageError(`--${flag} '${path}' is not valid UTF-8; save the file as UTF-8`);
  }
}

/**
 * A text file given by `flag` (- : standard input), read whole and checked as UTF-8.
 * @param {string} path
 * @param {string} flag
 */
export function readText(path, flag) {
  let bytes;
  try {
    bytes = readFileSync(path === '-' ? 0 : path);
  } catch (e) {
    throw new UsageError(`cannot read --${flag} '${path}': ${ioMessage(e)}`);
  }
  return decodeUtf8(bytes, flag, path);
}
