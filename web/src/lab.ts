// The wasm core, typed with the package's hand-written declarations (shared/types). Only the lab
// worker (worker/lab-worker.ts) loads it: the page itself never runs wasm on the main thread.
// @ts-expect-error: the .mjs has no declaration file beside it; its types are shared/types/attention-lab.d.ts
import { loadAttentionLab as loadUntyped } from '../../wasm/js/attention-lab.mjs';
import type { AttentionLab } from '../../shared/types/attention-lab';

export type { AttentionLab, AttentionResult, Seq2Seq, Tensor } from '../../shared/types/attention-lab';

/**
 * 'full' (default) has every op and Seq2Seq; 'attention' is the attention-only build (a fraction of
 * the download; its Seq2Seq methods are absent).
 */
export type LabVariant = 'full' | 'attention';

export function loadAttentionLab(variant: LabVariant = 'full'): Promise<AttentionLab> {
  return (loadUntyped as (options: { variant: LabVariant }) => Promise<unknown>)({ variant }) as Promise<AttentionLab>;
}
