// Seeded pseudo-random numbers: mulberry32 for uniforms, Box–Muller for standard normals.
// Same seed → same matrices, so a URL like #seed=3 reproduces a page exactly.
import { mulberry32 } from './mulberry32.mjs';

export { mulberry32 };

/** Standard normal samples (like torch.randn) via Box–Muller, using both values of each pair. */
export class NormalSampler {
  readonly #uniform: () => number;
  #spare: number | null = null;

  constructor(seed: number) {
    this.#uniform = mulberry32(seed);
  }

  next(): number {
    if (this.#spare !== null) {
      const s = this.#spare;
      this.#spare = null;
      return s;
    }
    const u1 = 1 - this.#uniform(); // (0, 1]: log() stays finite
    const u2 = this.#uniform();
    const r = Math.sqrt(-2 * Math.log(u1));
    this.#spare = r * Math.sin(2 * Math.PI * u2);
    return r * Math.cos(2 * Math.PI * u2);
  }

  /** `count` samples rounded to `digits` decimals (what the editable boxes show is what is computed). */
  take(count: number, digits = 2): number[] {
    const scale = 10 ** digits;
    return Array.from({ length: count }, () => Math.round(this.next() * scale) / scale);
  }
}

/** A fresh seed for the "Randomise" button (short, so it is easy to read and share). */
export function freshSeed(): number {
  const buf = new Uint32Array(1);
  crypto.getRandomValues(buf);
  return buf[0] % 1_000_000;
}

/**
 * A 32-bit seed derived from a seed and a label (FNV-1a over the label's UTF-16 units, mixed with the
 * seed): the same (seed, label) always gives the same stream, different labels independent streams.
 * Used so that, e.g., the word "小冰" gets the same embedding wherever it appears in a sentence.
 */
export function deriveSeed(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ (seed >>> 0)) >>> 0;
  h = Math.imul(h, 0x01000193) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // final avalanche (murmur3 fmix32) so nearby seeds do not give nearby streams
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/** `count` uniform samples on [-bound, bound): PyTorch's default nn.Linear init uses bound = 1/√in. */
export function uniformSamples(seed: number, count: number, bound: number): Float32Array {
  const next = mulberry32(seed);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = (2 * next() - 1) * bound;
  return out;
}
