// mulberry32: a small seeded generator of uniform values in [0, 1). Plain JavaScript so that the
// page (random.ts re-exports it) and the Node benchmarks (bench/lib/common.mjs) draw the very same
// numbers from one copy. Types: mulberry32.d.mts.

/** A uniform generator on [0, 1) from a 32-bit seed: every seed the URL accepts (MAX_SEED, state-table.ts) fits. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
