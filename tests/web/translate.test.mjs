// Pure helpers of the §1 and §3.3 sections (lengths, the moving average, the beam path, labels,
// model configs), and the worker's seq2seq.vocabulary operation over the real wasm module, through
// the page's client. Run: node --test tests/web/translate.test.mjs (after npm run build:wasm)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { InProcessWorker } from './scripted-worker.mjs';
import { loadWeb } from './setup.mjs';

const { whyLengths, whyConfig } = await loadWeb('sections/why-run');
const { bestPath } = await loadWeb('sections/translate-decode');
const { distinctLabels } = await loadWeb('sections/token-labels');
const { SHELL_STRINGS, translator } = await loadWeb('i18n');
const { trainConfig, RECIPE_STEPS, RECIPES } = await loadWeb('sections/translate-train');
const { splitSuggestion } = await loadWeb('sections/note-words');
const { COMPARE_STRINGS, sentenceAlignment } = await loadWeb('sections/translate-compare');
const { TRANSLATE_STRINGS } = await loadWeb('sections/translate-strings');
const { timeLeftText, tryPrompts } = await loadWeb('sections/translate-text');
const { sentenceTooLongText } = await loadWeb('sections/sentence-error');
const { PROPS } = await loadWeb('state-table');
const { LabHandlers } = await loadWeb('worker/handlers');
const { expose } = await loadWeb('worker/expose');
const { createLabClient } = await loadWeb('worker/client');

describe('section helpers', () => {
  test('§3.3 time left to the recipe end at the measured speed, in both languages', () => {
    const t = (lang) => (key) => TRANSLATE_STRINGS[lang][key];
    assert.equal(timeLeftText(t('en'), 300, 60), 'about 5 s left at the measured speed');
    assert.equal(timeLeftText(t('en'), 301, 60), 'about 6 s left at the measured speed');
    assert.equal(timeLeftText(t('en'), 9000, 60), 'about 2 min 30 s left at the measured speed');
    assert.equal(timeLeftText(t('zh'), 9000, 60), '按实测速度约剩 2 分 30 秒');
    // nothing left, or no speed measured yet: no estimate
    assert.equal(timeLeftText(t('en'), 0, 60), '');
    assert.equal(timeLeftText(t('en'), 10, 0), '');
    assert.equal(timeLeftText(t('en'), 10, Infinity), '');
  });

  test('whyLengths: 5, 10, then every 10, ending at the longest', () => {
    assert.deepEqual(whyLengths(30), [5, 10, 20, 30]);
    assert.deepEqual(whyLengths(10), [5, 10]);
    assert.deepEqual(whyLengths(45), [5, 10, 20, 30, 40, 45]);
    assert.deepEqual(whyLengths(60), [5, 10, 20, 30, 40, 50, 60]);
  });

  test('the two §1 models differ only in attention', () => {
    const s = { cell: 'gru', hidden: 32, maxLen: 30, steps: 100, seed: 4 };
    const plain = whyConfig(s, false);
    const attn = whyConfig(s, true);
    assert.deepEqual({ ...plain, attention: true }, attn);
    assert.deepEqual(plain.taskOptions, { minLen: 5, maxLen: 30, train: 5000, heldOut: 100 });
    assert.equal(plain.embedding, 16);
  });

  test('bestPath follows the parents back to the root', () => {
    const steps = [[{ parent: -1 }, { parent: -1 }], [{ parent: 1 }, { parent: 0 }], [{ parent: 0 }, { parent: 1 }]];
    assert.deepEqual(bestPath(steps, 2, 1), [0, 1, 1]);
    assert.deepEqual(bestPath(steps, 2, 0), [1, 0, 0]);
    assert.deepEqual(bestPath(steps, 0, 1), [1]);
  });

  test("distinctLabels numbers repeated tokens only, in the page language's brackets whatever the token's script", () => {
    const en = translator('en', SHELL_STRINGS);
    const zh = translator('zh', SHELL_STRINGS);
    assert.deepEqual(distinctLabels(['咖哥', '喜欢', '小冰'], en), ['咖哥', '喜欢', '小冰']);
    assert.deepEqual(distinctLabels(['2', '0', '2', '1'], en), ['2 (1)', '0', '2 (3)', '1']);
    assert.deepEqual(distinctLabels(['在', '花园', '在'], en), ['在 (1)', '花园', '在 (3)'], 'the English page: 在 (1)');
    assert.deepEqual(distinctLabels(['在', '花园', '在'], zh), ['在（1）', '花园', '在（3）'], 'the Chinese page: 在（1）');
    assert.deepEqual(distinctLabels(['2', '0', '2'], zh), ['2（1）', '0', '2（3）']);
  });

  test("trainConfig: the note's recipe as the note has it; none means a plain Seq2Seq", () => {
    const note = trainConfig({ task: 'note', cell: 'rnn', hidden: 128, score: 'dot', lr: 0.001, seed: 1 });
    assert.deepEqual(note, { task: 'note', cell: 'rnn', hidden: 128, attention: true, score: 'dot', seed: 1, learningRate: 0.001 });
    assert.equal(trainConfig({ task: 'note', cell: 'gru', hidden: 8, score: 'none', lr: 0.01, seed: 2 }).attention, false);
    const dates = trainConfig({ task: 'dates', cell: 'lstm', hidden: 64, score: 'dot', lr: 0.005, seed: 1 });
    assert.equal(dates.attentionalTanh, true);
    assert.equal(RECIPE_STEPS.note, 400);
  });

  test('the grammar corpus is the default, and its recipe is the state table’s defaults', () => {
    const def = (name) => PROPS.find((p) => p.name === name).default;
    assert.equal(def('translate_task'), 'zh-en');
    assert.deepEqual(RECIPES['zh-en'], { cell: def('translate_cell'), hidden: def('translate_hidden'), lr: def('translate_lr') });
    assert.equal(RECIPE_STEPS['zh-en'], 800);
    const config = trainConfig({ task: 'zh-en', ...RECIPES['zh-en'], score: 'dot', seed: 1 });
    assert.deepEqual(config, { task: 'zh-en', cell: 'gru', hidden: 64, attention: true, score: 'dot', seed: 1, learningRate: 0.01 });
  });

  test('§3.3 strings (the section and its comparison table) have the same keys in English and Chinese', () => {
    for (const table of [TRANSLATE_STRINGS, COMPARE_STRINGS]) {
      assert.deepEqual(Object.keys(table.zh).sort(), Object.keys(table.en).sort());
      for (const lang of ['en', 'zh']) for (const [k, v] of Object.entries(table[lang])) assert.ok(v.trim(), `${lang} ${k}`);
    }
    for (const task of ['zh-en', 'note', 'dates']) assert.ok(TRANSLATE_STRINGS.en[`translate.intro.${task}`] && TRANSLATE_STRINGS.zh[`translate.intro.${task}`]);
  });

  test('splitSuggestion splits words typed without spaces into vocabulary words, longest first', () => {
    const vocab = ['咖哥', '喜欢', '小冰', '小', '冰', '我'];
    assert.equal(splitSuggestion('咖哥喜欢小冰', vocab), '咖哥 喜欢 小冰');
    assert.equal(splitSuggestion('我 喜欢小冰', vocab), '我 喜欢 小冰');
    assert.equal(splitSuggestion('咖哥 喜欢 小冰', vocab), null, 'nothing to split');
    assert.equal(splitSuggestion('咖哥讨厌小冰', vocab), null, 'a piece is unknown');
    assert.equal(splitSuggestion('', vocab), null);
  });

  test('sentenceAlignment scores the argmax of each correctly translated content word', () => {
    const example = { source: '昨天 我 看见 猫', target: 'I saw the cat yesterday', alignment: [[1], [2], [], [3], [0]] };
    const step = (token, attention) => ({ token, prob: 1, top: [], attention: Float32Array.from(attention) });
    const result = {
      source: [], output: [], text: '', finished: true,
      steps: [
        step('I', [0.1, 0.7, 0.1, 0.1]), // hit
        step('saw', [0.5, 0.1, 0.3, 0.1]), // miss
        step('the', [1, 0, 0, 0]), // a function word: not scored
        step('dog', [0, 0, 0, 1]), // not the reference word: not scored
        step('yesterday', [0.9, 0, 0, 0.1]), // hit
        step('<eos>', [0.25, 0.25, 0.25, 0.25]),
      ],
    };
    assert.deepEqual(sentenceAlignment(result, example), { hits: 2, scored: 3 });
    assert.equal(sentenceAlignment(result, undefined), null);
    assert.equal(sentenceAlignment({ ...result, steps: undefined }, example), null);
  });
});

describe('seq2seq.vocabulary through the worker protocol', () => {
  test("the note's vocabularies come back in id order; an unknown model is a clear error", { timeout: 60_000 }, async () => {
    const lab = await loadAttentionLab();
    const handlers = new LabHandlers(lab, () => {});
    // an in-process worker: the real handlers, with structured cloning both ways
    const client = createLabClient(() => new InProcessWorker((scope) => expose(handlers.api, scope)));
    const model = await client.createSeq2Seq({ task: 'note', hidden: 8 });
    const vocab = await model.vocabulary();
    assert.deepEqual(vocab.source.slice(0, 4), ['咖哥', '喜欢', '小冰', '我']);
    assert.equal(vocab.source.length, 18);
    assert.deepEqual(vocab.target.slice(0, 3), ['KaGe', 'likes', 'XiaoBing']);
    assert.equal(vocab.target.length + 4, (await model.info()).targetVocabSize);
    const held = await model.heldOut(2);
    assert.deepEqual(held[0], { source: '咖哥 喜欢 小冰', target: 'KaGe likes XiaoBing', alignment: [[0], [1], [2]] });
    assert.equal(held.length, 2);
    await model.delete();
    await assert.rejects(client['seq2seq.vocabulary'](model.model), /no model/);
  });

  test("a sentence over the model's limit: the core's code and numbers reach the page, worded in each language", async () => {
    const handlers = new LabHandlers(await loadAttentionLab());
    const client = createLabClient(() => new InProcessWorker((scope) => expose(handlers.api, scope)));
    const model = await client.createSeq2Seq({ task: 'note', hidden: 8 });
    const err = await model.translate('我 '.repeat(70)).then(
      () => assert.fail('a sentence of 70 words translated'),
      (e) => e,
    );
    assert.equal(err.message, 'sentence has 70 tokens; the limit is 64');
    assert.equal(err.code, 'sentenceTooLong');
    assert.deepEqual(err.details, { count: 70, limit: 64 });
    assert.equal(sentenceTooLongText('en', err, 'words'), 'at most 64 words (this one has 70 words); shorten it');
    assert.equal(sentenceTooLongText('zh', err, 'chars'), '最多 64 个字符（这句有 70 个字符），请缩短');
    // any other error is the caller's to word
    const other = await model.translate('').catch((e) => e);
    assert.equal(other.code, undefined);
    assert.equal(sentenceTooLongText('en', other, 'words'), null);
    await model.delete();
  });
});

describe('TranslateTrainer over a fake worker client', () => {
  /** A model whose train() fails on the call numbered `divergeOnCall` after completing 2 of its steps. */
  function fakeLab(divergeOnCall) {
    let calls = 0;
    let step = 0;
    const result = (n) => {
      const losses = Float32Array.from({ length: n }, (_, i) => 1 / (step + i + 1));
      step += n;
      return { losses, tokenAccuracy: new Float32Array(n).fill(0.5), step };
    };
    const model = {
      model: 1,
      generation: 0,
      info: async () => ({ sourceTokenizer: 'words', targetTokenizer: 'words' }),
      vocabulary: async () => ({ source: ['a'], target: ['b'] }),
      heldOut: async () => [],
      train: async (n) => {
        calls++;
        if (calls === divergeOnCall) {
          const err = new Error('training diverged at step 7: the loss is not finite');
          err.completed = result(Math.min(2, n));
          throw err;
        }
        return result(n);
      },
      delete: async () => {},
    };
    return { createSeq2Seq: async () => model, get calls() { return calls; } };
  }

  test('a diverged run keeps its completed steps, throws DivergedError, and training goes on afterwards', async (t) => {
    const { TranslateTrainer, DivergedError } = await loadWeb('sections/translate-train');
    // train() sizes its chunks by the measured time per step: a clock that moves 1 ms at every
    // reading makes every call look fast, so the chunks are the same on a loaded machine
    let now = 0;
    t.mock.method(performance, 'now', () => now++);
    const lab = fakeLab(2);
    const trainer = new TranslateTrainer(lab, { task: 'note', cell: 'rnn', hidden: 8, score: 'dot', lr: 1e6, seed: 1 });
    await trainer.train(1);
    assert.equal(trainer.step, 1);
    await assert.rejects(trainer.train(5), (e) => e instanceof DivergedError && /diverged at step 7/.test(e.message));
    assert.equal(lab.calls, 2, 'the 5 steps went to the worker as one call');
    assert.equal(trainer.step, 3); // 1 + the 2 completed steps of the failed call
    assert.deepEqual(trainer.losses.map((l) => Math.round(1 / l)), [1, 2, 3]);
    await trainer.train(2);
    assert.equal(trainer.step, 5);
    assert.deepEqual(trainer.vocabulary, { source: ['a'], target: ['b'] });
  });
});

test('every task has its own "Try this" prompts, in both languages, naming controls that exist', async () => {
  const { TRANSLATE_STRINGS } = await loadWeb('sections/translate-strings');
  const { translator } = await loadWeb('i18n');
  const { PROPS } = await loadWeb('state-table');
  const tasks = PROPS.find((p) => p.name === 'translate_task').values;
  for (const lang of ['en', 'zh']) {
    const t = translator(lang, TRANSLATE_STRINGS);
    const seen = new Set();
    for (const task of tasks) {
      const prompts = tryPrompts(t, task);
      assert.ok(prompts.length >= 2, `${lang} ${task}: ${prompts.length} prompts`);
      for (const p of prompts) {
        assert.ok(!seen.has(p), `${lang} ${task}: a prompt of another task`);
        seen.add(p);
      }
      // the buttons and fields a prompt names carry those labels on the page
      const named = ['translate.play', 'translate.decode.step', 'translate.score', 'translate.task'].map((k) => t(k));
      assert.ok(prompts.some((p) => named.some((label) => p.includes(label))), `${lang} ${task}: names no control`);
    }
    assert.deepEqual(tryPrompts(t, 'no-such-task'), []);
  }
});
