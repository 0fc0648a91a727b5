// scripts/poems.mjs, the GPT's corpus extractor: colour codes stripped, entries split at `%`,
// title, author and lines kept, a malformed entry named; and on this machine's fortune files
// (Debian's fortunes-zh, installed by scripts/ensure-deps.sh) the 313 Tang poems and 96 Song poems.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FORTUNE_DIR, parseFortunePoems, poemsText } from '../../scripts/poems.mjs';

const SCRIPT = new URL('../../scripts/poems.mjs', import.meta.url).pathname;
const green = (s) => `\x1b[32m${s}\x1b[m`;
const yellow = (s) => `\x1b[33m${s}\x1b[m`;

// Made-up entries in the two files' layouts (the repository holds no poem text).
const TANG_LIKE = `${green('《甲》')}\n${yellow('作者：乙')}\n一二三，\n四五六。\n%\n${green('《丙》')}\n${yellow('作者：丁')}\n七八九。\n%\n`;
const SONG_LIKE = `题目:《戊》二首\n作者:己（１－２）\n\n      其一\n\n天地人。\n%\n`;

test('entries lose their colour codes and keep title, author and lines', () => {
  const poems = parseFortunePoems(TANG_LIKE, 'tang-like');
  assert.deepEqual(poems, [
    { title: '《甲》', author: '乙', lines: ['一二三，', '四五六。'] },
    { title: '《丙》', author: '丁', lines: ['七八九。'] },
  ]);
  assert.equal(poemsText(poems), '《甲》\n乙\n一二三，\n四五六。\n\n《丙》\n丁\n七八九。\n');
  assert.deepEqual(parseFortunePoems(SONG_LIKE, 'song-like'),
    [{ title: '《戊》二首', author: '己（１－２）', lines: ['其一', '天地人。'] }]);
});

test('a malformed entry is named, not skipped', () => {
  assert.throws(() => parseFortunePoems(`${TANG_LIKE}无题\n作者：乙\n一。\n%\n`, 'x'), /x: entry 3: the first line is not a title/);
  assert.throws(() => parseFortunePoems('《甲》\n一二三。\n%\n', 'x'), /x: entry 1: the second line is not an author line/);
  assert.throws(() => parseFortunePoems('《甲》\n作者：乙\n%\n', 'x'), /entry 1: a title and an author but no poem/);
  assert.throws(() => parseFortunePoems('%\n%\n', 'x'), /x: no poems/);
});

test('the command writes build files from a fortune folder, and names a missing one', () => {
  const dir = mkdtempSync(join(tmpdir(), 'poems-'));
  try {
    writeFileSync(join(dir, 'tang300'), TANG_LIKE);
    writeFileSync(join(dir, 'song100'), SONG_LIKE);
    const r = spawnSync(process.execPath, [SCRIPT, '--song', '--from', dir, '--out', join(dir, 'out')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /tang300: 2 poems/);
    assert.equal(JSON.parse(readFileSync(join(dir, 'out', 'song100.json'), 'utf8')).length, 1);
    assert.equal(readFileSync(join(dir, 'out', 'tang300.txt'), 'utf8'), poemsText(parseFortunePoems(TANG_LIKE, 't')));
    const missing = spawnSync(process.execPath, [SCRIPT, '--from', join(dir, 'nowhere'), '--out', join(dir, 'o2')], { encoding: 'utf8' });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /nowhere\/tang300 is missing: install Debian's fortunes-zh/);
    const bad = spawnSync(process.execPath, [SCRIPT, '--sung'], { encoding: 'utf8' });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /unknown argument --sung/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the installed fortune files: 313 Tang poems and 96 Song poems, no colour code left', {
  skip: !existsSync(join(FORTUNE_DIR, 'tang300')) && 'fortunes-zh is not installed (bash scripts/ensure-deps.sh)',
}, () => {
  const tang = parseFortunePoems(readFileSync(join(FORTUNE_DIR, 'tang300'), 'utf8'), 'tang300');
  const song = parseFortunePoems(readFileSync(join(FORTUNE_DIR, 'song100'), 'utf8'), 'song100');
  assert.equal(tang.length, 313);
  assert.equal(song.length, 96);
  for (const p of [...tang, ...song]) {
    assert.match(p.title, /^《/);
    assert.ok(p.author.length > 0 && p.lines.length > 0);
    assert.doesNotMatch([p.title, p.author, ...p.lines].join(''), /\x1b|%/);
  }
});
