// `attention-lab train --task poems` and `attention-lab generate`, run as a user runs them: a tiny
// GPT trained on a text file, continued from a prompt (text, the step table, --json with each
// step's candidates), the same seed giving the same text; options that do not apply refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { BIN, cliWithTimeout, withScratchFolder } from './run-cli.mjs';

const cli = cliWithTimeout(300_000);
const POEMS = Array.from({ length: 12 }, (_, i) => `《题${i}》\n白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。`).join('\n\n') + '\n';
const TINY = ['--block-size', '8', '--layers', '1', '--heads', '2', '--d-model', '16', '--batch', '8', '--lr', '0.01'];
let dir, text, model;
withScratchFolder('attention-lab-gpt-', (d) => {
  dir = d;
  text = join(d, 'poems.txt');
  model = join(d, 'poems.model');
  writeFileSync(text, POEMS);
});

test('train --task poems --text FILE trains a GPT below the bigram baseline and writes it', () => {
  const r = cli('train', '--task', 'poems', '--text', text, ...TINY, '--steps', '300', '--eval-every', '300', '--log-every', '100', '--out', model);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trim().split('\n');
  assert.match(lines[0], /^training a GPT on .*poems\.txt \(11 poems, \d+ characters; 1 poem held out; \d+ distinct characters\): 1 layers, 2 heads, dModel 16, block 8/);
  assert.match(lines.at(-2), /^step 300\/300  loss \d\.\d{4} \| held-out: loss (\d\.\d{4}) \(bigram (\d\.\d{4}), unigram \d\.\d{4}; \d+ characters\)/);
  const [, held, bigram] = lines.at(-2).match(/loss (\d\.\d{4}) \(bigram (\d\.\d{4})/);
  assert.ok(Number(held) < Number(bigram), lines.at(-2));
  assert.match(lines.at(-1), /^wrote .*poems\.model: 300 steps/);
  assert.ok(existsSync(model));
});

test('generate continues the prompt, shows the candidates, and --json gives every step', () => {
  const r = cli('generate', model, '--prompt', '白日', '--greedy', '--max-new-tokens', '10');
  assert.equal(r.code, 0, r.err);
  const [first, blank, header, ...rows] = r.out.trimEnd().split('\n');
  assert.equal([...first].length, 12);
  assert.ok(first.startsWith('白日'));
  assert.equal(blank, '');
  assert.match(header, /step\s+char\s+prob\s+top 5/);
  assert.equal(rows.length, 10);

  const j = cli('generate', model, '--prompt', '白日', '--temperature', '0.8', '--top-k', '5', '--top-p', '0.9', '--seed', '3', '--json');
  assert.equal(j.code, 0, j.err);
  const out = JSON.parse(j.out);
  assert.equal(out.text, `白日${out.generated}`);
  assert.equal(out.steps.length, 48);
  for (const step of out.steps) {
    assert.equal(step.top.length, 5);
    assert.ok(step.top.every((c) => typeof c.char === 'string' && c.prob >= 0 && c.sampleProb >= 0));
  }
  const again = cli('generate', model, '--prompt', '白日', '--temperature', '0.8', '--top-k', '5', '--top-p', '0.9', '--seed', '3', '--json');
  assert.equal(again.out, j.out, 'the same seed, the same text');
});

test('info and evaluate read a GPT model file: its settings, and its held-out loss beside the baselines in nats and bits', () => {
  const i = cli('info', '--model', model);
  assert.equal(i.code, 0, i.err);
  for (const re of [/^model +GPT: 1 layers, 2 heads, dModel 16, block 8 characters$/m, /^corpus +12 poems: 11 for training \(\d+ characters\), 1 held out/m,
    /^steps trained +300$/m, /^learning rate +0\.01$/m, /^form drills +none$/m]) assert.match(i.out, re);
  const ij = JSON.parse(cli('info', '--model', model, '--json').out);
  assert.equal(ij.arch, 'gpt');
  assert.equal(ij.step, 300);

  const e = cli('evaluate', '--model', model);
  assert.equal(e.code, 0, e.err);
  const [, loss, bits] = e.out.match(/^ +loss +(\d\.\d{4}) +\((\d\.\d{3}) bits\)/m);
  const [, bigram] = e.out.match(/^ +bigram +(\d\.\d{4})/m);
  assert.ok(Number(loss) < Number(bigram), e.out);
  assert.ok(Math.abs(Number(bits) - Number(loss) / Math.LN2) < 2e-3, e.out);
  const ej = JSON.parse(cli('evaluate', '--model', model, '--json').out);
  assert.equal(ej.arch, 'gpt');
  assert.ok(Math.abs(ej.bitsPerCharacter - ej.validationLoss / Math.LN2) < 1e-12);
  assert.equal(ej.validationLoss.toFixed(4), loss, 'the text and the JSON give the same loss');

});

test('SIGTERM during a GPT\'s training writes the last good state and exits 143', async () => {
  const out = join(dir, 'sigterm.model');
  const child = spawn(process.execPath, [BIN, 'train', '--task', 'poems', '--text', text, ...TINY, '--steps', '1000000', '--log-every', '20',
    '--eval-every', '0', '--out', out]);
  let stdout = '', stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const code = await new Promise((resolve) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      if (!child.sent && /^step +\d+\/1000000/m.test(stdout)) child.sent = child.kill('SIGTERM');
    });
    child.on('exit', resolve);
  });
  assert.equal(code, 143, stderr);
  assert.match(stderr, /stopped by SIGTERM at step \d+; wrote the model so far/);
  const { step } = JSON.parse(cli('info', '--model', out, '--json').out);
  assert.ok(step >= 20 && step < 1000000, `step ${step}`);
});

test('--corpus song100 trains on the Song poems that npm run build:poems extracted', () => {
  const out = join(dir, 'song.model');
  const r = cli('train', '--task', 'poems', '--corpus', 'song100', ...TINY, '--steps', '2', '--eval-every', '0', '--out', out);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^training a GPT on the Song poems \(86 poems, \d+ characters; 10 poems held out; \d+ distinct characters\)/);
  assert.equal(JSON.parse(cli('info', '--model', out, '--json').out).corpus.poems, 96);
  // the poems' recipe drills three windows in four; your own text (--text, above) trains on itself
  assert.match(cli('info', '--model', out).out, /^form drills +75% of the windows$/m);
  assert.equal(JSON.parse(cli('info', '--model', model, '--json').out).config.drills, 0);
});

test('options that do not apply are refused, and nothing is written', () => {
  const out = join(dir, 'never.model');
  const refused = (args, message) => {
    const r = cli(...args);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, message);
    assert.equal(r.err.split('\n').length, 2, 'one line');
  };
  refused(['train', '--task', 'poems', '--text', text, '--cell', 'gru', '--steps', '1', '--out', out], /^attention-lab: --cell does not apply to --task poems \(a GPT; its options: --corpus, --text, --block-size/);
  refused(['train', '--task', 'poems', '--text', text, '--arch', 'transformer', '--steps', '1', '--out', out], /--arch does not apply to --task poems/);
  refused(['train', '--task', 'note', '--block-size', '8', '--steps', '1', '--out', out], /^attention-lab: --block-size applies to --task poems only$/m);
  refused(['train', '--task', 'poems', '--text', text, '--steps', '1', '--out', text], /--out '.*poems\.txt' is the same file as --text/);
  refused(['train', '--task', 'poems', '--text', text, '--held-out', '0.9', '--steps', '1', '--out', out], /--held-out must be a number in \[0, 0\.5\] \(got '0\.9'\)/);
  refused(['train', '--task', 'poems', '--text', text, '--block-size', '1000', '--steps', '1', '--out', out], /one block of --block-size 1000 needs at least 1001/);
  refused(['train', '--task', 'poems', '--text', text, '--drills', '1', '--steps', '1', '--out', out], /--drills must be a number in \[0, 0\.95\] \(got '1'\)/);
  refused(['train', '--task', 'poems', '--text', text, '--drills', '0.5', '--windows', 'text', '--steps', '1', '--out', out], /^attention-lab: --drills need --windows "poem": a form drill is a poem read from its start$/m);
  refused(['generate', model, '--prompt', '床前明月光'], /^attention-lab: --prompt has 5 characters not in the vocabulary: "床", "前", "明", "月", "光"/);
  refused(['generate', model, '--prompt', '白日', '--greedy', '--temperature', '0.8'], /--temperature does not apply with --greedy/);
  refused(['generate', model, '--prompt', '白日', '--top-p', '1.5'], /--top-p must be in \(0, 1\]/);
  refused(['generate', '--prompt', '白日'], /generate needs the model file/);
  assert.ok(!existsSync(out));
  assert.equal(readFileSync(text, 'utf8'), POEMS);
  const notGpt = cli('generate', text, '--prompt', '白日');
  assert.equal(notGpt.code, 1);
  assert.match(notGpt.err, /MODEL '.*poems\.txt': /);
});
