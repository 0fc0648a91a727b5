// `attention-lab train` with no model settings trains what the page trains: for each task of §3.3
// (and your own pairs) and of §4, the `info --json` of a freshly trained default model shows the
// settings of a model made from the page's own config (its trainConfig and the state table's
// defaults, through the wasm API), so the command line and the page cannot drift apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { loadWeb } from '../web/setup.mjs';
import { cliWithTimeout, withScratchFolder } from './run-cli.mjs';

const cli = cliWithTimeout(120000);
const { PROPS } = await loadWeb('state-table');
const { trainConfig, RECIPES } = await loadWeb('sections/translate-train');
const { transformerConfig } = await loadWeb('sections/transformer-recipes');
const def = (name) => PROPS.find((p) => p.name === name).default;
const lab = await loadAttentionLab();

// Enough distinct pairs to hold 10% out, as the page does by default.
const PAIRS = Array.from({ length: 12 }, (_, i) => `咖哥 喜欢 ${i}\tKaGe likes ${i}\n`).join('');

let dir;
withScratchFolder('attention-lab-cli-defaults-', (folder) => {
  dir = folder;
  writeFileSync(join(dir, 'pairs.tsv'), PAIRS);
});

const RNN_KEYS = ['cell', 'hidden', 'embedding', 'attention', 'score', 'attentionalTanh', 'batchSize', 'learningRate', 'clipNorm', 'seed', 'parameterCount'];
const TF_KEYS = ['layers', 'heads', 'dModel', 'dFF', 'normFirst', 'warmup', 'batchSize', 'learningRate', 'clipNorm', 'seed', 'parameterCount'];
const pick = (info, keys) => Object.fromEntries(keys.map((k) => [k, info[k]]));

/** `info --json` of a model trained one step by `train` with only these arguments. */
function cliInfo(name, ...args) {
  const out = join(dir, `${name}.model`);
  const t = cli('train', ...args, '--steps', '1', '--progress', 'none', '--out', out);
  assert.equal(t.code, 0, t.err);
  const i = cli('info', '--model', out, '--json');
  assert.equal(i.code, 0, i.err);
  return JSON.parse(i.out);
}

/** info() of the model the page makes from this config. */
function pageInfo(config) {
  const model = lab.createSeq2Seq(config);
  try {
    return model.info();
  } finally {
    model.delete();
  }
}

/** §3.3's settings as a task switch leaves them: the task's recipe, the state table's score and seed. */
const pageSettings = (task) => ({ task, ...RECIPES[task], score: def('translate_score'), seed: def('seed') });

for (const task of ['zh-en', 'note', 'dates']) {
  test(`train --task ${task} starts from §3.3's settings for ${task}`, () => {
    const page = pick(pageInfo(trainConfig(pageSettings(task))), RNN_KEYS);
    assert.deepEqual(pick(cliInfo(task, '--task', task), RNN_KEYS), page);
  });
}

test("the state table's §3.3 defaults are the zh-en recipe (a page opened with no settings trains it)", () => {
  assert.equal(def('translate_task'), 'zh-en');
  assert.deepEqual(RECIPES['zh-en'], { cell: def('translate_cell'), hidden: def('translate_hidden'), lr: def('translate_lr') });
});

test("train --pairs starts from the settings the page's pairs panel trains with (§3.3's defaults)", () => {
  const page = pageInfo({
    task: 'pairs', pairs: PAIRS,
    tokenize: def('translate_tokenize'), heldOut: def('translate_held_out') / 100, cell: def('translate_cell'), hidden: def('translate_hidden'),
    attention: def('translate_score') !== 'none', score: def('translate_score'), seed: def('seed'), learningRate: def('translate_lr'),
  });
  assert.deepEqual(pick(cliInfo('pairs', '--pairs', join(dir, 'pairs.tsv')), RNN_KEYS), pick(page, RNN_KEYS));
});

test("train --task dates --arch transformer starts from §4's settings (the state table's transformer_* defaults)", () => {
  const task = def('transformer_task');
  assert.equal(task, 'dates');
  const page = pageInfo(transformerConfig({
    task, layers: def('transformer_layers'), heads: def('transformer_heads'), dModel: def('transformer_dmodel'), dFF: def('transformer_dff'),
    normFirst: def('transformer_norm_first'), lr: def('transformer_lr'), warmup: def('transformer_warmup'), seed: def('seed'),
  }));
  assert.deepEqual(pick(cliInfo('tf-dates', '--task', task, '--arch', 'transformer'), TF_KEYS), pick(page, TF_KEYS));
});

test('the tanh layer that dates has by default can be left out, and is refused where it has no effect', () => {
  assert.equal(cliInfo('dates-plain', '--task', 'dates', '--no-attentional-tanh').attentionalTanh, false);
  const both = cli('train', '--task', 'dates', '--attentional-tanh', '--no-attentional-tanh', '--steps', '1', '--out', join(dir, 'x.model'));
  assert.equal(both.code, 2);
  assert.match(both.err, /--attentional-tanh and --no-attentional-tanh exclude each other/);
  const none = cli('train', '--task', 'dates', '--attention', 'none', '--no-attentional-tanh', '--steps', '1', '--out', join(dir, 'x.model'));
  assert.equal(none.code, 2);
  assert.match(none.err, /--no-attentional-tanh has no effect with --attention none/);
  const tf = cli('train', '--task', 'dates', '--arch', 'transformer', '--no-attentional-tanh', '--steps', '1', '--out', join(dir, 'x.model'));
  assert.equal(tf.code, 2);
  assert.match(tf.err, /--no-attentional-tanh does not apply to --arch transformer/);
});
