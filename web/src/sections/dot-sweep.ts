// Why §3.2 scales: for random q, k ~ N(0, 1) of size d, the raw scores q·k have variance d, so as d
// grows the softmax saturates (one weight → 1, entropy → 0) and its Jacobian ∂weights/∂scores → 0:
// the gradient vanishes. Dividing by √d keeps the scores at variance 1 for every d. Every number
// here comes from the core: the weights from lab.attention, and the Jacobian from a second
// lab.attention call with gradOutput (see softmaxJacobianNorms).
import { deriveSeed, NormalSampler } from '../random';
import type { LabClient } from '../worker/protocol';

/** queries and keys per point: metrics are means over the queries */
export const SWEEP_QUERIES = 16;
export const SWEEP_KEYS = 8;
/** the chart's feature sizes: powers of two, 1 … 1024 */
export const SWEEP_GRID: readonly number[] = Array.from({ length: 11 }, (_, i) => 2 ** i);
export const MAX_SWEEP_D = 1024;

export interface SoftmaxMetrics {
  /** mean over queries of the largest weight */
  maxWeight: number;
  /** mean over queries of −Σ p log p (nats); log(SWEEP_KEYS) at most */
  entropy: number;
  /** mean over queries of ‖∂weights/∂(softmax input)‖_F */
  jacobian: number;
}

export interface SweepPoint {
  d: number;
  /** queries × keys */
  n: number;
  m: number;
  /** the random inputs (row-major), kept so a test can recompute everything independently */
  q: number[];
  k: number[];
  unscaled: SoftmaxMetrics;
  scaled: SoftmaxMetrics;
  /** the core's softmax inputs and weights, (queries × keys) */
  weights: { unscaled: number[]; scaled: number[] };
}

function normals(seed: number, label: string, count: number): Float32Array {
  const normal = new NormalSampler(deriveSeed(seed, label));
  return Float32Array.from({ length: count }, () => normal.next());
}

/**
 * ‖J_i‖_F for each row s_i of `inputs` (rows × M), where J_i = ∂softmax(s_i)/∂s_i, from the core:
 * attention with query s_i, keys = values = the identity I_M, score 'dot' has scores = s_i and
 * output = softmax(s_i), so with gradOutput e_j its grads.query is Jᵀe_j = row j of J_i (J is
 * symmetric). All rows × M such problems go in one batched call.
 */
async function softmaxJacobianNorms(lab: LabClient, inputs: ArrayLike<number>, rows: number, m: number): Promise<number[]> {
  const batch = rows * m;
  const query = new Float32Array(batch * m);
  const identity = new Float32Array(batch * m * m);
  const grad = new Float32Array(batch * m);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < m; j++) {
      const b = i * m + j;
      for (let c = 0; c < m; c++) query[b * m + c] = inputs[i * m + c];
      for (let c = 0; c < m; c++) identity[b * m * m + c * m + c] = 1;
      grad[b * m + j] = 1;
    }
  }
  const eye = { shape: [batch, m, m], data: identity };
  const r = await lab.attention({
    query: { shape: [batch, 1, m], data: query },
    key: eye,
    value: eye,
    score: 'dot',
    gradOutput: { shape: [batch, 1, m], data: grad },
  });
  const g = r.grads?.query.data;
  if (!g) throw new Error('the core returned no query gradient');
  const norms: number[] = [];
  for (let i = 0; i < rows; i++) {
    let sum = 0;
    for (let t = i * m * m; t < (i + 1) * m * m; t++) sum += g[t] * g[t];
    norms.push(Math.sqrt(sum));
  }
  return norms;
}

function metrics(weights: ArrayLike<number>, jacobians: readonly number[], rows: number, m: number): SoftmaxMetrics {
  let maxWeight = 0;
  let entropy = 0;
  for (let i = 0; i < rows; i++) {
    let max = 0;
    let h = 0;
    for (let j = 0; j < m; j++) {
      const p = weights[i * m + j];
      max = Math.max(max, p);
      if (p > 0) h -= p * Math.log(p);
    }
    maxWeight += max;
    entropy += h;
  }
  const jacobian = jacobians.reduce((a, b) => a + b, 0);
  return { maxWeight: maxWeight / rows, entropy: entropy / rows, jacobian: jacobian / rows };
}

/** One feature size: the same random q, k with and without the 1/√d scaling. */
export async function sweepPoint(lab: LabClient, seed: number, d: number): Promise<SweepPoint> {
  const n = SWEEP_QUERIES;
  const m = SWEEP_KEYS;
  const q = normals(seed, `sweep.q:${d}`, n * d);
  const k = normals(seed, `sweep.k:${d}`, m * d);
  const query = { shape: [1, n, d], data: q };
  const key = { shape: [1, m, d], data: k };
  const [plain, scaled] = await Promise.all([
    lab.attention({ query, key, value: key, score: 'dot' }),
    lab.attention({ query, key, value: key, score: 'scaled' }),
  ]);
  const [jPlain, jScaled] = await Promise.all([
    softmaxJacobianNorms(lab, plain.scaled.data, n, m),
    softmaxJacobianNorms(lab, scaled.scaled.data, n, m),
  ]);
  return {
    d,
    n,
    m,
    q: Array.from(q),
    k: Array.from(k),
    unscaled: metrics(plain.weights.data, jPlain, n, m),
    scaled: metrics(scaled.weights.data, jScaled, n, m),
    weights: { unscaled: Array.from(plain.weights.data), scaled: Array.from(scaled.weights.data) },
  };
}

/** The chart's curve: every grid point (computed once per seed). */
export async function sweepGrid(lab: LabClient, seed: number): Promise<SweepPoint[]> {
  const out: SweepPoint[] = [];
  for (const d of SWEEP_GRID) out.push(await sweepPoint(lab, seed, d));
  return out;
}
