// `attention-lab translate`'s questions to the model, run as a user runs them: --force-attention
// STEP:SOURCE and --force-token STEP:WORD (the intervened decoding beside the original) and
// --attribution [METHOD] (gradients beside the attention), in text and JSON, and their bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cliWithTimeout, withScratchFolder } from './run-cli.mjs';

const TEXT = '咖哥 喜欢 小冰';
let dir, model;

const cli = cliWithTimeout(30000);

withScratchFolder('attention-lab-why-', (folder) => {
  dir = folder;
  model = join(dir, 'note.model');
  const r = cli('train', '--task', 'note', '--cell', 'rnn', '--hidden', '32', '--steps', '300', '--out', model);
  assert.equal(r.code, 0, r.err);
});

test('--force-attention STEP:SOURCE decodes with that step on one source token, beside the original', () => {
  const r = cli('translate', '--model', model, TEXT, '--force-attention', '2:1');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^original: {3}KaGe likes XiaoBing$/m);
  assert.match(r.out, /^intervened: /m);
  assert.match(r.out, /^ {2}step 2: all the attention on source token 1 \(咖哥\)$/m);
  const lines = r.out.split('\n');
  const head = lines.findIndex((l) => /^attention of the intervened decoding/.test(l));
  assert.deepEqual(lines[head + 3].trim().split(/\s+/).slice(1), ['1.00', '0.00', '0.00'], 'row of step 2');

  const j = JSON.parse(cli('translate', '--model', model, TEXT, '--force-attention', '2:1', '--json').out);
  assert.deepEqual(j.steps[1].attention, [1, 0, 0]);
  assert.equal(j.intervention.original.text, 'KaGe likes XiaoBing');
  assert.equal(j.steps[1].editedAttention, true);
  const Hd = j.intervention.encoderOutputs.shape[1];
  assert.deepEqual(j.steps[1].context, j.intervention.encoderOutputs.data.slice(0, Hd), 'the context is encoder output 1');
});

test('--force-token STEP:WORD writes another word and decodes on from it', () => {
  const r = cli('translate', '--model', model, TEXT, '--force-token', '1:XiaoBing', '--json');
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.output[0], 'XiaoBing');
  assert.equal(j.steps[0].forcedToken, true);
  assert.equal(j.intervention.firstChange, 0);
  assert.equal(j.intervention.changed[0], true);
  const text = cli('translate', '--model', model, TEXT, '--force-token', '1:XiaoBing');
  assert.match(text.out, /^ {2}step 1: the word XiaoBing instead of the most probable one$/m);
  assert.match(text.out, /^ +1 {2}KaGe +XiaoBing +0\.\d{3} {2}\*!$/m);
});

test('--attribution prints a table of gradient × input with ρ; integrated gradients are complete', () => {
  const r = cli('translate', '--model', model, TEXT, '--attribution');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^attribution: gradient × input of each output word's log-probability/m);
  const lines = r.out.split('\n');
  const head = lines.findIndex((l) => /^\(rows: output words/.test(l));
  assert.deepEqual(lines[head + 1].trim().split(/\s+/), ['咖哥', '喜欢', '小冰', 'ρ']);
  assert.match(lines[head + 2], /^ {2}KaGe +-?\d\.\d{3} +-?\d\.\d{3} +-?\d\.\d{3} +(-?\d\.\d{2}|-)$/);

  const ig = cli('translate', '--model', model, TEXT, '--attribution', 'integrated-gradients', '--ig-steps', '64');
  assert.equal(ig.code, 0, ig.err);
  assert.match(ig.out, /^attribution: integrated gradients \(64 steps from the zero embedding\)/m);
  const bound = Number(ig.out.match(/completeness: .* ≤ (\S+) over the words/)[1]);
  assert.ok(bound < 1e-2, `completeness ${bound}`);
  const j = JSON.parse(cli('translate', '--model', model, TEXT, '--attribution=integrated-gradients', '--json').out);
  assert.equal(j.attribution.method, 'integrated-gradients');
  assert.equal(j.attribution.steps, 32);
  assert.deepEqual(j.attribution.scores.shape, [4, 3]);
});

test('a forced word may lengthen the translation: a later --force-token counts steps of the intervened decoding', () => {
  // "咖哥" alone translates to nothing (<eos> at step 1); forcing KaGe, then likes, goes on.
  const plain = cli('translate', '--model', model, '咖哥');
  assert.match(plain.out, /^\(empty translation\)$/m);
  const r = cli('translate', '--model', model, '咖哥', '--force-token', '1:KaGe', '--force-token', '2:likes');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^intervened: KaGe likes /m);
});

test('bad questions: one line on stderr, exit code 2', () => {
  for (const [args, message] of [
    [['--force-attention', '9:1'], /^attention-lab: --force-attention at step 9: the step is beyond the translation, which ended after 4 steps \(1 … 4\)$/],
    [['--force-attention', '99:1'], /^attention-lab: --force-attention at step 99: the step must be from 1 to 32 \(decoding stops after --max-length steps\)$/],
    [['--force-attention', '1:4'], /source token 4 is beyond the sentence, which has 3 tokens/],
    [['--force-attention', '1'], /--force-attention takes STEP:SOURCE with STEP a whole number from 1 \(got '1'\)/],
    [['--force-attention', '0:1'], /STEP a whole number from 1/],
    [['--force-attention', '1:x'], /SOURCE a whole number from 1 \(got '1:x'\)/],
    [['--force-token', '1:Nope'], /^attention-lab: --force-token 1:Nope: 'Nope' is not a word this model can write$/],
    [['--force-attention', '1:1', '--beam', '2'], /need greedy decoding: leave out --beam/],
    [['--attribution', '--ig-steps', '0'], /--ig-steps must be a whole number in \[1, 1024\]/],
  ]) {
    const r = cli('translate', '--model', model, TEXT, ...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.equal(r.out, '');
    assert.match(r.err.trimEnd(), message);
    assert.equal(r.err.trimEnd().split('\n').length, 1);
  }
});

test('--force-attention on a Transformer forces every cross-attention head; --attribution attributes its words', () => {
  const tf = join(dir, 'tf.model');
  const t = cli('train', '--task', 'reverse', '--arch', 'transformer', '--layers', '1', '--heads', '2', '--d-model', '8',
    '--d-ff', '16', '--steps', '20', '--eval-every', '0', '--out', tf);
  assert.equal(t.code, 0, t.err);
  const r = cli('translate', '--model', tf, 'abc', '--force-attention', '1:2', '--json');
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.steps[0].editedAttention, true);
  const [S, Dm] = [3, 8];
  // Layer 0, both heads: the context is value row 1 (the second source token), exactly.
  assert.deepEqual(j.steps[0].crossContext.data, j.intervention.crossValues.data.slice(1 * Dm, 2 * Dm));
  assert.equal(j.intervention.crossValues.shape.join(), [1, S, Dm].join());
  const a = cli('translate', '--model', tf, 'abc', '--attribution', 'integrated-gradients', '--ig-steps', '128');
  assert.equal(a.code, 0, a.err);
  assert.match(a.out, /attribution: integrated gradients \(128 steps from the zero embedding\) of each output word's log-probability to the source token embeddings/);
  assert.match(a.out, /Spearman's rank correlation with the word's attention rollout onto the source/);
  const completeness = Number(a.out.match(/completeness: \|Σ attribution − \(log p\(x\) − log p\(0\)\)\| ≤ (\S+) over the words/)[1]);
  assert.ok(completeness < 1e-2, `completeness ${completeness}`);
  const aj = JSON.parse(cli('translate', '--model', tf, 'abc', '--attribution', '--json').out);
  const plain = JSON.parse(cli('translate', '--model', tf, 'abc', '--json').out);
  assert.equal(aj.attribution.method, 'gradient-input');
  assert.deepEqual(aj.attribution.scores.shape, [plain.steps.length, S]);
  assert.deepEqual(aj.attribution.words, plain.steps.map((s) => s.token));
  assert.deepEqual(aj.attribution.attention.data, plain.steps.flatMap((s) => s.attention));
});
