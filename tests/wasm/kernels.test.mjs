// The wasm SIMD GEMM kernels (wasm/src/kernels/gemm.cpp) against naive loops in double, and the
// f32x4 σ / tanh / exp against Math in double: the checks
// of tests/native/test_kernels.cpp (which, natively, exercise Eigen behind the same interface),
// through the core's kernelGemm diagnostic. Odd sizes 1…67, row strides wider than the rows,
// overwrite and accumulate, with and without a bias, every operand layout, and products larger
// than one block of the packed kernel.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createFullCore } from './full-core.mjs';

let core;
before(async () => {
  core = await createFullCore();
});

let seed = 12345;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return (seed / 2147483648) * 2 - 1;
};
const randomArray = (n) => Float32Array.from({ length: n }, random);

function checkGemm(op, M, N, K, accumulate, withBias) {
  const [aRows, aCols] = op === 'tn' ? [K, M] : [M, K];
  const [bRows, bCols] = op === 'nt' ? [N, K] : [K, N];
  const lda = aCols + 3, ldb = bCols + 3, ldc = N + 3;
  const A = randomArray(aRows * lda), B = randomArray(bRows * ldb), C0 = randomArray(M * ldc);
  const bias = withBias ? randomArray(N) : null;
  const C = core.kernelGemm(op, M, N, K, lda, ldb, ldc, accumulate, A, B, C0, bias);
  for (let m = 0; m < M; ++m) {
    for (let n = 0; n < N; ++n) {
      let want = (accumulate ? C0[m * ldc + n] : 0) + (bias ? bias[n] : 0);
      for (let k = 0; k < K; ++k) {
        const a = op === 'tn' ? A[k * lda + m] : A[m * lda + k];
        const b = op === 'nt' ? B[n * ldb + k] : B[k * ldb + n];
        want += a * b;
      }
      const got = C[m * ldc + n];
      if (!(Math.abs(got - want) <= 1e-5 * (K + 2))) {
        assert.fail(`${op} M ${M} N ${N} K ${K} acc ${accumulate} bias ${!!bias}: (${m}, ${n}) = ${got}, want ${want}`);
      }
    }
    if (m + 1 < M) {
      for (let n = N; n < ldc; ++n) assert.equal(C[m * ldc + n], C0[m * ldc + n], 'row padding written');
    }
  }
}

const SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 67];
for (const op of ['nn', 'nt', 'tn']) {
  test(`gemm ${op} at odd sizes`, () => {
    for (const M of SIZES) for (const N of SIZES) for (const K of SIZES) checkGemm(op, M, N, K, (M + N + K) % 2 === 0, (M * N) % 3 === 0);
  });
  test(`gemm ${op} at every size 1…67, batch 1 included`, () => {
    for (let s = 1; s <= 67; ++s) {
      checkGemm(op, s, 19, 13, true, true);
      checkGemm(op, 21, s, 13, false, true);
      checkGemm(op, 21, 19, s, true, false);
      checkGemm(op, 1, s, 2 * s, false, true);
    }
  });
  test(`gemm ${op} larger than one block`, () => {
    checkGemm(op, 130, 70, 300, false, true);
    checkGemm(op, 70, 130, 513, true, false);
  });
}

// σ, tanh and exp of kernels/activation.h and kernels/softmax.h (f32x4 code in wasm) against
// Math.exp / Math.tanh in double: within 1e-6 relative (tests/native/test_kernels.cpp checks the
// native build the same way). The arguments: a fine grid (spacing 1/1024, an odd count, so the
// f32x4 tail runs) and ±10^e, e in [−30, 1] (tanh near 0 keeps its relative precision).
function activationArguments(lo) {
  const x = [];
  for (let i = -lo * 1024; i <= lo * 1024; ++i) x.push(i / 1024);
  for (let e = -30; e <= 1; ++e) x.push(10 ** e, -(10 ** e));
  x.push(0.3);
  return Float32Array.from(x);
}
function maxRelativeError(name, want, x) {
  const y = core.kernelActivation(name, x);
  let worst = 0, at = 0;
  for (let i = 0; i < x.length; ++i) {
    const w = want(x[i]);
    const r = Math.abs(y[i] - w) / Math.abs(w);
    if (!(r <= worst)) [worst, at] = [r, x[i]];
  }
  return { worst, at };
}
test('sigmoid, tanh and exp within 1e-6 relative of Math in double', () => {
  const checks = [
    // σ over [−80, 80]: below that σ(x) < 1.8e−35 approaches the denormals (exp's clamp)
    ['sigmoid', (v) => 1 / (1 + Math.exp(-v)), activationArguments(80)],
    ['tanh', Math.tanh, activationArguments(20)],
    // exp above its flush threshold (ln 2^−64 ≈ −44.36) and below its clamp
    ['exp', Math.exp, activationArguments(44).filter((v) => v > -44)],
  ];
  for (const [name, want, x] of checks) {
    const { worst, at } = maxRelativeError(name, want, x);
    assert.ok(worst <= 1e-6, `${name}: relative error ${worst} at ${at}`);
  }
});
test('sigmoid and tanh saturate, and NaN stays NaN', () => {
  const t = core.kernelActivation('tanh', Float32Array.of(30, -30, Infinity, -Infinity, NaN));
  assert.deepEqual([...t.slice(0, 4)], [1, -1, 1, -1]);
  assert.ok(Number.isNaN(t[4]));
  const s = core.kernelActivation('sigmoid', Float32Array.of(50, Infinity, -Infinity, NaN));
  assert.deepEqual([...s.slice(0, 2)], [1, 1]);
  assert.ok(s[2] >= 0 && s[2] <= 1e-37, `σ(−∞) = ${s[2]}`);
  assert.ok(Number.isNaN(s[3]));
});
