// The training steps against the machine's limit: for each step, its GEMM flops (counted by
// bench_native, whose build counts every product: LAB_COUNT_FLOPS; wasm makes the same calls),
// the time those flops take at the register-loop peak the kernels part measured for each build
// (the limit), and each build's time per step (from the Seq2Seq, dates, Transformer and GPT parts
// of this run) as a multiple of its limit, with PyTorch's step beside it. A multiple near 1 leaves nothing to gain in the GEMMs; the
// rest of a step (gates, softmax, LayerNorm, Adam, copies) is what a larger one is made of. Beside
// them, the step's products alone: the very shapes it ran, replayed in the kernels builds with
// nothing between them (kernels.mjs, replayProducts), so a step splits into what its products
// take at their own shapes (small ones run below the peak) and what the rest of the step takes.
import { replayProducts } from './kernels.mjs';
import { fmt, table } from './common.mjs';

export const LIMIT_GOAL = 1.6; // the Transformer and GPT steps within 1.6× of their limit

/**
 * report: the run's report so far (kernels, note, dates, transformer, gpt). Rows for the steps whose
 * parts ran; null when the kernels part did not (no peak to measure against).
 */
export function limitPart(report) {
  const peak = report.kernels?.peak_gflops, fmaPeak = report.kernels?.fma_peak_gflops ?? null;
  if (!peak) return null;
  const steps = [];
  if (report.note) steps.push({ step: 'note recipe (RNN 128, batch 1)', native: report.note.native.step, wasm: report.note.wasm.step, fma: report.note.wasm_fma?.step });
  if (report.dates) steps.push({ step: 'dates (LSTM 64, batch 128)', native: report.dates.native.step, wasm: report.dates.wasm.step, fma: report.dates.wasm_fma?.step });
  for (const t of report.transformer ?? []) {
    const r = t.recipe;
    steps.push({ step: `Transformer ${r.name} (${r.layers} layer${r.layers > 1 ? 's' : ''}, dModel ${r.dModel}, batch ${r.batchSize})`, native: t.native, wasm: t.wasm, fma: t.wasm_fma, torch: t.torch, goal: LIMIT_GOAL });
  }
  for (const g of report.gpt ?? []) {
    const r = g.recipe;
    steps.push({ step: `GPT ${r.name} (${r.layers} layers, dModel ${r.dModel}, block ${r.blockSize}, batch ${r.batchSize})`, native: g.native, wasm: g.wasm, fma: g.wasm_fma, torch: g.torch, goal: LIMIT_GOAL });
  }
  const builds = report.kernels?.builds;
  const rows = steps.map(({ step, native, wasm, fma, torch, goal }, i) => {
    const flops = native?.gemm_flops_per_step ?? null;
    // the shapes are read here and left out of the report (thousands of them for the GPT)
    const shapes = native?.gemm_shapes;
    if (native) delete native.gemm_shapes;
    const alone = shapes && builds ? replayProducts(`step-${i}`, shapes, builds) : null;
    const limit = flops ? flops / (peak * 1e9) : null, fmaLimit = flops && fmaPeak ? flops / (fmaPeak * 1e9) : null;
    const times = (m, l) => (m && l ? m.median_s / l : null);
    // PyTorch ÷ the build the engine loads (FMA where this Node runs it), by CPU time
    const loaded = fma ?? wasm;
    return { step, gemm_flops_per_step: flops, limit_s: limit, wasm_s: wasm?.median_s ?? null, wasm_vs_limit: times(wasm, limit),
      fma_limit_s: fmaLimit, wasm_fma_s: fma?.median_s ?? null, wasm_fma_vs_limit: times(fma, fmaLimit),
      products_s: alone?.plain_s ?? null, products_fma_s: alone?.fma_s ?? null, torch_s: torch?.median_s ?? null,
      torch_vs_wasm_cpu: torch && loaded ? torch.cpu_s / loaded.cpu_s : null, goal: goal ?? null };
  });
  const ms = (s) => (s ? fmt(s * 1e3, 3) : '–');
  const x = (r) => (r ? `${fmt(r, 2)}×` : '–');
  // judged on the FMA build where this Node runs it (the build such engines load), else the plain one
  const standing = (r) => {
    const multiple = r.wasm_fma_vs_limit ?? r.wasm_vs_limit;
    if (!r.goal || !multiple) return '–';
    return multiple <= r.goal ? 'met' : 'not met';
  };
  table('Training steps against the limit: GEMM flops at the register-loop peak',
    `A step's GEMM flops (counted natively, the same kernel calls as wasm's) at each build's peak from the kernels table of this run (SIMD128 ${fmt(peak, 1)} GFLOP/s` +
      `${fmaPeak ? `, FMA ${fmt(fmaPeak, 1)} GFLOP/s` : ''}) is the step's limit; "÷ limit" is the measured wasm step (median) as a multiple of it; PyTorch (one thread, on the BLAS library its part printed above: OpenBLAS where installed) beside it, ` +
      `and "PyTorch ÷ wasm" by CPU time against the build the engine loads (FMA where this Node runs it). "Products alone": the step's own product shapes (recorded natively) replayed in the FMA kernels build with nothing between them (best of 7 runs), ` +
      `what the step would take if all else were free, and that as a multiple of the limit: how far its shapes alone stay from the peak. Goal for the Transformer and the GPT: ≤ ${LIMIT_GOAL}× in the build the engine loads.`,
    ['step', 'GEMM MFLOP a step', 'limit, SIMD128 (ms)', 'wasm (ms)', 'wasm ÷ limit', 'limit, FMA (ms)', 'wasm FMA (ms)', 'wasm FMA ÷ limit',
      'FMA products alone (ms)', 'products alone ÷ limit', 'PyTorch (ms)', 'PyTorch ÷ wasm (CPU)', `goal ≤ ${LIMIT_GOAL}×`],
    rows.map((r) => [r.step, r.gemm_flops_per_step ? fmt(r.gemm_flops_per_step / 1e6, 2) : '–', ms(r.limit_s), ms(r.wasm_s), x(r.wasm_vs_limit),
      ms(r.fma_limit_s), ms(r.wasm_fma_s), x(r.wasm_fma_vs_limit), ms(r.products_fma_s), x(r.products_fma_s && r.fma_limit_s ? r.products_fma_s / r.fma_limit_s : null),
      ms(r.torch_s), x(r.torch_vs_wasm_cpu), standing(r)]));
  // A step cannot beat its own GEMMs at peak: a multiple under 1 means the peak was read while the
  // machine ran slower than during the step (load moved between the parts), not a faster step.
  const under = rows.filter((r) => (r.wasm_vs_limit ?? 2) < 1 || (r.wasm_fma_vs_limit ?? 2) < 1).map((r) => r.step);
  if (under.length) console.log(`\nA multiple under 1 (${under.join('; ')}): the peak was measured on a slower machine than the steps; rerun on a quiet one.`);
  return { peak_gflops: peak, fma_peak_gflops: fmaPeak, rows, peak_read_low: under.length > 0 };
}
