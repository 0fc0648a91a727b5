// The worker's training streams (worker/train-stream.ts: continuous training, progress per slice)
// and its routing between the wasm builds (worker/router.ts), over the real wasm module through an
// in-process fake worker. The client, expose/wrap and the handlers alone: worker.test.mjs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { InProcessWorker, K, Q } from './scripted-worker.mjs';
import { loadWeb } from './setup.mjs';

const { createLabClient, LabRequestError } = await loadWeb('worker/client');
const { expose } = await loadWeb('worker/expose');
const { LabHandlers, counter } = await loadWeb('worker/handlers');
const { TrainStreams, STREAM_LIMITS } = await loadWeb('worker/train-stream');
const { ModuleRouter } = await loadWeb('worker/router');

/** A client whose in-process worker serves one build like lab-worker.ts, streams included (`now`: the streams' clock). */
function streamingClient(lab, now = () => performance.now()) {
  const streams = new TrainStreams({
    now,
    yieldNow: () => new Promise((r) => setImmediate(r)),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  });
  const handlers = new LabHandlers(lab, () => {}, { streams });
  const worker = new InProcessWorker((scope) => expose(handlers.api, scope));
  return { client: createLabClient(() => worker), worker };
}
const progressMessages = (worker) => worker.answers.filter((m) => 'progress' in m).length;

describe('training streams: continuous training in the worker, progress per slice', () => {
  const config = { task: 'note', cell: 'rnn', hidden: 16, attention: true, score: 'dot', seed: 3 };

  test('a stream trains exactly the steps of plain train() calls, in slices, and reports each', { timeout: 120_000 }, async () => {
    const lab = await loadAttentionLab();
    // a clock that moves 1 ms at every reading: slices end by the clock, not by this machine's speed
    let clock = 0;
    const { client, worker } = streamingClient(lab, () => clock++);
    const [streamed, plain] = [await client.createSeq2Seq(config), await client.createSeq2Seq(config)];
    const losses = [];
    let lastStep = 0;
    const stream = streamed.trainStream(60, {
      sliceMs: 2,
      onProgress: (p) => {
        assert.ok(p.losses instanceof Float32Array && p.tokenAccuracy.length === p.losses.length);
        assert.equal(p.step, lastStep + p.losses.length, 'each slice continues where the last ended');
        lastStep = p.step;
        losses.push(...p.losses);
      },
    });
    assert.deepEqual(await stream.done, { steps: 60, stopped: false });
    assert.ok(progressMessages(worker) >= 10, `60 steps in 2 ms slices come in many slices, got ${progressMessages(worker)}`);
    const expected = await plain.train(60);
    assert.deepEqual(losses, Array.from(expected.losses), 'same seed, same steps: bit-identical losses');
    assert.equal((await streamed.info()).step, 60);
    await streamed.delete();
    await plain.delete();
  });

  test('stop() ends a stream after its current slice; other requests are served meanwhile', { timeout: 120_000 }, async () => {
    const { client } = streamingClient(await loadAttentionLab());
    const model = await client.createSeq2Seq(config);
    let seen = 0;
    let translatedMidStream = null;
    const stream = model.trainStream(1_000_000, {
      sliceMs: 3,
      onProgress: (p) => {
        seen += p.losses.length;
        if (translatedMidStream === null) {
          translatedMidStream = model.translate('咖哥 喜欢 小冰').then((t) => {
            stream.stop();
            return t;
          });
        }
      },
    });
    const end = await stream.done;
    assert.equal(end.stopped, true);
    assert.ok(end.steps > 0 && end.steps < 1_000_000, `stopped early after ${end.steps} steps`);
    assert.equal(end.steps, seen, 'every trained step was reported');
    assert.equal(typeof (await translatedMidStream).text, 'string', 'a translate request was answered between slices');
    assert.equal((await model.info()).step, end.steps);
    assert.equal(await client['stream.stop'](12345), false, 'stopping a finished stream is a no-op');
    await model.delete();
  });

  test('a throttled stream keeps to its rate; bad numbers are Errors naming the field', { timeout: 120_000 }, async () => {
    const { client } = streamingClient(await loadAttentionLab());
    const model = await client.createSeq2Seq(config);
    const t0 = performance.now();
    const end = await model.trainStream(20, { maxStepsPerSecond: 100, onProgress() {} }).done;
    const seconds = (performance.now() - t0) / 1000;
    assert.equal(end.steps, 20);
    // 20 steps at 100 steps/s cannot finish in much under 0.19 s (the first step is free)
    assert.ok(seconds >= 0.15, `throttled: 20 steps took ${seconds.toFixed(3)} s`);
    const onProgress = () => assert.fail('no progress for a refused stream');
    await assert.rejects(model.trainStream(0, { onProgress }).done, /steps must be a whole number from 1 to/);
    await assert.rejects(model.trainStream(STREAM_LIMITS.maxSteps + 1, { onProgress }).done, /steps must be a whole number/);
    await assert.rejects(model.trainStream(5, { onProgress, sliceMs: 0 }).done, /sliceMs must be from 1 to 1000/);
    await assert.rejects(model.trainStream(5, { onProgress, maxStepsPerSecond: Number.NaN }).done, /maxStepsPerSecond must be a positive number/);
    await assert.rejects(client['seq2seq.trainStream'](999, 5, {}, onProgress), /no model 999/);
    assert.equal((await model.train(1)).step, 21, 'the model still trains after the refusals');
    await model.delete();
  });

  test('a diverging stream rejects with the steps of its last slice; the model keeps its last good weights', { timeout: 120_000 }, async () => {
    const { client } = streamingClient(await loadAttentionLab());
    const model = await client.createSeq2Seq({ ...config, learningRate: 1e6 });
    let reported = 0;
    const err = await model.trainStream(500, { sliceMs: 2, onProgress: (p) => (reported += p.losses.length) }).done.catch((e) => e);
    assert.ok(err instanceof LabRequestError && /diverg/i.test(err.message), String(err));
    assert.ok(err.completed.losses instanceof Float32Array, "the diverging slice's finished steps come with the error");
    const step = (await model.info()).step;
    assert.equal(step, reported + err.completed.losses.length, 'progress + completed = every step kept');
    assert.equal(typeof (await model.translate('咖哥 喜欢 小冰')).text, 'string');
    await model.delete();
  });
});

/** A router over the real builds (the article's or the widgets'), recording which builds it loads. */
function router(article) {
  const loads = [];
  const ids = counter();
  const r = new ModuleRouter(
    (variant) => {
      loads.push(variant);
      return loadAttentionLab({ variant }).then((lab) => new LabHandlers(lab, () => {}, { newModelId: ids }));
    },
    { article },
  );
  return { r, loads };
}

describe('routing: the smallest build that offers a call, models where they live', () => {
  const create = (seed) => ({ task: 'note', cell: 'rnn', hidden: 8, seed });

  test('widgets: attention from the attention build, models in the Seq2Seq build; memory covers both', { timeout: 120_000 }, async () => {
    const { r, loads } = router(false);
    const w = await r.api.attention({ query: Q, key: K, value: K });
    assert.deepEqual(w.weights.shape, [1, 2, 3]);
    assert.deepEqual(loads, ['attention'], 'the first answer needs only the smallest build');
    const { model } = await r.api['seq2seq.create'](create(1));
    assert.deepEqual(loads, ['attention', 'seq2seq']);
    assert.equal(r.variantFor('seq2seq.train', [model, 1]), 'seq2seq');
    assert.equal((await r.api['seq2seq.train'](model, 2)).step, 2);
    const memory = await r.api.memory();
    assert.deepEqual(Object.keys(memory.modules).sort(), ['attention', 'seq2seq']);
    assert.equal(memory.models, 1);
    assert.equal(memory.heapUsed, memory.modules.attention.heapUsed + memory.modules.seq2seq.heapUsed);
    assert.deepEqual(loads, ['attention', 'seq2seq'], 'widgets never load the full build unasked');
  });

  test('the article: first heatmap from the attention build, models in the full build loaded after it; ids unique across builds', { timeout: 120_000 }, async () => {
    const { r, loads } = router(true);
    await r.api.attention({ query: Q, key: K, value: K });
    assert.deepEqual(loads, ['attention', 'full'], 'the full build loads in the background after the first answer');
    const a = await r.api['seq2seq.create'](create(1));
    const seq2seqOnly = await r.handlers('seq2seq');
    const b = seq2seqOnly.api['seq2seq.create'](create(2));
    assert.notEqual(a.model, b.model, 'one id sequence for every build');
    assert.equal(r.variantFor('seq2seq.save', [a.model]), 'full');
    assert.equal(r.variantFor('seq2seq.save', [b.model]), 'seq2seq');
    assert.ok((await r.api['seq2seq.save'](a.model)) instanceof Uint8Array, 'the article can save its models');
    await assert.rejects(r.api['seq2seq.info'](999), /no model 999/, 'a model no build holds is named');
  });

  test('a build that fails to load is named in the answer, and may load on a later call', { timeout: 60_000 }, async () => {
    let fail = true;
    const r = new ModuleRouter(async (variant) => {
      if (fail) throw new TypeError('network down');
      return new LabHandlers(await loadAttentionLab({ variant }), () => {});
    }, { article: false });
    await assert.rejects(r.api.attention({ query: Q, key: K, value: K }), (e) => e.name === 'TypeError' && e.message === 'could not load the wasm core: network down');
    fail = false;
    assert.deepEqual((await r.api.attention({ query: Q, key: K, value: K })).weights.shape, [1, 2, 3]);
  });
});

describe('§5: the GPT in the worker', () => {
  // a short text of two-line "poems" keeps the session small and quick
  const TEXT = Array.from({ length: 12 }, (_, i) => `《题${i}》\n床前明月光，疑是地上霜。\n举头望明月，低头思故乡。`).join('\n\n');

  test('the article routes gpt.create to the GPT build, and every later call to the build that holds it', { timeout: 120_000 }, async () => {
    const { r, loads } = router(true);
    const { api } = r;
    const { model, info } = await api['gpt.create']({ text: TEXT, blockSize: 8, dModel: 16, heads: 2, layers: 1, batchSize: 4, seed: 1 });
    assert.deepEqual(loads.slice(0, 1), ['gpt'], 'only the small GPT build is loaded for §5 (the full one follows in the background)');
    assert.ok(info.vocab.includes('床') && info.corpus.poems === 12, JSON.stringify(info.corpus));
    assert.equal(r.variantFor('gpt.train', [model, 1]), 'gpt');
    const trained = await api['gpt.train'](model, 3);
    assert.equal(trained.step, 3);
    assert.equal(trained.losses.length, 3);
    const evaluation = await api['gpt.evaluate'](model);
    for (const key of ['validationLoss', 'unigramLoss', 'bigramLoss']) assert.ok(Number.isFinite(evaluation[key]), key);
    const sample = await api['gpt.sample'](model, '床前', { maxNewTokens: 1, temperature: 0.8, topK: 3, seed: 2, topCandidates: 5 });
    const step = sample.steps[0];
    assert.equal(step.top.length, 5);
    assert.deepEqual(step.attention.shape, [1, 2, 2], '(layers, heads, keys) over 床前');
    // top-k 3: only three candidates can be drawn, and their probabilities sum to 1
    assert.ok(Math.abs(step.top.slice(0, 3).reduce((a, c) => a + c.sampleProb, 0) - 1) < 1e-5);
    assert.deepEqual(step.top.slice(3).map((c) => c.sampleProb), [0, 0]);
    // the core's messages name what is wrong; the model stays
    await assert.rejects(api['gpt.sample'](model, '床x', {}), /not in the vocabulary: "x"/);
    await assert.rejects(api['gpt.sample'](model, '床', { temperature: 0 }), /temperature/);
    await assert.rejects(api['gpt.sample'](model, '床', { topP: 1.5 }), /topP must be in \(0, 1\]/);
    assert.equal((await api['gpt.info'](model)).step, 3);
    assert.equal((await api.memory()).models, 1);
    await api['gpt.delete'](model);
    assert.equal((await api.memory()).models, 0);
    await assert.rejects(api['gpt.train'](model, 1), /no GPT/);
  });
});
