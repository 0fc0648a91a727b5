// The heatmap's colours: a sequential ramp for values of one sign, a diverging ramp centred on 0 for
// signed values, and the text colour that stays readable on a cell of either.

type Rgb = readonly [number, number, number];

/** ColorBrewer "Blues": one hue, light → dark, luminance strictly decreasing (reads in greyscale). */
const RAMP: readonly Rgb[] = [
  [247, 251, 255],
  [222, 235, 247],
  [198, 219, 239],
  [158, 202, 225],
  [107, 174, 214],
  [66, 146, 198],
  [33, 113, 181],
  [8, 81, 156],
  [8, 48, 107],
];

/**
 * ColorBrewer "PuOr" (diverging, colour-blind safe): orange for negative, purple for positive, near
 * white at 0; lightness falls with |value| on both sides, so magnitude still reads in greyscale.
 */
const DIVERGING_RAMP: readonly Rgb[] = [
  [179, 88, 6],
  [224, 130, 20],
  [253, 184, 99],
  [254, 224, 182],
  [247, 247, 247],
  [216, 218, 235],
  [178, 171, 210],
  [128, 115, 172],
  [84, 39, 136],
];

function interpolate(ramp: readonly Rgb[], t: number): string {
  const x = Math.min(1, Math.max(0, Number.isNaN(t) ? 0 : t)) * (ramp.length - 1); // ±∞ clamp to the ends
  const i = Math.min(ramp.length - 2, Math.floor(x));
  const f = x - i;
  const [a, b] = [ramp[i], ramp[i + 1]];
  const c = a.map((v, k) => Math.round(v + (b[k] - v) * f));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

const DARK_INK = '#0f172a';
/** WCAG relative luminance of DARK_INK */
const DARK_INK_LUMINANCE = 0.0089;

/**
 * The text colour for a cell of colour `fill` ('rgb(r, g, b)', as the ramps give): white or the
 * dark ink, whichever has the higher WCAG contrast ratio with it (a mid purple takes dark text:
 * white on it is 3.1:1, the dark ink 5.8:1).
 */
export function inkOn(fill: string): string {
  const m = /rgb\((\d+), (\d+), (\d+)\)/.exec(fill);
  if (!m) return DARK_INK;
  const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const l = 0.2126 * lin(Number(m[1])) + 0.7152 * lin(Number(m[2])) + 0.0722 * lin(Number(m[3]));
  return 1.05 / (l + 0.05) > (l + 0.05) / (DARK_INK_LUMINANCE + 0.05) ? '#ffffff' : DARK_INK;
}

/** Colour of t in [0, 1] on the sequential ramp (light → dark). */
export function rampColor(t: number): string {
  return interpolate(RAMP, t);
}

/** Colour of t in [0, 1] on the diverging ramp (0.5 is the centre, value 0). */
export function divergingColor(t: number): string {
  return interpolate(DIVERGING_RAMP, t);
}

const gradientCss = (color: (t: number) => string, n: number) =>
  `linear-gradient(to right, ${Array.from({ length: n }, (_, i) => color(i / (n - 1))).join(', ')})`;

/** CSS background of the legend bar, for either ramp. */
export const legendGradient = (diverging: boolean): string =>
  diverging ? gradientCss(divergingColor, DIVERGING_RAMP.length) : gradientCss(rampColor, RAMP.length);

/**
 * A NaN cell's colour: a mid grey that is on neither ramp, so a missing value never reads as the
 * smallest (or, on the diverging ramp, the most negative) one. ±∞ take the ramp's ends.
 */
export const NAN_COLOR = 'rgb(150, 150, 150)';

/** Maps values to cell and text colours over a range [min, max]. */
export class ColorScale {
  constructor(
    readonly min: number,
    readonly max: number,
    readonly diverging: boolean,
  ) {}

  /** position of v in the range, 0..1 (0.5 when the range is empty; NaN and ±∞ pass through) */
  t(v: number): number {
    return this.max > this.min ? (v - this.min) / (this.max - this.min) : 0.5;
  }

  /** the cell's colour (NAN_COLOR for NaN; ±∞ clamp to the ramp's ends) */
  color(v: number): string {
    if (Number.isNaN(v)) return NAN_COLOR;
    return this.diverging ? divergingColor(this.t(v)) : rampColor(this.t(v));
  }

  /** Dark text on light cells, light text on dark ones (whichever contrasts more). */
  textColor(v: number): string {
    if (Number.isNaN(v)) return DARK_INK;
    return inkOn(this.color(v));
  }
}
