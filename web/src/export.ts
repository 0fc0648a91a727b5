// Exports of a view: its picture (PNG, SVG) and its numbers (CSV, JSON), behind one menu button per
// figure, downloaded as files made in the page (Blob URLs; nothing is sent anywhere; export-files.ts).
import { adoptCss, styleRootOf } from './adopt-css';
import { figureTranslator, type Translate } from './figure-strings';
import { fill } from './i18n';
import menuCss from './export-menu.css?inline';

export type { Translate };

// The download helpers load their code (export-files.ts) on the first export: a page that is only
// read never downloads it.
const files = () => import('./export-files');

export function downloadCsv(name: string, rowLabels: readonly string[], colLabels: readonly string[], values: ArrayLike<number>): void {
  void files().then((f) => f.downloadCsv(name, rowLabels, colLabels, values));
}

export function downloadHtml(name: string, html: string): void {
  void files().then((f) => f.downloadHtml(name, html));
}

export function downloadJson(name: string, data: unknown): void {
  void files().then((f) => f.downloadJson(name, data));
}

/** The canvas on a white background (charts draw on transparent), as a PNG file. */
export function downloadCanvasPng(name: string, canvas: HTMLCanvasElement): Promise<void> {
  return files().then((f) => f.downloadCanvasPng(name, canvas));
}

export function downloadSvg(name: string, svg: string): void {
  void files().then((f) => f.downloadSvg(name, svg));
}

/** A PNG made elsewhere (e.g. a figure composed with its title and legend), as a file. */
export function downloadCanvas(name: string, canvas: HTMLCanvasElement): Promise<void> {
  return files().then((f) => f.downloadCanvas(name, canvas));
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
 * One "Export ▾" button per figure (figure.ts builds it from what the figure can export) opening a
 * menu of PNG / SVG / CSV / JSON / Standalone HTML / Embed (only those with a handler), instead of a
 * row of buttons. `t` gives the labels (export.* keys; the figure strings fill in what it lacks);
 * `label` names the figure for screen readers. The menu follows the WAI-ARIA menu button pattern:
 * Enter/Space/ArrowDown open it on the first item, arrows move, Escape and Tab close.
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
  if (label) nameExportMenu(wrap, t, label);

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

/** Names a menu's button after its figure ("Export Attention weights"): many figures, one "Export" each. */
export function nameExportMenu(menu: HTMLElement, t: Translate, label: string): void {
  menu.querySelector('.export-toggle')?.setAttribute('aria-label', fill(figureTranslator(t)('export.menu.aria'), { label }));
}

function adoptMenuCss(node: Node): void {
  const root = styleRootOf(node);
  if (root) adoptCss(root, menuCss, { first: true });
}

/** The menu's CSS, for sections that adopt their styles when they mount. */
export const EXPORT_MENU_CSS: string = menuCss;
