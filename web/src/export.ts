// Exports of a view: its picture (PNG, SVG) and its numbers (CSV, JSON), behind one menu button per
// figure, downloaded as files made in the page (Blob URLs; nothing is sent anywhere). The text formatting is pure, for the unit tests.
import { adoptCss, styleRootOf } from './adopt-css';
import { figureTranslator, type Translate } from './figure-strings';
import { fill } from './i18n';
import menuCss from './export-menu.css?inline';

export type { Translate };

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

export interface ExportHandlers {
  png?: () => void | Promise<void>;
  svg?: () => void | Promise<void>;
  csv?: () => void | Promise<void>;
  json?: () => void | Promise<void>;
  /** one .html file that shows the view offline (embed/standalone.ts) */
  html?: () => void | Promise<void>;
  /** the Embed dialog's snippets for this figure (the article only: embed/figure-embed.ts) */
  embed?: () => void | Promise<void>;
}

const KINDS = ['png', 'svg', 'csv', 'json', 'html', 'embed'] as const;
let menuCount = 0;

/**
 * One "Export ▾" button per figure opening a menu of PNG / SVG / CSV / JSON / Standalone HTML /
 * Embed (only those with a handler), instead of a row of buttons. `t` gives the labels (export.* keys; the figure strings fill
 * in what it lacks); `label` names the figure for screen readers. The menu follows the WAI-ARIA menu
 * button pattern: Enter/Space/ArrowDown open it on the first item, arrows move, Escape and Tab close.
 */
export function exportButtons(t: Translate, handlers: ExportHandlers, label?: string): HTMLElement {
  const tt = figureTranslator(t);
  const wrap = document.createElement('div');
  wrap.className = 'export-menu';
  const id = `export-menu-${++menuCount}`;
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.className = 'lab-button export-toggle';
  toggle.textContent = `${tt('export.menu')} ▾`;
  toggle.setAttribute('aria-haspopup', 'menu');
  toggle.setAttribute('aria-expanded', 'false');
  toggle.setAttribute('aria-controls', id);
  if (label) toggle.setAttribute('aria-label', fill(tt('export.menu.aria'), { label }));
  const menu = document.createElement('div');
  menu.className = 'lab-menu export-list';
  menu.id = id;
  menu.setAttribute('role', 'menu');
  menu.hidden = true;
  const items: HTMLButtonElement[] = [];
  for (const kind of KINDS) {
    const handler = handlers[kind];
    if (!handler) continue;
    const item = document.createElement('button');
    item.type = 'button';
    item.className = 'export-item';
    item.setAttribute('role', 'menuitem');
    item.tabIndex = -1;
    item.dataset.export = kind;
    const name = tt(`export.${kind}`);
    const title = tt(kind === 'png' && handlers.svg ? 'export.png.figure.title' : `export.${kind}.title`);
    item.textContent = name;
    if (title !== `export.${kind}.title`) {
      item.title = title;
      item.setAttribute('aria-label', label ? fill(tt('label.pair'), { a: title, b: label }) : title);
    }
    item.addEventListener('click', () => {
      close(true);
      Promise.resolve()
        .then(handler)
        .catch((err: unknown) => console.warn(err instanceof Error ? err.message : err));
    });
    items.push(item);
  }
  menu.append(...items);
  wrap.append(toggle, menu);

  // composedPath, not target: in a widget's shadow root the document sees the widget as the target
  const outside = (e: Event): void => {
    if (!e.composedPath().includes(wrap)) close(false);
  };
  const open = (focusIndex: number): void => {
    adoptMenuCss(wrap);
    // under the button, opening towards the side with room: a button in the left half opens rightwards
    const box = toggle.getBoundingClientRect();
    menu.classList.toggle('from-start', box.left + box.width / 2 < document.documentElement.clientWidth / 2);
    menu.hidden = false;
    toggle.setAttribute('aria-expanded', 'true');
    items.at(focusIndex)?.focus();
    document.addEventListener('pointerdown', outside, true);
  };
  function close(refocus: boolean): void {
    if (menu.hidden) return;
    menu.hidden = true;
    toggle.setAttribute('aria-expanded', 'false');
    document.removeEventListener('pointerdown', outside, true);
    if (refocus) toggle.focus();
  }
  toggle.addEventListener('click', () => (menu.hidden ? open(0) : close(false)));
  toggle.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      open(e.key === 'ArrowDown' ? 0 : -1);
    }
  });
  menu.addEventListener('keydown', (e) => {
    const at = items.findIndex((i) => i.matches(':focus'));
    const move = (to: number) => {
      e.preventDefault();
      items[(to + items.length) % items.length]?.focus();
    };
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(items.length - 1);
    else if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    } else if (e.key === 'Tab') close(false);
  });
  // styled once it is in a document or shadow root (sections build their figures detached)
  requestAnimationFrame(() => adoptMenuCss(wrap));
  return wrap;
}

function adoptMenuCss(node: Node): void {
  const root = styleRootOf(node);
  if (root) adoptCss(root, menuCss, { first: true });
}

/** The menu's CSS, for sections that adopt their styles when they mount. */
export const EXPORT_MENU_CSS: string = menuCss;
