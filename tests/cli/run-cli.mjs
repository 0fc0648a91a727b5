// What every CLI test file shares: the command (bin/attention-lab.mjs) run as a child process the
// way a user runs it, and a scratch folder for the files it reads and writes.
import { before, after } from 'node:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/attention-lab.mjs', import.meta.url));

/** cli(...args) runs the command with these arguments, given up after `timeout` ms: {code, out, err}. */
export function cliWithTimeout(timeout) {
  return (...args) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
}

/** A new folder `prefix`… in the system's temporary folder before the file's tests, given to
 * setup(dir); removed with its contents after them. */
export function withScratchFolder(prefix, setup) {
  let dir;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    setup(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
}
