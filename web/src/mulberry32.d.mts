/** A uniform generator on [0, 1) from a 32-bit seed (mulberry32.mjs). */
export function mulberry32(seed: number): () => number;
