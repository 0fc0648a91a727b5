// A logarithmic axis drawn as a linear one over log10 of the values: the charts plot log10(v) and
// label the ticks with v. Chart.js's LogarithmicScale does the same; registering it would add its
// code to every page with a chart, and only §1's lengths, the §3.1 sweep and the Performance page
// use one.
import type { Scale } from 'chart.js';

/** The axis position of value `v` (> 0). */
export const toLog = (v: number): number => Math.log10(v);
/** The value at axis position `p`. */
export const fromLog = (p: number): number => 10 ** p;

/** A tick label: the value, rounded to what the axis can tell apart. */
export function logTickLabel(p: number): string {
  return String(Number(fromLog(p).toPrecision(6)));
}

/**
 * Tick values (axis positions) for a log axis from `min` to `max` (values): `ticks` if given, else
 * 1, 2 and 5 times each power of ten in range (only the powers when that would crowd the axis).
 */
export function logTicks(min: number, max: number, ticks?: readonly number[]): number[] {
  if (ticks) return ticks.filter((v) => v > 0).map(toLog);
  const out: number[] = [];
  const lo = Math.floor(toLog(min));
  const hi = Math.ceil(toLog(max));
  const steps = hi - lo > 4 ? [1] : [1, 2, 5];
  for (let e = lo; e <= hi; e++) {
    for (const k of steps) {
      const v = k * 10 ** e;
      if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9)) out.push(toLog(v));
    }
  }
  return out;
}

/** Chart.js linear-scale options that draw a log axis from `min` to `max` (values). */
export function logScaleOptions(min: number, max: number, ticks?: readonly number[]): Record<string, unknown> {
  return {
    type: 'linear',
    min: toLog(min),
    max: toLog(max),
    afterBuildTicks: (axis: Scale) => void (axis.ticks = logTicks(min, max, ticks).map((value) => ({ value }))),
    ticks: { callback: (p: number | string) => logTickLabel(Number(p)) },
  };
}
