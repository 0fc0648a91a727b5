// The matrix an <attention-heatmap> draws when it is given one (attribute `data` or an inline
// <script type="application/json"> child): {rows, cols, values, title?, range?}, where rows and cols
// are labels or counts; or a heatmap's own JSON export as it is ({title, rows, cols, rowLabels,
// colLabels, values, range}: counts plus labels), so a figure exported from the site pastes straight
// into the attribute. Validated strictly
// (unknown keys, wrong shapes, non-finite numbers are errors naming the problem) because the text
// comes from a host page we do not control. Labels are only ever rendered as text.

export interface MatrixSpec {
  rowLabels: string[];
  colLabels: string[];
  /** row-major, rowLabels.length · colLabels.length */
  values: number[];
  title: string;
  /** fixed colour range (e.g. [0, 1] for weights), or null for the data's min … max */
  range: [number, number] | null;
}

export const MAX_MATRIX_SIDE = 64;
export const MAX_LABEL_LENGTH = 40;
export const MAX_JSON_LENGTH = 100_000;
const KEYS = new Set(['rows', 'cols', 'rowLabels', 'colLabels', 'values', 'title', 'range']);

/** Parses and checks the JSON text of a matrix; throws an Error naming the first problem. */
export function parseMatrixSpec(text: string): MatrixSpec {
  if (text.length > MAX_JSON_LENGTH) throw new Error(`matrix JSON longer than ${MAX_JSON_LENGTH} characters`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error('matrix data is not valid JSON');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new Error('matrix data must be a JSON object {rows, cols, values}');
  }
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    // the key is host text: report it quoted and cut short, it is rendered as text only
    if (!KEYS.has(key)) throw new Error(`matrix data has an unknown key "${key.slice(0, 20)}"`);
  }
  const rowLabels = axis(obj, 'rows', 'rowLabels');
  const colLabels = axis(obj, 'cols', 'colLabels');
  const values = matrixValues(obj.values, rowLabels.length, colLabels.length);
  let title = '';
  if (obj.title !== undefined) {
    if (typeof obj.title !== 'string' || obj.title.length > 200) throw new Error('title must be a string of at most 200 characters');
    title = obj.title;
  }
  let range: [number, number] | null = null;
  if (obj.range !== undefined) {
    const r = obj.range;
    // min = max is a constant matrix's own range (its export says so): every cell the middle colour
    if (!Array.isArray(r) || r.length !== 2 || !r.every((v) => typeof v === 'number' && Number.isFinite(v)) || r[0] > r[1]) {
      throw new Error('range must be [min, max] with finite min ≤ max');
    }
    range = [r[0], r[1]];
  }
  return { rowLabels, colLabels, values, title, range };
}

/**
 * One axis's labels: `rows` alone (a count or the labels), or the export's form, `rowLabels` with
 * `rows` as their count (which must agree).
 */
function axis(obj: Record<string, unknown>, name: 'rows' | 'cols', labelsKey: 'rowLabels' | 'colLabels'): string[] {
  if (obj[labelsKey] === undefined) return labels(obj[name], name);
  const given = labels(obj[labelsKey], labelsKey);
  if (obj[name] !== undefined && obj[name] !== given.length) {
    throw new Error(`${name} must be the number of ${labelsKey} (${given.length}) when both are given`);
  }
  return given;
}

/** `rows`/`cols`: a count (labels 1 … n) or an array of label strings. */
function labels(raw: unknown, name: string): string[] {
  if (typeof raw === 'number') {
    if (!Number.isInteger(raw) || raw < 1 || raw > MAX_MATRIX_SIDE) throw new Error(`${name} must be a whole number from 1 to ${MAX_MATRIX_SIDE}`);
    return Array.from({ length: raw }, (_, i) => String(i + 1));
  }
  if (!Array.isArray(raw)) throw new Error(`${name} is missing: give a count or an array of labels`);
  if (raw.length < 1 || raw.length > MAX_MATRIX_SIDE) throw new Error(`${name} must have 1 to ${MAX_MATRIX_SIDE} labels`);
  return raw.map((label, i) => {
    if (typeof label !== 'string' && typeof label !== 'number') throw new Error(`${name}[${i}] must be a string`);
    const s = String(label);
    if ([...s].length > MAX_LABEL_LENGTH) throw new Error(`${name}[${i}] is longer than ${MAX_LABEL_LENGTH} characters`);
    if (/[\u0000-\u001f\u007f]/.test(s)) throw new Error(`${name}[${i}] contains control characters`);
    return s;
  });
}

/** `values`: rows × cols nested arrays, or one flat row-major array of rows·cols numbers. */
function matrixValues(raw: unknown, rows: number, cols: number): number[] {
  if (!Array.isArray(raw)) throw new Error('values is missing: give an array of rows');
  let flat: unknown[];
  if (raw.length > 0 && Array.isArray(raw[0])) {
    if (raw.length !== rows) throw new Error(`values has ${raw.length} rows but rows has ${rows}`);
    flat = [];
    raw.forEach((row: unknown, r) => {
      if (!Array.isArray(row) || row.length !== cols) throw new Error(`values row ${r + 1} must have ${cols} numbers`);
      flat.push(...row);
    });
  } else {
    if (raw.length !== rows * cols) throw new Error(`values has ${raw.length} numbers, expected ${rows} × ${cols} = ${rows * cols}`);
    flat = raw;
  }
  return flat.map((v, i) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new Error(`values: entry ${Math.floor(i / cols) + 1}, ${(i % cols) + 1} is not a finite number`);
    }
    return v;
  });
}
