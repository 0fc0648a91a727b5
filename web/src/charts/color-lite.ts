// The part of @kurkle/color that Chart.js uses, for the build (vite.config.ts aliases the package
// here): Chart.js only asks it for hover colours (saturate(0.5).darken(0.1)) and for colour
// animations (mix), on the colours the app gives it. The package also parses the 148 CSS colour
// names and hsl()/hwb()/hsv() text, 3.7 KB gzip of every page with a chart. This parses what the
// app and Chart.js's defaults use, '#rgb[a]', '#rrggbb[aa]', 'rgb[a](…)' and 'transparent', with
// the package's arithmetic (tests/web/color-lite.test.mjs checks it against the package); any
// other text is "not valid", as the package says of text it cannot parse.

/** 0…255 channels, alpha included */
interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

const clamp = (v: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, v));
const round = (v: number): number => (v + 0.5) | 0;
/** a 0…1 fraction → 0…255 */
const n2b = (v: number): number => clamp(round(v * 255), 0, 255);
/** 0…255 → a 0…1 fraction with two decimals (the package's b2n) */
const b2n = (v: number): number => clamp(round(v / 2.55) / 100, 0, 1);
/** a percentage → 0…255 (the package's p2b) */
const p2b = (v: number): number => clamp(round(v * 2.55), 0, 255);
const hex2 = (v: number): string => v.toString(16).padStart(2, '0');

const RGB_RE = /^rgba?\(\s*([-+.\d]+)(%)?[\s,]+([-+.e\d]+)(%)?[\s,]+([-+.e\d]+)(%)?(?:[\s,/]+([-+.e\d]+)(%)?)?\s*\)$/;

function parse(text: string): Rgba | undefined {
  const s = text.trim().toLowerCase();
  if (s === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  if (/^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.test(s)) {
    const h = s.slice(1);
    const short = h.length <= 4;
    const at = (i: number) => (short ? parseInt(h[i], 16) * 17 : parseInt(h.slice(2 * i, 2 * i + 2), 16));
    const n = short ? h.length : h.length / 2;
    return { r: at(0), g: at(1), b: at(2), a: n === 4 ? at(3) : 255 };
  }
  const m = RGB_RE.exec(s);
  if (!m) return undefined;
  const channel = (v: string, pct: string | undefined) => clamp(pct ? p2b(Number(v)) : round(Number(v)), 0, 255);
  const a = m[7] === undefined ? 255 : m[8] ? p2b(Number(m[7])) : n2b(Number(m[7]));
  return { r: channel(m[1], m[2]), g: channel(m[3], m[4]), b: channel(m[5], m[6]), a };
}

function rgb2hsl({ r, g, b }: Rgba): [number, number, number] {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const min = Math.min(R, G, B);
  const l = (max + min) / 2;
  let h = 0;
  let s = 0;
  if (max !== min) {
    const d = max - min;
    s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
    h = R === max ? (G - B) / d + (G < B ? 6 : 0) : G === max ? (B - R) / d + 2 : (R - G) / d + 4;
    h = h * 60 + 0.5;
  }
  return [h | 0, s, l];
}

function hsl2rgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return l - a * Math.max(Math.min(k - 3, 9 - k, 1), -1);
  };
  return [n2b(f(0)), n2b(f(8)), n2b(f(4))];
}

export class Color {
  #rgb: Rgba | undefined;

  constructor(input: unknown) {
    if (input instanceof Color) return input;
    if (typeof input === 'string') this.#rgb = parse(input);
    else if (input && typeof input === 'object') {
      const o = input as Partial<Rgba>;
      this.#rgb = { r: o.r ?? 0, g: o.g ?? 0, b: o.b ?? 0, a: o.a === undefined ? 255 : n2b(o.a) };
    }
  }

  get valid(): boolean {
    return this.#rgb !== undefined;
  }

  /** channels 0…255, alpha 0…1 */
  get rgb(): { r: number; g: number; b: number; a: number } | undefined {
    const v = this.#rgb;
    return v && { ...v, a: b2n(v.a) };
  }

  hexString(): string | undefined {
    const v = this.#rgb;
    return v && `#${hex2(v.r)}${hex2(v.g)}${hex2(v.b)}${v.a < 255 ? hex2(v.a) : ''}`;
  }

  rgbString(): string | undefined {
    const v = this.#rgb;
    if (!v) return undefined;
    return v.a < 255 ? `rgba(${v.r}, ${v.g}, ${v.b}, ${b2n(v.a)})` : `rgb(${v.r}, ${v.g}, ${v.b})`;
  }

  /** this colour `weight` of the way to… the package's weighted mix, alpha-aware */
  mix(other: Color | undefined, weight = 0.5): this {
    const c1 = this.#rgb;
    const c2 = other ? other.#rgb : undefined;
    if (c1 && c2) {
      const w = 2 * weight - 1;
      const [a1, a2] = [b2n(c1.a), b2n(c2.a)];
      const a = a1 - a2;
      const w1 = ((w * a === -1 ? w : (w + a) / (1 + w * a)) + 1) / 2;
      const w2 = 1 - w1;
      c1.r = 0xff & (w1 * c1.r + w2 * c2.r + 0.5);
      c1.g = 0xff & (w1 * c1.g + w2 * c2.g + 0.5);
      c1.b = 0xff & (w1 * c1.b + w2 * c2.b + 0.5);
      c1.a = n2b(weight * a1 + (1 - weight) * a2);
    }
    return this;
  }

  clone(): Color {
    return new Color(this.rgb);
  }

  alpha(a: number): this {
    if (this.#rgb) this.#rgb.a = n2b(a);
    return this;
  }

  #hsl(i: 1 | 2, ratio: number): this {
    const v = this.#rgb;
    if (v) {
      const hsl = rgb2hsl(v);
      hsl[i] = clamp(hsl[i] + hsl[i] * ratio, 0, 1);
      [v.r, v.g, v.b] = hsl2rgb(...hsl);
    }
    return this;
  }

  saturate(ratio: number): this {
    return this.#hsl(1, ratio);
  }

  desaturate(ratio: number): this {
    return this.#hsl(1, -ratio);
  }

  lighten(ratio: number): this {
    return this.#hsl(2, ratio);
  }

  darken(ratio: number): this {
    return this.#hsl(2, -ratio);
  }
}

export default function color(input: unknown): Color {
  return new Color(input);
}
