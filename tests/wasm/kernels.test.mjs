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

// gemm_tn_rows (a weight gradient over a batch's real rows): where the unlisted rows of A are 0,
// the very bits of gemm_tn over every row; where they are not, the sum over the listed rows only
// (so the rows are really skipped). K up to 600 crosses the packed kernel's 256-row K blocks,
// with blocks that list no row, rows at the blocks' edges, and no row at all.
test('gemm tn over listed rows of K: the full product\'s bits when the others are 0', () => {
  const cases = [
    [70, 64, 600, (k) => k % 3 !== 1 && !(k >= 256 && k < 512)],
    [64, 40, 320, (k) => k % 80 < 50],
    [9, 8, 255, (k) => k === 0 || k === 254],
    [33, 17, 513, (k) => k === 255 || k === 256 || k === 512],
    [16, 16, 300, () => false],
    [3, 5, 40, (k) => k % 2 === 0], // too small to pack: the full product
  ];
  for (const [M, N, K, listed] of cases) {
    const lda = M + 1, ldb = N + 2, ldc = N + 3;
    const rows = Int32Array.from({ length: K }, (_, k) => k).filter(listed);
    const B = randomArray(K * ldb), C0 = randomArray(M * ldc);
    const A = randomArray(K * lda);
    const zeroed = A.slice();
    for (let k = 0; k < K; ++k) if (!listed(k)) zeroed.fill(0, k * lda, (k + 1) * lda);
    for (const accumulate of [false, true]) {
      const full = core.kernelGemm('tn', M, N, K, lda, ldb, ldc, accumulate, zeroed, B, C0, null);
      const listedOnly = core.kernelGemmTnRows(M, N, K, lda, ldb, ldc, accumulate, zeroed, B, C0, rows);
      for (let i = 0; i < full.length; ++i) {
        if (!Object.is(full[i], listedOnly[i]) && !(full[i] === 0 && listedOnly[i] === 0)) {
          assert.fail(`M ${M} N ${N} K ${K} acc ${accumulate}: element ${i} is ${listedOnly[i]}, the full product's ${full[i]}`);
        }
      }
      if (M < 8 || N < 8) continue; // not packed (gemm.cpp's kPackRowsTN and kNr): every row is summed
      const skipped = core.kernelGemmTnRows(M, N, K, lda, ldb, ldc, accumulate, A, B, C0, rows);
      for (let m = 0; m < M; ++m) {
        for (let n = 0; n < N; ++n) {
          let want = accumulate ? C0[m * ldc + n] : 0;
          for (const k of rows) want += A[k * lda + m] * B[k * ldb + n];
          assert.ok(Math.abs(skipped[m * ldc + n] - want) <= 1e-5 * (rows.length + 2), `M ${M} N ${N} K ${K}: (${m}, ${n}) = ${skipped[m * ldc + n]}, want ${want}`);
        }
      }
    }
  }
});

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

// GELU (tanh form) and its slope against the formulas in double, as tests/native/test_kernels.cpp
// measures them: the output's error against |x| (the factor ½ (1 + t) ∈ [0, 1]: for x ≪ 0, 1 + t is
// the difference of numbers near 1 and cannot be relative), the slope's against the size of its
// terms, 1 + ½ |x| √(2/π) (1 + 3 · 0.044715 x²).
const GELU_C = Math.sqrt(2 / Math.PI), GELU_A = 0.044715;
const geluTanh = (x) => Math.tanh(GELU_C * (x + GELU_A * x * x * x));
// max_of (the token accuracy's argmax test), four lanes at a time with a scalar tail: every
// prefix of arrays of 1 … 19, the maximum in every lane and in the tail, ties and −∞ included.
test('max_of gives the largest entry of every prefix', () => {
  for (let n = 1; n <= 19; ++n) {
    for (let at = 0; at < n; ++at) {
      const x = randomArray(n);
      x[at] = 2;
      if (at + 1 < n) x[n - 1] = 2;
      if (n > 2) x[1] = -Infinity;
      const y = core.kernelActivation('prefixMax', x);
      let m = -Infinity;
      for (let i = 0; i < n; ++i) {
        m = Math.max(m, x[i]);
        assert.equal(y[i], m, `n ${n}, maximum at ${at}: prefix ${i + 1}`);
      }
    }
  }
});

test('GELU and its slope match the formulas in double', () => {
  const x = activationArguments(12);
  const y = core.kernelActivation('gelu', x), slope = core.kernelActivation('geluGrad', x);
  let worstY = 0, worstSlope = 0;
  for (let i = 0; i < x.length; ++i) {
    const v = x[i], t = geluTanh(v);
    if (v !== 0) worstY = Math.max(worstY, Math.abs(y[i] - 0.5 * v * (1 + t)) / Math.abs(v));
    const want = 0.5 * (1 + t) + 0.5 * v * (1 - t * t) * GELU_C * (1 + 3 * GELU_A * v * v);
    const scale = 1 + 0.5 * Math.abs(v) * GELU_C * (1 + 3 * GELU_A * v * v);
    worstSlope = Math.max(worstSlope, Math.abs(slope[i] - want) / scale);
  }
  assert.ok(worstY <= 3e-7, `GELU: error ${worstY} × |x|`);
  assert.ok(worstSlope <= 1e-6, `GELU′: error ${worstSlope}`);
  // saturation, and no NaN from huge arguments
  assert.deepEqual([...core.kernelActivation('gelu', Float32Array.of(0, 1e30, -1e30, 30, -30))], [0, 1e30, -0, 30, -0].map(Math.fround));
  assert.deepEqual([...core.kernelActivation('geluGrad', Float32Array.of(30, -30, 1e10, -1e10))], [1, 0, 1, 0]);
  // the training step's backward reads the forward's tanh: the same bits
  assert.deepEqual([...core.kernelActivation('geluGradKept', x)], [...slope]);
  // written rather than added (the training step's backward): the same bits, whatever dx held
  assert.deepEqual([...core.kernelActivation('geluGradWritten', x)], [...slope]);
});

// exp over its whole range on a dense grid (spacing 1/4096), and at its edges: masked scores (−∞)
// and large negative arguments give exactly 0, large positive ones the largest floats or +∞
// (from 88.3763 up: kernels/simd_math.h), never NaN; NaN stays NaN.
test('exp within 1e-6 relative over [−44, 88], and its edges', () => {
  const x = [];
  for (let i = -44 * 4096; i <= 88 * 4096; ++i) x.push(i / 4096);
  const y = core.kernelActivation('exp', Float32Array.from(x));
  let worst = 0, at = 0;
  for (let i = 0; i < x.length; ++i) {
    const r = Math.abs(y[i] - Math.exp(x[i])) / Math.exp(x[i]);
    if (!(r <= worst)) [worst, at] = [r, x[i]];
  }
  assert.ok(worst <= 1e-6, `exp: relative error ${worst} at ${at}`);
  const e = core.kernelActivation('exp', Float32Array.of(-Infinity, -1e30, -1000, -45, 89, 1000, 1e30, Infinity, NaN));
  assert.deepEqual([...e.slice(0, 4)], [0, 0, 0, 0]);
  for (const v of e.slice(4, 8)) assert.ok(v >= 1e38, `exp of a large argument: ${v}`);
  assert.ok(Number.isNaN(e[8]));
});

// The models' one pass over the logits (ops.h, cross_entropy_forward_backward: the GPT's training
// step) against the crossEntropy op (softmax, then its backward) and an argmax in JavaScript: the
// same gradient bit for bit, the loss (in double, there) to 1e-6, the token accuracy's hits (ties
// before a target miss, after it hit); a logit that is not finite, in the f32x4 part or the tail,
// gives NaN.
test('the one-pass cross-entropy gives the op’s gradient and the argmax’s hits', () => {
  for (const V of [3, 4, 7, 1638]) {
    const R = 5;
    const logits = Float32Array.from({ length: R * V }, () => 8 * random());
    const targets = [0, -1, V - 1, 1, 2];
    logits[0] = 9; // row 0: the target is the maximum
    logits[2 * V + V - 1] = 9; logits[2 * V] = 9; // row 2: a tie before the target
    logits[3 * V + 1] = 9; logits[3 * V + V - 1] = 9; // row 3: a tie after it
    logits[4 * V] = 20; // row 4: a miss
    const step = core.kernelCrossEntropyStep({ shape: [R, V], data: logits }, { shape: [R], data: targets }, -1);
    const op = core.crossEntropy({ shape: [R, V], data: logits }, { shape: [R], data: targets }, { ignoreIndex: -1, gradOutput: 1 });
    assert.deepEqual([...step.dlogits], [...op.grads.logits.data], `V ${V}`);
    assert.ok(Math.abs(step.loss - op.loss) <= 1e-6 * op.loss, `V ${V}: loss ${step.loss}, op ${op.loss}`);
    let hits = 0;
    targets.forEach((t, r) => {
      if (t < 0) return;
      const row = logits.subarray(r * V, (r + 1) * V);
      hits += row.indexOf(Math.max(...row)) === t;
    });
    assert.equal(step.hits, hits, `V ${V}`);
    assert.equal(hits, 2);
    for (const bad of [NaN, Infinity, -Infinity]) {
      for (const at of [0, V - 1]) {
        const x = logits.slice();
        x[3 * V + at] = bad;
        assert.ok(Number.isNaN(core.kernelCrossEntropyStep({ shape: [R, V], data: x }, { shape: [R], data: targets }, -1).loss), `V ${V}, ${bad} at ${at}`);
      }
    }
  }
});
