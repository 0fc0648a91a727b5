// The worker protocol: the page's client (web/src/worker/client.ts over connection.ts) against fake
// workers (ids, errors, crash → rejection + onCrash, restart), expose() and wrap() on an API of the
// test's own, and LabApi for one build (worker/handlers.ts) against the real wasm module, joined
// end to end through an in-process fake worker. Training streams and routing between builds:
// worker-streams.test.mjs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { InProcessWorker, K, Q, ScriptedWorker } from './scripted-worker.mjs';
import { loadWeb } from './setup.mjs';

const { createLabClient, WorkerCrashedError, LabRequestError } = await loadWeb('worker/client');
const { Connection, wrap } = await loadWeb('worker/connection');
const { expose, collectBuffers } = await loadWeb('worker/expose');
const { LabHandlers } = await loadWeb('worker/handlers');

function scriptedClient() {
  const workers = [];
  const client = createLabClient(() => {
    const w = new ScriptedWorker();
    workers.push(w);
    return w;
  });
  return { client, workers };
}

/** A client whose worker serves `api` (expose) in this process. */
const clientOf = (api) => createLabClient(() => new InProcessWorker((scope) => expose(api, scope)));

const tick = () => new Promise((r) => setTimeout(r, 0));
describe('client against a scripted worker', () => {
  test('starts the worker lazily, once; answers go to the request with their id, in any order', async () => {
    const { client, workers } = scriptedClient();
    assert.equal(workers.length, 0, 'no worker before the first request');
    const a = client.attention({ query: Q, key: K, value: K });
    const b = client.memory();
    assert.equal(workers.length, 1);
    const [ma, mb] = workers[0].posted;
    assert.equal(ma.method, 'attention');
    assert.deepEqual(ma.args, [{ query: Q, key: K, value: K }]);
    assert.deepEqual(mb, { id: mb.id, method: 'memory', args: [] });
    assert.notEqual(ma.id, mb.id);
    workers[0].answer(mb.id, { heapUsed: 1, memorySize: 2, handles: 3, models: 0 });
    workers[0].answer(ma.id, { score: 'scaled' });
    workers[0].answer(9999, 'stray'); // unknown ids are ignored
    assert.deepEqual(await b, { heapUsed: 1, memorySize: 2, handles: 3, models: 0 });
    assert.deepEqual(await a, { score: 'scaled' });
    assert.equal(client.pendingCount, 0);
    assert.equal(await Promise.resolve(client), client, 'the client is no thenable: a Promise may resolve with it');
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
    assert.deepEqual([msg.method, msg.args], ['seq2seq.train', [7, 5]]);
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
    const client = createLabClient(() => {
      throw new Error('module workers unsupported');
    });
    client.onCrash((e) => crashes.push(e.message));
    await assert.rejects(client.memory(), /could not start: module workers unsupported/);
    assert.equal(crashes.length, 1);
  });
});

describe('expose and wrap: any API, no code per method', () => {
  test('calls, errors, an unknown method, and a progress callback that reports while the call is pending', async () => {
    const api = {
      add: (a, b) => a + b,
      later: async (x) => ({ data: Float32Array.of(x) }),
      refuse: () => {
        throw new RangeError('out of range');
      },
      count: async (n, progress) => {
        for (let i = 1; i <= n; i++) progress.report(i, progress.id);
        return n;
      },
    };
    let worker;
    const remote = wrap(new Connection(() => (worker = new InProcessWorker((scope) => expose(api, scope)))));
    assert.equal(await remote.add(2, 3), 5);
    const { data } = await remote.later(1.5);
    assert.ok(data instanceof Float32Array && data[0] === 1.5);
    assert.equal(worker.answers.at(-1).result.data.byteLength, 0, 'the result moved (its buffer detached), not copied');
    await assert.rejects(remote.refuse(), (e) => e instanceof LabRequestError && e.name === 'RangeError' && e.message === 'out of range');
    await assert.rejects(remote.nothing(), /unknown method "nothing"/);
    await assert.rejects(remote.call('constructor', []).promise, /unknown method "constructor"/);
    const reports = [];
    assert.equal(await remote.count(3, (i, id) => reports.push([i, id])), 3);
    assert.deepEqual(reports.map(([i]) => i), [1, 2, 3]);
    assert.ok(reports.every(([, id]) => id === reports[0][1] && id > 0), 'each report names its call');
  });
});

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
    const client = clientOf(handlers.api);

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
    await assert.rejects(client['no.such.op'](), /unknown method "no.such.op"/);
    await assert.rejects(client['seq2seq.train'](999, 1), /no model 999/);
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

    const never = handlers.api['debug.crash']();
    assert.equal(crashed, 1);
    assert.equal(await Promise.race([never, tick().then(() => 'unanswered')]), 'unanswered', 'the crash is the answer');
  });

  test("the widgets' lighter builds answer what they have and name what they lack", { timeout: 60_000 }, async () => {
    const [small, trainer] = await Promise.all([loadAttentionLab({ variant: 'attention' }), loadAttentionLab({ variant: 'seq2seq' })]);
    const attentionOnly = clientOf(new LabHandlers(small, () => {}).api);
    const seq2seqOnly = clientOf(new LabHandlers(trainer, () => {}).api);

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
