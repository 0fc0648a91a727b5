// §4's tasks: what each one trains and the sentences offered to translate. Kept apart from the
// section so that the widgets' entry (section-widget.ts) can read the examples without the section.
import type { TransformerSeq2SeqConfig } from '#types/seq2seq';

export type TransformerTask = 'dates' | 'zh-en';

/** Sentences to try, the first one the default after a task switch. */
export const TRANSFORMER_EXAMPLES: Record<TransformerTask, readonly string[]> = {
  dates: ['JAN 23, 2015', 'Friday, January 23, 2015', '01/23/15', '23Jan2015', '3 March 1999'],
  'zh-en': ['昨天 咖哥 在 公园 看见 了 小冰', '咖哥 喜欢 小冰', '小冰 在 学校 读 书'],
};

/** The model settings of §4 (the transformer_* rows of the state table) and the seed. */
export interface TransformerSettings {
  task: TransformerTask;
  layers: number;
  heads: number;
  dModel: number;
  dFF: number;
  normFirst: boolean;
  lr: number;
  warmup: number;
  seed: number;
}

/**
 * Batch 32 with the gradient norm clipped to 1: the recipe that learned dates fastest per second in
 * wasm (pre-norm, dModel 32, peak rate 1e-2 after 200 warm-up steps: docs/transformer.md).
 */
export const TRANSFORMER_BATCH = 32;

export function transformerConfig(s: TransformerSettings): TransformerSeq2SeqConfig {
  return {
    arch: 'transformer',
    task: s.task,
    layers: s.layers,
    heads: s.heads,
    dModel: s.dModel,
    dFF: s.dFF,
    normFirst: s.normFirst,
    warmup: s.warmup,
    seed: s.seed,
    batchSize: TRANSFORMER_BATCH,
    learningRate: s.lr,
    clipNorm: 1,
  };
}

/** Head counts that divide dModel (the core refuses others), up to 16. */
export function headDivisors(dModel: number): number[] {
  const out: number[] = [];
  for (let h = 1; h <= Math.min(16, dModel); h++) if (dModel % h === 0) out.push(h);
  return out;
}
