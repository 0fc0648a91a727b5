// Nothing lost: against real files, the command refuses an --out that is one of its inputs (the
// same path, a symbolic link, a hard link), checks the folder of --out before any training (missing,
// not a folder, read-only, full) and writes checkpoints a crash cannot lose. What each test covers
// is said in its name: a read-only folder and a full disk are real tmpfs mounts where this machine
// lets us mount (as root in CI); chmod stands in for them when not root; otherwise they are skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cliWithTimeout, withScratchFolder } from './run-cli.mjs';

const cli = cliWithTimeout(120_000);
let dir;
withScratchFolder('attention-lab-files-', (d) => { dir = d; });

const PAIRS = '咖哥 喜欢 小冰\tKaGe likes XiaoBing\n我 爱 你\tI love you\n';
const fresh = (name, text = PAIRS) => { const p = join(dir, name); writeFileSync(p, text); return p; };
const unchanged = (path, text) => assert.equal(readFileSync(path, 'utf8'), text, `${path} is intact`);
const noRawError = (err) => assert.doesNotMatch(err, /E[A-Z]{3,}|\.check|\.tmp|probe|internal error|at .*\.mjs/);

test('--out that is --pairs (same path, a symbolic link, a hard link) is refused and the file kept', () => {
  const data = fresh('data.tsv');
  symlinkSync(data, join(dir, 'link.tsv'));
  linkSync(data, join(dir, 'hard.tsv'));
  for (const [out, how] of [[data, ''], [join(dir, 'link.tsv'), ' \\(through a link\\)'], [join(dir, 'hard.tsv'), ' \\(through a link\\)']]) {
    const r = cli('train', '--pairs', data, '--held-out', '0', '--hidden', '8', '--steps', '5', '--out', out);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, new RegExp(`^attention-lab: --out '.*' is the same file as --pairs '.*data\\.tsv'${how}: writing there would destroy it; choose another --out\\n$`));
    assert.equal(r.out, '', 'refused before training');
    unchanged(data, PAIRS);
  }
});

test('export --out that is --model, and train --out that is --from, are refused and the model kept', () => {
  const model = join(dir, 'keep.model');
  assert.equal(cli('train', '--task', 'note', '--hidden', '8', '--steps', '3', '--eval-every', '0', '--out', model).code, 0);
  const bytes = readFileSync(model);
  const e = cli('export', '--model', model, '--format', 'safetensors', '--out', model);
  assert.equal(e.code, 2);
  assert.match(e.err, /--out '.*keep\.model' is the same file as --model '.*keep\.model'/);
  const t = cli('train', '--from', model, '--steps', '3', '--out', model);
  assert.equal(t.code, 2);
  assert.match(t.err, /--out '.*keep\.model' is the same file as --from '.*keep\.model'/);
  assert.ok(readFileSync(model).equals(bytes));
});

test('an --out whose folder is missing, or is a file, is refused before training, naming --out and the folder', () => {
  const file = fresh('plain.txt', 'x');
  for (const [out, why] of [[join(dir, 'no-such', 'm.model'), /the folder '.*no-such' does not exist/], [join(file, 'm.model'), /'.*plain\.txt' is not a folder/]]) {
    const r = cli('train', '--task', 'note', '--steps', '5', '--out', out);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /^attention-lab: --out '/);
    assert.match(r.err, why);
    noRawError(r.err);
    assert.equal(r.out, '');
  }
});

/** Runs fn(mountpoint) on a fresh tmpfs mounted with `options`, or returns false if we may not mount. */
function withTmpfs(options, fn) {
  const at = join(dir, `mnt-${readdirSync(dir).length}`);
  mkdirSync(at);
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', at]).status !== 0) return false;
  try { fn(at); } finally { spawnSync('umount', [at]); }
  return true;
}

test('a read-only folder is refused before training, naming --out and the folder (a read-only tmpfs as root; chmod otherwise)', (t) => {
  const check = (folder) => {
    const r = cli('train', '--task', 'note', '--steps', '5', '--out', join(folder, 'm.model'));
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /^attention-lab: --out '.*m\.model': cannot write in the folder '.*' \((the file system is read-only|permission denied)\)\n$/);
    noRawError(r.err);
    assert.deepEqual(readdirSync(folder), [], 'nothing left behind');
  };
  if (process.getuid?.() === 0) {
    if (!withTmpfs('ro,size=64k', check)) t.skip('root, but mount is not permitted here (no read-only folder root cannot write)');
  } else {
    const ro = join(dir, 'ro');
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    try { check(ro); } finally { chmodSync(ro, 0o755); }
  }
});

test('a full disk is found before training (a 64 KiB tmpfs), and the file already there is kept', (t) => {
  const mounted = withTmpfs('size=64k', (small) => {
    const old = join(small, 'm.model');
    writeFileSync(old, 'the previous model');
    const r = cli('train', '--task', 'note', '--hidden', '64', '--steps', '100000', '--out', old);
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /^attention-lab: --out '.*m\.model': the folder '.*' has \d+ KiB free, the model needs \d+ KiB; free some space or choose another --out\n$/);
    assert.doesNotMatch(r.out, /^step /m, 'no training started');
    unchanged(old, 'the previous model');
    assert.deepEqual(readdirSync(small), ['m.model']);
  });
  if (!mounted) t.skip('mount is not permitted here: the simulated full disk below covers the check');
});

test('a full disk is found before training (simulated: ATTENTION_LAB_FREE_BYTES), for train and export', () => {
  const env = { ...process.env, ATTENTION_LAB_FREE_BYTES: '1000' };
  const run = (...args) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env });
  const r = run('train', '--task', 'note', '--steps', '100000', '--out', join(dir, 'full.model'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /has 1 KiB free, the model needs \d+ KiB/);
  assert.equal(existsSync(join(dir, 'full.model')), false);
  const model = join(dir, 'small.model');
  assert.equal(cli('train', '--task', 'note', '--hidden', '8', '--steps', '1', '--eval-every', '0', '--out', model).code, 0);
  const e = run('export', '--model', model, '--format', 'safetensors', '--out', join(dir, 'full.safetensors'));
  assert.equal(e.status, 1);
  assert.match(e.stderr, /--out '.*full\.safetensors': the folder .* has 1 KiB free/);
});

test('--checkpoint-every N writes a loadable model every N steps while training goes on', async () => {
  const out = join(dir, 'ckpt.model');
  const child = spawn(process.execPath, [BIN, 'train', '--task', 'note', '--hidden', '8', '--steps', '10000000', '--checkpoint-every', '40',
    '--eval-every', '0', '--log-every', '1000000', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  await new Promise((resolve) => child.stdout.on('data', (d) => { stdout += d; if (/after step 80\n/.test(stdout)) resolve(); }));
  const info = JSON.parse(spawnSync(process.execPath, [BIN, 'info', '--model', out, '--json'], { encoding: 'utf8' }).stdout);
  child.kill('SIGKILL'); // a crash: no chance to save
  await new Promise((resolve) => child.on('exit', resolve));
  assert.match(stdout, /^checkpoint: wrote .*ckpt\.model after step 40\ncheckpoint: wrote .*ckpt\.model after step 80$/m);
  assert.ok(info.step >= 80 && info.step % 40 === 0, `a whole checkpoint, read while training went on (step ${info.step})`);
  const kept = JSON.parse(spawnSync(process.execPath, [BIN, 'info', '--model', out, '--json'], { encoding: 'utf8' }).stdout);
  assert.ok(kept.step >= 80 && kept.step % 40 === 0, 'the file after the crash is a whole checkpoint');
});

test('file names in Chinese, with spaces and emoji, are read, written and named as typed', () => {
  const pairs = fresh('我的 数据 😀.tsv');
  const model = join(dir, '模型 ✓.model');
  const r = cli('train', '--pairs', pairs, '--held-out', '0', '--hidden', '8', '--steps', '3', '--eval-every', '0', '--out', model);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^training .*我的 数据 😀\.tsv \(2 pairs/m);
  assert.match(r.out, /^wrote .*模型 ✓\.model: 3 steps/m);
  const lines = fresh('句子.txt', '咖哥 喜欢 小冰\n');
  assert.equal(cli('translate', '--model', model, '--input', lines).code, 0);
  const same = cli('export', '--model', model, '--format', 'safetensors', '--out', model);
  assert.match(same.err, /^attention-lab: --out '.*模型 ✓\.model' is the same file as --model '.*模型 ✓\.model'/);
  assert.equal(cli('export', '--model', model, '--format', 'safetensors', '--out', join(dir, '模型.safetensors')).code, 0);
  assert.match(cli('info', '--model', join(dir, '模型.safetensors')).out, /模型\.safetensors/);
});
