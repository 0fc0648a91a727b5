// Every kind of bad input from JS, in one list. Each case is a bad call and what it must
// give: a JS Error whose message names the problem (a regex for that problem, never just /error/),
// or, for text the vocabulary does not know, a translation with those words marked <unk>. After
// EVERY case, assertStillWorks() proves that the module and the very same models still compute
// the right answers: attention against PyTorch's numbers, the trained note model translating all
// five sentences with its saved bytes unchanged, and the bare model's loss equal to a fresh
// identical model's. Cases also in errors.test.mjs / seq2seq.test.mjs are repeated on purpose:
// this is the one list of what is refused (SECURITY.md points here), hence one file over 400 lines.
// The command line's refusals are the second list, and the page's file fields the third, at the end.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab, tensor } from '../../wasm/js/attention-lab.mjs';
import { NOTE_PAIRS, loadReference, mismatch, runCase, tensorOf } from './case-runner.mjs';
import { editedFile, parseSafetensors, referenceBytes, writeSafetensors } from './safetensors-file.mjs';
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadWeb } from '../web/setup.mjs';

const NOTE = { task: 'note', cell: 'rnn', hidden: 32, attention: true, score: 'dot', seed: 1 };
const BARE = { cell: 'gru', hidden: 4, srcVocab: 5, tgtVocab: 6, seed: 1 };
const BATCH = { src: { shape: [1, 3], data: [1, 2, 3] }, srcLengths: [3], tgtIn: { shape: [1, 2], data: [1, 4] },
  tgtOut: { shape: [1, 2], data: [4, 2] } };
const BOOK = 'book_seq2seq.safetensors';
const TF_FILE = 'transformer_note.safetensors';
const TF_BARE = { arch: 'transformer', layers: 1, heads: 2, dModel: 8, dFF: 16, srcVocab: 5, tgtVocab: 6, seed: 1 };
const REFERENCE = loadReference('attention.json').cases.filter((c) =>
  ['note_3_2_scaled', 'scaled_key_padding', 'note_3_6_multi_head'].includes(c.name));

// A small Transformer on reverse, for its configuration, sentence and file cases.
const TF = { arch: 'transformer', task: 'reverse', layers: 1, heads: 2, dModel: 8, dFF: 16, seed: 1,
  taskOptions: { minLen: 3, maxLen: 6, symbols: 6, train: 200, heldOut: 20 } };

// Your own sentence pairs: the shared cases (the native suite runs them too) and a small corpus.
const PAIRS_CASES = loadReference('pairs-cases.json').errors;
const PAIRS = { task: 'pairs', pairs: NOTE_PAIRS.map(([s, t]) => `${s}\t${t}`).join('\n'), heldOut: 0, hidden: 8, seed: 1 };
// A GPT's corpus: poems separated by blank lines.
const GPT_TEXT = Array.from({ length: 6 }, (_, i) => `《题${i}》\n白日依山尽，黄河入海流。`).join('\n\n') + '\n';
const GPT = { text: GPT_TEXT, blockSize: 8, layers: 1, heads: 2, dModel: 8, seed: 1 };
// The page's reader of a reader's own file (the third list, at the end), loaded before any test runs.
const { readTextFile } = await loadWeb('sections/text-file');
const literal = (text) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

let lab, note, noteBytes, dates, bare, book, handles, tf, tfBytes, pairsBytes;
const live = new Set(); // sessions a case created: freed after it, so none leaks into the next
const own = (m) => (live.add(m), m);
const create = (config) => own(lab.createSeq2Seq(config));
const load = (bytes) => own(lab.loadSeq2Seq(bytes));
/** `call` on a GPT session trained a step, whose saved bytes must be the same after it. */
function gptKept(call) {
  const session = own(lab.createGptSession(GPT));
  session.train(1);
  const bytes = session.save();
  try {
    return call(session);
  } finally {
    assert.ok(Buffer.from(session.save()).equals(Buffer.from(bytes)), 'the GPT session is unchanged');
  }
}

before(async () => {
  lab = await loadAttentionLab();
  note = lab.createSeq2Seq(NOTE);
  note.train(300); // the CLI's recipe: all five sentences right after 300 steps
  noteBytes = note.save();
  dates = lab.createSeq2Seq({ task: 'dates', hidden: 8, seed: 1 });
  bare = lab.createSeq2SeqModel(BARE);
  book = lab.loadSeq2Seq(referenceBytes(BOOK)); // the book's model trained in PyTorch (.safetensors)
  tf = lab.createSeq2Seq(TF);
  tf.train(5);
  tfBytes = tf.save();
  const pairs = lab.createSeq2Seq(PAIRS);
  pairs.train(2);
  pairsBytes = pairs.save();
  pairs.delete();
  handles = lab.memoryStats().handles;
});
after(() => [note, dates, bare, book, tf].forEach((m) => m.delete()));

function assertStillWorks() {
  for (const c of REFERENCE) {
    const inputs = Object.fromEntries(Object.entries(c.inputs).map(([k, v]) => [k, tensorOf(v)]));
    const { outputs } = runCase(lab, c, inputs, undefined);
    for (const [name, expected] of Object.entries(c.outputs)) {
      assert.equal(mismatch(outputs[name], expected, c.rtol), null, `${c.name}: ${name} against PyTorch`);
    }
  }
  for (const [source, target] of NOTE_PAIRS) assert.equal(note.translate(source).text, target);
  for (const [source, target] of NOTE_PAIRS) assert.equal(book.translate(source).text, target);
  assert.ok(Buffer.from(tf.save()).equals(Buffer.from(tfBytes)), 'the Transformer (weights, Adam, sampler) is unchanged');
  assert.ok(Buffer.from(note.save()).equals(Buffer.from(noteBytes)), 'the note model (weights, Adam, sampler) is unchanged');
  const fresh = lab.createSeq2SeqModel(BARE);
  try {
    const loss = bare.loss(BATCH);
    assert.ok(Number.isFinite(loss) && loss > 0);
    assert.equal(loss, fresh.loss(BATCH), 'the bare model still equals a fresh identical one');
  } finally {
    fresh.delete();
  }
  assert.equal(lab.memoryStats().handles, handles, 'no embind handle leaked');
}

// ---- .safetensors files (docs/safetensors.md): the book's model with one thing wrong
const bookFile = (edit) => editedFile(BOOK, edit);
const bookMeta = (edit) => bookFile((f) => edit(f.header.__metadata__));
const bookConfig = (edit) => bookMeta((m) => { const c = JSON.parse(m.config); edit(c); m.config = JSON.stringify(c); });
const shifted = (f, name, by) => { f.header[name].data_offsets = f.header[name].data_offsets.map((o) => o + by); };

// ---- .atlb files (docs/model-format.md) rebuilt with a valid CRC, so the reader sees the damage
// itself and not a checksum mismatch.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function parseFile(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(8, true);
  return { header: JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + length))),
    data: bytes.slice(12 + length, bytes.length - 4) };
}
/** A file from the trained note model with `edit` applied to {header, data, version, magic, json}. */
function noteFile(edit, bytes = noteBytes) {
  const f = { ...parseFile(bytes), version: 1, magic: 'ATLB' };
  edit(f);
  let json = f.json ?? JSON.stringify(f.header);
  while ((12 + Buffer.byteLength(json)) % 4) json += ' ';
  const header = new TextEncoder().encode(json);
  const out = new Uint8Array(12 + header.length + f.data.length + 4);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(f.magic), 0);
  view.setUint32(4, f.version, true);
  view.setUint32(8, header.length, true);
  out.set(header, 12);
  out.set(f.data, 12 + header.length);
  view.setUint32(out.length - 4, crc32(out.subarray(0, out.length - 4)), true);
  return out;
}
const patched = (offset, value) => { const b = noteBytes.slice(); b[offset] ^= value; return b; };

// ---- what a case may expect besides an Error
const unknownWords = (...words) => (r) =>
  assert.deepEqual(r.source.filter((t) => t.unknown).map((t) => [t.token, t.text]), words.map((w) => ['<unk>', w]));
const translation = (text) => (r) => {
  assert.equal(r.text, text);
  assert.ok(r.source.every((t) => !t.unknown));
};

const ones = (shape) => tensor(shape, new Array(shape.reduce((a, b) => a * b, 1)).fill(1));
const q = tensor([1, 2, 4], [1, 0, 0, 0, 0, 1, 0, 0]);
const kv = tensor([1, 3, 4], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]);
const attend = (extra) => lab.attention({ query: q, key: kv, value: kv, ...extra });
const projections = (D) => Object.fromEntries(['q', 'k', 'v', 'o'].flatMap((n) => [[`w${n}`, ones([D, D])], [`b${n}`, ones([D])]]));
const deleted = (m) => (m.delete(), m);
let diverging; // the lr-1e6 session of the divergence case, checked by its `then`

const cases = [
  // Attention: shapes, values, sizes
  ['key features differ from the query', () => attend({ key: ones([1, 3, 5]) }), /key has 5 features but query has 4/],
  ['data shorter than the shape', () => attend({ query: { shape: [1, 2, 4], data: new Float32Array(7) } }), /query\.data has 7 values but shape \[1, 2, 4\] needs 8/],
  ['an unknown attention output name', () => attend({ outputs: ['output', 'attn'] }), /outputs\[1\] is 'attn', not an output of attention/],
  ['rank 2 where 3 is needed', () => attend({ query: ones([2, 4]) }), /query must have 3 dimensions/],
  ['NaN in the query', () => attend({ query: tensor([1, 2, 4], [1, 0, NaN, 0, 0, 1, 0, 0]) }), /query contains NaN at flat index 2/],
  ['+Infinity in the key', () => attend({ key: tensor([1, 3, 4], [1, 0, 0, Infinity, 0, 1, 0, 0, 0, 0, 1, 0]) }), /key contains an infinite value at flat index 3/],
  ['-Infinity in the value', () => attend({ value: tensor([1, 3, 4], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -Infinity, 0]) }), /value contains an infinite value at flat index 10/],
  ['zero keys', () => attend({ key: tensor([1, 0, 4], []), value: tensor([1, 0, 4], []) }), /key is empty/],
  ['a dimension over 2^20', () => attend({ query: { shape: [1, 2 ** 21, 1], data: [] } }), /query\.shape\[1\] = 2097152 exceeds the limit of 1048576/],
  ['a tensor over 2^26 elements', () => attend({ query: { shape: [4096, 4096, 4096], data: [] } }), /query shape \[4096, 4096, 4096\] exceeds the limit of 67108864 elements/],
  ['an attention matrix over the limit', () => { const big = { shape: [1, 40000, 1], data: new Float32Array(40000) }; lab.attention({ query: big, key: big, value: big }); }, /the attention matrix \(B, N, M\) shape \[1, 40000, 40000\] exceeds the limit/],
  ['finite scores that overflow float32', () => { const h = tensor([1, 2, 2], [3e38, 3e38, 1, 1]); lab.attention({ query: h, key: h, value: h, score: 'dot' }); }, /the attention scores overflow float32: scale the inputs down/],
  ['heads that do not divide D', () => lab.multiHeadAttention(ones([1, 3, 4]), projections(4), 3), /numHeads 3 does not divide the 4 features of x/],
  ['zero heads', () => lab.multiHeadAttention(ones([1, 3, 4]), projections(4), 0), /numHeads must be a whole number >= 1/],
  ['key padding neither 0 nor 1', () => attend({ mask: { keyPadding: tensor([1, 3], [0, 0.5, 0]) } }), /mask\.keyPadding must hold only 0 \(attend\) and 1 \(ignore\), but has 0\.5 at flat index 1/],
  ['every key masked', () => attend({ mask: { keyPadding: ones([1, 3]) } }), /query 0 of batch 0 has every key masked/],
  ['every key masked (self-attention)', () => lab.selfAttention(ones([2, 3, 4]), projections(4), { mask: { keyPadding: tensor([2, 3], [0, 1, 0, 1, 1, 1]) } }), /query 0 of batch 1 has every key masked/],
  ['every key masked (multi-head, causal + padding)', () => lab.multiHeadAttention(ones([1, 3, 4]), projections(4), 2, { mask: { causal: true, keyPadding: tensor([1, 3], [1, 0, 0]) } }), /query 0 of batch 0 has every key masked/],
  // Attention: names and types
  ['unknown score name', () => attend({ score: 'magic' }), /unknown score function 'magic' \(expected dot, scaled, general, additive or cosine\)/],
  ['misspelt option (scores)', () => attend({ scores: 'dot' }), /attention\(\) arguments has an unknown key 'scores'/],
  ['unknown mask key', () => attend({ mask: { padding: ones([1, 3]) } }), /mask has an unknown key 'padding'/],
  ['misspelt self-attention option', () => lab.selfAttention(ones([1, 3, 4]), projections(4), { maks: { causal: true } }), /options has an unknown key 'maks'/],
  ['arguments not an object', () => lab.attention('query'), /attention\(\) arguments must be an object/],
  ['a required field missing', () => lab.attention({ key: kv, value: kv }), /query is missing/],
  ['a string where a number is expected (data)', () => attend({ query: { shape: [1, 2, 4], data: ['1', 0, 0, 0, 0, 1, 0, 0] } }), /query\.data\[0\] is string, not a number/],
  ['null in data (JSON.stringify of NaN)', () => attend({ value: { shape: [1, 3, 4], data: [1, 0, 0, null, 0, 1, 0, 0, 0, 0, 1, 0] } }), /value\.data\[3\] is null, not a number/],
  ['a string where a number is expected (shape)', () => attend({ query: { shape: ['1', '2', '4'], data: new Float32Array(8) } }), /query\.shape\[0\] must be a non-negative whole number/],
  ['a string where a number is expected (heads)', () => lab.multiHeadAttention(ones([1, 3, 4]), projections(4), '2'), /numHeads must be a number/],
  ['a string where a boolean is expected (causal)', () => attend({ mask: { causal: 'yes' } }), /mask\.causal must be true or false \(got yes\)/],
  ['cosine temperature Infinity', () => attend({ score: 'cosine', temperature: Infinity }), /temperature must be a positive finite number/],
  ['temperature with a score other than cosine', () => attend({ score: 'scaled', temperature: 2 }), /temperature applies to score 'cosine' only \(the score is 'scaled'\)/],
  ['temperature with the default score', () => attend({ temperature: 2 }), /temperature applies to score 'cosine' only \(the score is 'scaled', the default\)/],
  ['score params with the dot score', () => attend({ score: 'dot', params: { w: ones([4, 4]) } }), /params applies to the scores 'general' and 'additive' only \(the score is 'dot'\)/],
  ['tensor() with fewer values than its shape', () => tensor([2, 2], [1, 2, 3]), /tensor\(\): shape \[2, 2\] needs 4 values, got 3/],
  ['tensor() with a fractional dimension', () => tensor([1.5], [1]), /tensor\(\): shape must be whole numbers >= 0 \(got \[1\.5\]\)/],
  ['embedding id outside the vocabulary', () => lab.ops.embedding({ shape: [2], data: [1, -1] }, ones([5, 3])), /token id -1 at position 1 is outside the vocabulary of 5/],
  ['string ids', () => lab.ops.embedding({ shape: [1], data: ['1'] }, ones([5, 3])), /ids\.data\[0\] is string, not a number/],
  // Sentences for translate (the trained note model; a dates model for the characters tokenizer)
  ['empty sentence', () => note.translate(''), /sentence is empty/],
  ['whitespace-only sentence', () => note.translate(' \t\r\n '), /sentence is empty/],
  ['ideographic-space-only sentence', () => note.translate('\u3000\u3000'), /sentence is empty/],
  ['too many words', () => note.translate('我 '.repeat(65)), /sentence has 65 tokens; the limit is 64/],
  ['too many bytes', () => note.translate('咖'.repeat(1400)), /sentence is 4200 bytes long; the limit is 4096/],
  ['unpaired UTF-16 surrogate', () => note.translate('咖哥 \uD800 小冰'), /text has an unpaired UTF-16 surrogate at position 3, which is not valid Unicode/],
  ['sentence not a string', () => note.translate(42), /text must be a string/],
  ['unknown word', () => note.translate('咖哥 喜欢 大冰'), unknownWords('大冰')],
  ['mixed scripts and emoji', () => note.translate('咖哥 likes 😀 小冰'), unknownWords('likes', '😀')],
  ['typed control token', () => note.translate('<eos> 喜欢 <unk>'), unknownWords('<eos>', '<unk>')],
  ['NUL inside a word', () => note.translate('咖哥\0喜欢'), unknownWords('咖哥\0喜欢')],
  ['words split by ideographic spaces', () => note.translate('咖哥\u3000喜欢\u3000小冰'), translation('KaGe likes XiaoBing')],
  ['emoji and a combining accent in a date', () => dates.translate('Jan 2😀, 2015 e\u0301'), unknownWords('😀', '\u0301')],
  ['beam width 65', () => note.translate('我', { beam: 65 }), /beam must be in \[1, 64\] \(got 65\)/],
  ['top-k 0', () => note.translate('我', { topK: 0 }), /topK must be in \[1, 22\] \(got 0\)/],
  ['maxLength as a string', () => note.translate('我', { maxLength: '10' }), /maxLength must be a number/],
  ['lengthAlpha without beam', () => note.translate('我', { lengthAlpha: 0.5 }), /^lengthAlpha scores beam search's hypotheses: give beam too$/],
  ['lengthAlpha 5', () => note.translate('我', { beam: 2, lengthAlpha: 5 }), /^lengthAlpha must be in \[0, 4\] \(got 5\)$/],
  ['lengthAlpha NaN', () => note.translate('我', { beam: 2, lengthAlpha: NaN }), /^lengthAlpha must be in \[0, 4\] \(got nan\)$/],
  ['lengthAlpha as a string', () => note.translate('我', { beam: 2, lengthAlpha: '1' }), /^lengthAlpha must be a number$/],
  ['unknown translate option', () => note.translate('我', { beams: 3 }), /translate options has an unknown key 'beams'/],
  // Asking the model why: interventions (translate) and attribution
  ['an intervention beyond the translation', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 9, kind: 'force-attention', source: 0 }] }), /intervention 0 \(force-attention at step 9\): the step is beyond the translation, which ended after 4 steps/],
  ['an intervention past maxLength', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 500, kind: 'mask-source', source: 0 }] }), /intervention 0 \(mask-source at step 500\): the step must be in \[0, 32\)/],
  ['a forced word the model does not know', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'force-token', token: 'Xyz' }] }), /force-token at step 0\): 'Xyz' is not in the target vocabulary/],
  ['a forced control token', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'force-token', token: '<sos>' }] }), /token 1 is not a word the model can write/],
  ['force-token without a token', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'force-token' }] }), /it needs a token, the word to write/],
  ['forced attention on a source token that is not there', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'force-attention', source: 3 }] }), /source token 3 is outside the sentence of 3 tokens/],
  ['mask-source without a source', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'mask-source' }] }), /interventions\[0\] \(mask-source\) needs source/],
  ['an edited row that sums to 0', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'edit-attention', weights: [0, 0, 0] }] }), /the edited row must sum to a positive number/],
  ['an edited row with a negative weight', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'edit-attention', weights: [1, -2, 0] }] }), /weight 1 must be a finite number >= 0/],
  ['an edited row with NaN', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'edit-attention', weights: [1, NaN, 0] }] }), /weight 1 must be a finite number >= 0/],
  ['an edited row of the wrong length', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'edit-attention', weights: [1, 2] }] }), /the edited row has 2 weights but the sentence has 3 tokens/],
  ['an edited row of strings', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'edit-attention', weights: ['1', 0, 0] }] }), /interventions\[0\]\.weights\[0\] must be a number/],
  ['masking away all of a forced attention', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'force-attention', source: 1 }, { step: 0, kind: 'mask-source', source: 1 }] }), /the masked tokens held all of the attention/],
  ['two forced attentions at one step', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'force-attention', source: 1 }, { step: 0, kind: 'force-attention', source: 2 }] }), /intervention 1 \(force-attention at step 0\) conflicts with intervention 0/],
  ['an unknown intervention kind', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'swap-heads' }] }), /intervention kind 'swap-heads' is unknown/],
  ['zero-head on a recurrent translator', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ kind: 'zero-head', layer: 0, head: 0 }] }), /intervention 0 \(zero-head at every step\): this translator has no heads or layers \(the Transformer has\)/],
  ['an intervention with a misspelt key', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'mask-source', sourc: 1 }] }), /interventions\[0\] has an unknown key 'sourc'/],
  ['a fractional intervention step', () => note.translate('咖哥 喜欢 小冰', { interventions: [{ step: 0.5, kind: 'mask-source', source: 1 }] }), /interventions\[0\]\.step must be a whole number/],
  ['interventions not an array', () => note.translate('咖哥 喜欢 小冰', { interventions: { step: 0 } }), /interventions must be an array/],
  ['interventions with beam search', () => note.translate('咖哥 喜欢 小冰', { beam: 2, interventions: [{ step: 0, kind: 'mask-source', source: 1 }] }), /interventions need greedy decoding: leave out beam/],
  ['attention interventions on a plain model', () => create({ ...NOTE, attention: false }).translate('咖哥 喜欢 小冰', { interventions: [{ step: 0, kind: 'mask-source', source: 1 }] }), /this model has no attention to intervene on/],
  ['integrated gradients with 0 steps', () => note.attribution('咖哥 喜欢 小冰', { method: 'integrated-gradients', steps: 0 }), /steps must be in \[1, 1024\] \(got 0\)/],
  ['integrated gradients with an absurd step count', () => note.attribution('咖哥 喜欢 小冰', { method: 'integrated-gradients', steps: 1e9 }), /steps must be in \[1, 1024\] \(got 1000000000\)/],
  ['an unknown attribution method', () => note.attribution('咖哥 喜欢 小冰', { method: 'saliency' }), /attribution method 'saliency' is unknown: use gradient-input or integrated-gradients/],
  ['integrated gradients\' steps with gradient × input', () => note.attribution('咖哥 喜欢 小冰', { method: 'gradient-input', steps: 8 }), /attribution: steps applies to method 'integrated-gradients' only \(the method is 'gradient-input'\)/],
  ['integrated gradients\' steps with the default method', () => note.attribution('咖哥 喜欢 小冰', { steps: 8 }), /attribution: steps applies to method 'integrated-gradients' only \(the method is 'gradient-input', the default\)/],
  ['integrated gradients\' steps with gradient × input (bare model)', () => bare.attribution({ src: { shape: [2], data: [1, 2] }, target: { shape: [1], data: [4] }, steps: 8 }), /attribution: steps applies to method 'integrated-gradients' only/],
  ['an unknown attribution option', () => note.attribution('咖哥 喜欢 小冰', { step: 8 }), /attribution options has an unknown key 'step'/],
  ['attribution of an empty sentence', () => note.attribution(''), /sentence is empty/],
  ['a timeline recorded every 0 steps', () => note.recordTimeline('咖哥 喜欢 小冰', { every: 0 }), /timeline: every must be in \[1, 1000000\] steps \(got 0\)/],
  ['a timeline of 1 frame', () => note.recordTimeline('咖哥 喜欢 小冰', { capacity: 1 }), /timeline: capacity must be in \[2, 4096\] frames \(got 1\)/],
  ['a timeline of an empty probe', () => note.recordTimeline(''), /sentence is empty/],
  ['a timeline with a misspelt option', () => note.recordTimeline('咖哥', { evry: 2 }), /recordTimeline options has an unknown key 'evry'/],
  ['a Transformer timeline recorded every 0 steps', () => tf.recordTimeline('abc', { every: 0 }), /timeline: every must be in \[1, 1000000\] steps \(got 0\)/],
  ['a Transformer timeline of 1 frame', () => tf.recordTimeline('abc', { capacity: 1 }), /timeline: capacity must be in \[2, 4096\] frames \(got 1\)/],
  ['bare attribution of a word outside the vocabulary', () => bare.attribution({ src: { shape: [2], data: [1, 2] }, target: { shape: [2], data: [4, 9] } }), /output word 1 has id 9, outside the target vocabulary of 6/],
  ['bare attribution of a source id outside the vocabulary', () => bare.attribution({ src: { shape: [2], data: [1, 7] }, target: { shape: [1], data: [4] } }), /source id 7 at position 1 is outside the source vocabulary of 5/],
  // Configurations
  ['unknown task name', () => create({ ...NOTE, task: 'klingon' }), /unknown task 'klingon' \(expected note, zh-en, dates, reverse, copy, pairs\)/],
  ['unknown cell name', () => create({ ...NOTE, cell: 'transformer' }), /unknown cell "transformer": expected rnn, gru or lstm/],
  ['unknown score name in a config', () => create({ ...NOTE, score: 'magic' }), /unknown score function 'magic'/],
  ['hidden 10^6', () => create({ ...NOTE, hidden: 1e6 }), /hidden size must be in \[1, 4096\] \(got 1000000\)/],
  ['embedding 10^6', () => create({ ...NOTE, embedding: 1e6 }), /embedding size \(0 = same as hidden\) must be in \[0, 4096\] \(got 1000000\)/],
  ['batch 0', () => create({ ...NOTE, batchSize: 0 }), /batch size must be in \[1, 1024\] \(got 0\)/],
  ['learning rate NaN', () => create({ ...NOTE, learningRate: NaN }), /learning rate must be a positive finite float32 \(got nan\)/],
  ['hidden as a string', () => create({ ...NOTE, hidden: '32' }), /config\.hidden must be a number/],
  ['attention as a string', () => create({ ...NOTE, attention: 'yes' }), /config\.attention must be true or false \(got yes\)/],
  ['missing task', () => create({ cell: 'rnn' }), /task is missing \(expected note, zh-en, dates, reverse, copy, pairs\)/],
  ['extra unknown config key', () => create({ ...NOTE, hiden: 32 }), /config has an unknown key 'hiden'/],
  ['task option out of range', () => create({ task: 'reverse', taskOptions: { train: 1e9 } }), /option train must be in \[1, 20000\] \(got 1000000000\)/],
  ['a task option the note does not read', () => create({ ...NOTE, taskOptions: { train: 5 } }), /config\.taskOptions\.train has no effect with task 'note' \(it has none: its five pairs are fixed\)/],
  ['a string-length option for dates', () => create({ task: 'dates', hidden: 8, taskOptions: { minLen: 5 } }), /config\.taskOptions\.minLen has no effect with task 'dates' \(its options: seed, heldOut\)/],
  ['an alphabet size for zh-en', () => create({ task: 'zh-en', hidden: 8, taskOptions: { symbols: 5 } }), /config\.taskOptions\.symbols has no effect with task 'zh-en' \(its options: seed, heldOut, train\)/],
  ['a string length for the Transformer on your pairs', () => create({ ...TF, task: 'pairs', pairs: 'a\tb', taskOptions: { maxLen: 9 } }), /config\.taskOptions\.maxLen has no effect with task 'pairs' \(its options: seed\)/],
  ['zh-en task option out of range', () => create({ task: 'zh-en', taskOptions: { heldOut: 1e5 } }), /option held_out must be in \[1, 10000\] \(got 100000\)/],
  ['held-out count 0', () => note.heldOut(0), /heldOut\(count\): count must be at least 1/],
  ['held-out count fractional', () => note.heldOut(1.5), /heldOut\(count\): count must be a whole number \(got 1\.5\)/],
  ['held-out count as a string', () => note.heldOut('3'), /heldOut\(count\): count must be a number/],
  ['bare model without vocabulary sizes', () => own(lab.createSeq2SeqModel({ hidden: 4 })), /source vocabulary size \(padding id 0 included\) must be in \[2, 100000\] \(got 0\)/],
  // Training
  ['negative steps', () => note.train(-5), /steps must be in \[1, 100000\] \(got -5\)/],
  ['fractional steps', () => note.train(1.5), /steps must be a whole number \(got 1\.5\)/],
  ['huge steps', () => note.train(1e9), /steps must be in \[1, 100000\] \(got 1000000000\)/],
  ['steps NaN', () => note.train(NaN), /steps must be a whole number \(got NaN\)/],
  ['steps as a string', () => note.train('10'), /steps must be a number/],
  ['a run that diverges (learning rate 1e6)', () => { diverging = create({ ...NOTE, learningRate: 1e6 }); diverging.train(20); },
    /training diverged at step 2 \(the loss [\d.e+]+ is over 1000 times that of a uniform guess\); the weights after step 1 are kept/,
    (error) => {
      // The weights are those after step 1, exactly: a fresh identical session trained 1 step.
      assert.equal(error.completed.step, 1);
      assert.ok(error.completed.losses.every(Number.isFinite));
      const reference = create({ ...NOTE, learningRate: 1e6 });
      assert.deepEqual(reference.train(1).losses, error.completed.losses);
      assert.ok(Buffer.from(diverging.save()).equals(Buffer.from(reference.save())));
      const r = diverging.translate('咖哥 喜欢 小冰');
      assert.equal(r.source.length, 3);
      assert.ok(r.steps.length >= 1 && r.steps.every((s) => s.prob >= 0 && s.prob <= 1));
    }],
  // The bare encoder-decoder
  ['parameter of the wrong shape', () => bare.setParam('encoder.embedding.weight', ones([4, 5])), /setParam value for encoder\.embedding\.weight must have shape \[5, 4\] but has shape \[4, 5\]/],
  ['NaN parameter values', () => bare.setParam('encoder.embedding.weight', tensor([5, 4], new Array(20).fill(NaN))), /parameter encoder\.embedding\.weight value 0 is not finite/],
  ['unknown parameter name', () => bare.getParam('encoder.rnn.weight'), /this model has no parameter "encoder\.rnn\.weight"/],
  ['source length 0', () => bare.loss({ ...BATCH, srcLengths: [0] }), /batch\.src_len\[0\] = 0 must be in \[1, S = 3\]/],
  ['token id outside the vocabulary', () => bare.loss({ ...BATCH, src: { shape: [1, 3], data: [1, 2, 9] } }), /batch\.src id 9 at \(0, 2\) is outside the source vocabulary of 5/],
  ['empty batch', () => bare.loss({ src: { shape: [0, 3], data: [] }, srcLengths: [], tgtIn: { shape: [0, 2], data: [] }, tgtOut: { shape: [0, 2], data: [] } }), /batch size B must be in \[1, 1048576\] \(got 0\)/],
  ['extra batch key', () => bare.loss({ ...BATCH, weights: [1] }), /batch has an unknown key 'weights'/],
  ['Adam learning rate NaN', () => bare.adamStep({ lr: NaN }), /Adam learning rate must be a finite number >= 0 \(got nan\)/],
  ['Adam without a learning rate', () => bare.adamStep({}), /adamStep\(\) needs options \{lr, beta1\?, beta2\?, eps\?, weightDecay\?\}/],
  // Model files
  ['not bytes', () => load('ATLB'), /needs the bytes of a \.atlb file \(or a \.safetensors one\)/],
  ['wrong magic', () => load(noteFile((f) => { f.magic = 'ATLX'; })), /not an AttentionLab model file \(it does not start with "ATLB"\)/],
  ['wrong container version', () => load(noteFile((f) => { f.version = 2; })), /model file version 2 is newer than this build supports \(1\)/],
  ['truncated to 10 bytes', () => load(noteBytes.slice(0, 10)), /model file is truncated: 10 bytes, but even an empty model file has 16/],
  ['truncated inside the arrays', () => load(noteBytes.slice(0, noteBytes.length - 10)), /model file is truncated: array '[^']+' ends at byte \d+ of the array data/],
  ['CRC mismatch (one weight bit flipped)', () => load(patched(noteBytes.length >> 1, 0x40)), /checksum mismatch: the file is corrupt/],
  ['CRC mismatch (the checksum itself)', () => load(patched(noteBytes.length - 1, 0x01)), /checksum mismatch: the file is corrupt/],
  ['header length beyond the file', () => load(patched(11, 0x80)), /model header length \d+ goes beyond the end of the file \(\d+ bytes\): the file is truncated or corrupt/],
  ['oversized header (5 MiB)', () => load(noteFile((f) => { f.header.padding = 'x'.repeat(5 << 20); })), /model header is \d+ bytes long; the limit is 4194304/],
  ['header nested 100 deep', () => load(noteFile((f) => { f.header.deep = JSON.parse('['.repeat(100) + ']'.repeat(100)); })), /model header nests deeper than 64 levels/],
  ['NaN weight under a valid CRC', () => load(noteFile((f) => { new DataView(f.data.buffer).setFloat32(8, NaN, true); })), /array 'encoder\.embedding\.weight' has a non-finite value \(NaN\) at index 2/],
  ['old Seq2Seq header version', () => load(noteFile((f) => { delete f.header.version; })), /Seq2Seq file of version 1 \(weights only, from a development build\)/],
  ['absurd config in a file (hidden 10^6)', () => load(noteFile((f) => { f.header.config.hidden = 1e6; })), /hidden size must be in \[1, 4096\] \(got 1000000\)/],
  ['a string where a number is expected in a file', () => load(noteFile((f) => { f.header.training.learningRate = '0.1'; })), /model file header field 'training\.learningRate' must be a number \(got "0\.1"\)/],
  ['a fraction where a whole number is expected in a file', () => load(noteFile((f) => { f.header.config.hidden = 32.5; })), /model file header field 'config\.hidden' must be a whole number/],
  ['a required field missing from a file', () => load(noteFile((f) => { delete f.header.config.cell; })), /model file header has no 'config\.cell'/],
  ['negative Adam step in a file', () => load(noteFile((f) => { f.header.training.adamStep = -3; })), /model file: training\.adamStep must be >= 0/],
  ['vocabulary that does not match the task', () => load(noteFile((f) => { const t = f.header.sourceVocab.tokens; [t[4], t[5]] = [t[5], t[4]]; })), /model file's vocabularies do not match task 'note'/],
  // .safetensors files
  ['safetensors: not bytes', () => load({}), /needs the bytes of a \.atlb file \(or a \.safetensors one\)/],
  ['safetensors: truncated inside the data', () => load(referenceBytes(BOOK).slice(0, -10)), /tensor '[^']+': data_offsets \[\d+, \d+\] go beyond the data buffer \(\d+ bytes\): the file is truncated or corrupt/],
  ['safetensors: header length 9e18', () => load(writeSafetensors(parseSafetensors(referenceBytes(BOOK)), 9000000000000000000n)), /safetensors header length 9000000000000000000 exceeds the file \(\d+ bytes\)/],
  ['safetensors: corrupt header JSON', () => { const b = referenceBytes(BOOK); b[20] = 0x01; return load(b); }, /safetensors header is not valid JSON/],
  ['safetensors: oversized header (9 MiB)', () => load(bookMeta((m) => { m.padding = 'x'.repeat(9 << 20); })), /safetensors header is \d+ bytes long; the limit is 8388608/],
  ['safetensors: overlapping tensors', () => load(bookFile((f) => { const [b, e] = f.header['decoder.out.weight'].data_offsets; f.header['decoder.out.weight'].data_offsets = [0, e - b]; })), /tensor 'decoder\.out\.weight': data_offsets \[0, 5120\] overlap 'encoder\.embedding\.weight'/],
  ['safetensors: a gap in the data', () => load(bookFile((f) => { shifted(f, 'decoder.out.bias', 4); f.data = Uint8Array.from([...f.data, 0, 0, 0, 0]); })), /safetensors data bytes \[\d+, \d+\] belong to no tensor \(before 'decoder\.out\.bias'\)/],
  ['safetensors: trailing bytes', () => load(bookFile((f) => { f.data = Uint8Array.from([...f.data, 0, 0]); })), /safetensors data buffer has 2 bytes after its last tensor/],
  ['safetensors: dtype F64', () => load(bookFile((f) => { f.header['decoder.out.bias'].dtype = 'F64'; })), /tensor 'decoder\.out\.bias' has dtype F64; this reader takes F32, F16 and BF16/],
  ['safetensors: offsets that disagree with the shape', () => load(bookFile((f) => { f.header['decoder.out.bias'].shape = [21]; })), /tensor 'decoder\.out\.bias': data_offsets \[\d+, \d+\] hold 80 bytes, but F32 of shape \[21\] needs 84/],
  ['safetensors: NaN weight', () => load(bookFile((f) => { new DataView(f.data.buffer).setFloat32(8, NaN, true); })), /tensor 'encoder\.embedding\.weight' has a non-finite value \(NaN\) at index 2/],
  ['safetensors: metadata value not a string', () => load(bookMeta((m) => { m.config = { arch: 'seq2seq' }; })), /safetensors __metadata__ value 'config' is not a string/],
  ['safetensors: no metadata', () => load(bookFile((f) => { delete f.header.__metadata__; })), /safetensors __metadata__ has no 'config': a translator file needs config, src_vocab and tgt_vocab/],
  ['safetensors: wrong shape for the config', () => load(bookFile((f) => { f.header['encoder.rnn.weight_hh_l0'].shape = [16, 64]; })), /tensor 'encoder\.rnn\.weight_hh_l0' has shape \[16, 64\], but the config \(cell rnn, hidden 32, embedding 32, dot attention\) needs \[32, 32\]/],
  ['safetensors: config hidden that disagrees with the tensors', () => load(bookConfig((c) => { c.hidden = 16; c.embedding = 16; })), /tensor 'encoder\.embedding\.weight' has shape \[18, 32\], but the config \(cell rnn, hidden 16/],
  ['safetensors: config cell that disagrees with the tensors', () => load(bookConfig((c) => { c.cell = 'lstm'; })), /tensor 'encoder\.rnn\.weight_ih_l0' has shape \[32, 32\], but the config \(cell lstm.*needs \[128, 32\]/],
  ['safetensors: vocabulary that disagrees with the tensors', () => load(bookMeta((m) => { m.tgt_vocab = JSON.stringify(JSON.parse(m.tgt_vocab).slice(0, -1)); })), /tensor 'decoder\.embedding\.weight' has shape \[20, 32\], but the config .*tgt_vocab 19\) needs \[19, 32\]/],
  ['safetensors: unknown tensor name', () => load(bookFile((f) => { f.header['decoder.out.b'] = f.header['decoder.out.bias']; delete f.header['decoder.out.bias']; })), /tensor 'decoder\.out\.b' is not a parameter of this model \(cell rnn, hidden 32, embedding 32, dot attention\), whose tensors are encoder\.embedding\.weight/],
  ['safetensors: missing tensor', () => load(bookFile((f) => { const [b] = f.header['decoder.out.bias'].data_offsets; delete f.header['decoder.out.bias']; f.data = f.data.slice(0, b); })), /the file has no tensor 'decoder\.out\.bias', which this model \(cell rnn/],
  ['safetensors: unknown config key', () => load(bookConfig((c) => { c.dropout = 0.1; })), /__metadata__ config has an unknown key 'dropout'/],
  ['safetensors: arch transformer with a recurrent config', () => load(bookConfig((c) => { c.arch = 'transformer'; })), /__metadata__ config has an unknown key 'attention' \(a Transformer's are arch, layers, heads, dModel, dFF, normFirst, tokenizer\)/],
  ['safetensors: absurd config (hidden 10^6)', () => load(bookConfig((c) => { c.hidden = 1e6; })), /hidden size must be in \[1, 4096\] \(got 1000000\)/],
  ['safetensors: target vocabulary without <eos>', () => load(bookMeta((m) => { m.tgt_vocab = m.tgt_vocab.replace('<eos>', '<end>'); })), /tgt_vocab has no '<eos>' token: decoding starts with <sos> and stops at <eos>/],
  ['safetensors: a token twice', () => load(bookMeta((m) => { m.src_vocab = m.src_vocab.replace('喜欢', '咖哥'); })), /src_vocab has '咖哥' twice/],
  ['safetensors: unknown word, no <unk> in the vocabulary', () => book.translate('咖哥 喜欢 猫'), /'猫' is not in the source vocabulary, which has no <unk> token/],
  ['safetensors: a control token typed as text', () => book.translate('咖哥 <eos>'), /'<eos>' is not in the source vocabulary/],
  ['safetensors: train an imported model', () => book.train(1), /a model loaded from \.safetensors has no task to train on/],
  ['safetensors: unknown save format', () => note.save({ format: 'onnx' }), /save\(\): unknown format "onnx" \(expected 'atlb' or 'safetensors'\)/],
  ['safetensors: unknown state-dict names', () => note.save({ format: 'safetensors', names: 'keras' }), /names must be 'project' \(out\.weight\) or 'book'/],
  ['safetensors: translate on a deleted import', () => deleted(load(referenceBytes(BOOK))).translate('我'), /this Seq2Seq model has been deleted/],
  // A Transformer's .safetensors (transformer_note.safetensors, exported from wasm) with one thing wrong
  ['Transformer safetensors: wrong shape', () => load(editedFile(TF_FILE, (f) => { f.header['transformer.encoder.layers.0.linear1.weight'].shape = [16, 32]; })), /tensor 'transformer\.encoder\.layers\.0\.linear1\.weight' has shape \[16, 32\], but the config \(transformer, 2 layers, 2 heads, dModel 16, dFF 32; src_vocab has 22 tokens, tgt_vocab 22\) needs \[32, 16\]/],
  ['Transformer safetensors: unknown tensor name', () => load(editedFile(TF_FILE, (f) => { f.header['generator.bias'] = f.header['out.bias']; delete f.header['out.bias']; })), /tensor 'generator\.bias' is not a parameter of this model \(transformer, 2 layers, 2 heads, dModel 16, dFF 32\)/],
  ['Transformer safetensors: dtype I32', () => load(editedFile(TF_FILE, (f) => { f.header['out.bias'].dtype = 'I32'; })), /tensor 'out\.bias' has dtype I32; this reader takes F32, F16 and BF16/],
  ['Transformer safetensors: config dModel that disagrees with the tensors', () => load(editedFile(TF_FILE, (f) => { const c = JSON.parse(f.header.__metadata__.config); c.dModel = 32; f.header.__metadata__.config = JSON.stringify(c); })), /tensor 'src_embedding\.weight' has shape \[22, 16\], but the config \(transformer, 2 layers, 2 heads, dModel 32/],
  ['Transformer safetensors: a vocabulary without <pad> at id 0', () => load(editedFile(TF_FILE, (f) => { f.header.__metadata__.src_vocab = f.header.__metadata__.src_vocab.replace('<pad>', '<nil>'); })), /src_vocab must have <pad> at id 0: a Transformer's padding masks are id 0/],
  ['Transformer safetensors: book names', () => tf.save({ format: 'safetensors', names: 'book' }), /a Transformer has one naming, the reference module's/],
  // The Transformer (createSeq2Seq({arch: 'transformer'})): configurations, sentences, files
  ['Transformer: heads that do not divide dModel', () => create({ ...TF, heads: 3 }), /the number of heads \(3\) must divide the model size dModel \(8\)/],
  ['Transformer: 0 layers', () => create({ ...TF, layers: 0 }), /number of layers must be in \[1, 6\] \(got 0\)/],
  ['Transformer: 7 layers', () => create({ ...TF, layers: 7 }), /number of layers must be in \[1, 6\] \(got 7\)/],
  ['Transformer: dModel beyond the limit', () => create({ ...TF, dModel: 4096 }), /model size dModel must be in \[1, 1024\] \(got 4096\)/],
  ['Transformer: dFF beyond the limit', () => create({ ...TF, dFF: 100000 }), /feed-forward size dFF must be in \[1, 4096\] \(got 100000\)/],
  ['Transformer: too many parameters for memory', () => create({ ...TF, layers: 6, heads: 8, dModel: 1024, dFF: 4096 }), /parameters, over the limit of 16777216/],
  ['Transformer: negative warm-up', () => create({ ...TF, warmup: -1 }), /warmup \(steps; 0: no warm-up\) must be in \[0, 1000000\] \(got -1\)/],
  ['Transformer: a recurrent option', () => create({ ...TF, hidden: 8 }), /config has an unknown key 'hidden'/],
  ['Transformer: a sentence longer than the positional table', () => tf.translate('a'.repeat(300)), /sentence has 300 tokens; the Transformer's positional table has 256 positions/],
  ['Transformer: maxLength beyond the positional table', () => tf.translate('abc', { maxLength: 1000 }), /256/],
  ['Transformer: NaN weight in a loaded model', () => load(noteFile((f) => { new DataView(f.data.buffer).setFloat32(8, NaN, true); }, tfBytes)), /array 'src_embedding\.weight' has a non-finite value \(NaN\) at index 2/],
  ['Transformer: heads not dividing dModel in a file', () => load(noteFile((f) => { f.header.config.heads = 3; }, tfBytes)), /the number of heads \(3\) must divide the model size dModel \(8\)/],
  ['Transformer: unknown architecture', () => create({ ...TF, arch: 'lstm' }), /config\.arch must be 'rnn' or 'transformer' \(got "lstm"\)/],
  ['a score without attention', () => create({ ...NOTE, attention: false, score: 'general' }), /config\.score "general" has no effect with attention: false/],
  ['a score without attention (bare model)', () => own(lab.createSeq2SeqModel({ ...BARE, attention: false, score: 'additive' })), /config\.score "additive" has no effect with attention: false/],
  // Your own sentence pairs (createSeq2Seq({task: 'pairs', pairs, tokenize, heldOut})): each bad
  // line is named by its number
  ...PAIRS_CASES.map((c) => [`pairs: ${c.name}`, () => create({ ...PAIRS, pairs: c.text, tokenize: c.tokenize ?? 'words', heldOut: c.heldOut ?? 0.1 }), literal(c.error)]),
  ['pairs: more than 20000 pairs', () => create({ ...PAIRS, pairs: Array.from({ length: 20001 }, (_, i) => `s${i}\tt${i}`).join('\n') }), /line 20001: more than 20000 pairs; at most 20000/],
  ['pairs: over 1 MiB of text', () => create({ ...PAIRS, pairs: `a\t${'b'.repeat(1 << 20)}` }), /the pairs text is 1048578 bytes; at most 1048576 \(1 MiB\)/],
  ['pairs: an unpaired surrogate', () => create({ ...PAIRS, pairs: 'a\tb\uDC00' }), /config\.pairs has an unpaired UTF-16 surrogate at position 3/],
  ['pairs: task pairs without pairs', () => create({ ...PAIRS, pairs: undefined }), /task 'pairs' needs config\.pairs: the sentence pairs, one source<TAB>target per line/],
  ['pairs: pairs for another task', () => create({ ...NOTE, pairs: 'a\tb' }), /config\.pairs, config\.tokenize and config\.heldOut are for task 'pairs' only \(the task is 'note'\)/],
  ['pairs: pairs that are not text', () => create({ ...PAIRS, pairs: ['a', 'b'] }), /config\.pairs must be a string/],
  ['pairs: unknown tokenize', () => create({ ...PAIRS, tokenize: 'bpe' }), /unknown tokenizer 'bpe' \(expected words, chars\)/],
  ['pairs: heldOut not a number', () => create({ ...PAIRS, heldOut: '10%' }), /config\.heldOut must be a number/],
  ['pairs: heldOut NaN', () => create({ ...PAIRS, heldOut: NaN }), /option heldOut \(the share of pairs held out\) must be from 0 to 0\.5 \(got nan\)/],
  ['pairs: a held-out count in taskOptions', () => create({ ...PAIRS, taskOptions: { heldOut: 5 } }), /task 'pairs' takes the share held out as heldOut \(a fraction\)/],
  ['pairs: the Transformer with a malformed line', () => create({ ...TF, task: 'pairs', taskOptions: undefined, pairs: 'a\tb\nc d\n' }), /line 2: no tab between source and target/],
  ['pairs: a model file whose stored pairs have a malformed line', () => load(noteFile((f) => { f.header.taskOptions.pairs += '\nno tab'; }, pairsBytes)), /line 6: no tab between source and target/],
  ['pairs: a model file whose stored pairs disagree with its vocabularies', () => load(noteFile((f) => { f.header.taskOptions.pairs = f.header.taskOptions.pairs.replace('小冰', '小红'); }, pairsBytes)), /vocabularies do not match task 'pairs'/],
  ['masking away every source token of a Transformer head', () => tf.translate('abc', { interventions: [0, 1, 2].map((source) => ({ step: 0, kind: 'mask-source', layer: 0, head: 1, source })) }), /mask-source at step 0: the masked tokens held all of the attention/],
  ['a Transformer edited row that sums to 0', () => tf.translate('abc', { interventions: [{ step: 0, kind: 'edit-attention', weights: [0, 0, 0] }] }), /intervention 0 \(edit-attention at step 0\): the edited row must sum to a positive number/],
  ['a Transformer edited row of the wrong length', () => tf.translate('abc', { interventions: [{ step: 0, kind: 'edit-attention', weights: [1, 2] }] }), /the edited row has 2 weights but the sentence has 3 tokens/],
  ['a Transformer edited row on a head out of range', () => tf.translate('abc', { interventions: [{ step: 0, kind: 'edit-attention', layer: 0, head: 5, weights: [1, 1, 1] }] }), /intervention 0 \(edit-attention at step 0\): head 5 is out of range: the model has 2 heads/],
  ['a Transformer mask on a layer out of range', () => tf.translate('abc', { interventions: [{ step: 0, kind: 'mask-source', layer: 3, source: 0 }] }), /layer 3 is out of range: the model has 1 layers/],
  ['masking the Transformer decoder self-attention', () => tf.translate('abc', { interventions: [{ step: 0, kind: 'mask-source', attention: 'decoder-self', source: 0 }] }), /only the cross-attention's rows can be forced, edited or masked/],
  ['two edited rows of one Transformer head at one step', () => tf.translate('abc', { interventions: [{ step: 0, kind: 'edit-attention', weights: [1, 0, 0] }, { step: 0, kind: 'force-attention', head: 1, source: 2 }] }), /intervention 1 \(force-attention at step 0\) conflicts with intervention 0 \(edit-attention\) on the same head at the same step/],
  ['a Transformer mask beyond the translation', () => tf.translate('abc', { interventions: [{ step: 0, kind: 'force-token', token: '<eos>' }, { step: 1, kind: 'mask-source', source: 0 }] }), /intervention 1 \(mask-source at step 1\): the step is beyond the translation, which ended after 1 steps/],
  ['a word the Transformer does not know', () => tf.translate('abc', { interventions: [{ step: 0, kind: 'force-token', token: 'Xyz' }] }), /force-token at step 0\): 'Xyz' is not in the target vocabulary/],
  ['a Transformer layer out of range', () => tf.translate('abc', { interventions: [{ kind: 'zero-head', attention: 'cross', layer: 1, head: 0 }] }), /intervention 0 \(zero-head at every step\): layer 1 is out of range: the model has 1 layers \(0 … 0; leave it out for every one\)/],
  ['a Transformer head out of range', () => tf.translate('abc', { interventions: [{ kind: 'zero-head', attention: 'decoder-self', layer: 0, head: 2 }] }), /head 2 is out of range: the model has 2 heads/],
  ['a negative Transformer head', () => tf.translate('abc', { interventions: [{ kind: 'zero-head', head: -3 }] }), /head -3 is out of range/],
  ['an encoder head zeroed at one step', () => tf.translate('abc', { interventions: [{ step: 1, kind: 'zero-head', attention: 'encoder-self', layer: 0, head: 0 }] }), /the encoder runs once per sentence, before any step: leave out step/],
  ['forcing the decoder self-attention', () => tf.translate('abc', { interventions: [{ step: 0, kind: 'force-attention', attention: 'decoder-self', source: 0 }] }), /only the cross-attention's rows can be forced/],
  ['an unknown kind of attention', () => tf.translate('abc', { interventions: [{ kind: 'zero-head', attention: 'self' }] }), /attention 'self' is unknown: use cross, encoder-self or decoder-self/],
  ['a Transformer intervention beyond the translation', () => tf.translate('abc', { maxLength: 3, interventions: [{ step: 3, kind: 'force-attention', source: 0 }] }), /the step must be in \[0, 3\)/],
  ['Transformer integrated gradients with 0 steps', () => tf.attribution('abc', { method: 'integrated-gradients', steps: 0 }), /steps must be in \[1, 1024\] \(got 0\)/],
  ['Transformer integrated gradients with an absurd step count', () => tf.attribution('abc', { method: 'integrated-gradients', steps: 1e9 }), /steps must be in \[1, 1024\] \(got 1000000000\)/],
  ['an unknown Transformer attribution method', () => tf.attribution('abc', { method: 'saliency' }), /attribution method 'saliency' is unknown/],
  ['bare Transformer attribution of a word outside the vocabulary', () => own(lab.createSeq2SeqModel(TF_BARE)).attribution({ src: { shape: [2], data: [1, 2] }, target: { shape: [2], data: [4, 9] } }), /output word 1 has id 9, outside the target vocabulary of 6/],
  ['bare Transformer attribution of a source id outside the vocabulary', () => own(lab.createSeq2SeqModel(TF_BARE)).attribution({ src: { shape: [2], data: [1, 7] }, target: { shape: [1], data: [4] } }), /source id 7 at position 1 is outside the source vocabulary of 5/],
  // The GPT session (docs/gpt.md)
  ['a GPT config with a misspelt key', () => own(lab.createGptSession({ ...GPT, layer: 2 })), /config has an unknown key 'layer'/],
  ['a GPT without a corpus', () => own(lab.createGptSession({ blockSize: 8 })), /createGptSession needs a config object with text \(the corpus\)/],
  ['an empty GPT corpus', () => own(lab.createGptSession({ ...GPT, text: '' })), /the text is empty/],
  ['a GPT corpus too short for one block', () => own(lab.createGptSession({ ...GPT, text: '白日\n\n依山\n' })), /one block of blockSize 8 needs at least 9/],
  ['a GPT corpus over 1 MiB', () => own(lab.createGptSession({ ...GPT, text: 'a'.repeat((1 << 20) + 1) })), /the text has 1048577 bytes; the limit is 1048576 \(1 MiB\)/],
  ['a GPT corpus of one distinct character', () => own(lab.createGptSession({ ...GPT, text: '啊'.repeat(40) })), /the text has 1 distinct characters: a vocabulary needs at least 2/],
  ['a GPT corpus of one poem, with a share held out', () => own(lab.createGptSession({ ...GPT, text: '白日依山尽，黄河入海流。\n欲穷千里目，更上一层楼。\n' })), /the text has 1 poem \(paragraph\); holding out a share needs at least 2: add poems separated by a blank line, or set heldOut to 0/],
  ['a GPT held-out share over one half', () => own(lab.createGptSession({ ...GPT, heldOut: 0.75 })), /heldOut must be a share in \[0, 0\.5\] \(got 0\.75\)/],
  ['a GPT share of form drills of one', () => own(lab.createGptSession({ ...GPT, drills: 1 })), /drills must be a share in \[0, 0\.95\] \(got 1\)/],
  ['GPT form drills on windows anywhere', () => own(lab.createGptSession({ ...GPT, windows: 'text', drills: 0.5 })), /drills need windows "poem": a form drill is a poem read from its start/],
  ['a GPT prompt with characters outside the vocabulary', () => own(lab.createGptSession(GPT)).sample('床前白日'), /prompt has 2 characters not in the vocabulary: "床", "前"/],
  ['a GPT prompt longer than the block', () => own(lab.createGptSession(GPT)).sample('白日依山尽，黄河入'), /prompt has 9 characters; the model reads at most blockSize 8/],
  ['GPT sample options with a misspelt key', () => own(lab.createGptSession(GPT)).sample('白日', { temprature: 0.8 }), /sample options has an unknown key 'temprature'/],
  ['a GPT head out of range to zero', () => gptKept((s) => s.sample('白日', { zeroHeads: [[0, 2]] })), /zeroHeads\[0\]: head 2 is outside \[0, 2\) \(the model has 2 heads per layer, numbered from 0\)/],
  ['a GPT layer out of range to zero in headScores', () => gptKept((s) => s.headScores({ zeroHeads: [[0, 1], [1, 0]] })), /zeroHeads\[1\]: layer 1 is outside \[0, 1\)/],
  ['GPT zeroHeads that are not pairs', () => gptKept((s) => s.sample('白日', { zeroHeads: [1, 2] })), /zeroHeads\[0\] must be a pair \[layer, head\]/],
  ['GPT headScores options with a misspelt key', () => gptKept((s) => s.headScores({ zeroHead: [[0, 0]] })), /headScores options has an unknown key 'zeroHead'/],
  ['a GPT session file that is a Seq2Seq one', () => own(lab.loadGptSession(noteBytes)), /model file is not a GPT model/],
  ['sample on a deleted GPT session', () => deleted(own(lab.createGptSession(GPT))).sample('白日'), /this GPT session has been deleted/],
  // Deleted sessions
  ['translate on a deleted model', () => deleted(create(NOTE)).translate('我'), /this Seq2Seq model has been deleted/],
  ['train on a deleted model', () => deleted(create(NOTE)).train(1), /this Seq2Seq model has been deleted/],
  ['save on a deleted model', () => deleted(create(NOTE)).save(), /this Seq2Seq model has been deleted/],
  ['loss on a deleted bare model', () => deleted(own(lab.createSeq2SeqModel(BARE))).loss(BATCH), /this Seq2SeqModel has been deleted/],
];

for (const [name, call, expected, then] of cases) {
  test(name, () => {
    try {
      if (expected instanceof RegExp) {
        let error;
        assert.throws(call, (e) => (error = e) instanceof Error && expected.test(e.message),
          `expected an Error matching ${expected}`);
        then?.(error);
      } else {
        expected(call());
      }
    } finally {
      for (const m of live) m.delete();
      live.clear();
    }
    assertStillWorks();
  });
}

test('the list covers at least 30 kinds of bad input, each under its own name', () => {
  assert.ok(cases.length >= 30, `${cases.length} cases`);
  assert.equal(new Set(cases.map(([name]) => name)).size, cases.length);
});

// ---- The command line (bin/attention-lab.mjs), run as a user runs it: each bad command gives ONE
// line `attention-lab: <message>` naming the flag or file, and its exit code (2: usage, 1: the
// files or the disk); after every case every file in the folder is byte for byte as before. The
// data-loss cases against a real read-only folder and a real full disk: tests/cli/files.test.mjs.
const CLI = fileURLToPath(new URL('../../bin/attention-lab.mjs', import.meta.url));
const cliRun = (args, env) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
let fx; // the fixture files: {dir, note, tf, st, pairs, link, three, badUtf8, lines, badLines, plainFile, empty}

before(() => {
  const dir = mkdtempSync(join(tmpdir(), 'attention-lab-bad-cli-'));
  const at = (name, text) => { const p = join(dir, name); if (text !== undefined) writeFileSync(p, text); return p; };
  fx = { dir, note: at('note.model'), tf: at('tf.model'), st: at('note.safetensors'), pairs: at('data.tsv', NOTE_PAIRS.map((p) => p.join('\t')).join('\n')),
    link: at('link.tsv'), three: at('three.tsv', 'a\tb\nc\td\ne\tf\n'), badUtf8: at('bad.tsv', Buffer.from('a b\tx\n\xff\xfe c\ty\n', 'latin1')),
    lines: at('lines.txt', '咖哥 喜欢 小冰\n'), gpt: at('gpt.model'), poems: at('poems.txt', GPT_TEXT), badLines: at('bad-lines.txt', Buffer.concat([Buffer.from('咖哥\n'), Buffer.from([0xc3, 0x28, 0x0a])])), plainFile: at('plain.txt', 'x'), empty: at('empty.txt', '') };
  symlinkSync(fx.pairs, fx.link);
  const ok = (args) => assert.equal(cliRun(args).status, 0);
  ok(['train', '--task', 'note', '--hidden', '8', '--steps', '1', '--eval-every', '0', '--out', fx.note]);
  ok(['train', '--task', 'reverse', '--arch', 'transformer', '--layers', '1', '--heads', '2', '--d-model', '8', '--d-ff', '16', '--steps', '1', '--eval-every', '0', '--out', fx.tf]);
  ok(['export', '--model', fx.note, '--format', 'safetensors', '--out', fx.st]);
  ok(['train', '--task', 'poems', '--text', fx.poems, '--block-size', '8', '--layers', '1', '--heads', '2', '--d-model', '8', '--steps', '1', '--eval-every', '0', '--out', fx.gpt]);
});
after(() => rmSync(fx.dir, { recursive: true, force: true }));

const TRAIN = ['train', '--steps', '5'];
const cliCases = [
  // nothing lost
  ['--out is the --pairs file', (f) => [...TRAIN, '--pairs', f.pairs, '--out', f.pairs], 2, /^--out '.*data\.tsv' is the same file as --pairs '.*data\.tsv': writing there would destroy it; choose another --out$/],
  ['--out is a symbolic link to the --pairs file', (f) => [...TRAIN, '--pairs', f.pairs, '--out', f.link], 2, /^--out '.*link\.tsv' is the same file as --pairs '.*data\.tsv' \(through a link\): writing there would destroy it/],
  ['export --out is the --model file', (f) => ['export', '--model', f.note, '--format', 'safetensors', '--out', f.note], 2, /^--out '.*note\.model' is the same file as --model '.*note\.model'/],
  ['train --out is the --from file', (f) => [...TRAIN, '--from', f.note, '--out', f.note], 2, /^--out '.*note\.model' is the same file as --from '.*note\.model'/],
  ["--out in a folder that does not exist", (f) => [...TRAIN, '--task', 'note', '--out', join(f.dir, 'nope', 'm.model')], 2, /^--out '.*m\.model': the folder '.*nope' does not exist$/],
  ["--out under a file, not a folder", (f) => [...TRAIN, '--task', 'note', '--out', join(f.plainFile, 'm.model')], 2, /^--out '.*m\.model': '.*plain\.txt' is not a folder$/],
  ['--out is a folder', (f) => [...TRAIN, '--task', 'note', '--out', f.dir], 2, /^--out '.*' is a folder; give a file name$/],
  ['a full disk, found before training (simulated)', (f) => [...TRAIN, '--task', 'note', '--out', join(f.dir, 'new.model')], 1, /^--out '.*new\.model': the folder '.*' has 1 KiB free, the model needs \d+ KiB; free some space or choose another --out$/, { ATTENTION_LAB_FREE_BYTES: '1000' }],
  // nothing silently ignored
  ['--attribution with a misspelt method', (f) => ['translate', '--model', f.note, '--attribution', 'integrated-gradient', '咖哥 喜欢 小冰'], 2, /^unknown method 'integrated-gradient' for --attribution \(expected gradient-input, integrated-gradients; for the default, put --attribution last or before another option\)$/],
  ['--attribution bogus', (f) => ['translate', '--model', f.note, '--attribution', 'bogus', '咖哥 喜欢 小冰'], 2, /^unknown method 'bogus' for --attribution/],
  ['--hidden with --arch transformer', () => [...TRAIN, '--task', 'dates', '--arch', 'transformer', '--hidden', '999', '--out', 'x'], 2, /^--hidden does not apply to --arch transformer; use --d-model$/],
  ['--cell with --arch transformer', () => [...TRAIN, '--task', 'dates', '--arch', 'transformer', '--cell', 'lstm', '--out', 'x'], 2, /^--cell does not apply to --arch transformer \(the Transformer has no recurrent cell\)$/],
  ['--attention with --arch transformer', () => [...TRAIN, '--task', 'dates', '--arch', 'transformer', '--attention', 'additive', '--out', 'x'], 2, /^--attention does not apply to --arch transformer \(the Transformer's attention is multi-head scaled dot-product; see --heads\)$/],
  ['--embedding with --arch transformer', () => [...TRAIN, '--task', 'dates', '--arch', 'transformer', '--embedding', '8', '--out', 'x'], 2, /^--embedding does not apply to --arch transformer; use --d-model$/],
  ['--warmup with the recurrent translator', () => [...TRAIN, '--task', 'note', '--warmup', '10', '--out', 'x'], 2, /^--warmup applies to --arch transformer only$/],
  ['--layers with the recurrent translator', () => [...TRAIN, '--task', 'note', '--layers', '2', '--out', 'x'], 2, /^--layers applies to --arch transformer only \(the recurrent translator has one encoder and one decoder layer\)$/],
  ['--d-model with the recurrent translator', () => [...TRAIN, '--task', 'note', '--d-model', '16', '--out', 'x'], 2, /^--d-model applies to --arch transformer only; for the recurrent translator use --hidden$/],
  ['--tokenize with --task', () => [...TRAIN, '--task', 'note', '--tokenize', 'words', '--out', 'x'], 2, /^--tokenize applies to --pairs only \(the tasks have their own tokens\)$/],
  ['--task and --pairs together', (f) => [...TRAIN, '--task', 'note', '--pairs', f.pairs, '--out', 'x'], 2, /^--task and --pairs exclude each other/],
  ['--hidden with --from', (f) => [...TRAIN, '--from', f.note, '--hidden', '8', '--out', join(f.dir, 'y.model')], 2, /^--hidden does not apply with --from: the model and its training settings come from the file '.*note\.model'$/],
  ['--from a .safetensors file', (f) => [...TRAIN, '--from', f.st, '--out', join(f.dir, 'y.model')], 2, /^--from '.*note\.safetensors' is a \.safetensors file: it has no task and no Adam state to continue from/],
  ['--checkpoint-every 0', () => [...TRAIN, '--task', 'note', '--checkpoint-every', '0', '--out', 'x'], 2, /^--checkpoint-every must be a whole number in \[1, 10000000\] \(got '0'\)$/],
  ['--progress with an unknown mode', () => [...TRAIN, '--task', 'note', '--progress', 'bar', '--out', 'x'], 2, /^unknown progress 'bar' for --progress \(expected auto, text, json, none\)$/],
  ['--force-token with a word the model cannot write, step as typed', (f) => ['translate', '--model', f.note, '咖哥 喜欢 小冰', '--force-token', '1:Bogus'], 2, /^--force-token 1:Bogus: 'Bogus' is not a word this model can write$/],
  ['--ig-steps without integrated gradients', (f) => ['translate', '--model', f.note, '咖哥', '--ig-steps', '8'], 2, /^--ig-steps applies to --attribution integrated-gradients only$/],
  ['--shade with --json', (f) => ['translate', '--model', f.note, '咖哥', '--shade', '--json'], 2, /^--shade applies to the text tables of one sentence, not to --json$/],
  ['--attribution with --beam', (f) => ['translate', '--model', f.note, '咖哥', '--beam', '2', '--attribution'], 2, /^--attribution explains the greedy translation: leave out --beam$/],
  ['a sentence and --input together', (f) => ['translate', '--model', f.note, '--input', f.lines, '咖哥'], 2, /^give one sentence or --input FILE, not both$/],
  ['--force-attention with --input', (f) => ['translate', '--model', f.note, '--input', f.lines, '--force-attention', '1:1'], 2, /^--force-attention applies to one sentence, not to --input$/],
  ['invalid UTF-8 in a pairs file', (f) => [...TRAIN, '--pairs', f.badUtf8, '--out', join(f.dir, 'y.model')], 2, /^--pairs '.*bad\.tsv' line 2 is not valid UTF-8; save the file as UTF-8$/],
  ['invalid UTF-8 in --input', (f) => ['translate', '--model', f.note, '--input', f.badLines], 2, /^--input '.*bad-lines\.txt' line 2 is not valid UTF-8/],
  ['evaluate --pairs with a line without a tab', (f) => ['evaluate', '--model', f.note, '--pairs', f.lines], 2, /^--pairs '.*lines\.txt' line 1: no tab between source and target$/],
  ['evaluate --pairs with --length', (f) => ['evaluate', '--model', f.note, '--pairs', f.pairs, '--length', '3'], 2, /^--length and --pairs exclude each other$/],
  ['an option given twice', () => [...TRAIN, '--task', 'note', '--steps', '10', '--out', 'x'], 2, /^--steps is given more than once; give it once \(see 'attention-lab train --help'\)$/],
  ['a flag given twice', (f) => ['translate', '--model', f.note, '咖哥', '--json', '--json'], 2, /^--json is given more than once; give it once/],
  ['--held-out as a percentage', (f) => [...TRAIN, '--pairs', f.pairs, '--held-out', '10%', '--out', 'x'], 2, /^--held-out must be a number in \[0, 0\.5\] \(got '10%'\)$/],
  ['--held-out over one half', (f) => [...TRAIN, '--pairs', f.pairs, '--held-out', '0.6', '--out', 'x'], 2, /^--held-out must be a number in \[0, 0\.5\] \(got '0\.6'\)$/],
  ['--eval-examples when training never evaluates', () => [...TRAIN, '--task', 'note', '--eval-every', '0', '--eval-examples', '100', '--out', 'x'], 2, /^--eval-examples has no effect with --eval-every 0 \(training never evaluates\)$/],
  ['--log-every with --progress none', () => [...TRAIN, '--task', 'note', '--progress', 'none', '--log-every', '1', '--out', 'x'], 2, /^--log-every has no effect with --progress none \(only the first and last lines are printed\)$/],
  ['--input an empty file', (f) => ['translate', '--model', f.note, '--input', f.empty], 2, /^--input '.*empty\.txt' has no lines to translate$/],
  ['--input - with standard input empty or closed', (f) => ['translate', '--model', f.note, '--input', '-'], 2, /^--input '-' has no lines to translate \(standard input was empty or closed\)$/],
  ['--length-alpha without --beam', (f) => ['translate', '--model', f.note, '咖哥', '--length-alpha', '0.5'], 2, /^--length-alpha scores beam search's hypotheses: give --beam too$/],
  ['--length-alpha over 4', (f) => ['translate', '--model', f.note, '咖哥', '--beam', '2', '--length-alpha', '5'], 2, /^--length-alpha must be a number in \[0, 4\] \(got '5'\)$/],
  ['--force-attention past --max-length, step as typed', (f) => ['translate', '--model', f.note, '咖哥 喜欢 小冰', '--force-attention', '99:1'], 2, /^--force-attention at step 99: the step must be from 1 to 32 \(decoding stops after --max-length steps\)$/],
  ['a pairs file that is a folder', (f) => [...TRAIN, '--pairs', f.dir, '--out', join(f.dir, 'y.model')], 2, /^cannot read --pairs '.*': is a directory$/],
  ['--input that is a folder', (f) => ['translate', '--model', f.note, '--input', f.dir], 2, /^cannot read --input '.*': is a directory$/],
  ['a model file that is a folder', (f) => ['info', '--model', f.dir], 1, /^cannot read --model '.*': is a directory$/],
  // errors in the user's vocabulary
  ['a misspelt option of translate (which takes a sentence): the option named, the nearest suggested', (f) => ['translate', '--model', f.note, '--beams', '3', '咖哥'], 2, /^unknown option '--beams' for 'translate'; did you mean --beam\? \(see 'attention-lab translate --help'\)$/],
  ['a misspelt option of train', () => ['train', '--task', 'note', '--step', '5', '--out', 'x'], 2, /^unknown option '--step' for 'train'; did you mean --steps\? \(see 'attention-lab train --help'\)$/],
  ['an option of no command', (f) => ['translate', '--model', f.note, '--version', '咖哥'], 2, /^unknown option '--version' for 'translate' \(see 'attention-lab translate --help'\)$/],
  ['a unicode model name that is not there', (f) => ['info', '--model', join(f.dir, '模型.model')], 1, /^cannot read --model '.*模型\.model': no such file$/],
  ['export --names book on a Transformer', (f) => ['export', '--model', f.tf, '--format', 'safetensors', '--names', 'book', '--out', join(f.dir, 'tf.safetensors')], 2, /^--names book does not apply to a Transformer: its state-dict names are the reference module's \(leave out --names\)$/],
  ['evaluate on a .safetensors model', (f) => ['evaluate', '--model', f.st], 2, /^--model '.*note\.safetensors' is a \.safetensors file: it has no task and no held-out set; evaluate it on your own pairs with --pairs FILE$/],
  ['too few pairs to hold any out: the advice names --held-out', (f) => [...TRAIN, '--pairs', f.three, '--out', join(f.dir, 'y.model')], 2, /^--pairs '.*three\.tsv': 3 distinct pairs are too few to hold 10% out: that needs at least 10; add pairs, or use --held-out 0 to evaluate on the training pairs$/],
  // the GPT (train --task poems, generate)
  ['--out is the --text file', (f) => [...TRAIN, '--task', 'poems', '--text', f.poems, '--out', f.poems], 2, /^--out '.*poems\.txt' is the same file as --text '.*poems\.txt': writing there would destroy it; choose another --out$/],
  ['--cell with --task poems', (f) => [...TRAIN, '--task', 'poems', '--text', f.poems, '--cell', 'gru', '--out', join(f.dir, 'y.model')], 2, /^--cell does not apply to --task poems \(a GPT; its options: --corpus, --text, --block-size, --windows, --drills, --held-out, --layers, --heads, --d-model, --warmup, --batch, --lr, --seed\)$/],
  ['--block-size without --task poems', () => [...TRAIN, '--task', 'note', '--block-size', '8', '--out', 'x'], 2, /^--block-size applies to --task poems only$/],
  ['--drills of one', (f) => [...TRAIN, '--task', 'poems', '--text', f.poems, '--drills', '1', '--out', join(f.dir, 'y.model')], 2, /^--drills must be a number in \[0, 0\.95\] \(got '1'\)$/],
  ['--drills with --windows text', (f) => [...TRAIN, '--task', 'poems', '--text', f.poems, '--windows', 'text', '--drills', '0.5', '--out', join(f.dir, 'y.model')], 2, /^--drills need --windows "poem": a form drill is a poem read from its start$/],
  ['--corpus without --task poems', () => [...TRAIN, '--task', 'note', '--corpus', 'song100', '--out', 'x'], 2, /^--corpus applies to --task poems only$/],
  ['an unknown --corpus', (f) => [...TRAIN, '--task', 'poems', '--corpus', 'song', '--out', join(f.dir, 'y.model')], 2, /^unknown corpus 'song' for --corpus \(expected tang300-form, tang300, song100\)$/],
  ['an unknown --windows', (f) => [...TRAIN, '--task', 'poems', '--windows', 'poems', '--out', join(f.dir, 'y.model')], 2, /^unknown windows 'poems' for --windows \(expected poem, text\)$/],
  ['--corpus with --text', (f) => [...TRAIN, '--task', 'poems', '--corpus', 'song100', '--text', f.poems, '--out', join(f.dir, 'y.model')], 2, /^--corpus and --text exclude each other: train on the poems of --corpus or on the text of --text$/],
  ['evaluate --count on a GPT', (f) => ['evaluate', '--model', f.gpt, '--count', '5'], 2, /^--count does not apply to a GPT model \(it is evaluated on its held-out poems\)$/],
  ['a GPT corpus too short for one block', (f) => [...TRAIN, '--task', 'poems', '--text', f.poems, '--block-size', '900', '--out', join(f.dir, 'y.model')], 2, /^--text '.*poems\.txt': the training text has \d+ characters: one block of --block-size 900 needs at least 901 \(a longer text, a smaller --held-out or a smaller --block-size\)$/],
  ['generate with a prompt the model cannot read', (f) => ['generate', f.gpt, '--prompt', '床前白日'], 2, /^--prompt has 2 characters not in the vocabulary: "床", "前" \(the model knows only the characters of its training text\)$/],
  ['generate --temperature with --greedy', (f) => ['generate', f.gpt, '--prompt', '白日', '--greedy', '--temperature', '0.8'], 2, /^--temperature does not apply with --greedy \(no sampling\)$/],
  ['generate from a Seq2Seq model', (f) => ['generate', f.note, '--prompt', '白日'], 1, /^MODEL '.*note\.model': model file is not a GPT model \(header kind must be 'attention-lab\/gpt'\) \(generate reads a model written by `attention-lab train --task poems`\)$/],
  ['a model file that is not there', (f) => ['info', '--model', join(f.dir, 'missing.model')], 1, /^cannot read --model '.*missing\.model': no such file$/],
];

const snapshot = (dir) => Object.fromEntries(readdirSync(dir).map((n) => [n, lstatSync(join(dir, n)).isFile() ? readFileSync(join(dir, n)).toString('base64') : 'link']));

for (const [name, args, code, message, env] of cliCases) {
  test(`command line: ${name}`, () => {
    const before = snapshot(fx.dir);
    const r = cliRun(args(fx), env);
    assert.equal(r.status, code, r.stderr);
    assert.equal(r.stderr.split('\n').length, 2, `one line: ${r.stderr}`);
    assert.match(r.stderr, /^attention-lab: /);
    assert.match(r.stderr.slice('attention-lab: '.length, -1), message);
    assert.doesNotMatch(r.stderr, /internal error|\(\)|E[A-Z]{4,}|\.mjs/, 'no JS method, errno or stack');
    assert.deepEqual(snapshot(fx.dir), before, 'every file intact, none added');
  });
}

test('the command-line list names each case once', () => {
  assert.equal(new Set(cliCases.map(([name]) => name)).size, cliCases.length);
});

// ---- The page's file fields (web/src/sections/text-file.ts: §3.3's pairs upload, §5's text file),
// read in the page before the worker sees them: a file over the field's limit, one that is not
// UTF-8 (the line of its first bad byte named) or one holding a NUL is refused with a message that
// names the field by its label and the file, in English and Chinese. The page keeps the field's
// text on a refusal: tests/e2e/bring-your-own.test.mjs (§3.3) and gpt.test.mjs (§5) show it.
// the fields' labels as the page names them (the upload's without the ellipsis of its control)
const PAIRS_FIELD = { en: 'Upload a .tsv file', zh: '上传 .tsv 文件' };
const fileCases = [
  // [name, file, field (label per language), limit in MiB, message per language]
  ['pairs: a Latin-1 file', new File([Buffer.concat([Buffer.from('咖哥 喜欢 小冰\tKaGe likes XiaoBing\n'), Buffer.from('\xe9t\xe9\tsummer\n', 'latin1')])], 'latin1.tsv'), PAIRS_FIELD, 1,
    { en: 'Upload a .tsv file: latin1.tsv is not UTF-8 text (line 2); save it as UTF-8', zh: '上传 .tsv 文件：latin1.tsv 不是 UTF-8 文本（第 2 行）；请存为 UTF-8' }],
  ['pairs: a UTF-8 sequence cut at the end of the file', new File([Buffer.from([0x61, 0x09, 0x62, 0x0a, 0x63, 0x09, 0xe5, 0x92])], 'cut.tsv'), PAIRS_FIELD, 1,
    { en: 'Upload a .tsv file: cut.tsv is not UTF-8 text (line 2); save it as UTF-8', zh: '上传 .tsv 文件：cut.tsv 不是 UTF-8 文本（第 2 行）；请存为 UTF-8' }],
  ['pairs: a file over 1 MiB', new File([Buffer.alloc((1 << 20) + 1, 0x61)], 'big.tsv'), PAIRS_FIELD, 1,
    { en: 'Upload a .tsv file: big.tsv is 1,048,577 bytes, over the limit of 1 MiB', zh: '上传 .tsv 文件：big.tsv 有 1,048,577 字节，超过上限 1 MiB' }],
  ['pairs: a NUL byte (a binary file)', new File(['a\tb\nc\td\ne\0\tf\n'], 'nul.tsv'), PAIRS_FIELD, 1,
    { en: 'Upload a .tsv file: nul.tsv is not a text file (a NUL byte on line 3)', zh: '上传 .tsv 文件：nul.tsv 不是文本文件（第 3 行有空字节）' }],
  ['§5 text file: UTF-16', new File([Buffer.from('\ufeff白日依山尽', 'utf16le')], 'poems.txt'), { en: 'A text file', zh: '文本文件' }, 1,
    { en: 'A text file: poems.txt is not UTF-8 text (line 1); save it as UTF-8', zh: '文本文件：poems.txt 不是 UTF-8 文本（第 1 行）；请存为 UTF-8' }],
];

for (const [name, file, label, maxMiB, message] of fileCases) {
  test(`the page: ${name}`, async () => {
    for (const lang of ['en', 'zh']) assert.deepEqual(await readTextFile(file, lang, label[lang], maxMiB), { error: message[lang] }, lang);
  });
}

test('the page: a UTF-8 file within the limit is read whole, its byte-order mark dropped', async () => {
  const text = '咖哥 喜欢 小冰\tKaGe likes XiaoBing\n';
  assert.deepEqual(await readTextFile(new File([`\ufeff${text}`], 'ok.tsv'), 'en', PAIRS_FIELD.en, 1), { text });
  assert.deepEqual(await readTextFile(new File([Buffer.alloc(1 << 20, 0x61)], 'full.tsv'), 'en', PAIRS_FIELD.en, 1), { text: 'a'.repeat(1 << 20) });
});
