// `attention-lab train --arch transformer` and `translate` on a Transformer's model file, run as a
// child process: the summary line, the cross-attention of every layer and head (rows summing to
// 1), the rollout table, the JSON trace's shapes, info, and the Transformer's usage errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cliWithTimeout, withScratchFolder } from './run-cli.mjs';

let dir, model;

const cli = cliWithTimeout(120000);

withScratchFolder('attention-lab-cli-tf-', (folder) => {
  dir = folder;
  model = join(dir, 'note-tf.model');
});

test('train --arch transformer learns the note and writes a model', () => {
  const r = cli('train', '--task', 'note', '--arch', 'transformer', '--layers', '2', '--heads', '4', '--d-model', '32',
    '--d-ff', '64', '--warmup', '20', '--lr', '0.003', '--batch', '8', '--steps', '200', '--eval-every', '200', '--out', model);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^training note: transformer, 2 layers, 4 heads, dModel 32, dFF 64, post-norm, [\d,]+ parameters; batch 8, lr 0\.003 \(warm-up 20 steps\), clip 1, seed 1; 200 steps$/m);
  assert.match(r.out, /^step 200\/200 .*exact 100\.0% \(5\)/m);
});

test('translate prints the cross-attention of every layer and head, then the rollout', () => {
  const r = cli('translate', '--model', model, '咖哥 喜欢 小冰');
  assert.equal(r.code, 0, r.err);
  const lines = r.out.split('\n');
  assert.equal(lines[0], 'KaGe likes XiaoBing');
  for (let l = 1; l <= 2; ++l) {
    for (let h = 1; h <= 4; ++h) {
      const at = lines.findIndex((x) => x.startsWith(`cross-attention, layer ${l} of 2, head ${h} of 4`));
      assert.ok(at >= 0, `layer ${l} head ${h}`);
      assert.deepEqual(lines[at + 1].trim().split(/\s+/), ['咖哥', '喜欢', '小冰']);
      const rows = lines.slice(at + 2, at + 6).map((x) => x.trim().split(/\s+/));
      assert.deepEqual(rows.map((x) => x[0]), ['KaGe', 'likes', 'XiaoBing', '<eos>']);
      for (const row of rows) {
        const sum = row.slice(1).reduce((s, v) => s + Number(v), 0);
        assert.ok(Math.abs(sum - 1) <= 0.02, `layer ${l} head ${h}: ${row} sums to ${sum}`);
      }
    }
  }
  const roll = lines.findIndex((x) => x.startsWith('attention rollout onto the source'));
  assert.ok(roll > 0);
  const rows = lines.slice(roll + 2, roll + 6).map((x) => x.trim().split(/\s+/));
  for (const row of rows) {
    const sum = row.slice(1).reduce((s, v) => s + Number(v), 0);
    assert.ok(sum > 0 && sum <= 1.02, `rollout row ${row}: part of the mass stays on the output prefix`);
  }
});

test('--json has the per-layer, per-head trace; beam search works; info describes the Transformer', () => {
  const j = JSON.parse(cli('translate', '--model', model, '--json', '咖哥 喜欢 小冰').out);
  assert.deepEqual(j.steps[0].cross.shape, [2, 4, 3]);
  assert.deepEqual(j.steps[2].self.shape, [2, 4, 3]);
  assert.deepEqual(j.encoder.self.shape, [2, 4, 3, 3]);
  const b = cli('translate', '--model', model, '--beam', '3', '咖哥 喜欢 小冰');
  assert.equal(b.code, 0, b.err);
  assert.match(b.out, /^KaGe likes XiaoBing\n/);
  assert.match(b.out, /cross-attention, layer 2 of 2, head 4 of 4/);
  const i = cli('info', '--model', model);
  assert.equal(i.code, 0, i.err);
  assert.match(i.out, /^model +transformer, post-norm$/m);
  assert.match(i.out, /^heads +4$/m);
  assert.match(i.out, /^steps trained +200$/m);
  const e = cli('evaluate', '--model', model);
  assert.equal(e.code, 0, e.err);
  assert.match(e.out, /exact match +100\.0%/);
});

test('train --arch transformer on dates takes the session\'s tuned dates recipe unless told otherwise', () => {
  const out = join(dir, 'dates-tf.model');
  const r = cli('train', '--task', 'dates', '--arch', 'transformer', '--steps', '2', '--eval-every', '0', '--out', out);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^training dates: transformer, 1 layers, 4 heads, dModel 32, dFF 64, pre-norm, [\d,]+ parameters; batch 32, lr 0\.01 \(warm-up 200 steps\), clip 1, seed 1; 2 steps$/m);
  const post = cli('train', '--task', 'dates', '--arch', 'transformer', '--post-norm', '--layers', '2', '--steps', '1', '--eval-every', '0', '--out', out);
  assert.equal(post.code, 0, post.err);
  assert.match(post.out, /^training dates: transformer, 2 layers, 4 heads, dModel 32, dFF 64, post-norm, /m);
  const both = cli('train', '--task', 'dates', '--arch', 'transformer', '--post-norm', '--norm-first', '--steps', '1', '--out', out);
  assert.equal(both.code, 2);
  assert.match(both.err, /--norm-first and --post-norm exclude each other/);
});

test('Transformer usage errors name the problem', () => {
  const out = join(dir, 'x.model');
  const bad = (args, pattern) => {
    const r = cli('train', '--task', 'note', '--steps', '1', '--out', out, ...args);
    assert.equal(r.code, 2, r.out + r.err);
    assert.match(r.err, pattern);
    assert.doesNotMatch(r.err, /at .*\.mjs:\d+/, 'no stack trace');
  };
  bad(['--arch', 'transformer', '--heads', '3', '--d-model', '32'], /the number of heads \(3\) must divide the model size dModel \(32\)/);
  bad(['--arch', 'transformer', '--layers', '7'], /--layers must be a whole number in \[1, 6\]/);
  bad(['--arch', 'gpt'], /unknown arch 'gpt' for --arch \(expected rnn, transformer\)/);
});

test('export --format safetensors writes the Transformer; translate and info read it back', () => {
  const st = join(dir, 'note-tf.safetensors');
  const e = cli('export', '--model', model, '--format', 'safetensors', '--out', st);
  assert.equal(e.code, 0, e.err);
  const fromModel = cli('translate', '--model', model, '咖哥 喜欢 小冰');
  const fromFile = cli('translate', '--model', st, '咖哥 喜欢 小冰');
  assert.equal(fromFile.code, 0, fromFile.err);
  assert.equal(fromFile.out, fromModel.out, 'the same translation, steps and attention tables');
  const i = cli('info', '--model', st);
  assert.equal(i.code, 0, i.err);
  assert.match(i.out, /^file +.*note-tf\.safetensors \(\d+ KiB, safetensors, the reference module's state-dict names\)$/m);
  assert.match(i.out, /^layers +2 \(encoder\) \+ 2 \(decoder\)$/m);
  assert.doesNotMatch(i.out, /steps trained/);
  const ev = cli('evaluate', '--model', st);
  assert.notEqual(ev.code, 0);
  assert.match(ev.err, /has no task/);
});
