// One labelled heatmap, drawn with the plain canvas 2D API (heatmap-paint.ts), with a colour legend,
// value labels in the cells, a tooltip on hover and on keyboard focus (arrow keys move between
// cells), token labels on both axes (any script; repeated tokens stay separate cells), PNG/CSV/JSON
// export buttons, and a hidden <output> holding the last values as JSON (for tests and for
// copying). Signed data can use a diverging ramp centred on 0. Wide matrices scroll inside their box
// instead of the page. Drawing is scheduled by DeferredDraw: off the mount task, once per frame.
import { DeferredDraw } from './deferred-draw';
import { downloadCanvasPng, downloadCsv, downloadJson, exportButtons, type Translate } from './export';
import { ColorScale, legendGradient } from './heatmap-color';
import { cellAt, cellRect, formatValue, paintHeatmap, tickLabel, type HeatmapLayout } from './heatmap-paint';
import { HeatmapTooltip } from './heatmap-tooltip';
import { SHELL_STRINGS, translator } from './i18n';
import heatmapCss from './heatmap.css?inline';
import { adoptCss, styleRootOf } from './adopt-css';

export { divergingColor, rampColor } from './heatmap-color';
export { formatValue, tickLabel } from './heatmap-paint';

/** East Asian wide characters (Han, kana, Hangul, fullwidth forms): about twice a Latin letter. */
const WIDE_CHAR = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** Width of a 12 px label in CSS pixels, estimated without measuring (no canvas needed yet). */
function labelWidthEstimate(label: string): number {
  let width = 0;
  for (const ch of label) width += WIDE_CHAR.test(ch) ? 12.5 : 9;
  return width;
}

const DEFAULT_T: Translate = translator('en', SHELL_STRINGS);

/**
 * The heatmap's CSS, for a section to adopt with its own when it mounts (mountRoot), so a figure
 * built before the section is attached is styled from the first frame, not from its first update().
 */
export const HEATMAP_CSS: string = heatmapCss;

/**
 * Adds the heatmap CSS to the element's document or shadow root, first, so a section's own CSS can
 * restyle the heatmap. A figure built in a detached subtree is styled by its section instead, which
 * adopts HEATMAP_CSS when it mounts.
 */
function ensureStyles(element: Element): void {
  const root = styleRootOf(element);
  if (root) adoptCss(root, heatmapCss, { first: true });
}

export interface HeatmapData {
  rows: number;
  cols: number;
  /** row-major, length rows·cols */
  values: ArrayLike<number>;
  rowLabels: readonly string[];
  colLabels: readonly string[];
}

export interface HeatmapOptions {
  /** element id of the figure (e.g. "weights"); also the export file name unless exportName is set */
  id: string;
  title: string;
  /** a fixed colour range (e.g. [0, 1] for probabilities); otherwise the data's min..max */
  fixedRange?: readonly [number, number];
  /**
   * Signed data: a diverging ramp centred on 0, range ±max|value| (or ±max|fixedRange|), so the
   * colour of 0 is the same in every update.
   */
  diverging?: boolean;
  /** axis titles (e.g. "keys", "queries"); none by default */
  xTitle?: string;
  yTitle?: string;
  /** PNG/CSV/JSON buttons (default true) */
  exportable?: boolean;
  /** file name of exports (default: id) */
  exportName?: string;
  /** labels of the export buttons (default: the shell's English strings) */
  t?: Translate;
  /** decimals in the cells (default 2; the tooltip shows 4) */
  digits?: number;
}

/** The numbers of the last update, copied (the caller may reuse its arrays). */
interface HeatmapValues {
  rows: number;
  cols: number;
  values: number[];
  rowLabels: string[];
  colLabels: string[];
}

export class Heatmap {
  readonly element: HTMLElement;
  readonly #options: HeatmapOptions;
  readonly #title: HTMLElement;
  readonly #canvas: HTMLCanvasElement;
  readonly #box: HTMLElement;
  readonly #inner: HTMLElement;
  readonly #legendMin: HTMLElement;
  readonly #legendMax: HTMLElement;
  readonly #focusText: HTMLElement;
  readonly #output: HTMLOutputElement;
  readonly #tooltip = new HeatmapTooltip();
  /** made on the first update; draws off the mount task, at most once per frame */
  #drawer: DeferredDraw | null = null;
  #data: HeatmapValues | null = null;
  #scale: ColorScale;
  /** where the last draw put the cells (null before it, or when there are none) */
  #layout: HeatmapLayout | null = null;
  #focusIndex = 0;
  /** the focused cell is highlighted (keyboard focus, until blur or Escape) */
  #focusShown = false;
  #hoverIndex: number | null = null;

  constructor(host: HTMLElement, options: HeatmapOptions) {
    this.#options = options;
    this.#scale = new ColorScale(0, 1, options.diverging === true);
    const fig = document.createElement('figure');
    fig.className = 'heatmap';
    fig.id = options.id;

    const cap = document.createElement('figcaption');
    this.#title = document.createElement('h3');
    this.#title.textContent = options.title;
    cap.append(this.#title);
    if (options.exportable !== false) {
      const t = options.t ?? DEFAULT_T;
      cap.append(
        exportButtons(
          t,
          {
            png: () => {
              this.#drawer?.ensure(); // drawn now if it was still waiting
              downloadCanvasPng(this.#fileName(), this.#canvas);
            },
            csv: () => this.#data && downloadCsv(this.#fileName(), this.#data.rowLabels, this.#data.colLabels, this.#data.values),
            json: () => this.#data && downloadJson(this.#fileName(), this.exportData()),
          },
          options.title,
        ),
      );
    }

    // box: the visible frame (scrolls sideways on narrow screens); inner: sized to the matrix
    this.#box = document.createElement('div');
    this.#box.className = 'chart-box';
    this.#inner = document.createElement('div');
    this.#inner.className = 'chart-inner';
    this.#canvas = document.createElement('canvas');
    this.#canvas.tabIndex = 0;
    this.#canvas.setAttribute('role', 'img');
    const focusId = `${options.id}-focus`;
    this.#canvas.setAttribute('aria-describedby', focusId);
    this.#inner.append(this.#canvas);
    this.#box.append(this.#inner);

    const legend = document.createElement('div');
    legend.className = 'legend';
    this.#legendMin = document.createElement('span');
    const bar = document.createElement('span');
    bar.className = 'legend-bar';
    bar.style.backgroundImage = legendGradient(options.diverging === true);
    bar.setAttribute('aria-hidden', 'true');
    this.#legendMax = document.createElement('span');
    legend.append(this.#legendMin, bar, this.#legendMax);

    this.#focusText = document.createElement('p');
    this.#focusText.className = 'focus-text';
    this.#focusText.id = focusId;
    this.#focusText.setAttribute('aria-live', 'polite');

    this.#output = document.createElement('output');
    this.#output.className = 'heatmap-data';
    this.#output.hidden = true;

    fig.append(cap, this.#box, legend, this.#focusText, this.#output, this.#tooltip.element);
    host.append(fig);
    this.element = fig;
    ensureStyles(fig);

    this.#canvas.addEventListener('focus', () => this.#showFocus());
    this.#canvas.addEventListener('blur', () => this.#clearFocus());
    this.#canvas.addEventListener('keydown', (e) => this.#onKey(e));
    // pointer events cover the mouse and a tap on a touch screen
    this.#canvas.addEventListener('pointermove', (e) => this.#hover(this.#cellAt(e)));
    this.#canvas.addEventListener('pointerdown', (e) => this.#hover(this.#cellAt(e)));
    this.#canvas.addEventListener('pointerleave', () => this.#hover(null));
    this.#box.addEventListener('scroll', () => this.#hover(null), { passive: true });
  }

  set title(text: string) {
    this.#title.textContent = text;
  }

  /** The figure's current numbers, as the JSON export writes them. */
  exportData(): { title: string; rows: number; cols: number; rowLabels: string[]; colLabels: string[]; values: number[] } | null {
    const d = this.#data;
    if (!d) return null;
    return {
      title: this.#title.textContent ?? '',
      rows: d.rows,
      cols: d.cols,
      rowLabels: [...d.rowLabels],
      colLabels: [...d.colLabels],
      values: [...d.values],
    };
  }

  #fileName(): string {
    return this.#options.exportName ?? this.#options.id;
  }

  update(data: HeatmapData): void {
    const { rows, cols, values, rowLabels, colLabels } = data;
    if (values.length !== rows * cols) throw new Error(`heatmap: expected ${rows * cols} values, got ${values.length}`);

    if (rowLabels.length !== rows || colLabels.length !== cols) {
      throw new Error(`heatmap: ${rows}×${cols} values but ${rowLabels.length} row and ${colLabels.length} column labels`);
    }
    this.#data = { rows, cols, values: Array.from(values), rowLabels: [...rowLabels], colLabels: [...colLabels] };

    let [min, max] = this.#options.fixedRange ?? [Infinity, -Infinity];
    if (!this.#options.fixedRange) {
      for (let i = 0; i < values.length; i++) {
        if (!Number.isFinite(values[i])) continue;
        min = Math.min(min, values[i]);
        max = Math.max(max, values[i]);
      }
      if (min > max) [min, max] = [0, 1]; // no finite values
    }
    if (this.#options.diverging) {
      const m = Math.max(Math.abs(min), Math.abs(max)) || 1;
      [min, max] = [-m, m];
    }
    this.#scale = new ColorScale(min, max, this.#options.diverging === true);
    this.#legendMin.textContent = formatValue(min);
    this.#legendMax.textContent = formatValue(max);
    this.#legendMin.title = this.#options.diverging ? 'most negative (orange)' : 'lightest colour';
    this.#legendMax.title = this.#options.diverging ? 'most positive (purple)' : 'darkest colour';

    this.#box.style.height = `${Math.min(380, Math.max(110, rows * 38 + 42))}px`;
    // at least ~30 px per column (plus the row labels): a wide matrix scrolls, it never squashes
    const longestRow = Math.max(9, ...rowLabels.map((l) => labelWidthEstimate(tickLabel(l))));
    this.#inner.style.minWidth = `${Math.ceil(cols * 30 + longestRow + 24)}px`;
    this.#canvas.setAttribute(
      'aria-label',
      `${this.#title.textContent}: ${rows} by ${cols} heatmap, values from ${formatValue(min)} to ${formatValue(max)}. Focus and use the arrow keys to read cells.`,
    );
    this.#output.dataset.shape = `${rows},${cols}`;
    this.#output.value = JSON.stringify(Array.from(values));
    this.#focusIndex = Math.max(0, Math.min(this.#focusIndex, values.length - 1));
    if (this.#hoverIndex !== null && this.#hoverIndex >= values.length) this.#hoverIndex = null;

    if (!this.#drawer) this.#drawer = new DeferredDraw(this.#canvas, (ctx, w, h) => this.#paint(ctx, w, h));
    else this.#drawer.request();
    if (this.#canvas.matches(':focus')) this.#showFocus();
  }

  destroy(): void {
    this.#drawer?.destroy();
    this.#drawer = null;
    this.element.remove();
  }

  /** The highlighted cell: the hovered one, else the focused one while focus is shown. */
  #active(): number | null {
    return this.#hoverIndex ?? (this.#focusShown ? this.#focusIndex : null);
  }

  #paint(ctx: CanvasRenderingContext2D, width: number, height: number): void {
    const d = this.#data;
    if (!d || d.values.length === 0) {
      this.#layout = null;
      this.#tooltip.hide();
      return;
    }
    this.#layout = paintHeatmap(ctx, width, height, {
      ...d,
      scale: this.#scale,
      digits: this.#options.digits ?? 2,
      xTitle: this.#options.xTitle,
      yTitle: this.#options.yTitle,
      active: this.#active(),
    });
    this.#placeTooltip();
  }

  /** The tooltip over the active cell (after a draw: it needs the cells' places). */
  #placeTooltip(): void {
    const index = this.#active();
    const d = this.#data;
    const layout = this.#layout;
    if (index === null || !d || !layout || index >= d.values.length) {
      this.#tooltip.hide();
      return;
    }
    const cell = cellRect(layout, index);
    const fig = this.element;
    const canvasBox = this.#canvas.getBoundingClientRect();
    const figBox = fig.getBoundingClientRect();
    // the tooltip is positioned in the figure's padding box
    const x = canvasBox.left - figBox.left - fig.clientLeft + cell.x;
    const y = canvasBox.top - figBox.top - fig.clientTop + cell.y;
    const r = Math.floor(index / d.cols);
    const c = index % d.cols;
    this.#tooltip.show(`${d.rowLabels[r]} · ${d.colLabels[c]}`, formatValue(d.values[index], 4), { x, y, width: cell.width, height: cell.height }, fig.clientWidth);
  }

  #cellAt(e: PointerEvent): number | null {
    return this.#layout ? cellAt(this.#layout, e.offsetX, e.offsetY) : null;
  }

  #hover(index: number | null): void {
    if (index === this.#hoverIndex) return;
    this.#hoverIndex = index;
    this.#drawer?.request();
  }

  #onKey(e: KeyboardEvent): void {
    const d = this.#data;
    if (!d) return;
    let r = Math.floor(this.#focusIndex / d.cols);
    let c = this.#focusIndex % d.cols;
    switch (e.key) {
      case 'ArrowLeft':
        c = Math.max(0, c - 1);
        break;
      case 'ArrowRight':
        c = Math.min(d.cols - 1, c + 1);
        break;
      case 'ArrowUp':
        r = Math.max(0, r - 1);
        break;
      case 'ArrowDown':
        r = Math.min(d.rows - 1, r + 1);
        break;
      case 'Home':
        c = 0;
        break;
      case 'End':
        c = d.cols - 1;
        break;
      case 'Escape':
        this.#clearFocus();
        return;
      default:
        return;
    }
    e.preventDefault();
    this.#focusIndex = r * d.cols + c;
    this.#showFocus();
  }

  #showFocus(): void {
    const d = this.#data;
    const drawer = this.#drawer;
    if (!drawer || !d || d.values.length === 0) return;
    this.#focusShown = true;
    this.#hoverIndex = null; // the keyboard takes over the highlight
    drawer.ensure(); // keyboard focus: the cells must be placed now
    this.#scrollToFocus();
    drawer.request();
    const index = this.#focusIndex;
    const r = Math.floor(index / d.cols);
    const c = index % d.cols;
    this.#focusText.textContent = `${d.rowLabels[r]} · ${d.colLabels[c]}: ${formatValue(d.values[index], 4)}`;
  }

  /** Scrolls a wide matrix sideways so that the focused cell is in view. */
  #scrollToFocus(): void {
    if (!this.#layout) return;
    const cell = cellRect(this.#layout, this.#focusIndex);
    const box = this.#box;
    if (cell.x < box.scrollLeft) box.scrollLeft = Math.max(0, cell.x - 8);
    else if (cell.x + cell.width > box.scrollLeft + box.clientWidth) box.scrollLeft = cell.x + cell.width - box.clientWidth + 8;
  }

  #clearFocus(): void {
    if (!this.#focusShown) return;
    this.#focusShown = false;
    this.#drawer?.request();
    this.#focusText.textContent = '';
  }
}
