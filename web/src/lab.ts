// The wasm core, typed by the package's JSDoc and binding shapes (wasm/js/types). Only the lab
// worker (worker/lab-worker.ts) loads it: the page itself never runs wasm on the main thread.
import { loadAttentionLab as loadUntyped } from '../../wasm/js/attention-lab.mjs';
import { moduleFor } from '../../wasm/js/modules.mjs';
import type { AttentionLab, AttentionOnlyLab, GptOnlyLab, Seq2SeqOnlyLab, TransformerOnlyLab } from '#types/attention-lab';

export type { AttentionLab, AttentionResult, Seq2Seq, Tensor } from '#types/attention-lab';

/**
 * 'full' has every op and Seq2Seq with model files; 'attention' (attention only), 'seq2seq'
 * (Seq2Seq training and decoding only), 'transformer' (the Transformer translator only) and 'gpt'
 * (the GPT session only: §5 loads it when it comes into view) are fractions of the download.
 */
export type LabVariant = 'full' | 'attention' | 'seq2seq' | 'transformer' | 'gpt';

/** The API of each variant. */
export interface LabOf {
  full: AttentionLab;
  attention: AttentionOnlyLab;
  seq2seq: Seq2SeqOnlyLab;
  transformer: TransformerOnlyLab;
  gpt: GptOnlyLab;
}
/** Any variant's API. */
export type AnyLab = LabOf[LabVariant];

/**
 * The article's full core is always the plain build: its FMA build trains the recurrent models no
 * faster (BENCHMARKS.md) and trains other models than Node, the command line and every browser
 * without relaxed SIMD, so the article's claims would hold in one browser and not another. The
 * widgets' Transformer build, where FMA pays, loads it where the engine has it (docs/build.md).
 */
export function loadAttentionLab<V extends LabVariant>(variant: V): Promise<LabOf[V]> {
  const options = variant === 'full' ? { variant, fma: false } : { variant };
  return (loadUntyped as (options: { variant: LabVariant; fma?: boolean }) => Promise<unknown>)(options) as Promise<LabOf[V]>;
}

/** The smallest build that offers the lab API method `method` (the module table, wasm/js/modules.mjs). */
export function smallestVariantFor(method: string): LabVariant {
  return moduleFor(method).variant as LabVariant;
}
