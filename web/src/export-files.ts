// The files of the exports (export.ts loads this module when a reader first exports something):
// the text formats (pure, for the unit tests) and the download of a Blob made in the page (nothing is
// sent anywhere).

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

/**
 * A number in the fewest digits that read back to it: a float32 value (every number the core
 * computes) as its shortest float32 form (-1.9549003, not -1.9549002647399902: reading it as float32
 * gives the same bits), any other number as JavaScript prints it.
 */
export function csvNumber(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
  if (Object.is(v, -0) || v === 0) return '0';
  if (Math.fround(v) === v) {
    for (let digits = 1; digits <= 9; digits++) {
      const shorter = Number(v.toPrecision(digits));
      if (Math.fround(shorter) === v) return String(shorter);
    }
  }
  return String(v);
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

export function downloadHtml(name: string, html: string): void {
  download(new Blob([html], { type: 'text/html;charset=utf-8' }), safeFileName(name, 'html'));
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
  return downloadCanvas(name, copy);
}

export function downloadSvg(name: string, svg: string): void {
  download(new Blob([svg], { type: 'image/svg+xml;charset=utf-8' }), safeFileName(name, 'svg'));
}

/** A PNG made elsewhere (e.g. a figure composed with its title and legend), as a file. */
export function downloadCanvas(name: string, canvas: HTMLCanvasElement): Promise<void> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => {
      if (!blob) {
        reject(new Error('PNG export: the canvas could not be encoded'));
        return;
      }
      download(blob, safeFileName(name, 'png'));
      resolve();
    }, 'image/png');
  });
}
