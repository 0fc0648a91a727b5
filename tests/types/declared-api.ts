// Every method and option that the package's declarations (build/types) declare, called the way the types allow (the
// typed-array forms included) on the package as a user installs it. tests/wasm/declared-api.test.mjs
// packs the package (npm pack), installs it into a temporary folder, type-checks this file against
// it with tsc, runs the result, and checks that every method the .d.ts declares is called here.
// A declared signature that throws, or returns another shape than declared, fails it.
import {
  hasRelaxedSimd, loadAttentionLab, tensor,
  type AttentionLab, type GptOnlyLab, type ImportedSeq2Seq, type Seq2Seq, type Seq2SeqBatch, type TransformerSeq2Seq,
} from 'attention-lab';

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`declared API: ${what}`);
}
const isTensor = (t: { shape: number[]; data: Float32Array }, shape: number[]): boolean =>
  t.data instanceof Float32Array && t.shape.join() === shape.join() && t.data.length === shape.reduce((a, b) => a * b, 1);
const fill = (shape: number[], f: (i: number) => number = (i) => Math.sin(i + 1)) =>
  tensor(shape, Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => f(i)));

function attention(lab: AttentionLab): void {
  const q = fill([1, 2, 4]), kv = fill([1, 3, 4], Math.cos);
  for (const score of ['dot', 'scaled', 'cosine'] as const) {
    const r = lab.attention({ query: q, key: kv, value: kv, score, gradOutput: fill([1, 2, 4]), mask: { causal: false, keyPadding: tensor([1, 3], [0, 0, 1]) } });
    check(isTensor(r.weights, [1, 2, 3]) && isTensor(r.scores, [1, 2, 3]) && isTensor(r.scaled, [1, 2, 3]) && isTensor(r.output, [1, 2, 4]), `attention ${score}`);
    check(r.grads !== undefined && isTensor(r.grads.query, [1, 2, 4]), `attention ${score} grads`);
  }
  lab.attention({ query: q, key: kv, value: kv, score: 'cosine', temperature: 0.5 });
  const general = lab.attention({ query: q, key: kv, value: kv, score: 'general', params: { w: fill([4, 4]) }, gradOutput: fill([1, 2, 4]) });
  check(general.grads?.params?.w !== undefined, 'general score: grads of w');
  lab.attention({ query: q, key: kv, value: kv, score: 'additive', params: { w1: fill([3, 4]), w2: fill([3, 4]), b: fill([3]), v: fill([3]) } });
  const few = lab.attention({ query: { shape: [1, 2, 4], data: [1, 0, 0, 0, 0, 1, 0, 0] }, key: kv, value: kv, outputs: ['weights'] });
  check(isTensor(few.weights, [1, 2, 3]) && !('output' in few), 'attention outputs');
  const p = { wq: fill([4, 4]), bq: fill([4]), wk: fill([4, 4]), bk: fill([4]), wv: fill([4, 4]), bv: fill([4]), wo: fill([4, 4]), bo: fill([4]) };
  const s = lab.selfAttention(fill([1, 3, 4]), p, { mask: { causal: true }, gradOutput: fill([1, 3, 4]) });
  check(isTensor(s.weights, [1, 3, 3]) && s.grads !== undefined, 'selfAttention');
  const mh = lab.multiHeadAttention(fill([1, 3, 4]), p, 2, { mask: { keyPadding: tensor([1, 3], [0, 0, 0]) }, gradOutput: fill([1, 3, 4]) });
  check(mh.numHeads === 2 && isTensor(mh.headOutputs, [1, 2, 3, 2]) && mh.grads !== undefined, 'multiHeadAttention');
  const m = lab.memoryStats();
  check(m.heapUsed > 0 && m.memorySize > 0 && m.handles >= 0, 'memoryStats');
}

function ops(lab: AttentionLab): void {
  const lin = lab.ops.linear(fill([2, 3]), fill([4, 3]), fill([4]), { gradOutput: fill([2, 4]) });
  check(isTensor(lin.y, [2, 4]) && lin.grads?.bias !== undefined, 'ops.linear');
  check(isTensor(lab.ops.linear(fill([2, 3]), fill([4, 3]), null).y, [2, 4]), 'ops.linear without bias');
  for (const data of [Int32Array.from([1, 2]), Float32Array.from([1, 2]), [1, 2]]) {
    const e = lab.ops.embedding({ shape: [2], data }, fill([5, 3]), { gradOutput: fill([2, 3]) });
    check(isTensor(e.y, [2, 3]) && e.grads !== undefined, `ops.embedding ids as ${data.constructor.name}`);
    const ce = lab.ops.crossEntropy(fill([2, 3]), { shape: [2], data }, { ignoreIndex: 0, gradOutput: 1 });
    check(Number.isFinite(ce.loss) && isTensor(ce.probs, [2, 3]) && ce.grads !== undefined, `ops.crossEntropy targets as ${data.constructor.name}`);
  }
  check(isTensor(lab.ops.tanh(fill([2, 2]), { gradOutput: fill([2, 2]) }).y, [2, 2]), 'ops.tanh');
  check(isTensor(lab.ops.softmax(fill([2, 2]), { gradOutput: fill([2, 2]) }).y, [2, 2]), 'ops.softmax');
}

function bareModels(lab: AttentionLab): void {
  for (const ids of [(a: number[]) => Int32Array.from(a), (a: number[]) => Float32Array.from(a), (a: number[]) => a]) {
    const rnn = lab.createSeq2SeqModel({ arch: 'rnn', cell: 'lstm', hidden: 4, embedding: 3, srcVocab: 5, tgtVocab: 6, attention: true, score: 'general', attentionalTanh: true, seed: 2 });
    const tf = lab.createSeq2SeqModel({ arch: 'transformer', layers: 1, heads: 2, dModel: 4, dFF: 8, normFirst: true, srcVocab: 5, tgtVocab: 6, seed: 2 });
    try {
      const batch: Seq2SeqBatch = { src: { shape: [1, 3], data: ids([1, 2, 3]) }, srcLengths: [3], tgtIn: { shape: [1, 2], data: ids([1, 4]) }, tgtOut: { shape: [1, 2], data: ids([4, 2]) } };
      for (const m of [rnn, tf]) {
        const names = m.paramNames();
        check(names.length > 0 && Array.isArray(names[0].shape), 'paramNames');
        const first = m.getParam(names[0].name);
        m.setParam(names[0].name, first);
        const fb = m.forwardBackward(batch);
        check(Number.isFinite(fb.loss) && isTensor(fb.logits, [1, 2, 6]) && fb.grads[names[0].name] !== undefined, `forwardBackward with ${batch.src.data.constructor.name} ids`);
        check(m.loss(batch) === fb.loss, 'loss equals forwardBackward().loss');
        check(m.clipGradNorm(1) > 0, 'clipGradNorm');
        m.adamStep({ lr: 0.01, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0, ...(m === tf ? { warmup: 2 } : {}) });
        const a = m.attribution({ src: { shape: [3], data: ids([1, 2, 3]) }, target: { shape: [2], data: ids([4, 2]) }, method: 'integrated-gradients', steps: 4 });
        check(a.scores.shape.join() === '2,3', 'bare attribution');
        check(!m.deleted, 'deleted is false before delete()');
      }
    } finally {
      rnn.delete();
      tf.delete();
    }
    check(rnn.deleted && tf.deleted, 'deleted after delete()');
  }
}

function session(m: Seq2Seq | TransformerSeq2Seq, sentence: string): void {
  const t = m.train(2);
  check(t.losses instanceof Float32Array && t.losses.length === 2 && m.info().step === 2, 'train');
  const ev = m.evaluate({ maxExamples: 5 });
  check(ev.examples === 5 && Number.isFinite(ev.loss), 'evaluate maxExamples');
  const r = m.translate(sentence, { beam: 2, maxLength: 6, topK: 2 });
  check(r.beams !== undefined && r.beams.width === 2, 'translate with beam');
  const g = m.translate(sentence, { maxLength: 6, interventions: [{ step: 0, kind: 'force-attention', source: 0 }, { step: 1, kind: 'mask-source', source: 1 }] });
  check(g.intervention !== undefined, 'translate with interventions');
  m.translate(sentence, { interventions: [{ step: 0, kind: 'edit-attention', weights: Float32Array.from(Array.from(sentence.split(' ').length > 1 ? sentence.split(' ') : [...sentence], () => 1)) }] });
  const word = m.targetVocabulary()[0];
  m.translate(sentence, { interventions: [{ step: 0, kind: 'force-token', token: word }] });
  const a = m.attribution(sentence, { method: 'gradient-input', maxLength: 6 });
  check(a.method === 'gradient-input' && Array.isArray(a.rankCorrelation), 'attribution');
  check(m.attribution(sentence, { method: 'integrated-gradients', steps: 2 }).method === 'integrated-gradients', 'attribution by integrated gradients');
  m.recordTimeline(sentence, { every: 1, capacity: 4 });
  m.train(1);
  m.stopTimeline();
  check(m.timeline().frames.length >= 2 && JSON.parse(m.exportTimeline()).frames.length === m.timeline().frames.length, 'timeline');
  const held = m.heldOut(2);
  check(held.length >= 1 && typeof held[0].source === 'string' && Array.isArray(held[0].alignment), 'heldOut');
  const info = m.info();
  check(info.taskOptions.heldOut > 0, 'info().taskOptions.heldOut is the held-out count, not 0');
  check(info.arch === m.arch, 'info().arch is the model\'s arch');
  check(m.sourceVocabulary().length > 0, 'sourceVocabulary');
  check(m.save({ format: 'atlb' }).length > 0 && m.exportSafetensors({ names: 'project' }).length > 0, 'save and exportSafetensors');
}

function imported(m: ImportedSeq2Seq, sentence: string, target: string, arch: 'rnn' | 'transformer'): void {
  check(m.arch === arch && m.info().arch === arch, `imported arch ${arch}`);
  check(m.translate(sentence, { beam: 2 }).text !== undefined, 'imported translate');
  const tf = m.teacherForced(sentence, target);
  check(tf.logits.data instanceof Float32Array && tf.sourceIds.length > 0, 'teacherForced');
  check(m.sourceVocabulary().length > 0 && m.targetVocabulary().length > 0 && m.params().length > 0, 'imported vocabularies and params');
  check(m.save({ format: 'safetensors', names: 'project' }).length > 0, 'imported save');
  for (const [name, call] of [['train', () => m.train()], ['evaluate', () => m.evaluate()]] as const) {
    let threw = false;
    try { call(); } catch { threw = true; }
    check(threw, `imported ${name}() is declared never to return`);
  }
}

// The GPT session, in the full module and in the 'gpt' build.
function gpt(lab: AttentionLab | GptOnlyLab): void {
  const text = Array.from({ length: 6 }, (_, i) => `《题${i}》\n白日依山尽，黄河入海流。`).join('\n\n') + '\n';
  const s = lab.createGptSession({ text, heldOut: 0.2, blockSize: 8, layers: 1, heads: 2, dModel: 8, batchSize: 2,
    learningRate: 0.01, warmup: 2, seed: 3 });
  try {
    const r = s.train(3);
    check(r.losses instanceof Float32Array && r.losses.length === 3 && r.step === 3, 'GPT train');
    const e = s.evaluate();
    check(e.characters > 0 && e.validationLoss > 0 && e.bigramLoss > 0 && e.unigramLoss > 0 && e.trainLoss > 0, 'GPT evaluate');
    const out = s.sample('白日', { maxNewTokens: 4, greedy: false, temperature: 0.8, topK: 5, topP: 0.9, seed: 1, topCandidates: 3 });
    check(out.text === '白日' + out.generated && out.ids.length === 6 && out.steps.length === 4, 'GPT sample');
    const step = out.steps[0];
    check(step.top.length === 3 && typeof step.top[0].char === 'string' && typeof step.char === 'string' &&
      isTensor(step.attention, [1, 2, step.keys]) && step.position >= 0 && step.prob > 0 && step.token >= 0 &&
      step.top[0].sampleProb >= 0 && step.top[0].prob > 0 && step.top[0].id >= 0, 'GPT steps');
    check(s.sample('白').steps.length === 32, 'GPT sample defaults');
    const heads = s.headScores({ zeroHeads: [[0, 1]] });
    check(heads.layers === 1 && heads.heads === 2 && isTensor(heads.previous, [1, 2]) && isTensor(heads.lineBack, [1, 2]) &&
      isTensor(heads.lineStart, [1, 2]) && isTensor(heads.induction, [1, 2]) && heads.queries.previous > 0, 'GPT headScores');
    check(s.sample('白', { maxNewTokens: 2, zeroHeads: [[0, 0]] }).steps.length === 2, 'GPT sample with zeroHeads');
    const info = s.info();
    check(info.vocab.includes('白') && info.parameters > 0 && info.step === 3 && info.config.blockSize === 8 &&
      info.corpus.poems === 6 && info.corpus.heldOutPoems === 1 && info.corpus.trainPoems === 5 &&
      info.corpus.trainCharacters > 0 && info.corpus.heldOutCharacters > 0, 'GPT info');
    const loaded = lab.loadGptSession(s.save().buffer as ArrayBuffer);
    check(loaded.info().step === 3 && !loaded.deleted, 'loadGptSession');
    loaded.delete();
    check(loaded.deleted, 'GPT delete');
  } finally {
    s.delete();
  }
  check(lab.memoryStats().handles >= 0, 'memoryStats');
}

export async function main(): Promise<string> {
  gpt(await loadAttentionLab({ variant: 'gpt' }));
  const lab = await loadAttentionLab({ variant: 'full' });
  attention(lab);
  ops(lab);
  bareModels(lab);
  gpt(lab);
  check(tensor([2], new Float32Array([1, 2])).data.length === 2, 'tensor');
  // the plain build where Node runs without relaxed SIMD (the test's Node); each build once per realm
  check(typeof hasRelaxedSimd() === 'boolean', 'hasRelaxedSimd');
  check((await loadAttentionLab({ variant: 'full', fma: false })) === lab || hasRelaxedSimd(), 'fma: false is the plain build');
  check(typeof (await loadAttentionLab({ variant: 'transformer', fma: false })).createSeq2Seq === 'function', 'transformer, fma: false');

  const rnn = lab.createSeq2Seq({ arch: 'rnn', task: 'note', cell: 'gru', hidden: 8, embedding: 6, attention: true, score: 'dot',
    attentionalTanh: true, seed: 3, batchSize: 2, learningRate: 0.01, clipNorm: 1 });
  const rev = lab.createSeq2Seq({ task: 'reverse', hidden: 4, taskOptions: { seed: 1, heldOut: 10, train: 50, minLen: 3, maxLen: 5, symbols: 4 } });
  const pairs = lab.createSeq2Seq({ task: 'pairs', pairs: 'a b\tx y\nb c\ty z\nc d\tz w\nd e\tw v', tokenize: 'words', heldOut: 0.25, hidden: 4 });
  const tf = lab.createSeq2Seq({ arch: 'transformer', task: 'note', layers: 1, heads: 2, dModel: 8, dFF: 16, normFirst: false, warmup: 2,
    seed: 1, batchSize: 2, learningRate: 0.01, clipNorm: 1 });
  try {
    session(rnn, '咖哥 喜欢 小冰');
    session(tf, '咖哥 喜欢 小冰');
    check(tf.arch === 'transformer' && tf.info().layers === 1, 'Transformer info');
    check(rev.info().taskOptions.train === 50 && rev.evaluate({ length: 4, count: 3, seed: 2 }).examples === 3, 'evaluate at a length');
    check(pairs.info().pairs?.heldOutPairs === 1, 'pairs info');
    const loaded = lab.loadSeq2Seq(rnn.save().buffer as ArrayBuffer);
    check(loaded.info().step === rnn.info().step, 'loadSeq2Seq from an ArrayBuffer');
    loaded.delete();
    const st = lab.loadSeq2Seq<ImportedSeq2Seq>(rnn.save({ format: 'safetensors', names: 'book' }));
    imported(st, '咖哥 喜欢 小冰', 'KaGe likes XiaoBing', 'rnn');
    st.delete();
    const stf = lab.loadSafetensors(tf.exportSafetensors());
    imported(stf, '咖哥 喜欢 小冰', 'KaGe likes XiaoBing', 'transformer');
    stf.delete();
  } finally {
    for (const m of [rnn, rev, pairs, tf]) m.delete();
  }
  return 'ok';
}
