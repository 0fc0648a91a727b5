// Run by fma.test.mjs in a child Node, with or without --experimental-wasm-relaxed-simd: prints
// one JSON object saying which build loadAttentionLab chose and how it rounds.
// The probe: x · wᵀ over K = 8 with x = [−(1 + 2⁻¹¹), 0, 0, 0, 1 + 2⁻¹², 0, 0, 0] and w = [1, 0, 0, 0,
// 1 + 2⁻¹², 0, 0, 0]. The GEMM's lane 0 adds (1 + 2⁻¹²)² = 1 + 2⁻¹¹ + 2⁻²⁴ to −(1 + 2⁻¹¹): rounded once
// (a fused multiply-add) the sum is 2⁻²⁴; with the product rounded first (to 1 + 2⁻¹¹) it is 0.
import { BINDINGS, MODULES, exportsOf } from '../../wasm/js/modules.mjs';
import { hasRelaxedSimd, loadAttentionLab } from '../../wasm/js/attention-lab.mjs';

const a = 1 + 2 ** -12, b = 1 + 2 ** -11;
const x = { shape: [1, 8], data: new Float32Array([-b, 0, 0, 0, a, 0, 0, 0]) };
const w = { shape: [1, 8], data: new Float32Array([1, 0, 0, 0, a, 0, 0, 0]) };
const probe = async (options) => {
  try {
    const lab = await loadAttentionLab(options);
    return lab.ops.linear(x, w, null).y.data[0];
  } catch (e) {
    return { error: e.message };
  }
};

// Each FMA build's embind names, next to those its plain build must have.
async function fmaExports() {
  const all = Object.values(BINDINGS).flatMap((bound) => bound.exports);
  const out = {};
  for (const m of MODULES.filter((row) => row.fma)) {
    try {
      const core = await (await m.fma()).default();
      out[m.variant] = { names: all.filter((name) => name in core).sort(), expected: [...exportsOf(m.variant)].sort() };
    } catch (e) {
      out[m.variant] = { error: String(e?.message ?? e) };
    }
  }
  return out;
}

console.log(JSON.stringify({
  hasRelaxedSimd: hasRelaxedSimd(),
  chosen: await probe(),
  plain: await probe({ fma: false }),
  fma: await probe({ fma: true }),
  exports: await fmaExports(),
}));
