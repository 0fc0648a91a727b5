// The full module's embind core, in the build loadAttentionLab would choose: the FMA build where
// the engine has relaxed SIMD (scripts/test-all.sh runs the reference files that way too), the
// plain one elsewhere. For the tests that call the bindings directly.
import { MODULES } from '../../wasm/js/modules.mjs';
import { hasRelaxedSimd } from '../../wasm/js/attention-lab.mjs';

export async function createFullCore() {
  const full = MODULES.find((m) => m.variant === 'full');
  const { default: create } = await (hasRelaxedSimd() ? full.fma() : full.load());
  return create();
}
