// The wasm core, typed with the package's hand-written declarations (shared/types).
import { loadAttentionLab as loadUntyped } from '../../wasm/js/attention-lab.mjs';
import type { AttentionLab } from '../../shared/types/attention-lab';

export type { AttentionLab, AttentionResult, Tensor } from '../../shared/types/attention-lab';

export function loadAttentionLab(): Promise<AttentionLab> {
  return loadUntyped() as unknown as Promise<AttentionLab>;
}
