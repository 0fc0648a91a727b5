// The GPT session through lab.createGptSession on the wasm builds (the full module and the 'gpt'
// one): train, evaluate with its baselines, sample with candidates, save → load → train equal to
// an uninterrupted run, what the heads learned and zeroed heads, and bad keys and prompts refused
// in the API's own words. The numbers'
// references are the native suite's (tests/native/test_gpt_session.cpp).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';

const TEXT = Array.from({ length: 20 }, (_, i) => `《题${i}》\n白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。`).join('\n\n') + '\n';
// (no form drills: on twenty copies of one poem a drill's random words are most of what there is to
// read, and the accuracy below would measure them)
const TINY = { text: TEXT, heldOut: 0.1, blockSize: 8, layers: 1, heads: 2, dModel: 8, batchSize: 4, learningRate: 1e-2, warmup: 3, seed: 7, drills: 0 };

let full, gpt;
before(async () => {
  full = await loadAttentionLab();
  gpt = await loadAttentionLab({ variant: 'gpt' });
});

function using(lab, config, fn) {
  const s = lab.createGptSession(config);
  try {
    return fn(s);
  } finally {
    s.delete();
  }
}

test('a GPT session trains below the bigram baseline and samples with its candidates', () => {
  for (const lab of [full, gpt]) {
    using(lab, TINY, (s) => {
      const before = s.evaluate();
      assert.ok(Math.abs(before.validationLoss - Math.log(s.info().vocab.length)) < 0.2, 'untrained: near ln V');
      const r = s.train(300);
      assert.equal(r.step, 300);
      assert.equal(r.losses.length, 300);
      // the same result as a translator's train(): each step's next-character accuracy too
      assert.deepEqual(Object.keys(r).sort(), ['losses', 'step', 'tokenAccuracy']);
      assert.equal(r.tokenAccuracy.length, 300);
      assert.ok(r.tokenAccuracy.every((a) => a >= 0 && a <= 1));
      const mean = (xs) => xs.reduce((x, y) => x + y, 0) / xs.length;
      assert.ok(mean(r.tokenAccuracy.slice(-20)) > mean(r.tokenAccuracy.slice(0, 20)) + 0.2, 'the accuracy rises as it learns');
      const e = s.evaluate();
      assert.ok(e.validationLoss < e.bigramLoss && e.bigramLoss < e.unigramLoss, JSON.stringify(e));
      assert.equal(e.characters, s.info().corpus.heldOutCharacters);
      const out = s.sample('白日', { greedy: true, maxNewTokens: 10, topCandidates: 3 });
      assert.equal(out.text, '白日' + out.generated);
      assert.equal([...out.generated].length, 10);
      assert.equal(out.steps.length, 10);
      for (const step of out.steps) {
        assert.equal(step.top.length, 3);
        assert.equal(step.char, step.top[0].char, 'greedy takes the most likely');
        assert.deepEqual(step.attention.shape, [1, 2, step.keys]);
      }
      assert.equal(out.steps.map((st) => st.char).join(''), out.generated);
    });
  }
});

test('save → load → train equals an uninterrupted run, bit for bit; the gpt build matches the full one', () => {
  const whole = using(full, TINY, (s) => Array.from(s.train(12).losses));
  assert.deepEqual(using(gpt, TINY, (s) => Array.from(s.train(12).losses)), whole);
  const resumed = using(full, TINY, (s) => {
    const first = Array.from(s.train(5).losses);
    const loaded = gpt.loadGptSession(s.save());
    try {
      assert.equal(loaded.info().step, 5);
      return [...first, ...loaded.train(7).losses];
    } finally {
      loaded.delete();
    }
  });
  assert.deepEqual(resumed, whole);
});

test('info gives the vocabulary, the parameter count, the settings and the split', () => {
  using(gpt, { text: TEXT }, (s) => {
    const info = s.info();
    assert.deepEqual(info.vocab, [...new Set(TEXT)].sort((a, b) => a.codePointAt(0) - b.codePointAt(0)));
    const { dModel: C, blockSize: T, layers: L } = info.config;
    const V = info.vocab.length;
    assert.equal(info.parameters, V * C + T * C + L * (12 * C * C + 13 * C) + 2 * C);
    assert.deepEqual(info.corpus, { poems: 20, trainPoems: 18, heldOutPoems: 2, trainCharacters: info.corpus.trainCharacters, heldOutCharacters: info.corpus.heldOutCharacters });
    assert.equal(info.config.windows, 'poem', "the recipe's windows start at a poem's start");
    assert.equal(info.config.drills, 0.75, 'and three in four are form drills');
    assert.equal(info.corpus.trainCharacters + info.corpus.heldOutCharacters, [...TEXT].length, 'the blank line between the two texts, and the one that ends the training text (so that, read cyclically, its first poem follows a blank line too)');
  });
  using(gpt, { text: TEXT, windows: 'text' }, (s) => {
    const info = s.info();
    assert.equal(info.config.windows, 'text');
    assert.equal(info.config.drills, 0, 'windows anywhere have no drills unless asked (and cannot have them)');
    assert.equal(info.corpus.trainCharacters + info.corpus.heldOutCharacters, [...TEXT].length - 1, 'one blank line fewer: the two texts end alike');
  });
});

test('windows from a poem start and from anywhere are two runs, each kept by save and load', () => {
  for (const lab of [full, gpt]) {
    const losses = (windows) => using(lab, { ...TINY, windows }, (s) => Array.from(s.train(6).losses));
    assert.notDeepEqual(losses('poem'), losses('text'));
    const saved = using(lab, { ...TINY, windows: 'text' }, (s) => (s.train(2), s.save()));
    const loaded = lab.loadGptSession(saved);
    try {
      assert.equal(loaded.info().config.windows, 'text');
    } finally {
      loaded.delete();
    }
  }
});

test('form drills are another run, kept by save and load, in both builds alike', () => {
  const losses = (lab, drills) => using(lab, { ...TINY, windows: 'poem', drills }, (s) => Array.from(s.train(6).losses));
  const drilled = losses(full, 0.5);
  assert.notDeepEqual(drilled, losses(full, 0));
  assert.deepEqual(losses(gpt, 0.5), drilled);
  const resumed = using(gpt, { ...TINY, windows: 'poem', drills: 0.5 }, (s) => {
    const first = Array.from(s.train(2).losses);
    const loaded = full.loadGptSession(s.save());
    try {
      assert.equal(loaded.info().config.drills, 0.5);
      return [...first, ...loaded.train(4).losses];
    } finally {
      loaded.delete();
    }
  });
  assert.deepEqual(resumed, drilled);
});

test('bad settings and prompts are refused, naming the key or the characters', () => {
  const refused = (fn, pattern) => assert.throws(fn, pattern);
  refused(() => gpt.createGptSession({ ...TINY, layer: 2 }), /config has an unknown key 'layer'/);
  refused(() => gpt.createGptSession({ ...TINY, blockSize: 2.5 }), /blockSize must be a whole number/);
  refused(() => gpt.createGptSession({ ...TINY, heldOut: 0.9 }), /heldOut must be a share in \[0, 0.5\]/);
  refused(() => gpt.createGptSession({ ...TINY, windows: 'poems' }), /^Error: windows must be "poem" \(windows start at a poem's start\) or "text" \(anywhere\); got "poems"$/);
  refused(() => gpt.createGptSession({ ...TINY, windows: 1 }), /windows/);
  refused(() => gpt.createGptSession({ ...TINY, drills: 1 }), /^Error: drills must be a share in \[0, 0\.95\] \(got 1\)$/);
  refused(() => gpt.createGptSession({ ...TINY, drills: -0.25 }), /drills must be a share in \[0, 0\.95\]/);
  refused(() => gpt.createGptSession({ ...TINY, drills: '0.5' }), /drills/);
  refused(() => gpt.createGptSession({ ...TINY, windows: 'text', drills: 0.5 }), /^Error: drills need windows "poem": a form drill is a poem read from its start$/);
  refused(() => gpt.createGptSession({ ...TINY, text: '' }), /the text is empty/);
  refused(() => gpt.createGptSession({ ...TINY, text: 42 }), /text/);
  refused(() => gpt.createGptSession({ heldOut: 0.1 }), /needs a config object with text/);
  refused(() => gpt.createGptSession(null), /needs a config object with text/);
  refused(() => gpt.createGptSession({ ...TINY, text: 'ab\n\ncd\n', heldOut: 0 }), /one block of blockSize 8 needs at least 9/);
  using(gpt, TINY, (s) => {
    refused(() => s.sample('床前明月光'), /prompt has 5 characters not in the vocabulary: "床", "前", "明", "月", "光"/);
    refused(() => s.sample('白日', { temprature: 0.8 }), /sample options has an unknown key 'temprature'/);
    refused(() => s.sample('白日', { topP: 0 }), /top_p|topP/);
    refused(() => s.sample(''), /prompt is empty/);
    refused(() => s.train(0), /train: steps/);
    refused(() => gpt.loadGptSession(new Uint8Array([1, 2, 3])), /model file|bytes/);
    assert.equal(s.info().step, 0, 'the session is untouched');
  });
});

test("a session's head scores: each detector per layer × head in [0, 1]; zeroing changes what follows the head, not its own weights", () => {
  const DETECTORS = ['previous', 'lineBack', 'lineStart', 'induction'];
  using(gpt, { ...TINY, blockSize: 16, layers: 2 }, (s) => {
    s.train(20);
    const plain = s.headScores();
    // zeroing a head of layer 2 leaves every attention weight as it was (it acts after them)
    const lastLayer = s.headScores({ zeroHeads: [[1, 0]] });
    for (const d of DETECTORS) {
      assert.deepEqual(plain[d].shape, [2, 2], d);
      assert.ok(plain[d].data.every((x) => x >= 0 && x <= 1 + 1e-6), `${d} in [0, 1]`);
      assert.ok(plain.queries[d] > 0, `${d} scored no query`);
      assert.deepEqual(Array.from(lastLayer[d].data), Array.from(plain[d].data), d);
    }
    // zeroing a head of layer 1 moves layer 2's attention, not layer 1's
    const firstLayer = s.headScores({ zeroHeads: [[0, 0]] });
    assert.deepEqual(Array.from(firstLayer.previous.data.slice(0, 2)), Array.from(plain.previous.data.slice(0, 2)));
    assert.notDeepEqual(Array.from(firstLayer.previous.data.slice(2)), Array.from(plain.previous.data.slice(2)));
    const options = { seed: 1, temperature: 0.8, maxNewTokens: 12 };
    const a = s.sample('白日', options);
    const zeroed = s.sample('白日', { ...options, zeroHeads: [[0, 0], [0, 1]] });
    assert.notDeepEqual(zeroed.steps.map((x) => x.prob), a.steps.map((x) => x.prob), 'zeroing changed no probability');
    assert.deepEqual(s.sample('白日', { ...options, zeroHeads: [] }), a, 'no head zeroed: not the plain sample');
  });
});
