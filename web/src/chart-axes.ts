// Shared parts of the plain-canvas charts (line-chart.ts, bar-chart.ts): "nice" tick values for
// linear and log axes, value → pixel scales, which tick labels fit side by side, the nearest point
// under the pointer, label shortening, and the canvas element itself. Everything but chartCanvas is
// pure (tests/web/chart-axes.test.mjs); no state lives here.

/** Text and line colours of every chart (slate, as the rest of the page). */
export const CHART_INK = { text: '#475569', title: '#334155', axis: '#94a3b8', grid: '#e2e8f0' } as const;
/** Tick and legend text: 11 px stays readable on a 375 px phone. */
export const CHART_FONT = '11px system-ui, sans-serif';
export const CHART_TITLE_FONT = '11px system-ui, sans-serif';

function checkRange(min: number, max: number, what: string): void {
  if (!Number.isFinite(min) || !Number.isFinite(max)) throw new Error(`${what}: range [${min}, ${max}] is not finite`);
  if (max < min) throw new Error(`${what}: range [${min}, ${max}] has max below min`);
}

/** The 1, 2 or 5 × 10^k step that cuts `span` into at most `maxTicks` intervals (one at least). */
export function niceStep(span: number, maxTicks: number): number {
  if (!(span > 0) || !Number.isFinite(span)) throw new Error(`niceStep: span ${span} is not a positive number`);
  const raw = span / Math.max(1, Math.floor(maxTicks));
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const residual = raw / magnitude;
  // the smallest of 1, 2, 5, 10 (× magnitude) not below the raw step; 1e-9 absorbs rounding in raw
  const factor = residual <= 1 + 1e-9 ? 1 : residual <= 2 + 1e-9 ? 2 : residual <= 5 + 1e-9 ? 5 : 10;
  return factor * magnitude;
}

/** Decimals that print every multiple of `step` exactly (0.25 → 2, 5 → 0). */
export function stepDecimals(step: number): number {
  for (let d = 0; d < 12; d++) {
    const scaled = step * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9 * Math.max(1, scaled)) return d;
  }
  return 12;
}

/** A tick value as text, with as many decimals as its step needs. */
export function formatTick(value: number, step: number): string {
  const text = value.toFixed(stepDecimals(step));
  return text === '-0' || /^-0\.0*$/.test(text) ? text.slice(1) : text;
}

export interface NiceAxis {
  min: number;
  max: number;
  step: number;
  ticks: number[];
}

/**
 * Axis bounds and ticks for data in [dataMin, dataMax]: a fixed end stays where it is, a free end
 * moves out to the next multiple of the step. An empty span (one value) widens to one unit.
 * `integerStep` keeps the step ≥ 1 (e.g. training steps).
 */
export function niceAxis(
  dataMin: number,
  dataMax: number,
  maxTicks: number,
  fixed: { min?: number; max?: number; integerStep?: boolean } = {},
): NiceAxis {
  let lo = fixed.min ?? dataMin;
  let hi = fixed.max ?? dataMax;
  checkRange(lo, hi, 'niceAxis');
  if (hi === lo) {
    if (fixed.max === undefined) hi = lo + 1;
    else lo = hi - 1;
  }
  let step = niceStep(hi - lo, maxTicks);
  if (fixed.integerStep) step = Math.max(1, step);
  const min = fixed.min ?? Math.floor(lo / step + 1e-9) * step;
  const max = fixed.max ?? Math.ceil(hi / step - 1e-9) * step;
  return { min, max, step, ticks: linearTicks(min, max, step) };
}

/** The multiples of `step` in [min, max], rounded to the step's decimals (no 0.30000000000000004). */
export function linearTicks(min: number, max: number, step: number): number[] {
  checkRange(min, max, 'linearTicks');
  if (!(step > 0)) throw new Error(`linearTicks: step ${step} is not positive`);
  const decimals = stepDecimals(step);
  const ticks: number[] = [];
  const first = Math.ceil(min / step - 1e-9);
  const last = Math.floor(max / step + 1e-9);
  for (let k = first; k <= last; k++) ticks.push(Number((k * step).toFixed(decimals)));
  return ticks;
}

/**
 * Ticks of a log axis over [min, max]: the powers of `base` inside it; with fewer than two of those
 * (a span under one decade), the 1-2-5 values of each decade as well.
 */
export function logTicks(min: number, max: number, base = 10): number[] {
  checkRange(min, max, 'logTicks');
  if (!(min > 0)) throw new Error(`logTicks: a log axis needs min > 0, got ${min}`);
  if (!(base > 1)) throw new Error(`logTicks: base ${base} must be above 1`);
  const log = (v: number) => Math.log(v) / Math.log(base);
  const powers: number[] = [];
  for (let k = Math.ceil(log(min) - 1e-9); k <= Math.floor(log(max) + 1e-9); k++) powers.push(base ** k);
  if (powers.length >= 2 || base !== 10) return powers;
  const ticks: number[] = [];
  for (let k = Math.floor(Math.log10(min)); 10 ** k <= max * (1 + 1e-9); k++) {
    for (const f of [1, 2, 5]) {
      const v = Number((f * 10 ** k).toPrecision(12));
      if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9)) ticks.push(v);
    }
  }
  return ticks;
}

/** Maps a value to a pixel, linearly or on a log scale, from [d0, d1] onto [p0, p1]. */
export type Scale = (value: number) => number;

export function linearScale(d0: number, d1: number, p0: number, p1: number): Scale {
  checkRange(Math.min(d0, d1), Math.max(d0, d1), 'linearScale');
  const k = d1 === d0 ? 0 : (p1 - p0) / (d1 - d0);
  return (v) => p0 + (v - d0) * k;
}

export function logScale(d0: number, d1: number, p0: number, p1: number): Scale {
  if (!(d0 > 0 && d1 > 0)) throw new Error(`logScale: domain [${d0}, ${d1}] must be positive`);
  const l0 = Math.log(d0);
  const k = d1 === d0 ? 0 : (p1 - p0) / (Math.log(d1) - l0);
  return (v) => (v > 0 ? p0 + (Math.log(v) - l0) * k : Number.NaN);
}

/**
 * Which of the labels centred at `centers` (ascending) with `widths` can be drawn at least `gap`
 * apart: every label if they fit, else every 2nd, 3rd … (the smallest stride that fits), so the
 * kept ones stay evenly spaced. Indices.
 */
export function labelsThatFit(centers: readonly number[], widths: readonly number[], gap: number): number[] {
  if (centers.length !== widths.length) throw new Error(`labelsThatFit: ${centers.length} centres but ${widths.length} widths`);
  for (let stride = 1; stride <= centers.length; stride++) {
    const kept: number[] = [];
    for (let i = 0; i < centers.length; i += stride) kept.push(i);
    const fits = kept.every((i, k) => k === 0 || centers[i] - widths[i] / 2 >= centers[kept[k - 1]] + widths[kept[k - 1]] / 2 + gap);
    if (fits) return kept;
  }
  return [];
}

/** Index of the value in ascending `sorted` closest to `target` (the lower one on a tie); -1 if empty. */
export function nearestIndex(sorted: readonly number[], target: number): number {
  if (sorted.length === 0 || Number.isNaN(target)) return -1;
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  // lo: the first value ≥ target (or the last); its left neighbour may be closer
  if (lo > 0 && target - sorted[lo - 1] <= sorted[lo] - target) return lo - 1;
  return lo;
}

/** `label` cut (with …) to at most `maxWidth` as measured by `width`; whole code points, so any script. */
export function fitLabel(label: string, maxWidth: number, width: (text: string) => number): string {
  if (width(label) <= maxWidth) return label;
  const chars = [...label];
  for (let n = chars.length - 1; n > 0; n--) {
    const cut = `${chars.slice(0, n).join('')}…`;
    if (width(cut) <= maxWidth) return cut;
  }
  return '…';
}

/** A canvas for a chart in `host` (which sets its size): an image to assistive technology, named by `label`. */
export function chartCanvas(host: HTMLElement, label: string): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', label);
  // the box sets the size; the drawing follows it (deferred-draw.ts sizes the bitmap)
  canvas.style.display = 'block';
  canvas.style.width = '100%';
  canvas.style.height = '100%';
  host.append(canvas);
  return canvas;
}
