// Type-checked (never run) by tests/wasm/types.test.mjs: the README's API example, against the
// package's published types, resolved through package.json "exports" like a user's import.
import { loadAttentionLab, tensor, type AttentionResult, type MultiHeadResult, type Seq2Seq, type Seq2SeqModel, type TranslateResult, type TransformerSeq2Seq } from 'attention-lab';

export async function example(): Promise<number> {
  const lab = await loadAttentionLab();
  const x1 = tensor([2, 3, 4], Array.from({ length: 24 }, Math.random));
  const x2 = tensor([2, 5, 4], Array.from({ length: 40 }, Math.random));
  const r: AttentionResult = lab.attention({ query: x1, key: x2, value: x2, score: 'scaled', gradOutput: x1 });
  const w: Float32Array = r.weights.data;
  const few = lab.attention({ query: x1, key: x2, value: x2, outputs: ['output', 'weights'] });
  const o: Float32Array = few.output.data;
  // @ts-expect-error: only the outputs asked for are in the result's type
  few.scores;
  const dq: Float32Array | undefined = r.grads?.query.data;
  const m = (shape: number[]) => tensor(shape, new Array(shape.reduce((a, b) => a * b, 1)).fill(0));
  const p = { wq: m([4, 4]), bq: m([4]), wk: m([4, 4]), bk: m([4]), wv: m([4, 4]), bv: m([4]), wo: m([4, 4]), bo: m([4]) };
  const mh: MultiHeadResult = lab.multiHeadAttention(x1, p, 2, { mask: { causal: true } });
  const s = lab.selfAttention(x1, p, { mask: { keyPadding: m([2, 3]) } });
  const ce = lab.ops.crossEntropy(m([2, 3]), { shape: [2], data: [0, 1] }, { ignoreIndex: 0 });
  return w[0] + o[0] + (dq?.[0] ?? 0) + mh.headOutputs.data[0] + s.output.data[0] + ce.loss;
}

export async function seq2seqExample(): Promise<string> {
  const lab = await loadAttentionLab();
  const m: Seq2Seq = lab.createSeq2Seq({ task: 'note', cell: 'rnn', hidden: 32, attention: true, score: 'dot', seed: 1 });
  try {
    const losses: Float32Array = m.train(10).losses;
    const r: TranslateResult = m.translate('咖哥 喜欢 小冰', { beam: 3 });
    const copy = lab.loadSeq2Seq(m.save());
    copy.delete();
    // Asking why: an intervention, an attribution, a training timeline.
    const w = m.translate('咖哥 喜欢 小冰', { interventions: [{ step: 1, kind: 'force-attention', source: 0 }, { step: 2, kind: 'force-token', token: 'KaGe' }] });
    const changed: boolean | undefined = w.intervention?.changed[0];
    const a = m.attribution('咖哥 喜欢 小冰', { method: 'integrated-gradients', steps: 16 });
    const rho: number | null = a.rankCorrelation[0];
    m.recordTimeline('咖哥 喜欢 小冰', { every: 5, capacity: 50 });
    const frames: number = m.timeline().frames.length + m.exportTimeline().length;
    return `${losses[0]} ${r.text} ${r.steps?.[0]?.attention[0]} ${r.beams?.hypotheses[0]?.score} ${changed} ${a.scores.data[0]} ${rho} ${frames}`;
  } finally {
    m.delete();
  }
}

export async function seq2seqModelExample(): Promise<number> {
  const lab = await loadAttentionLab();
  const m: Seq2SeqModel = lab.createSeq2SeqModel({ cell: 'gru', hidden: 4, srcVocab: 5, tgtVocab: 6, attention: true, score: 'general', attentionalTanh: true, seed: 1 });
  try {
    const { name, shape } = m.paramNames()[0];
    m.setParam(name, tensor(shape, new Array(shape.reduce((a, b) => a * b, 1)).fill(0.1)));
    const batch = { src: { shape: [1, 2], data: [3, 4] }, srcLengths: [2], tgtIn: { shape: [1, 2], data: [1, 3] }, tgtOut: { shape: [1, 2], data: [3, 2] } };
    const r = m.forwardBackward(batch);
    const norm: number = m.clipGradNorm(1);
    m.adamStep({ lr: 1e-3, beta1: 0.9 });
    const a = m.attribution({ src: { shape: [2], data: [3, 4] }, target: { shape: [2], data: [3, 2] }, method: 'gradient-input' });
    return r.loss + r.logits.data[0] + (r.attention?.data[0] ?? 0) + r.grads[name].data[0] + m.getParam(name).data[0] + m.loss(batch) + norm + a.logProb[0];
  } finally {
    m.delete();
  }
}

// The attention-only variant: the attention API, and no Seq2Seq methods in its type.
export async function attentionVariantExample(): Promise<number> {
  const small = await loadAttentionLab({ variant: 'attention' });
  const x = tensor([1, 2, 4], [1, 0, 0, 0, 0, 1, 0, 0]);
  // @ts-expect-error: Seq2Seq is only in the full module
  small.createSeq2Seq({ task: 'note' });
  return small.attention({ query: x, key: x, value: x }).output.data[0];
}

// The Seq2Seq-only variant: createSeq2Seq, and neither the attention API nor model files.
export async function seq2seqVariantExample(): Promise<number> {
  const trainer = await loadAttentionLab({ variant: 'seq2seq' });
  const x = tensor([1, 2, 4], [1, 0, 0, 0, 0, 1, 0, 0]);
  // @ts-expect-error: attention is only in the full and attention modules
  trainer.attention({ query: x, key: x, value: x });
  // @ts-expect-error: model files are only in the full module
  trainer.loadSeq2Seq(new Uint8Array(0));
  const model = trainer.createSeq2Seq({ task: 'note' });
  try {
    return model.train(1).losses[0];
  } finally {
    model.delete();
  }
}

// The Transformer through the same createSeq2Seq: its own info and the per-layer/per-head trace.
export async function transformerExample(): Promise<number> {
  const lab = await loadAttentionLab();
  const m = lab.createSeq2Seq({ arch: 'transformer', task: 'dates', layers: 2, heads: 4, dModel: 32, dFF: 64, warmup: 50, seed: 1 });
  try {
    const arch: 'transformer' = m.arch;
    const heads: number = m.info().heads;
    const r = m.translate('JAN 23, 2015');
    const cross: number[] = r.steps?.[0]?.cross.shape ?? [];
    const rollout: number = r.encoder.rollout.data[0] + (r.steps?.[0]?.rolloutTarget[0] ?? 0);
    const loaded = lab.loadSeq2Seq(m.save());
    const kind: 'rnn' | 'transformer' = loaded.arch;
    const again = loaded.arch === 'transformer' ? (loaded as unknown as TransformerSeq2Seq).info().layers : 0;
    loaded.delete();
    return again + heads + cross.length + rollout + arch.length + kind.length;
  } finally {
    m.delete();
  }
}
