// The PyTorch interchange through the public JS API (docs/safetensors.md): the same references as
// tests/native/test_safetensors_interchange.cpp (shared/reference/safetensors.json, written by
// tests/reference/gen_safetensors.py with PyTorch), against the wasm build the web app loads.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from '../../wasm/js/attention-lab.mjs';
import { loadReference, using } from './case-runner.mjs';
import { parseSafetensors, referenceBytes } from './safetensors-file.mjs';

const REF = loadReference('safetensors.json');
const PAIRS = REF.book.cases.map((c) => [c.source, c.target]);

let lab;
before(async () => {
  lab = await loadAttentionLab();
});

/** Every value within 1e-5 of PyTorch's (float64 from the same float32 weights); the largest gap. */
function assertClose(actual, expected, what) {
  assert.deepEqual(actual.shape, expected.shape, `${what}: shape`);
  let worst = 0;
  expected.data.forEach((e, i) => { worst = Math.max(worst, Math.abs(actual.data[i] - e)); });
  assert.ok(worst <= 1e-5, `${what}: largest |core - PyTorch| ${worst}`);
  return worst;
}

function assertMatchesPyTorch(model, cases, file) {
  let worst = 0;
  for (const c of cases) {
    const tf = model.teacherForced(c.source, c.target);
    worst = Math.max(worst, assertClose(tf.logits, c.logits, `${file} logits of ${c.source}`));
    if (c.attention) assertClose(tf.attention, c.attention, `${file} attention of ${c.source}`);
    const t = model.translate(c.source);
    assert.equal(t.text, c.greedy, `${file}: ${c.source}`);
    assert.equal(t.finished, true);
  }
  return worst;
}

describe('the book model trained in PyTorch', () => {
  test('loads through loadSeq2Seq, translates all five sentences, with PyTorch logits', () => {
    using(lab.loadSeq2Seq(referenceBytes(REF.book.file)), (m) => {
      const info = m.info();
      assert.equal(info.format, 'safetensors');
      assert.equal(info.names, 'book');
      assert.deepEqual([info.cell, info.hidden, info.attention, info.score], ['rnn', 32, true, 'dot']);
      assert.deepEqual(m.sourceVocabulary(), REF.book.src_vocab);
      assert.deepEqual(m.targetVocabulary(), REF.book.tgt_vocab);
      assert.notEqual(REF.book.tgt_vocab.indexOf('<sos>'), 1, 'a foreign layout: <sos> is not at id 1');
      const worst = assertMatchesPyTorch(m, REF.book.cases, REF.book.file);
      console.log(`book model in wasm: largest |logit - PyTorch| ${worst.toExponential(2)}`);
      for (const [source, target] of PAIRS) assert.equal(m.translate(source).text, target);
      const t = m.translate(PAIRS[0][0]);
      assert.equal(t.steps.length, 4, 'three words and <eos>');
      assert.equal(t.steps[0].attention.length, 3, 'attention over the three source words');
      assert.equal(m.translate(PAIRS[0][0], { beam: 3 }).text, PAIRS[0][1]);
    });
  });

  test('the teacher-forced ids are the file ids, <sos> and <eos> where the book put them', () => {
    using(lab.loadSeq2Seq(referenceBytes(REF.book.file)), (m) => {
      const tf = m.teacherForced(...PAIRS[0]);
      const en = REF.book.tgt_vocab;
      assert.deepEqual(tf.targetIn, ['<sos>', 'KaGe', 'likes', 'XiaoBing'].map((w) => en.indexOf(w)));
      assert.deepEqual(tf.targetOut, ['KaGe', 'likes', 'XiaoBing', '<eos>'].map((w) => en.indexOf(w)));
    });
  });
});

describe('models trained here, checked in PyTorch', () => {
  for (const core of REF.core) {
    test(`${core.file} gives PyTorch's logits (${core.module} module)`, () => {
      using(lab.loadSeq2Seq(referenceBytes(core.file)), (m) => {
        assert.equal(m.info().names, core.module === 'book' ? 'book' : 'project');
        assertMatchesPyTorch(m, core.cases, core.file);
      });
    });
  }

  test('the export tool\'s recipe reproduces the committed file byte for byte', () => {
    // tests/reference/export_core_models.mjs, first model
    using(lab.createSeq2Seq({ task: 'note', seed: 3, learningRate: 1e-2, cell: 'rnn', hidden: 8, embedding: 6, attention: false }), (s) => {
      s.train(300);
      assert.ok(Buffer.from(s.save({ format: 'safetensors' })).equals(Buffer.from(referenceBytes('core_rnn_plain.safetensors'))));
    });
  });
});

describe('export and import of a session', () => {
  let session;
  before(() => {
    session = lab.createSeq2Seq({ task: 'note', cell: 'lstm', hidden: 12, score: 'general', attentionalTanh: true, seed: 2, learningRate: 1e-2 });
    session.train(200);
  });
  after(() => session.delete());

  for (const names of ['project', 'book']) {
    test(`names '${names}': the same translations, step for step, and the same bytes again`, () => {
      const bytes = names === 'project' ? session.save({ format: 'safetensors' }) : session.exportSafetensors({ names });
      const { header } = parseSafetensors(bytes);
      assert.equal('decoder.out.weight' in header, names === 'book');
      assert.equal('out.weight' in header, names === 'project');
      assert.deepEqual(JSON.parse(header.__metadata__.src_vocab), ['<pad>', '<sos>', '<eos>', '<unk>', ...session.sourceVocabulary()]);
      assert.equal(header.__metadata__.task, 'note');
      assert.equal(header['encoder.rnn.weight_ih_l0'].dtype, 'F32');
      assert.deepEqual(header['encoder.rnn.weight_ih_l0'].shape, [48, 12], 'PyTorch\'s LSTM layout (4·Hd, E)');
      using(lab.loadSeq2Seq(bytes), (m) => {
        for (const [source] of PAIRS) {
          const a = session.translate(source), b = m.translate(source);
          assert.equal(b.text, a.text);
          assert.deepEqual(b.steps.map((s) => s.prob), a.steps.map((s) => s.prob));
          assert.deepEqual(b.steps.map((s) => Array.from(s.attention)), a.steps.map((s) => Array.from(s.attention)));
        }
        const unk = m.translate('咖哥 喜欢 猫');
        assert.equal(unk.source[2].unknown, true, 'the project vocabulary has <unk>');
        assert.ok(Buffer.from(m.save({ names })).equals(Buffer.from(bytes)), 'saving the import gives the same bytes');
        assert.deepEqual(m.params().map((p) => p.name).slice(-2), ['out.weight', 'out.bias']);
      });
    });
  }

  test('loadSeq2Seq still takes .atlb files (told apart by content)', () => {
    using(lab.loadSeq2Seq(session.save()), (m) => {
      assert.equal(m.translate(PAIRS[0][0]).text, session.translate(PAIRS[0][0]).text);
      assert.equal(typeof m.train, 'function');
      assert.equal(m.info().step, 200);
    });
  });
});
