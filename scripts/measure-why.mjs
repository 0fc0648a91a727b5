// Times asking a translator why, in Node on the wasm build: one intervention's re-decode
// (translate with a forced attention: the plain and the intervened greedy decoding) beside a
// plain translate, and one attribution (gradient × input; integrated gradients with 32 steps),
// on the note's recipe model (RNN, hidden 128, dot attention, 400 steps), on a zh-en GRU 64, and
// on the Transformer's dates and zh-en recipes (docs/transformer.md; attribution through its own
// backward pass, the intervention forcing every cross-attention head).
// Prints a markdown table of medians; not a test (tests never time anything).
//   node scripts/measure-why.mjs
import { loadAttentionLab } from '../wasm/js/attention-lab.mjs';

const RUNS = 30;

function median(fn) {
  const times = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const t0 = performance.now();
    fn();
    if (i >= 3) times.push(performance.now() - t0); // the first calls warm up
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

const lab = await loadAttentionLab();
const setups = [
  { name: 'note, RNN 128, dot (the book\'s recipe)', config: { task: 'note', cell: 'rnn', hidden: 128, attention: true, score: 'dot', seed: 1 }, steps: 400, text: '咖哥 喜欢 小冰' },
  { name: 'zh-en, GRU 64, dot', config: { task: 'zh-en', cell: 'gru', hidden: 64, attention: true, score: 'dot', seed: 1 }, steps: 300, text: '我 昨天 在 公园 看见 了 一 只 小 狗' },
  { name: 'dates, Transformer (its recipe: 1 layer, 4 heads, dModel 32)', config: { arch: 'transformer', task: 'dates', seed: 1 }, steps: 300, text: 'JAN 23, 2015' },
  { name: 'zh-en, Transformer (its recipe: 2 layers)', config: { arch: 'transformer', task: 'zh-en', seed: 1 }, steps: 300, text: '我 昨天 在 公园 看见 了 一 只 小 狗' },
];
const rows = [];
for (const s of setups) {
  const m = lab.createSeq2Seq(s.config);
  try {
    m.train(s.steps);
    const plain = m.translate(s.text);
    const S = plain.source.length, T = plain.steps.length;
    const force = { interventions: [{ step: Math.min(1, T - 1), kind: 'force-attention', source: S - 1 }] };
    rows.push([s.name, `${S} → ${T}`,
      median(() => m.translate(s.text)),
      median(() => m.translate(s.text, force)),
      median(() => m.attribution(s.text)),
      median(() => m.attribution(s.text, { method: 'integrated-gradients', steps: 32 }))]);
  } finally {
    m.delete();
  }
}
console.log(`Asking why, wasm in Node ${process.version}: median of ${RUNS} calls, ms`);
console.log('');
console.log('| model | source → steps | translate | translate + 1 intervention (both decodings) | attribution, gradient × input | attribution, IG 32 steps |');
console.log('|---|---|---:|---:|---:|---:|');
for (const [name, shape, ...ms] of rows) console.log(`| ${name} | ${shape} | ${ms.map((x) => x.toFixed(3)).join(' | ')} |`);
