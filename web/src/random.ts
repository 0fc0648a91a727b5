// Seeded pseudo-random numbers: mulberry32 for uniforms, Box–Muller for standard normals.
// Same seed → same matrices, so a URL like #seed=3 reproduces a page exactly.

export const MAX_SEED = 0xffffffff;

/** A uniform generator on [0, 1) from a 32-bit seed (mulberry32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
