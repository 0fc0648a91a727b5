// §4's pure parts against the real wasm core: the attention maps cut from a Transformer's greedy
// trace (web/src/sections/transformer-maps.ts) have each kind's shape, hold the core's numbers
// index for index, keep the decoder's future masked, and light the source by one head, a layer's
// mean or the rollout; the settings' checks name their field; every §4 string exists in both
// languages.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { loadWeb } from './setup.mjs';

const maps = await loadWeb('sections/transformer-maps');
const { lightChoices } = await loadWeb('sections/transformer-decode');
const { headDivisors, transformerConfig } = await loadWeb('sections/transformer-recipes');
const { settingProblem } = await loadWeb('sections/transformer-controls');
const { TRANSFORMER_STRINGS } = await loadWeb('sections/transformer-strings');
const { SHELL_STRINGS, translator } = await loadWeb('i18n');
const { AppState } = await loadWeb('state');

/** §4's strings in English (a repeated token's name: token-labels.ts) */
const en = translator('en', TRANSFORMER_STRINGS, SHELL_STRINGS);
let lab;
let model;
let result;
const SETTINGS = { task: 'dates', layers: 2, heads: 4, dModel: 16, dFF: 32, normFirst: true, lr: 1e-2, warmup: 10, seed: 3 };
before(async () => {
  lab = await loadAttentionLab();
  model = lab.createSeq2Seq(transformerConfig(SETTINGS));
  model.train(3);
  result = model.translate('JAN 23, 2015', { maxLength: 6 });
});
after(() => model?.delete());

test('each kind has one map per layer and head, of its shape, with the core numbers', () => {
  const S = result.source.length;
  const T = result.steps.length;
  assert.equal(S, 12);
  assert.ok(T >= 1 && T <= 6);
  const all = maps.attentionMaps(result, en);
  for (const kind of maps.ATTENTION_KINDS) {
    assert.equal(all[kind].layers, 2);
    assert.equal(all[kind].heads, 4);
    assert.equal(all[kind].maps.length, 2);
    assert.equal(all[kind].maps[0].length, 4);
  }
  const shapes = { encoder: [S, S], decoder: [T, T], cross: [T, S] };
  for (const [kind, [rows, cols]] of Object.entries(shapes)) {
    for (const m of all[kind].maps.flat()) {
      assert.equal(m.rows, rows, kind);
      assert.equal(m.cols, cols, kind);
      assert.equal(m.rowLabels.length, rows);
      assert.equal(m.colLabels.length, cols);
      // every query row is a softmax over its keys
      for (let r = 0; r < rows; r++) {
        const sum = m.values.subarray(r * cols, (r + 1) * cols).reduce((a, b) => a + b, 0);
        assert.ok(Math.abs(sum - 1) < 1e-5, `${kind} row ${r}: ${sum}`);
      }
    }
  }
  // index for index: layer 2, head 3 of each kind against the core's arrays
  const [l, h] = [1, 2];
  const enc = all.encoder.maps[l][h];
  for (let i = 0; i < S * S; i++) assert.equal(enc.values[i], result.encoder.self.data[(l * 4 + h) * S * S + i]);
  const cross = all.cross.maps[l][h];
  const dec = all.decoder.maps[l][h];
  result.steps.forEach((step, t) => {
    for (let s = 0; s < S; s++) assert.equal(cross.values[t * S + s], step.cross.data[(l * 4 + h) * S + s]);
    for (let p = 0; p < T; p++) {
      const expected = p <= t ? step.self.data[(l * 4 + h) * (t + 1) + p] : 0; // the future is masked
      assert.equal(dec.values[t * T + p], expected, `decoder (${t}, ${p})`);
    }
  });
  // decoder columns are its inputs: <sos>, then each token written before
  assert.equal(dec.colLabels[0], '<sos>');
  assert.deepEqual(maps.traceLabels(result).inputs.slice(1), maps.traceLabels(result).output.slice(0, -1));
});

test('the source lights up by one head, a layer mean or the rollout', () => {
  const S = result.source.length;
  const step = result.steps[0];
  assert.deepEqual(Array.from(maps.sourceLight(result, 0, 2, 3)), Array.from(step.cross.data.subarray((1 * 4 + 2) * S, (1 * 4 + 3) * S)));
  const mean = maps.sourceLight(result, 0, 1, 0);
  for (let s = 0; s < S; s++) {
    let expected = 0;
    for (let h = 0; h < 4; h++) expected += step.cross.data[h * S + s] / 4;
    assert.ok(Math.abs(mean[s] - expected) < 1e-6);
  }
  assert.deepEqual(Array.from(maps.sourceLight(result, 0, 0, 0)), Array.from(step.attention));
  // rows: every layer and head, then the rollout
  const m = maps.stepMatrix(result, 0, en, 'rollout');
  assert.equal(m.rows, 2 * 4 + 1);
  assert.equal(m.rowLabels.at(-1), 'rollout');
  assert.deepEqual(Array.from(m.values.subarray(8 * S)), Array.from(step.attention));
  assert.equal(maps.stepMatrix(result, 99, en, 'rollout'), null);
  assert.deepEqual(lightChoices(2, 2), [[0, 0], [1, 0], [1, 1], [1, 2], [2, 0], [2, 1], [2, 2]]);
});

test('settings: heads must divide d_model, numbers stay in the state table limits, named by their field', () => {
  assert.deepEqual(headDivisors(32), [1, 2, 4, 8, 16]);
  assert.deepEqual(headDivisors(12), [1, 2, 3, 4, 6, 12]);
  const zh = translator('zh', TRANSFORMER_STRINGS, SHELL_STRINGS);
  const { state } = AppState.fromHash('');
  assert.equal(settingProblem(en, state, 'transformer_heads', '3'), 'Heads: must divide the model size 32: one of 1, 2, 4, 8, 16');
  assert.equal(settingProblem(zh, state, 'transformer_heads', '3'), '头数：必须整除模型维度 32：可选 1, 2, 4, 8, 16');
  assert.equal(settingProblem(en, state, 'transformer_dmodel', '30'), 'Heads: must divide the model size 30: one of 1, 2, 3, 5, 6, 10, 15');
  assert.equal(settingProblem(en, state, 'transformer_layers', '0'), 'Layers: at least 1');
  assert.equal(settingProblem(en, state, 'transformer_layers', '7'), 'Layers: at most 6');
  assert.equal(settingProblem(en, state, 'transformer_layers', '1.5'), 'Layers: must be a whole number');
  assert.equal(settingProblem(en, state, 'transformer_lr', 'x'), 'Peak learning rate: must be a number');
  assert.equal(settingProblem(en, state, 'transformer_heads', '8'), null);
  // the core refuses what the page lets through (over its memory limit), in its own words
  assert.throws(() => lab.createSeq2Seq(transformerConfig({ ...SETTINGS, layers: 6, dModel: 1024 })), /over the limit of 16777216/);
});

test('every §4 string exists in English and Chinese', () => {
  const en = Object.keys(TRANSFORMER_STRINGS.en).sort();
  const zh = Object.keys(TRANSFORMER_STRINGS.zh).sort();
  assert.deepEqual(zh, en);
  for (const key of en) assert.ok(TRANSFORMER_STRINGS.zh[key].trim() !== '', key);
});
