// A colour scale shared by several heatmaps (heatmap.ts), e.g. the heads of §3.6.

/** A heatmap in a group: it recolours itself when the group's range moves. */
export interface ScaleMember {
  rescale(): void;
}

/**
 * One colour scale for several heatmaps: each reports its data's range, and all of them colour by
 * the union of the ranges, so the same colour means the same value in each (e.g. the heads of §3.6).
 * A member whose range widens the union redraws the others.
 */
export class HeatmapScaleGroup {
  readonly #ranges = new Map<ScaleMember, readonly [number, number]>();
  #union: readonly [number, number] | null = null;

  /** how many heatmaps have reported a range */
  get size(): number {
    return this.#ranges.size;
  }

  get range(): readonly [number, number] | null {
    return this.#union;
  }

  /** `member` now shows values in [min, max]; returns the shared range. */
  report(member: ScaleMember, min: number, max: number): readonly [number, number] {
    const joined = !this.#ranges.has(member);
    this.#ranges.set(member, [min, max]);
    return this.#recompute(member, joined);
  }

  leave(member: ScaleMember): void {
    if (this.#ranges.delete(member)) this.#recompute(null, true);
  }

  /** `resized`: a member joined or left (the others' legends say how many share the scale) */
  #recompute(except: ScaleMember | null, resized: boolean): readonly [number, number] {
    let min = Infinity;
    let max = -Infinity;
    for (const [a, b] of this.#ranges.values()) {
      min = Math.min(min, a);
      max = Math.max(max, b);
    }
    const union: readonly [number, number] = min <= max ? [min, max] : [0, 1];
    const changed = !this.#union || this.#union[0] !== union[0] || this.#union[1] !== union[1];
    this.#union = union;
    if (changed || resized) for (const m of this.#ranges.keys()) if (m !== except) m.rescale();
    return union;
  }
}
