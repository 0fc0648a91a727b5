// `attention-lab train --pairs file.tsv [--tokenize chars] [--held-out X]`: your own sentence
// pairs from a file, trained, written, then translated, evaluated, described and exported like any
// model; a bad line is one `attention-lab: FILE: line N: …` on stderr with exit code 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { cliWithTimeout, withScratchFolder } from './run-cli.mjs';

let dir;

const cli = cliWithTimeout(60000);

const NOTE_TSV = [
  '# the note\'s five pairs',
  '咖哥 喜欢 小冰\tKaGe likes XiaoBing',
  '我 爱 学习 人工智能\tI love studying AI',
  '',
  '深度学习 改变 世界\tDL changed the world',
  '自然 语言 处理 很 强大\tNLP is so powerful',
  '神经网络 非常 复杂\tNeural-Nets are complex',
].join('\n');

withScratchFolder('attention-lab-pairs-', (folder) => {
  dir = folder;
  writeFileSync(join(dir, 'note.tsv'), NOTE_TSV);
});

test('train --pairs trains on the file, and the model translates, evaluates, describes and exports', () => {
  const model = join(dir, 'note.model');
  const t = cli('train', '--pairs', join(dir, 'note.tsv'), '--held-out', '0', '--cell', 'rnn', '--hidden', '32', '--batch', '5', '--lr', '0.02',
    '--steps', '200', '--out', model);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /^training .*note\.tsv \(5 pairs, 0 held out, words\): rnn, hidden 32/m);
  assert.match(t.out, /eval on the training pairs: .*exact 100\.0% \(5\)/);
  const tr = cli('translate', '--model', model, '咖哥 喜欢 小冰');
  assert.equal(tr.code, 0, tr.err);
  assert.equal(tr.out.split('\n')[0], 'KaGe likes XiaoBing');
  const ev = cli('evaluate', '--model', model);
  assert.match(ev.out, /on its 5 training pairs \(none was held out\)/);
  const info = cli('info', '--model', model);
  assert.match(info.out, /^task +pairs: 5 training, 0 held out \(0%\), words as tokens$/m);
  const st = join(dir, 'note.safetensors');
  assert.equal(cli('export', '--model', model, '--format', 'safetensors', '--out', st).code, 0);
  assert.equal(cli('translate', '--model', st, '咖哥 喜欢 小冰').out.split('\n')[0], 'KaGe likes XiaoBing');
});

test('train --pairs --tokenize chars --arch transformer holds a share out', () => {
  const words = ['abc', 'bca', 'cab', 'abd', 'dab', 'bad', 'cad', 'dca', 'acd', 'bdc'];
  writeFileSync(join(dir, 'rev.tsv'), words.map((w) => `${w}\t${[...w].reverse().join('')}`).join('\r\n'));
  const model = join(dir, 'rev.model');
  const t = cli('train', '--pairs', join(dir, 'rev.tsv'), '--tokenize', 'chars', '--held-out', '0.2', '--arch', 'transformer',
    '--layers', '1', '--heads', '2', '--d-model', '16', '--d-ff', '32', '--steps', '20', '--out', model);
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /rev\.tsv \(8 pairs, 2 held out, chars\): transformer/);
  assert.match(t.out, /held-out: loss .*\(2\)/);
  assert.match(cli('info', '--model', model).out, /pairs: 8 training, 2 held out \(20%\), chars as tokens/);
});

test('bad pairs files and options: one line naming the file and the line, exit code 2', () => {
  writeFileSync(join(dir, 'bad.tsv'), 'a\tb\nno tab here\n');
  writeFileSync(join(dir, 'long.tsv'), `a\t${Array.from({ length: 70 }, (_, i) => `w${i}`).join(' ')}\n`);
  writeFileSync(join(dir, 'few.tsv'), 'a\tb\nc\td\n');
  const out = join(dir, 'x');
  const cases = [
    [['--pairs', join(dir, 'bad.tsv')], /--pairs '.*bad\.tsv': line 2: no tab between source and target/],
    [['--pairs', join(dir, 'long.tsv')], /--pairs '.*long\.tsv': line 1: the target has 70 words; at most 64/],
    [['--pairs', join(dir, 'few.tsv')], /2 distinct pairs are too few to hold 10% out: that needs at least 10/],
    [['--pairs', join(dir, 'few.tsv'), '--held-out', '0.9'], /^attention-lab: --held-out must be a number in \[0, 0\.5\] \(got '0\.9'\)/],
    [['--pairs', join(dir, 'missing.tsv')], /cannot read --pairs '.*missing\.tsv': no such file/],
    [['--pairs', join(dir, 'few.tsv'), '--task', 'note'], /--task and --pairs exclude each other/],
    [['--task', 'note', '--tokenize', 'chars'], /--tokenize applies to --pairs only/],
    [['--task', 'note', '--held-out', '0.1'], /--held-out applies to --pairs only/],
    [[], /train needs --task NAME, --pairs FILE or --from MODEL/],
    [['--pairs', join(dir, 'few.tsv'), '--tokenize', 'bytes'], /unknown tokenize 'bytes' for --tokenize \(expected words, chars\)/],
  ];
  for (const [args, message] of cases) {
    const r = cli('train', ...args, '--steps', '5', '--out', out);
    const what = `train ${args.join(' ')}`;
    assert.equal(r.code, 2, `${what}: exit ${r.code}, stderr ${r.err}`);
    assert.match(r.err, /^attention-lab: [^\n]+\n$/, `${what}: one line`);
    assert.match(r.err, message, what);
  }
  assert.equal(existsSync(out), false, 'failed runs write no model');
  assert.ok(readFileSync(join(dir, 'bad.tsv'), 'utf8').includes('no tab'));
});
