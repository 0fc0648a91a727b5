// Text output of the CLI: terminal widths (CJK characters take two columns), number formats and
// the attention matrix as an aligned table.

/** Prints one line of the command's output (stdout). @typedef {(line: string) => void} Print */

/** @param {number} cp a code point */
function charWidth(cp) {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
      (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) ||
      (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1faff) ||
      (cp >= 0x20000 && cp <= 0x3fffd)) return 2;
  return 1;
}

/**
 * Columns the string takes in a terminal.
 * @param {string} s
 */
export function width(s) {
  let w = 0;
  for (const ch of s) w += charWidth(/** @type {number} */ (ch.codePointAt(0)));
  return w;
}

/** @type {(s: string, w: number) => string} */
export const padEnd = (s, w) => s + ' '.repeat(Math.max(0, w - width(s)));
/** @type {(s: string, w: number) => string} */
export const padStart = (s, w) => ' '.repeat(Math.max(0, w - width(s))) + s;

/**
 * A token as shown in tables: visible spaces and control characters.
 * @param {string} token
 */
export function show(token) {
  if (token === ' ') return '␣';
  return token.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** @type {(x: number) => string} */
export const pct = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '-');
/** @type {(x: number, d?: number) => string} */
export const fixed = (x, d = 4) => (Number.isFinite(x) ? x.toFixed(d) : '-');

const SHADES = [' ', '░', '▒', '▓', '█'];
/** @type {(v: number) => string} */
const shade = (v) => SHADES[Math.min(4, Math.max(0, Math.round(v * 4)))];

/**
 * Rows and columns of strings → aligned lines. align: one 'l' or 'r' per column; by default
 * column 0 is left-aligned and the others right-aligned (numbers).
 * @param {readonly (readonly string[])[]} rows
 * @param {string} [align]
 * @returns {string[]}
 */
export function table(rows, align = '') {
  /** @type {number[]} */
  const widths = [];
  for (const r of rows) r.forEach((c, j) => { widths[j] = Math.max(widths[j] ?? 0, width(c)); });
  const left = (/** @type {number} */ j) => (align[j] ?? (j === 0 ? 'l' : 'r')) === 'l';
  return rows.map((r) => r.map((c, j) => (left(j) ? padEnd(c, widths[j]) : padStart(c, widths[j]))).join('  ').trimEnd());
}

/**
 * The attention matrix: one row per output token (the weights it gave the source tokens), one
 * column per source token; values 0.00–1.00, optionally followed by a shade character.
 * @param {readonly string[]} sourceLabels
 * @param {readonly string[]} outputTokens
 * @param {readonly ArrayLike<number>[]} rows
 * @param {{ shades?: boolean }} [options]
 */
export function attentionTable(sourceLabels, outputTokens, rows, { shades = false } = {}) {
  const header = ['', ...sourceLabels.map(show)];
  const body = rows.map((weights, i) => [show(outputTokens[i]),
    ...Array.from(weights, (v) => (shades ? `${v.toFixed(2)}${shade(v)}` : v.toFixed(2)))]);
  return table([header, ...body]);
}

/**
 * "4.2s", "1m05s", "21h29m" (an ETA of hours)
 * @param {number} ms
 */
export function duration(ms) {
  const s = Math.round(ms / 1000);
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  if (s < 60) return `${(ms / 1000).toFixed(1)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${two(s % 60)}s`;
  return `${Math.floor(s / 3600)}h${two(Math.floor(s / 60) % 60)}m`; // an ETA of hours needs no seconds
}

/**
 * JSON.stringify's replacer for the API's results: their typed arrays (Float32Array, Int32Array)
 * as plain arrays.
 * @param {string} _key
 * @param {unknown} value
 */
export const plainArrays = (_key, value) => (ArrayBuffer.isView(value) ? Array.from(/** @type {Float32Array} */ (value)) : value);

/**
 * JSON with typed arrays as plain arrays.
 * @param {unknown} value
 */
export function toJSON(value) {
  return JSON.stringify(value, plainArrays, 2);
}
