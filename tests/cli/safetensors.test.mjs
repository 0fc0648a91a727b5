// `attention-lab export --format safetensors` and `translate --model x.safetensors`, run as a child
// process: a trained model exported under both namings translates the same, the book's model
// trained in PyTorch translates from the command line, and bad input gives one line and an exit code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliWithTimeout, withScratchFolder } from './run-cli.mjs';

const BOOK = fileURLToPath(new URL('shared/reference/book_seq2seq.safetensors', new URL('../../', import.meta.url)));
let dir, model;

const cli = cliWithTimeout(20000);

withScratchFolder('attention-lab-safetensors-', (folder) => {
  dir = folder;
  model = join(dir, 'note.model');
  const t = cli('train', '--task', 'note', '--hidden', '16', '--lr', '0.01', '--steps', '300', '--eval-every', '0', '--out', model);
  assert.equal(t.code, 0, t.err);
});

test('export under both namings; translate from each gives the .atlb model\'s translation', () => {
  const expected = cli('translate', '--model', model, '--json', '咖哥 喜欢 小冰');
  for (const names of ['project', 'book']) {
    const out = join(dir, `${names}.safetensors`);
    const e = cli('export', '--model', model, '--format', 'safetensors', '--names', names, '--out', out);
    assert.equal(e.code, 0, e.err);
    assert.match(e.out, new RegExp(`wrote .*${names}\\.safetensors \\(safetensors, ${names} state-dict names, [\\d,]+ bytes\\)`));
    const header = readFileSync(out).subarray(8, 8 + readFileSync(out).readUInt32LE(0)).toString();
    assert.equal(header.includes('"decoder.out.weight"'), names === 'book');
    const t = cli('translate', '--model', out, '--json', '咖哥 喜欢 小冰');
    assert.equal(t.code, 0, t.err);
    assert.deepEqual(JSON.parse(t.out), JSON.parse(expected.out));
  }
});

test('the book model trained in PyTorch translates, shows its attention, and reports its names', () => {
  const t = cli('translate', '--model', BOOK, '我 爱 学习 人工智能');
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /^I love studying AI\n/);
  assert.match(t.out, /attention \(rows: output tokens/);
  const i = cli('info', '--model', BOOK);
  assert.match(i.out, /safetensors, book state-dict names/);
  assert.match(i.out, /source vocabulary\s+18 tokens \(words, in the file's order\)/);
});

test('bad input: one line on stderr and an exit code', () => {
  const unknown = cli('translate', '--model', BOOK, '咖哥 喜欢 猫');
  assert.equal(unknown.code, 2);
  assert.equal(unknown.err, "attention-lab: '猫' is not in the source vocabulary, which has no <unk> token\n");
  const noFormat = cli('export', '--model', model, '--out', join(dir, 'x'));
  assert.equal(noFormat.code, 2);
  assert.match(noFormat.err, /export needs --format/);
  const badFormat = cli('export', '--model', model, '--format', 'onnx', '--out', join(dir, 'x'));
  assert.equal(badFormat.code, 2);
  assert.match(badFormat.err, /unknown format 'onnx' for --format \(expected safetensors\)/);
  const evaluate = cli('evaluate', '--model', BOOK);
  assert.equal(evaluate.code, 2);
  assert.match(evaluate.err, /is a \.safetensors file: it has no task and no held-out set; evaluate it on your own pairs with --pairs FILE/);
});
