// One labelled heatmap, drawn with the plain canvas 2D API (heatmap-paint.ts), with a colour legend,
// value labels in the cells, a tooltip on hover and on keyboard focus (arrow keys move between
// cells), token labels on both axes (any script; repeated tokens stay separate cells), a title and one
// export menu (a Figure, figure.ts: PNG and SVG with title, axes and legend; CSV; JSON; standalone
// HTML; Embed), the numbers as a visually hidden table
// for screen readers (heatmap-table.ts), and a hidden <output> holding the last values as JSON (for
// tests and for copying). Signed data can use a diverging ramp centred on 0. It emits typed cell
// events (heatmap-cells.ts: hover, select, leave; by pointer, touch or keyboard) for linked views,
// and draws a cell chosen in another view (showCell).
// Columns shrink to a readable width and no further: a wider matrix scrolls sideways in its box, the
// row labels stay in view, and a labelled "+N columns →" button says what is out of view and scrolls
// to it. Several heatmaps can share one colour scale (HeatmapScaleGroup), so their colours compare.
// Drawing is scheduled by DeferredDraw: off the mount task, once per frame. Over the ~400-line guide:
// painting, colours, export, scrolling, the reader's input, the cell events and the table are
// already their own files (heatmap-*.ts); what is left is one component's DOM and state, which a
// split would share private fields across files.
import { DeferredDraw } from '../deferred-draw';
import { heatmapWaiting } from '../first-draw';
import { EXPORT_MENU_CSS } from '../export';
import { Figure } from '../figure';
import { figureTranslator, langOfNode, type Translate } from '../figure-strings';
import { ColorScale } from './heatmap-color';
import { HeatmapLegend } from './heatmap-legend';
import { cellAt, cellRect, formatValue, minimumWidth, paintHeatmap, preferredHeight, type HeatmapLayout, type HeatmapScene } from './heatmap-paint';
import { HeatmapTooltip, type AnchorBox } from './heatmap-tooltip';
import { heatmapTable } from './heatmap-table';
import type { CellEmitter, CellListener, CellRef, CellSource } from './heatmap-cells';
import { listenForCells } from './heatmap-input';
import { ColumnScroller } from './heatmap-scroller';
import { HeatmapScaleGroup } from './heatmap-scale';
import { fill, type Lang } from '../i18n';
import heatmapCss from './heatmap.css?inline';
import { adoptCss, styleRootOf } from '../adopt-css';
import { figureEmbedHandler } from '../embed/figure-embed';
import { restyleOnSchemeChange } from '../scheme';

export { divergingColor, inkOn, rampColor } from './heatmap-color';
export { COLOUR_COLUMN_WIDTH, formatValue, tickLabel } from './heatmap-paint';
export { HeatmapScaleGroup } from './heatmap-scale';
export type { CellEvent, CellRef } from './heatmap-cells';

/**
 * The heatmap's CSS, for a section to adopt with its own when it mounts (mountRoot), so a figure
 * built before the section is attached is styled from the first frame, not from its first update().
 * It includes the export menu's CSS.
 */
export const HEATMAP_CSS: string = `${EXPORT_MENU_CSS}\n${heatmapCss}`;

/**
 * Adds the heatmap CSS to the element's document or shadow root, first, so a section's own CSS can
 * restyle the heatmap. A figure built in a detached subtree is styled by its section instead, which
 * adopts HEATMAP_CSS when it mounts.
 */
function ensureStyles(element: Element): void {
  const root = styleRootOf(element);
  if (root) adoptCss(root, HEATMAP_CSS, { first: true });
}

/** One canvas context to measure text with before a heatmap's own canvas is drawn. */
let measureContext: CanvasRenderingContext2D | null = null;
function measurer(): CanvasRenderingContext2D | null {
  measureContext ??= document.createElement('canvas').getContext('2d');
  return measureContext;
}

export interface HeatmapData {
  rows: number;
  cols: number;
  /** row-major, length rows·cols */
  values: ArrayLike<number>;
  rowLabels: readonly string[];
  colLabels: readonly string[];
  /** the labels' language where it is not the page's (a model's English output): their table cells say it */
  rowLang?: string;
  colLang?: string;
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
  /** colour by the range shared with the group's other heatmaps (ignored with fixedRange) */
  scaleGroup?: HeatmapScaleGroup;
  /**
   * Where the group's other heatmaps are, for the legend's note, when some are out of sight (in a
   * closed panel, say): a count alone would name heatmaps the reader cannot see.
   */
  scaleWhere?: string;
  /** axis titles (e.g. "keys", "queries"); none by default */
  xTitle?: string;
  yTitle?: string;
  /** the export menu (default true) */
  exportable?: boolean;
  /** file name of exports (default: id) */
  exportName?: string;
  /** the section's strings (labels of the export menu, axis words); the figure's own fill the gaps */
  t?: Translate;
  /** language of the figure's own strings (default: t's, else the page's around the figure) */
  lang?: Lang;
  /** decimals in the cells (default 2; the tooltip shows 4) */
  digits?: number;
  /**
   * The narrowest column before the box scrolls sideways (default MIN_COLUMN_WIDTH, where a value
   * still fits its cell). Narrower columns show colour only; the tooltip and the readout under the
   * map give the value.
   */
  minColumnWidth?: number;
}

/** The numbers of the last update, copied (the caller may reuse its arrays). */
interface HeatmapValues {
  rows: number;
  cols: number;
  values: number[];
  rowLabels: string[];
  colLabels: string[];
  rowLang?: string;
  colLang?: string;
}

export class Heatmap extends Figure<HeatmapData> implements CellEmitter {
  readonly element: HTMLElement;
  readonly #options: HeatmapOptions;
  /** the figure's own strings in its language, after the section's */
  readonly #t: Translate;
  readonly #canvas: HTMLCanvasElement;
  readonly #box: HTMLElement;
  readonly #frame: HTMLElement;
  readonly #inner: HTMLElement;
  readonly #scroller: ColumnScroller;
  readonly #legend: HeatmapLegend;
  readonly #focusText: HTMLElement;
  readonly #output: HTMLOutputElement;
  readonly #tooltip = new HeatmapTooltip();
  /** the numbers for screen readers (heatmap-table.ts): none before the first update */
  #table: HTMLTableElement = Object.assign(document.createElement('table'), { hidden: true });
  /** holds #table off screen: a table is never narrower than its cells, so the clip is on a box */
  readonly #tableBox = Object.assign(document.createElement('div'), { className: 'heatmap-table-box' });
  readonly #listeners = new Set<CellListener>();
  /**
   * Draws off the mount task, at most once per frame. Made with the figure, before any data, so that
   * whether the canvas is on screen is known when the first data arrives (a visible heatmap then
   * draws in the next task); null once destroyed.
   */
  #drawer: DeferredDraw | null;
  #data: HeatmapValues | null = null;
  /** the data's own range (before a shared scale widens it) */
  #ownRange: readonly [number, number] = [0, 1];
  #scale: ColorScale;
  /** where the last draw put the cells (null before it, or when there are none) */
  #layout: HeatmapLayout | null = null;
  /** the selected cell (clicked, tapped, walked to, or chosen in a linked view): where the keyboard moves from */
  #focusIndex = 0;
  /** the selected cell is highlighted (until Escape, or until the linked views choose none) */
  #focusShown = false;
  /** the last choice was a finger's: its cell is read out under the map, not in a tooltip over the cells it would hide */
  #touched = false;
  #hoverIndex: number | null = null;
  /** the row lit as a whole by a linked view (highlightRow), or null */
  #litRow: number | null = null;
  /** tells first-draw.ts once this heatmap has drawn (or is gone): the page's charts load after that */
  readonly #drawnSignal = heatmapWaiting();

  constructor(host: HTMLElement, options: HeatmapOptions) {
    const fig = document.createElement('figure');
    // the figure strings in the language of the section's strings, else of the page around the figure
    const t: Translate = (key) => figureTranslator(options.t, options.lang ?? (options.t ? undefined : langOfNode(fig)))(key);
    super({
      title: options.title,
      t,
      heading: { tag: 'h3' },
      fileName: options.exportName ?? options.id,
      exports:
        options.exportable === false
          ? undefined
          : {
              png: async (title) => {
                const picture = await this.#picture(title);
                return picture && picture.draw.figureCanvas(picture.figure, Math.max(2, globalThis.devicePixelRatio || 1));
              },
              svg: async (title) => {
                const picture = await this.#picture(title);
                return picture && picture.draw.figureSvg(picture.figure);
              },
              table: () => this.#data,
              json: () => this.exportData(),
              html: async () => {
                const data = this.exportData();
                return data && (await import('../embed/standalone')).standaloneMatrixHtml(data);
              },
              embed: figureEmbedHandler(() => this.exportData()),
            },
    });
    this.#t = t;
    this.#options = options;
    this.#scale = new ColorScale(0, 1, options.diverging === true);
    fig.className = 'heatmap';
    fig.id = options.id;

    const cap = document.createElement('figcaption');
    cap.append(this.heading!);
    if (this.menu) cap.append(this.menu);

    // frame: holds the fade at a cut edge; box: scrolls sideways; inner: sized to the matrix
    this.#frame = document.createElement('div');
    this.#frame.className = 'heatmap-frame';
    this.#box = document.createElement('div');
    this.#box.className = 'chart-box';
    this.#inner = document.createElement('div');
    this.#inner.className = 'chart-inner';
    this.#canvas = document.createElement('canvas');
    this.#canvas.tabIndex = 0;
    this.#canvas.setAttribute('role', 'img');
    const focusId = `${options.id}-focus`;
    this.#canvas.setAttribute('aria-describedby', focusId);
    // named before its data arrives (a figure that is still loading is an image with a name)
    this.#canvas.setAttribute('aria-label', options.title || t('heatmap.loading'));
    this.#inner.append(this.#canvas);
    this.#box.append(this.#inner);
    this.#frame.append(this.#box);

    // what is out of view, and buttons that scroll to it (hidden while everything fits)
    this.#scroller = new ColumnScroller(this.#frame, this.#box, () => this.#t);

    this.#legend = new HeatmapLegend(options.diverging === true);

    this.#focusText = document.createElement('p');
    this.#focusText.className = 'focus-text';
    this.#focusText.id = focusId;
    this.#focusText.setAttribute('aria-live', 'polite');

    this.#output = document.createElement('output');
    this.#output.className = 'heatmap-data';
    this.#output.hidden = true;

    this.#tableBox.append(this.#table);
    // the readout of the chosen cell shares the legend's line when there is room
    const foot = Object.assign(document.createElement('div'), { className: 'heatmap-foot' });
    foot.append(this.#legend.element, this.#focusText);
    fig.append(cap, this.#frame, this.#scroller.element, foot, this.#tableBox, this.#output, this.#tooltip.element);
    host.append(fig);
    this.element = fig;
    ensureStyles(fig);
    this.#drawer = new DeferredDraw(this.#canvas, (ctx, w, h) => this.#paint(ctx, w, h), { ready: false });
    restyleOnSchemeChange(this);

    listenForCells(this.#canvas, {
      layout: () => {
        this.#drawer?.ensure(); // the cells must be placed to know which one is under the pointer
        return this.#layout;
      },
      selected: () => this.#focusIndex,
      hover: (index, source) => this.#hover(index, source),
      select: (index, source) => this.#select(index, source),
      clear: () => this.#clearFocus(),
      blurred: () => this.#drawer?.request(), // the tooltip of the selected cell goes with the focus
    });
    this.#box.addEventListener(
      'scroll',
      () => {
        this.#hover(null, 'pointer');
        this.#drawer?.request(); // the row labels follow the scroll
      },
      { passive: true },
    );
  }

  override get title(): string {
    return super.title;
  }

  override set title(text: string) {
    super.title = text;
    const caption = this.#table.caption;
    if (caption) caption.textContent = text;
  }

  /** The figure's current numbers, as the JSON export writes them. */
  exportData(): { title: string; rows: number; cols: number; rowLabels: string[]; colLabels: string[]; values: number[]; range: [number, number] } | null {
    const d = this.#data;
    if (!d) return null;
    return {
      title: this.title,
      rows: d.rows,
      cols: d.cols,
      rowLabels: [...d.rowLabels],
      colLabels: [...d.colLabels],
      values: [...d.values],
      range: [this.#scale.min, this.#scale.max],
    };
  }

  #scene(): HeatmapScene | null {
    const d = this.#data;
    if (!d) return null;
    return {
      ...d,
      scale: this.#scale,
      digits: this.#options.digits ?? 2,
      xTitle: this.#options.xTitle,
      yTitle: this.#options.yTitle,
      active: this.#active(),
      litRow: this.#litRow,
      stickyX: this.#box.scrollLeft,
      viewWidth: this.#box.clientWidth || undefined,
    };
  }

  /** The whole figure for its PNG and SVG: title, every column, axis titles, legend (code loaded on demand). */
  async #picture(title: string) {
    const scene = this.#scene();
    if (!scene) return null;
    const draw = await import('./heatmap-export');
    const group = this.#sharedGroup();
    const figure = {
      title,
      scene,
      legend: {
        min: this.#scale.min,
        max: this.#scale.max,
        note: group ? fill(this.#t('heatmap.legend.shared'), { count: group.size }) : undefined,
      },
      gridHeight: Math.max(110, this.#box.clientHeight || this.#data!.rows * 38 + 42),
    };
    return { draw, figure };
  }

  /** the scale group in effect (none with a fixed range, or alone in it) */
  #sharedGroup(): HeatmapScaleGroup | null {
    const group = this.#options.scaleGroup;
    return group && !this.#options.fixedRange && group.size > 1 ? group : null;
  }

  update(data: HeatmapData): void {
    const { rows, cols, values, rowLabels, colLabels, rowLang, colLang } = data;
    if (values.length !== rows * cols) throw new Error(`heatmap: expected ${rows * cols} values, got ${values.length}`);

    if (rowLabels.length !== rows || colLabels.length !== cols) {
      throw new Error(`heatmap: ${rows}×${cols} values but ${rowLabels.length} row and ${colLabels.length} column labels`);
    }
    const before = this.#data;
    this.#data = { rows, cols, values: Array.from(values), rowLabels: [...rowLabels], colLabels: [...colLabels], rowLang, colLang };

    let [min, max] = this.#options.fixedRange ?? [Infinity, -Infinity];
    if (!this.#options.fixedRange) {
      for (let i = 0; i < values.length; i++) {
        if (!Number.isFinite(values[i])) continue;
        min = Math.min(min, values[i]);
        max = Math.max(max, values[i]);
      }
      if (min > max) [min, max] = [0, 1]; // no finite values
    }
    this.#ownRange = [min, max];

    // columns never narrower than readable: a wide matrix scrolls (row labels stay), it never squashes
    const measure = measurer();
    const { xTitle, yTitle, minColumnWidth } = this.#options;
    if (measure) {
      this.#inner.style.minWidth = `${minimumWidth(measure, { rowLabels, colLabels, cols, yTitle }, minColumnWidth)}px`;
      this.#box.style.height = `${preferredHeight(measure, { rows, cols, colLabels, xTitle, yTitle }, minColumnWidth)}px`;
    } else {
      this.#box.style.height = `${Math.min(380, Math.max(110, rows * 38 + 42))}px`;
    }
    this.#output.dataset.shape = `${rows},${cols}`;
    this.#output.value = JSON.stringify(Array.from(values));
    const table = heatmapTable(this.title, this.#data, this.#options.digits ?? 2, this.#options.yTitle ?? '');
    this.#table.replaceWith(table);
    this.#table = table;
    this.#keepSelectedCell(before);
    if (this.#hoverIndex !== null && this.#hoverIndex >= values.length) this.#hoverIndex = null;

    const group = this.#options.fixedRange ? undefined : this.#options.scaleGroup;
    if (group) group.report(this, min, max);
    this.rescale();
    this.#drawer?.ready();
    if (this.#focusShown && (this.#canvas.matches(':focus') || this.#focusText.textContent)) this.#announce();
  }

  /**
   * New data keeps the selected cell's row and column where they still exist (the readout then names
   * the new labels and value); a cell that is gone is unselected and its readout cleared, never left
   * naming words or values the figure no longer shows.
   */
  #keepSelectedCell(before: HeatmapValues | null): void {
    const d = this.#data;
    if (!d) return;
    const row = before?.cols ? Math.floor(this.#focusIndex / before.cols) : 0;
    const col = before?.cols ? this.#focusIndex % before.cols : 0;
    if (row < d.rows && col < d.cols) {
      this.#focusIndex = row * d.cols + col;
      return;
    }
    this.#focusIndex = 0;
    this.#focusShown = false;
    this.#focusText.textContent = '';
  }

  /** Calls `listener` with every cell event (hover, select, leave); returns a function that stops it. */
  onCell(listener: CellListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Highlights a cell chosen in a linked view (null: none), without an event or an announcement. */
  showCell(cell: CellRef | null): void {
    const d = this.#data;
    if (!cell || !d || cell.row >= d.rows || cell.col >= d.cols || cell.row < 0 || cell.col < 0) {
      if (!this.#focusShown) return;
      this.#focusShown = false;
      this.#focusText.textContent = '';
    } else {
      const index = cell.row * d.cols + cell.col;
      if (this.#focusShown && index === this.#focusIndex) return;
      this.#focusIndex = index;
      this.#focusShown = true;
      // a readout already on screen follows the cell (it must never name a cell no longer chosen)
      if (this.#focusText.textContent) this.#announce();
    }
    this.#drawer?.request();
  }

  /**
   * Lights row `row` as a whole (null: none), for a linked view whose choice is a row of this map
   * (§3.4's Q and K maps light the query and key of the chosen pair); no event, no announcement.
   */
  highlightRow(row: number | null): void {
    if (row === this.#litRow) return;
    this.#litRow = row;
    this.#drawer?.request();
  }

  /** Recolours by the current range (own, fixed or shared); a scale group calls it when the union moves. */
  rescale(): void {
    if (!this.#data) return;
    const group = this.#options.fixedRange ? undefined : this.#options.scaleGroup;
    let [min, max] = (group?.range ?? this.#ownRange) as readonly [number, number];
    if (this.#options.diverging) {
      const m = Math.max(Math.abs(min), Math.abs(max)) || 1;
      [min, max] = [-m, m];
    }
    this.#scale = new ColorScale(min, max, this.#options.diverging === true);
    const t = this.#t;
    const shared = this.#sharedGroup();
    this.#legend.show(min, max, t, shared?.size ?? null, this.#options.scaleWhere ?? null);
    const d = this.#data;
    this.#canvas.setAttribute(
      'aria-label',
      fill(t('heatmap.aria'), { title: this.title, rows: d.rows, cols: d.cols, min: formatValue(min), max: formatValue(max) }),
    );
    this.#drawer?.request();
  }

  /** Repaints in the colours now in effect (scheme.ts): its labels' ink is the canvas's tokens. */
  restyle(): void {
    this.#drawer?.request();
  }

  destroy(): void {
    this.#drawnSignal(false);
    this.#options.scaleGroup?.leave(this);
    this.#drawer?.destroy();
    this.#drawer = null;
    this.element.remove();
  }

  /** The highlighted cell: the hovered one, else the focused one while focus is shown. */
  #active(): number | null {
    return this.#hoverIndex ?? (this.#focusShown ? this.#focusIndex : null);
  }

  /** The cell the tooltip is over: the hovered one, else the selected one while the canvas has focus. */
  #tipped(): number | null {
    return this.#hoverIndex ?? (this.#focusShown && !this.#touched && this.#canvas.matches(':focus') ? this.#focusIndex : null);
  }

  #paint(ctx: CanvasRenderingContext2D, width: number, height: number): void {
    const scene = this.#scene();
    if (!scene || scene.values.length === 0) {
      this.#layout = null;
      this.#tooltip.hide();
      this.#scroller.update(this.#layout);
      return;
    }
    // the labels in the page's colours (dark mode): the design system's tokens where they are set
    const style = getComputedStyle(this.#canvas);
    const token = (name: string) => style.getPropertyValue(name).trim();
    const ink = { tick: token('--lab-ink-soft'), title: token('--lab-muted'), background: token('--lab-panel') };
    this.#layout = paintHeatmap(ctx, width, height, { ...scene, ink });
    this.#drawnSignal();
    // for tests and tools: where every text landed (collision checks in any script), and what it says
    this.#output.dataset.texts = JSON.stringify(this.#layout.texts.map((b) => [b.kind, Math.round(b.x), Math.round(b.y), Math.round(b.width), Math.round(b.height), b.text]));
    this.#output.dataset.valueFont = String(this.#layout.valueFont);
    this.#output.dataset.litRow = this.#layout.litRow === null ? '' : String(this.#layout.litRow);
    // where the cells are on the canvas (CSS pixels): left, top, column width, row height
    const { left, top, colWidth, rowHeight } = this.#layout;
    this.#output.dataset.grid = [left, top, colWidth, rowHeight].map((v) => Math.round(v * 100) / 100).join(',');
    this.#scroller.update(this.#layout);
    this.#placeTooltip();
  }

  /** The tooltip over the active cell (after a draw: it needs the cells' places). */
  #placeTooltip(): void {
    const index = this.#tipped();
    const d = this.#data;
    const layout = this.#layout;
    if (index === null || !d || !layout || index >= d.values.length) {
      this.#tooltip.hide();
      return;
    }
    const fig = this.element;
    const canvasBox = this.#canvas.getBoundingClientRect();
    const figBox = fig.getBoundingClientRect();
    // the tooltip is positioned in the figure's padding box
    const inFigure = (i: number): AnchorBox => {
      const cell = cellRect(layout, i);
      return { ...cell, x: canvasBox.left - figBox.left - fig.clientLeft + cell.x, y: canvasBox.top - figBox.top - fig.clientTop + cell.y };
    };
    const r = Math.floor(index / d.cols);
    const c = index % d.cols;
    // the cell and its neighbours: from the cell up and left of it to the one down and right
    const first = inFigure(Math.max(0, r - 1) * d.cols + Math.max(0, c - 1));
    const last = inFigure(Math.min(d.rows - 1, r + 1) * d.cols + Math.min(d.cols - 1, c + 1));
    const neighbours = { x: first.x, y: first.y, width: last.x + last.width - first.x, height: last.y + last.height - first.y };
    this.#tooltip.show(`${this.#options.yTitle ? `${this.#options.yTitle} ` : ''}${d.rowLabels[r]} · ${this.#options.xTitle ? `${this.#options.xTitle} ` : ''}${d.colLabels[c]}`, formatValue(d.values[index], 4), inFigure(index), neighbours, fig.clientWidth, inFigure(0).y);
  }

  #emit(index: number, kind: 'hover' | 'select' | 'leave', source: CellSource): void {
    const d = this.#data;
    if (!d || index >= d.values.length) return;
    const event = { row: Math.floor(index / d.cols), col: index % d.cols, value: d.values[index], source, kind };
    for (const listener of this.#listeners) listener(event);
  }

  #hover(index: number | null, source: CellSource): void {
    const was = this.#hoverIndex;
    if (index === was) return;
    this.#hoverIndex = index;
    this.#drawer?.request();
    if (index !== null) this.#emit(index, 'hover', source);
    else if (was !== null) this.#emit(was, 'leave', source);
  }

  /** The reader chose cell `index`: highlighted, announced, and told to the linked views. */
  #select(index: number, source: CellSource): void {
    const d = this.#data;
    const drawer = this.#drawer;
    if (!drawer || !d || d.values.length === 0) return;
    this.#focusIndex = Math.max(0, Math.min(index, d.values.length - 1));
    this.#focusShown = true;
    this.#touched = source === 'touch';
    if (source !== 'pointer') this.#hoverIndex = null; // the keyboard or the finger takes over the highlight
    drawer.ensure(); // the cells must be placed now (scrolling to the cell, the tooltip)
    if (source === 'keyboard') this.#scrollToFocus();
    drawer.request();
    this.#announce();
    this.#emit(this.#focusIndex, 'select', source);
  }

  /** The selected cell in words, in the polite live region the canvas is described by. */
  #announce(): void {
    const d = this.#data;
    if (!d) return;
    const index = this.#focusIndex;
    const r = Math.floor(index / d.cols);
    const c = index % d.cols;
    this.#focusText.textContent = fill(this.#t('heatmap.cell'), { row: d.rowLabels[r], col: d.colLabels[c], value: formatValue(d.values[index], 4) });
  }

  /** Scrolls a wide matrix sideways so that the focused cell is in view. */
  #scrollToFocus(): void {
    if (!this.#layout) return;
    const cell = cellRect(this.#layout, this.#focusIndex);
    const box = this.#box;
    if (cell.x < box.scrollLeft + this.#layout.left) box.scrollLeft = Math.max(0, cell.x - this.#layout.left - 4);
    else if (cell.x + cell.width > box.scrollLeft + box.clientWidth) box.scrollLeft = cell.x + cell.width - box.clientWidth + 8;
  }

  /** Escape: no cell selected any more (the linked views are told). */
  #clearFocus(): void {
    if (!this.#focusShown) return;
    this.#focusShown = false;
    this.#drawer?.request();
    this.#focusText.textContent = '';
    this.#emit(this.#focusIndex, 'leave', 'keyboard');
  }
}
