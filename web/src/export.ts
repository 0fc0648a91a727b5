// Exports of a view: its picture (PNG) and its numbers (CSV, JSON), downloaded as files made in the
// page (Blob URLs; nothing is sent anywhere). The text formatting is pure, for the unit tests.
export type Translate = (key: string) => string;

/** A file name from a view's id: letters, digits, '-', '_' and '.', at most 80 characters. */
export function safeFileName(name: string, extension: string): string {
  const base = name.normalize('NFKC').replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^[.-]+|-+$/g, '').slice(0, 80);
  return `${base || 'attention-lab'}.${extension}`;
}

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. Labels that a
 * spreadsheet would run as a formula (=, +, -, @, tab, CR first) get a leading apostrophe.
 */
export function csvField(text: string): string {
  let s = text;
  if (/^[=+\-@\t\r]/.test(s) && !/^[+-]?(\d|\.\d)/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A number exactly as JavaScript prints it (float32 values keep every digit needed). */
export function csvNumber(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
  return Object.is(v, -0) ? '0' : String(v);
}

/** A labelled matrix as CSV: a header of column labels, then one labelled line per row (CRLF). */
export function matrixCsv(rowLabels: readonly string[], colLabels: readonly string[], values: ArrayLike<number>): string {
  const rows = rowLabels.length;
  const cols = colLabels.length;
  if (values.length !== rows * cols) {
    throw new Error(`CSV export: ${rows}×${cols} labels but ${values.length} values`);
  }
  const lines = [['', ...colLabels].map(csvField).join(',')];
  for (let r = 0; r < rows; r++) {
    const cells = [csvField(rowLabels[r])];
    for (let c = 0; c < cols; c++) cells.push(csvNumber(values[r * cols + c]));
    lines.push(cells.join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** JSON text of any export: typed arrays become plain arrays, non-finite numbers become strings. */
export function exportJson(data: unknown): string {
  return `${JSON.stringify(
    data,
    (_key, value: unknown) => {
      if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return Array.from(value as unknown as ArrayLike<number>);
      if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
      return value;
    },
    2,
  )}\n`;
}

function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has started by now; give slow browsers a moment before freeing the blob.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadCsv(
  name: string,
  rowLabels: readonly string[],
  colLabels: readonly string[],
  values: ArrayLike<number>,
): void {
  // The BOM makes spreadsheet programs read the Chinese labels as UTF-8.
  download(new Blob(['\ufeff', matrixCsv(rowLabels, colLabels, values)], { type: 'text/csv;charset=utf-8' }), safeFileName(name, 'csv'));
}

export function downloadJson(name: string, data: unknown): void {
  download(new Blob([exportJson(data)], { type: 'application/json' }), safeFileName(name, 'json'));
}

/** The canvas on a white background (charts draw on transparent), as a PNG file. */
export function downloadCanvasPng(name: string, canvas: HTMLCanvasElement): Promise<void> {
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const ctx = copy.getContext('2d');
  if (!ctx) return Promise.reject(new Error('PNG export: no 2D canvas context'));
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, copy.width, copy.height);
  ctx.drawImage(canvas, 0, 0);
  return new Promise((resolve, reject) => {
    copy.toBlob((blob) => {
      if (!blob) {
        reject(new Error('PNG export: the canvas could not be encoded'));
        return;
      }
      download(blob, safeFileName(name, 'png'));
      resolve();
    }, 'image/png');
  });
}

export interface ExportHandlers {
  png?: () => void | Promise<void>;
  csv?: () => void;
  json?: () => void;
}

/**
 * A row of small buttons (PNG / CSV / JSON, only those with a handler). `t` gives the labels
 * (export.png, export.csv, export.json and their .title tooltips, from SHELL_STRINGS).
 */
export function exportButtons(t: Translate, handlers: ExportHandlers, label?: string): HTMLElement {
  const group = document.createElement('div');
  group.className = 'export-buttons';
  group.setAttribute('role', 'group');
  if (label) group.setAttribute('aria-label', label);
  for (const kind of ['png', 'csv', 'json'] as const) {
    const handler = handlers[kind];
    if (!handler) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'export-button';
    button.dataset.export = kind;
    button.textContent = t(`export.${kind}`);
    const title = t(`export.${kind}.title`);
    if (title !== `export.${kind}.title`) button.title = title;
    if (label) button.setAttribute('aria-label', `${title !== `export.${kind}.title` ? title : t(`export.${kind}`)}: ${label}`);
    button.addEventListener('click', () => {
      Promise.resolve()
        .then(handler)
        .catch((err: unknown) => console.warn(err instanceof Error ? err.message : err));
    });
    group.append(button);
  }
  return group;
}
