// The engineer's jobs on the command line: continue training from a model file (bit for bit the
// uninterrupted run), translate a file or standard input with the model loaded once, evaluate on
// your own test pairs, the page's zh-en task with the page's defaults, and progress for scripts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cliWithTimeout, withScratchFolder } from './run-cli.mjs';
import { NOTE_PAIRS } from '../wasm/case-runner.mjs';

const cli = cliWithTimeout(240_000);
let dir, note;
const NOTE = NOTE_PAIRS;
withScratchFolder('attention-lab-jobs-', (d) => {
  dir = d;
  note = join(d, 'note.model');
  const r = cli('train', '--task', 'note', '--cell', 'rnn', '--hidden', '32', '--steps', '300', '--eval-every', '0', '--out', note);
  assert.equal(r.code, 0, r.err);
});

test('train --from MODEL --steps N gives the same file, byte for byte, as one uninterrupted run (rnn and transformer)', () => {
  for (const [name, model] of [['rnn', ['--task', 'reverse', '--hidden', '8', '--batch', '4']],
    ['tf', ['--task', 'reverse', '--arch', 'transformer', '--layers', '1', '--heads', '2', '--d-model', '8', '--d-ff', '16', '--batch', '4']]]) {
    const [half, resumed, whole] = ['half', 'resumed', 'whole'].map((f) => join(dir, `${name}-${f}.model`));
    assert.equal(cli('train', ...model, '--steps', '15', '--eval-every', '5', '--out', half).code, 0);
    const r = cli('train', '--from', half, '--steps', '15', '--eval-every', '7', '--out', resumed);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^continuing .*half\.model after step 15: training reverse/);
    assert.equal(cli('train', ...model, '--steps', '30', '--eval-every', '0', '--out', whole).code, 0);
    assert.ok(readFileSync(resumed).equals(readFileSync(whole)), `${name}: weights, Adam state, step count and data order equal`);
  }
});

test('evaluate --length N: the token accuracy by position, in five parts of the string as written; --json: every position', () => {
  const model = join(dir, 'rnn-whole.model'); // the reverse model of the test above
  const r = cli('evaluate', '--model', model, '--length', '10', '--count', '20');
  assert.equal(r.code, 0, r.err);
  const row = /^ {2}by position +1–2: ([\d.]+)%, 3–4: ([\d.]+)%, 5–6: ([\d.]+)%, 7–8: ([\d.]+)%, 9–10: ([\d.]+)% {2}\(letters in the order written; reversing, the letters written last are the input's first\)$/m.exec(r.out);
  assert.ok(row, r.out);
  const j = JSON.parse(cli('evaluate', '--model', model, '--length', '10', '--count', '20', '--json').out);
  assert.equal(j.tokenAccuracyByPosition.length, 11, 'ten letters and <eos>');
  // each part is the mean of its two positions
  for (let i = 0; i < 5; i++) {
    const part = (j.tokenAccuracyByPosition[2 * i] + j.tokenAccuracyByPosition[2 * i + 1]) / 2;
    assert.equal(row[i + 1], (100 * part).toFixed(1), `part ${i + 1}`);
  }
});

test('translate --input FILE: one translation a line; --json: one JSON object a line; - reads standard input', () => {
  const input = join(dir, 'sentences.txt');
  writeFileSync(input, `${NOTE.map(([s]) => s).join('\n')}\n`);
  const r = cli('translate', '--model', note, '--input', input);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(r.out.split('\n').slice(0, -1), NOTE.map(([, t]) => t));
  const j = cli('translate', '--model', note, '--input', input, '--json', '--beam', '2');
  const rows = j.out.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((o) => [o.line, o.text]), NOTE.map(([, t], i) => [i + 1, t]));
  assert.equal(rows[0].beams.width, 2);
  const one = JSON.parse(cli('translate', '--model', note, NOTE[0][0], '--json', '--beam', '2').out);
  assert.deepEqual({ ...rows[0], line: undefined }, { ...one, line: undefined }, 'the same object as translate --json of one sentence');
  const stdin = spawnSync(process.execPath, [BIN, 'translate', '--model', note, '--input', '-'], { input: `${NOTE[1][0]}\r\n${NOTE[2][0]}`, encoding: 'utf8' });
  assert.equal(stdin.stdout, `${NOTE[1][1]}\n${NOTE[2][1]}\n`);
});

test('translate --input: a bad line is named and the others are translated, in order; exit 1', () => {
  const input = join(dir, 'some-bad.txt');
  writeFileSync(input, `${NOTE[1][0]}\n\n${'我 '.repeat(65)}\n${NOTE[2][0]}\n`);
  const r = cli('translate', '--model', note, '--input', input);
  assert.equal(r.code, 1);
  assert.equal(r.out, `${NOTE[1][1]}\n\n\n${NOTE[2][1]}\n`);
  assert.match(r.err, /--input '.*some-bad\.txt' line 2: sentence is empty/);
  assert.match(r.err, /line 3: .*65 tokens; the limit is 64/);
  assert.match(r.err, /2 of the 4 lines of --input .* could not be translated/);
  const j = cli('translate', '--model', note, '--input', input, '--json').out.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(j.map((o) => o.line), [1, 2, 3, 4]);
  assert.deepEqual([j[0].text, j[3].text], [NOTE[1][1], NOTE[2][1]]);
  assert.match(j[1].error, /sentence is empty/);
  assert.match(j[2].error, /65 tokens; the limit is 64/);
});

test('evaluate --pairs FILE: exact match and token accuracy of the greedy translations, by source length', () => {
  const pairs = join(dir, 'test.tsv');
  // The four pairs the model gets right, and the fifth with one reference word of three changed.
  const text = [...NOTE.slice(0, 4), [NOTE[4][0], 'Neural-Nets are simple']].map(([s, t]) => `${s}\t${t}`).join('\n');
  writeFileSync(pairs, `# my test set\n${text}\n\n`);
  const j = JSON.parse(cli('evaluate', '--model', note, '--pairs', pairs, '--json').out);
  assert.equal(j.pairs, 5);
  assert.equal(j.exactMatch, 4 / 5);
  assert.equal(j.tokenAccuracy, 17 / 18); // 3+4+4+4+3 reference words, one wrong
  // source lengths 3, 4, 3, 5, 3: the wrong one is among the three of length 3 (10 reference words)
  assert.deepEqual(j.byLength.map((g) => [g.length, g.pairs, g.exactMatch, g.tokenAccuracy]), [[3, 3, 2 / 3, 9 / 10], [4, 1, 1, 1], [5, 1, 1, 1]]);
  const t = cli('evaluate', '--model', note, '--pairs', pairs);
  assert.match(t.out, /^5 pairs of .*test\.tsv, translated greedily:\n {2}exact match {5}80\.0%/);
  assert.match(t.out, /^\s+3\s+3\s+66\.7%\s+90\.0%$/m);
  const first = JSON.parse(cli('evaluate', '--model', note, '--pairs', pairs, '--count', '2', '--json').out);
  assert.equal(first.pairs, 2);
});

test('evaluate --pairs works on a .safetensors model, which has no held-out set', () => {
  const st = join(dir, 'note.safetensors');
  assert.equal(cli('export', '--model', note, '--format', 'safetensors', '--out', st).code, 0);
  const pairs = join(dir, 'all.tsv');
  writeFileSync(pairs, NOTE.map(([s, t]) => `${s}\t${t}`).join('\n'));
  assert.equal(JSON.parse(cli('evaluate', '--model', st, '--pairs', pairs, '--json').out).exactMatch, 1);
  const bare = cli('evaluate', '--model', st);
  assert.equal(bare.code, 2);
  assert.match(bare.err, /is a \.safetensors file: it has no task and no held-out set; evaluate it on your own pairs with --pairs FILE/);
});

test("train --task zh-en takes the page's defaults (gru, hidden 64, lr 0.01) and translates", () => {
  const out = join(dir, 'zh.model');
  const r = cli('train', '--task', 'zh-en', '--steps', '2', '--eval-every', '0', '--progress', 'none', '--out', out);
  assert.equal(r.code, 0, r.err);
  const i = JSON.parse(cli('info', '--model', out, '--json').out);
  assert.deepEqual([i.task, i.arch, i.cell, i.hidden, Number(i.learningRate.toPrecision(3))], ['zh-en', 'rnn', 'gru', 64, 0.01]);
  assert.equal(cli('translate', '--model', out, '咖哥 喜欢 小冰').code, 0);
});

test('--progress json: one JSON object a line with steps/s and ETA; text when piped has no live line', () => {
  const out = join(dir, 'p.model');
  const j = cli('train', '--task', 'note', '--hidden', '8', '--steps', '20', '--log-every', '10', '--eval-every', '20', '--progress', 'json', '--out', out);
  const events = j.out.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(events.map((e) => e.event), ['start', 'progress', 'progress', 'done']);
  assert.ok(events[1].stepsPerSecond > 0 && Number.isInteger(events[1].etaSeconds));
  assert.equal(events[2].heldOut.examples, 5);
  const t = cli('train', '--task', 'note', '--hidden', '8', '--steps', '20', '--log-every', '10', '--out', out);
  assert.match(t.out, /^step 10\/20 {2}loss \d\.\d{4} {2}tok-acc .* steps\/s {2}ETA /m);
  assert.doesNotMatch(t.out + t.err, /\r/, 'piped: no live line');
  const none = cli('train', '--task', 'note', '--hidden', '8', '--steps', '20', '--progress', 'none', '--out', out);
  assert.deepEqual(none.out.trim().split('\n').map((l) => l.split(' ')[0]), ['training', 'wrote']);
});
