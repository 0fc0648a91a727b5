// The worker protocol: the page's client (web/src/worker/client.ts) against fake workers (ids,
// errors, crash → rejection + onCrash, restart), and the worker's dispatch (worker/handlers.ts)
// against the real wasm module, joined end to end through an in-process fake worker.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { loadWeb } from './setup.mjs';

const { WorkerLabClient, WorkerCrashedError, LabRequestError } = await loadWeb('worker/client');
const { LabHandlers, NO_RESPONSE, collectBuffers, respond } = await loadWeb('worker/handlers');
const { TrainStreams, serve, STREAM_LIMITS } = await loadWeb('worker/train-stream');
const { ModuleRouter } = await loadWeb('worker/router');
const { counter } = await loadWeb('worker/handlers');

/** A worker whose answers the test writes by hand. */
class ScriptedWorker {
  posted = [];
  listeners = { message: [], error: [], messageerror: [] };
  terminated = false;
  postMessage(message) {
    this.posted.push(structuredClone(message)); // a real worker clones too (and throws DataCloneError)
  }
  addEventListener(type, fn) {
    this.listeners[type].push(fn);
  }
  terminate() {
    this.terminated = true;
  }
  emit(type, event) {
    for (const fn of this.listeners[type]) fn(event);
  }
  answer(id, result) {
    this.emit('message', { data: { id, ok: true, result } });
  }
  refuse(id, error) {
    this.emit('message', { data: { id, ok: false, error } });
  }
  crash(message) {
    const event = { message, defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    this.emit('error', event);
    return event;
  }
}

function scriptedClient() {
  const workers = [];
  const client = new WorkerLabClient(() => {
    const w = new ScriptedWorker();
    workers.push(w);
    return w;
  });
  return { client, workers };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const Q = { shape: [1, 2, 3], data: [1, 0, 2, -1, 0.5, 0] };
const K = { shape: [1, 3, 3], data: [0.2, 1, -1, 2, 0, 0.5, -0.3, 0.1, 1] };

describe('client against a scripted worker', () => {
  test('starts the worker lazily, once; answers go to the request with their id, in any order', async () => {
    const { client, workers } = scriptedClient();
    assert.equal(workers.length, 0, 'no worker before the first request');
    const a = client.attention({ query: Q, key: K, value: K });
    const b = client.memory();
    assert.equal(workers.length, 1);
    const [ma, mb] = workers[0].posted;
    assert.deepEqual(ma.request.op, 'attention');
    assert.deepEqual(mb.request, { op: 'memory' });
    assert.notEqual(ma.id, mb.id);
    workers[0].answer(mb.id, { heapUsed: 1, memorySize: 2, handles: 3, models: 0 });
    workers[0].answer(ma.id, { score: 'scaled' });
    workers[0].answer(9999, 'stray'); // unknown ids are ignored
    assert.deepEqual(await b, { heapUsed: 1, memorySize: 2, handles: 3, models: 0 });
    assert.deepEqual(await a, { score: 'scaled' });
    assert.equal(client.pendingCount, 0);
  });

  test('an error answer rejects that request with the worker message; a diverged run keeps `completed`', async () => {
    const { client, workers } = scriptedClient();
    const p = client.attention({ query: Q, key: K, value: K });
    workers[0].refuse(workers[0].posted[0].id, { name: 'Error', message: 'key has 5 features but query has 4' });
    await assert.rejects(p, (err) => err instanceof LabRequestError && err.message === 'key has 5 features but query has 4');

    const model = await (async () => {
      const created = client.createSeq2Seq({ task: 'note' });
      await tick();
      workers[0].answer(workers[0].posted[1].id, { model: 7, info: {} });
      return created;
    })();
    assert.equal(model.model, 7);
    const completed = { losses: Float32Array.from([1, 2]), tokenAccuracy: Float32Array.from([0, 0]), step: 2 };
    const train = model.train(5);
    const msg = workers[0].posted[2];
    assert.deepEqual(msg.request, { op: 'seq2seq.train', model: 7, steps: 5 });
    workers[0].refuse(msg.id, { name: 'Error', message: 'training diverged at step 3', completed });
    await assert.rejects(train, (err) => err instanceof Error && /diverged/.test(err.message) && err.completed?.step === 2);
    assert.equal(client.crashed, false, 'a bad request is not a crash');
  });

  test('a request that cannot be cloned rejects alone; the worker keeps working', async () => {
    const { client, workers } = scriptedClient();
    await assert.rejects(client.attention({ query: Q, key: K, value: K, bogus: () => 1 }), /could not be cloned|DataCloneError|function/i);
    assert.equal(client.crashed, false);
    const p = client.memory();
    workers[0].answer(workers[0].posted.at(-1).id, { models: 0 });
    assert.deepEqual(await p, { models: 0 });
  });

  test('a crash rejects every pending request, fires onCrash once, and later requests fail fast', async () => {
    const { client, workers } = scriptedClient();
    const crashes = [];
    client.onCrash((e) => crashes.push(e));
    const pending = [client.memory(), client.attention({ query: Q, key: K, value: K })];
    const event = workers[0].crash('Uncaught RuntimeError: unreachable');
    assert.equal(event.defaultPrevented, true, 'the client reports it; the browser need not');
    for (const p of pending) await assert.rejects(p, (e) => e instanceof WorkerCrashedError && /unreachable/.test(e.message));
    assert.equal(crashes.length, 1);
    assert.ok(crashes[0] instanceof WorkerCrashedError);
    assert.equal(workers[0].terminated, true);
    assert.equal(client.crashed, true);
    workers[0].crash('again'); // a second error of the dead worker changes nothing
    assert.equal(crashes.length, 1);
    await assert.rejects(client.memory(), WorkerCrashedError);
    assert.equal(workers.length, 1, 'a dead worker is not silently replaced');
  });

  test('messageerror is a crash too', async () => {
    const { client, workers } = scriptedClient();
    const p = client.memory();
    workers[0].emit('messageerror', {});
    await assert.rejects(p, /could not be read/);
    assert.equal(client.crashed, true);
  });

  test('restart: a fresh worker on the next request, onRestart fires, old models refuse politely', async () => {
    const { client, workers } = scriptedClient();
    const restarts = [];
    client.onRestart(() => restarts.push(client.generation));
    const created = client.createSeq2Seq({ task: 'note' });
    workers[0].answer(workers[0].posted[0].id, { model: 1, info: {} });
    const model = await created;
    const pending = client.memory();
    workers[0].crash('boom');
    await assert.rejects(pending, WorkerCrashedError);

    client.restart();
    assert.deepEqual(restarts, [1]);
    assert.equal(client.crashed, false);
    await assert.rejects(model.train(1), /lost when the worker restarted/);
    await model.delete(); // nothing to delete: resolves
    assert.equal(workers.length, 1, 'still lazy after restart');
    const p = client.memory();
    assert.equal(workers.length, 2);
    workers[1].answer(workers[1].posted[0].id, { models: 0 });
    assert.deepEqual(await p, { models: 0 });

    // restart with requests in flight rejects them; answers of the old worker are ignored
    const inflight = client.memory();
    client.restart();
    await assert.rejects(inflight, /restarted before it answered/);
    assert.equal(workers[1].terminated, true);
    workers[1].answer(workers[1].posted[1].id, { models: 5 });
    assert.equal(client.pendingCount, 0);
  });

  test('a worker that cannot even start is a crash, reported to listeners', async () => {
    const crashes = [];
    const client = new WorkerLabClient(() => {
      throw new Error('module workers unsupported');
    });
    client.onCrash((e) => crashes.push(e.message));
    await assert.rejects(client.memory(), /could not start: module workers unsupported/);
    assert.equal(crashes.length, 1);
  });
});

/** The real thing minus the thread: each message is cloned, handled by LabHandlers over real wasm. */
class InProcessWorker extends ScriptedWorker {
  constructor(handlers) {
    super();
    this.handlers = handlers;
  }
  postMessage(message) {
    const { id, request } = structuredClone(message);
    setTimeout(() => {
      if (this.terminated) return;
      const reply = respond(id, () => this.handlers.handle(request));
      if (reply) this.emit('message', { data: structuredClone(reply.message, { transfer: reply.transfer }) });
    }, 0);
  }
}

/** softmax(QKᵀ/√d)V in plain JS, for one batch */
function referenceAttention(q, k, n, m, d) {
  const weights = [];
  const output = [];
  for (let i = 0; i < n; i++) {
    const s = [];
    for (let j = 0; j < m; j++) {
      let dot = 0;
      for (let x = 0; x < d; x++) dot += q[i * d + x] * k[j * d + x];
      s.push(dot / Math.sqrt(d));
    }
    const max = Math.max(...s);
    const e = s.map((v) => Math.exp(v - max));
    const sum = e.reduce((a, b) => a + b, 0);
    const w = e.map((v) => v / sum);
    weights.push(...w);
    for (let x = 0; x < d; x++) output.push(w.reduce((acc, wj, j) => acc + wj * k[j * d + x], 0));
  }
  return { weights, output };
}

describe('handlers over the real wasm module, through the client', () => {
  test('attention, errors, Seq2Seq lifecycle, memory, debug.crash', { timeout: 120_000 }, async () => {
    const lab = await loadAttentionLab();
    let crashed = 0;
    const handlers = new LabHandlers(lab, () => crashed++);
    const client = new WorkerLabClient(() => new InProcessWorker(handlers));

    const r = await client.attention({ query: Q, key: K, value: K, score: 'scaled' });
    const ref = referenceAttention(Q.data, K.data, 2, 3, 3);
    assert.ok(r.weights.data instanceof Float32Array);
    assert.deepEqual(r.weights.shape, [1, 2, 3]);
    r.weights.data.forEach((w, i) => assert.ok(Math.abs(w - ref.weights[i]) < 1e-6, `weight ${i}`));
    r.output.data.forEach((o, i) => assert.ok(Math.abs(o - ref.output[i]) < 1e-5, `output ${i}`));

    // the wasm module's own message comes through, and the module keeps working
    await assert.rejects(
      client.attention({ query: Q, key: { shape: [1, 3, 2], data: [1, 2, 3, 4, 5, 6] }, value: K }),
      (e) => e instanceof LabRequestError && /feature/i.test(e.message),
    );
    await assert.rejects(client.request({ op: 'no.such.op' }), /unknown operation "no.such.op"/);
    await assert.rejects(client.request({ op: 'seq2seq.train', model: 999, steps: 1 }), /no model 999/);
    const again = await client.attention({ query: Q, key: K, value: K, score: 'scaled' });
    assert.deepEqual(Array.from(again.weights.data), Array.from(r.weights.data));

    const model = await client.createSeq2Seq({ task: 'note', cell: 'rnn', hidden: 16, attention: true, score: 'dot', seed: 1 });
    assert.equal((await client.memory()).models, 1);
    const first = await model.train(20);
    assert.equal(first.losses.length, 20);
    assert.ok(first.losses instanceof Float32Array);
    assert.equal(first.step, 20);
    const info = await model.info();
    assert.equal(info.step, 20);
    const vocabulary = await model.vocabulary();
    assert.ok(vocabulary.source.includes('咖哥') && vocabulary.target.includes('KaGe'), JSON.stringify(vocabulary).slice(0, 200));
    const t = await model.translate('咖哥 喜欢 小冰');
    assert.equal(typeof t.text, 'string');
    assert.ok(t.steps.length >= 1);
    await assert.rejects(model.train(0), LabRequestError);

    const bytes = await model.save();
    assert.ok(bytes instanceof Uint8Array && bytes.length > 100);
    const copy = await client.loadSeq2Seq(bytes);
    assert.equal((await client.memory()).models, 2);
    // the loaded copy resumes bit-identically
    const [a, b] = [await model.train(5), await copy.train(5)];
    assert.deepEqual(Array.from(b.losses), Array.from(a.losses));
    await model.delete();
    await copy.delete();
    assert.equal((await client.memory()).models, 0);
    await assert.rejects(model.train(1), /no model/);

    assert.equal(handlers.handle({ op: 'debug.crash' }), NO_RESPONSE);
    assert.equal(crashed, 1);
  });

  test("the widgets' lighter builds answer what they have and name what they lack", { timeout: 60_000 }, async () => {
    const [small, trainer] = await Promise.all([loadAttentionLab({ variant: 'attention' }), loadAttentionLab({ variant: 'seq2seq' })]);
    const attentionOnly = new WorkerLabClient(() => new InProcessWorker(new LabHandlers(small, () => {})));
    const seq2seqOnly = new WorkerLabClient(() => new InProcessWorker(new LabHandlers(trainer, () => {})));

    const r = await attentionOnly.attention({ query: Q, key: K, value: K, score: 'scaled' });
    assert.deepEqual(r.weights.shape, [1, 2, 3]);
    await assert.rejects(attentionOnly.createSeq2Seq({ task: 'note' }), /createSeq2Seq: not in this worker's wasm build/);

    const model = await seq2seqOnly.createSeq2Seq({ task: 'note', cell: 'rnn', hidden: 16, seed: 1 });
    assert.equal((await model.train(3)).step, 3);
    assert.equal(typeof (await model.translate('咖哥 喜欢 小冰')).text, 'string');
    await assert.rejects(seq2seqOnly.attention({ query: Q, key: K, value: K }), /attention: not in this worker's wasm build/);
    await assert.rejects(model.save(), /save\(\): this build has no model files/);
    await assert.rejects(seq2seqOnly.loadSeq2Seq(new Uint8Array(8)), /loadSeq2Seq: not in this worker's wasm build/);
    // still training after the refusals
    assert.equal((await model.train(2)).step, 5);
    assert.equal((await seq2seqOnly.memory()).models, 1);
    await model.delete();
    assert.equal((await seq2seqOnly.memory()).models, 0);
  });

  test('results move their buffers (each once) instead of copying them', () => {
    const buf = new Float32Array(4);
    const found = collectBuffers({ a: { data: buf }, b: [{ data: buf.subarray(1) }, new Uint8Array(2)], n: 1, s: 'x' });
    assert.equal(found.length, 2);
    assert.ok(found.includes(buf.buffer));
  });
});

/** A worker in this process that serves like lab-worker.ts: streams included. */
class StreamingWorker extends ScriptedWorker {
  constructor(handlers, now = () => performance.now()) {
    super();
    this.handlers = handlers;
    this.progressMessages = 0;
    this.streams = new TrainStreams({
      now,
      yieldNow: () => new Promise((r) => setImmediate(r)),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      post: (message, transfer) => {
        if (this.terminated) return;
        if ('progress' in message) this.progressMessages++;
        this.emit('message', { data: structuredClone(message, { transfer }) });
      },
    });
  }
  postMessage(message) {
    const { id, request } = structuredClone(message);
    setTimeout(() => {
      if (!this.terminated) serve(this.handlers, this.streams, id, request, (m, t) => this.emit('message', { data: structuredClone(m, { transfer: t }) }));
    }, 0);
  }
}

describe('training streams: continuous training in the worker, progress per slice', () => {
  const config = { task: 'note', cell: 'rnn', hidden: 16, attention: true, score: 'dot', seed: 3 };

  test('a stream trains exactly the steps of plain train() calls, in slices, and reports each', { timeout: 120_000 }, async () => {
    const lab = await loadAttentionLab();
    const handlers = new LabHandlers(lab, () => {});
    // a clock that moves 1 ms at every reading: slices end by the clock, not by this machine's speed
    let clock = 0;
    const worker = new StreamingWorker(handlers, () => clock++);
    const client = new WorkerLabClient(() => worker);
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
    assert.ok(worker.progressMessages >= 10, `60 steps in 2 ms slices come in many slices, got ${worker.progressMessages}`);
    const expected = await plain.train(60);
    assert.deepEqual(losses, Array.from(expected.losses), 'same seed, same steps: bit-identical losses');
    assert.equal((await streamed.info()).step, 60);
    await streamed.delete();
    await plain.delete();
  });

  test('stop() ends a stream after its current slice; other requests are served meanwhile', { timeout: 120_000 }, async () => {
    const lab = await loadAttentionLab();
    const client = new WorkerLabClient(() => new StreamingWorker(new LabHandlers(lab, () => {})));
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
    assert.equal(await client.request({ op: 'seq2seq.stopStream', stream: 12345 }), false, 'stopping a finished stream is a no-op');
    await model.delete();
  });

  test('a throttled stream keeps to its rate; bad numbers are Errors naming the field', { timeout: 120_000 }, async () => {
    const lab = await loadAttentionLab();
    const client = new WorkerLabClient(() => new StreamingWorker(new LabHandlers(lab, () => {})));
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
    await assert.rejects(client.trainStream(999, 5, { onProgress }).done, /no model 999/);
    assert.equal((await model.train(1)).step, 21, 'the model still trains after the refusals');
    await model.delete();
  });

  test('a diverging stream rejects with the steps of its last slice; the model keeps its last good weights', { timeout: 120_000 }, async () => {
    const lab = await loadAttentionLab();
    const client = new WorkerLabClient(() => new StreamingWorker(new LabHandlers(lab, () => {})));
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

describe('routing: the smallest build that offers a request, models where they live', () => {
  function router(article) {
    const loads = [];
    const ids = counter();
    const r = new ModuleRouter(
      (variant) => {
        loads.push(variant);
        return loadAttentionLab({ variant }).then((lab) => new LabHandlers(lab, () => {}, ids));
      },
      { article },
    );
    return { r, loads };
  }
  const ask = async (r, request) => {
    const h = await r.forRequest(request);
    return h.handle(request).result;
  };

  test('widgets: attention from the attention build, models in the Seq2Seq build; memory covers both', { timeout: 120_000 }, async () => {
    const { r, loads } = router(false);
    const w = await ask(r, { op: 'attention', args: { query: Q, key: K, value: K } });
    assert.deepEqual(w.weights.shape, [1, 2, 3]);
    assert.deepEqual(loads, ['attention'], 'the first answer needs only the smallest build');
    const { model } = await ask(r, { op: 'seq2seq.create', config: { task: 'note', cell: 'rnn', hidden: 8, seed: 1 } });
    assert.deepEqual(loads, ['attention', 'seq2seq']);
    assert.equal(r.variantFor({ op: 'seq2seq.train', model, steps: 1 }), 'seq2seq');
    assert.equal((await ask(r, { op: 'seq2seq.train', model, steps: 2 })).step, 2);
    const memory = await r.memory();
    assert.deepEqual(Object.keys(memory.modules).sort(), ['attention', 'seq2seq']);
    assert.equal(memory.models, 1);
    assert.equal(memory.heapUsed, memory.modules.attention.heapUsed + memory.modules.seq2seq.heapUsed);
    r.warm();
    assert.deepEqual(loads, ['attention', 'seq2seq'], 'widgets never load the full build unasked');
  });

  test('the article: first heatmap from the attention build, models in the full build loaded after it; ids unique across builds', { timeout: 120_000 }, async () => {
    const { r, loads } = router(true);
    await ask(r, { op: 'attention', args: { query: Q, key: K, value: K } });
    assert.deepEqual(loads, ['attention']);
    r.warm();
    assert.deepEqual(loads, ['attention', 'full'], 'the full build loads in the background after the first answer');
    const a = await ask(r, { op: 'seq2seq.create', config: { task: 'note', cell: 'rnn', hidden: 8, seed: 1 } });
    const seq2seqOnly = await r.handlers('seq2seq');
    const b = seq2seqOnly.handle({ op: 'seq2seq.create', config: { task: 'note', cell: 'rnn', hidden: 8, seed: 2 } }).result;
    assert.notEqual(a.model, b.model, 'one id sequence for every build');
    assert.equal(r.variantFor({ op: 'seq2seq.save', model: a.model }), 'full');
    assert.equal(r.variantFor({ op: 'seq2seq.save', model: b.model }), 'seq2seq');
    assert.ok((await ask(r, { op: 'seq2seq.save', model: a.model })) instanceof Uint8Array, 'the article can save its models');
    await assert.rejects(ask(r, { op: 'seq2seq.info', model: 999 }), /no model 999/, 'a model no build holds is named');
  });
});
