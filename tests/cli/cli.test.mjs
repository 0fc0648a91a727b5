// The `attention-lab` command line (bin/attention-lab.mjs), run as a child process the way a user
// runs it: help and version, train → translate / evaluate / info on the note's task, the JSON
// trace, unknown words, Ctrl-C during training, and bad input (one `attention-lab: …` line on
// stderr, exit code 2 for usage and 1 for runtime errors, never a stack trace).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cliWithTimeout, withScratchFolder } from './run-cli.mjs';

const VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
let dir, model;

const cli = cliWithTimeout(20000);

withScratchFolder('attention-lab-cli-', (folder) => {
  dir = folder;
  model = join(dir, 'note.model');
});

test('--help lists the commands; every command has --help; --version', () => {
  const h = cli('--help');
  assert.equal(h.code, 0);
  for (const c of ['train', 'translate', 'evaluate', 'info']) assert.match(h.out, new RegExp(`^  ${c} `, 'm'));
  assert.equal(cli().code, 0, 'no arguments: the help');
  const t = cli('train', '--help');
  assert.equal(t.code, 0);
  for (const o of ['--task', '--cell', '--hidden', '--embedding', '--attention', '--attentional-tanh', '--batch', '--lr', '--clip',
    '--seed', '--steps', '--eval-every', '--out']) assert.ok(t.out.includes(`  ${o}`), `train --help lists ${o}`);
  assert.match(t.out, /--hidden N .*default .*: zh-en, dates, --pairs 64; note, reverse, copy 128;/, 'each task\'s default, from the table the page reads');
  assert.match(cli('translate', '-h').out, /--beam N[\s\S]*--top-k N .*default 3[\s\S]*--json/);
  assert.equal(cli('--version').out.trim(), VERSION);
});

test('train on the note task (rnn, hidden 32, 300 steps) prints progress and writes a model', () => {
  const r = cli('train', '--task', 'note', '--cell', 'rnn', '--hidden', '32', '--steps', '300', '--out', model);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.err, '');
  assert.match(r.out, /^step 100\/300 {2}loss \d+\.\d{4}/m);
  assert.match(r.out, /^step 200\/300 .*exact 100\.0% \(5\).* ex\/s {2}\d+\.\d steps\/s {2}ETA \S+$/m);
  assert.match(r.out, /^wrote .*note\.model: 300 steps, 7,062 parameters/m);
  assert.equal(readFileSync(model).subarray(0, 4).toString(), 'ATLB');
});

test('translate prints the translation, the steps and the attention table', () => {
  const r = cli('translate', '--model', model, '咖哥 喜欢 小冰');
  assert.equal(r.code, 0, r.err);
  const lines = r.out.split('\n');
  assert.equal(lines[0], 'KaGe likes XiaoBing');
  assert.match(r.out, /^ {2}step {2}token {6}prob {2}top 3$/m);
  assert.match(r.out, /^ +4 {2}<eos> +0\.\d{3} {2}<eos> 0\.\d{3}/m);
  const head = lines.findIndex((l) => /^attention \(rows: output tokens/.test(l));
  assert.deepEqual(lines[head + 1].trim().split(/\s+/), ['咖哥', '喜欢', '小冰']);
  const rows = lines.slice(head + 2, head + 6).map((l) => l.trim().split(/\s+/));
  assert.deepEqual(rows.map((r) => r[0]), ['KaGe', 'likes', 'XiaoBing', '<eos>']);
  for (const row of rows) {
    assert.equal(row.length, 4);
    const sum = row.slice(1).reduce((s, v) => s + Number(v), 0);
    assert.ok(Math.abs(sum - 1) <= 0.02, `row ${row} sums to ${sum}`);
  }
});

test('--json prints the full trace; beam search shows the hypotheses', () => {
  const j = JSON.parse(cli('translate', '--model', model, '--json', '咖哥 喜欢 小冰').out);
  assert.equal(j.text, 'KaGe likes XiaoBing');
  assert.deepEqual(j.steps.map((s) => s.token), ['KaGe', 'likes', 'XiaoBing', '<eos>']);
  assert.equal(j.steps[0].attention.length, 3);
  assert.equal(j.steps[0].top.length, 3);
  const b = cli('translate', '--model', model, '--beam', '3', '--shade', '咖哥 喜欢 小冰');
  assert.equal(b.code, 0, b.err);
  assert.match(b.out, /^KaGe likes XiaoBing\n/);
  assert.match(b.out, /beam search, width 3/);
  assert.match(b.out, /^ {2}1 +-\d+\.\d{4} +-\d+\.\d{4} {2}yes +KaGe likes XiaoBing$/m);
  assert.match(b.out, /[░▒▓█]/);
  assert.match(b.out, /^hypotheses \(best first; score = log-probability \/ length\^1, length counting <eos>; see --length-alpha\):$/m);
  const jb = JSON.parse(cli('translate', '--model', model, '--beam', '2', '--json', '我 爱').out);
  assert.equal(jb.beams.width, 2);
  // --length-alpha 0: the raw log-probability ranks the hypotheses
  const raw = cli('translate', '--model', model, '--beam', '3', '--length-alpha', '0', '咖哥 喜欢 小冰');
  assert.equal(raw.code, 0, raw.err);
  assert.match(raw.out, /score = log-probability \/ length\^0,/);
  const rows = [...raw.out.matchAll(/^ {2}\d +(-\d+\.\d{4}) +(-\d+\.\d{4}) {2}(?:yes|no) /gm)];
  assert.ok(rows.length >= 2, raw.out);
  for (const [, score, logProb] of rows) assert.equal(score, logProb);
});

test('an unknown word is marked in the source line and the table header', () => {
  const r = cli('translate', '--model', model, '咖哥 喜欢 大冰');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^source \(words, 3 tokens\): 咖哥 喜欢 大冰\*$/m);
  assert.match(r.out, /\* unknown: not in the vocabulary, encoded as <unk>/);
  assert.match(r.out, /^ +咖哥 +喜欢 +大冰\*$/m);
  const j = JSON.parse(cli('translate', '--model', model, '--json', '咖哥 喜欢 大冰').out);
  assert.deepEqual(j.source.map((t) => t.unknown), [false, false, true]);
});

test('evaluate and info', () => {
  const e = cli('evaluate', '--model', model);
  assert.equal(e.code, 0, e.err);
  assert.match(e.out, /note model after 300 steps, on its 5 training pairs/);
  assert.match(e.out, /exact match +100\.0%/);
  const i = cli('info', '--model', model);
  assert.equal(i.code, 0, i.err);
  for (const re of [/^task +note$/m, /^cell +rnn$/m, /^hidden +32$/m, /^source vocabulary +22 tokens/m, /^parameters +7,062$/m,
    /^steps trained +300$/m]) assert.match(i.out, re);
  assert.equal(JSON.parse(cli('info', '--model', model, '--json').out).parameterCount, 7062);
});

const SIGNALS = [['SIGINT', 'Ctrl-C', 130, 'interrupted'], ['SIGTERM', 'kill, timeout, a job scheduler', 143, 'stopped by SIGTERM']];
for (const [signal, who, exitCode, said] of SIGNALS) test(`${signal} (${who}) during training writes the last good state and exits ${exitCode}`, async () => {
  const out = join(dir, `${signal}.model`);
  const child = spawn(process.execPath, [BIN, 'train', '--task', 'note', '--hidden', '8', '--steps', '1000000', '--log-every', '20',
    '--checkpoint-every', '3', '--eval-every', '0', '--out', out]);
  let stdout = '', stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const code = await new Promise((resolve) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      if (!child.sent && /^step +\d+\/1000000/m.test(stdout)) child.sent = child.kill(signal);
    });
    child.on('exit', resolve);
  });
  assert.equal(code, exitCode, stderr);
  assert.match(stderr, new RegExp(`${said} at step \\d+; wrote the model so far`));
  assert.doesNotMatch(stderr, /\n\s+at /);
  const { step: steps } = JSON.parse(cli('info', '--model', out, '--json').out);
  assert.ok(steps >= 20 && steps < 1000000, `steps ${steps}`);
  assert.deepEqual(readdirSync(dir).filter((n) => n.startsWith('.')), [], 'no temporary file left beside the model');
});

test('a corrupt model file (one flipped byte) fails with "checksum mismatch"', () => {
  const bytes = readFileSync(model);
  bytes[bytes.length >> 1] ^= 0x10;
  const bad = join(dir, 'corrupt.model');
  writeFileSync(bad, bytes);
  const r = cli('translate', '--model', bad, '咖哥');
  assert.equal(r.code, 1);
  assert.match(r.err, /^attention-lab: --model '.*corrupt\.model': checksum mismatch: the file is corrupt\n$/);
});

// Bad input: [args, exit code, message]. Each prints ONE line `attention-lab: …` and no stack trace.
const bad = () => [
  [['frobnicate'], 2, /unknown command 'frobnicate'/],
  [['train', '--task', 'note', '--steps', '10', '--out', join(dir, 'x'), '--hiden', '3'], 2, /unknown option '--hiden' for 'train'/],
  [['train', '--task', 'klingon', '--steps', '10', '--out', join(dir, 'x')], 2, /unknown task 'klingon'/],
  [['train', '--task', 'note', '--cell', 'transformer', '--steps', '10', '--out', join(dir, 'x')], 2, /unknown cell 'transformer'/],
  [['train', '--task', 'note', '--hidden', 'abc', '--steps', '10', '--out', join(dir, 'x')], 2, /--hidden must be a whole number in \[1, 4096\] \(got 'abc'\)/],
  [['train', '--task', 'note', '--hidden', '0', '--steps', '10', '--out', join(dir, 'x')], 2, /--hidden must be a whole number/],
  [['train', '--task', 'note', '--lr', '-1', '--steps', '10', '--out', join(dir, 'x')], 2, /--lr needs a value/],
  [['train', '--task', 'note', '--lr=nan', '--steps', '10', '--out', join(dir, 'x')], 2, /--lr must be a positive number/],
  [['train', '--task', 'note', '--steps', '10'], 2, /train needs --out/],
  [['train', '--task', 'note', '--steps', '10', '--out', join(dir, 'no', 'such', 'dir', 'x')], 2, /--out '.*x': the folder '.*dir' does not exist/],
  [['train', '--task', 'note', '--attention', 'none', '--attentional-tanh', '--steps', '10', '--out', join(dir, 'x')], 2, /needs attention/],
  [['train', '--task', 'note', '--hidden', '8', '--lr', '1e38', '--steps', '50', '--out', join(dir, 'x')], 1, /training diverged/],
  [['translate', '咖哥'], 2, /translate needs --model/],
  [['translate', '--model', model], 2, /translate needs a sentence/],
  [['translate', '--model', model, ''], 2, /the sentence is empty/],
  [['translate', '--model', model, '   '], 2, /the sentence is empty/],
  [['translate', '--model', model, '--beam', '0', '我'], 2, /--beam must be a whole number in \[1, 64\]/],
  [['translate', '--model', join(dir, 'missing.model'), '我'], 1, /cannot read --model '.*missing\.model': no such file/],
  [['translate', '--model', dir, '我'], 1, /is a directory/],
  [['info', '--model', BIN], 1, /not an AttentionLab model file/],
  [['info'], 2, /info needs --model/],
  [['evaluate', '--model', model, '--length', '5'], 2, /--length applies to the reverse and copy tasks only/],
];

test('bad input: one line on stderr, the right exit code, no stack trace', () => {
  for (const [args, code, message] of bad()) {
    const r = cli(...args);
    const what = `attention-lab ${args.join(' ')}`;
    assert.equal(r.code, code, `${what}: exit ${r.code}, stderr ${r.err}`);
    assert.match(r.err, /^attention-lab: [^\n]+\n$/, `${what}: one line on stderr, got ${JSON.stringify(r.err)}`);
    assert.match(r.err, message, what);
    assert.doesNotMatch(r.err, /Error:|\bat .*\.m?js:\d+/, `${what}: no stack trace`);
  }
  assert.equal(existsSync(join(dir, 'x')), false, 'failed runs write no model');
});
