// The readout of every chart: a small HTML box beside the hovered, tapped or keyboard-chosen point
// with its x (or category) and each series' value there, each after a swatch of its colour. It
// replaces Chart.js's Tooltip plugin (about 5 KB gzip of every page with a chart): Chart.js's core
// already finds the hovered elements (the chart's `interaction` options), this plugin only writes
// them out. The canvas takes focus: the arrow keys (Home, End) walk its points and show each one's
// readout. What a tap, a click or a key chose is also said in a polite live region beside the canvas
// (never what the mouse merely passes over). Text is set with textContent, never parsed as HTML; the
// box is styled by charts.css (.lab-chart-readout), so it follows the page's colours, dark mode included.
// The same numbers as a table sit behind a "Data table" disclosure under the chart (ChartTable):
// closed, it costs one line (its table's code, chart-table-build.ts, loads when first opened); open,
// it follows the chart's updates.
import type { ActiveElement, Chart, ChartEvent, Plugin } from 'chart.js';
import { figureTranslator, langOfNode } from '../figure-strings';

/** What the readout says about the hovered elements. */
export interface ReadoutFormat {
  /** the heading: the hovered x or category ('' for none) */
  title(items: readonly ActiveElement[], chart: Chart): string;
  /** one item's line ('' leaves it out) */
  line(item: ActiveElement, chart: Chart): string;
}

/** the keys that walk a chart's points (chart-keys.ts) */
const WALK_KEYS = /^(Arrow|Home$|End$|Escape$)/;

/** gap between the hovered point and the box, CSS pixels */
const GAP = 12;

/**
 * How long after a finger lifts a mouseout still counts as part of the tap, ms. After a tap a
 * browser sends the mouse events a mouse would have (mousemove, mousedown, mouseup, click); Chrome's
 * headless shell then sends a mouseout too, which would hide the readout the tap chose at once.
 * A phone keeps it until the reader taps elsewhere, and so does the chart whatever the browser.
 */
const TAP_MS = 500;

/** The colour a series is drawn in, for its swatch. */
function swatchColor(chart: Chart, item: ActiveElement): string {
  const ds = chart.data.datasets[item.datasetIndex] as { borderColor?: unknown; backgroundColor?: unknown } | undefined;
  const c = ds?.backgroundColor ?? ds?.borderColor;
  const one = Array.isArray(c) ? c[item.index % c.length] : c;
  return typeof one === 'string' ? one : '';
}

/**
 * A chart's readout: `plugin` goes into the chart's `plugins` list; `attach(canvas, chart)` makes the
 * canvas focusable and walkable by keyboard (`chart()` gives the built chart, or null while it waits).
 */
export class ChartReadout {
  readonly plugin: Plugin;
  readonly #format: ReadoutFormat;
  #box: HTMLDivElement | null = null;
  #live: HTMLElement | null = null;
  /** the keyboard's stop (-1: none yet) */
  #at = -1;
  /** when a finger last lifted from the canvas (event time, ms) */
  #touchEnd = -Infinity;

  constructor(format: ReadoutFormat) {
    this.#format = format;
    this.plugin = {
      id: 'labReadout',
      afterEvent: (chart: Chart, args: { event: ChartEvent }) => {
        const event = args.event;
        if (event.type === 'mouseout' && event.native && event.native.timeStamp - this.#touchEnd < TAP_MS) return;
        const active = event.type === 'mouseout' ? [] : chart.getActiveElements();
        if (!active.length || event.x === null || event.y === null) return this.#hide();
        // a click, or a finger down (Chart.js reports a touchstart as a mousedown): a choice to say
        const chosen = event.type === 'click' || event.type === 'mousedown';
        this.#show(chart, active, event.x, event.y, chosen);
      },
      afterDestroy: () => {
        this.#box?.remove();
        this.#box = null;
        this.#live?.remove();
        this.#live = null;
      },
    };
  }

  /**
   * Focus and the keyboard's walk for `canvas` (its chart from `chart()`, built now if need be): the
   * walk's code (chart-keys.ts) loads with the first key.
   */
  attach(canvas: HTMLCanvasElement, chart: () => Chart | null): void {
    canvas.tabIndex = 0;
    canvas.addEventListener('keydown', (e) => {
      if (!WALK_KEYS.test(e.key)) return;
      e.preventDefault(); // no page scroll: the key is the chart's
      void import('./chart-keys').then(({ walk }) => {
        const c = chart();
        if (!c) return;
        this.#at = walk(c, e.key, this.#at);
        const active = c.getActiveElements();
        if (this.#at < 0 || !active.length) return this.#hide();
        this.#show(c, active, active[0].element.x, active[0].element.y, true);
      });
    });
    canvas.addEventListener('blur', () => this.#hide());
    canvas.addEventListener(
      'pointerup',
      (e) => {
        if (e.pointerType === 'touch') this.#touchEnd = e.timeStamp;
      },
      { passive: true },
    );
  }

  #hide(): void {
    if (this.#box) this.#box.hidden = true;
  }

  /** The box beside (x, y); `chosen` (a tap, a click, a key): also said in the live region. */
  #show(chart: Chart, active: ActiveElement[], x: number, y: number, chosen: boolean): void {
    const format = this.#format;
    const lines = active.map((item) => ({ item, text: format.line(item, chart) })).filter((l) => l.text);
    const title = format.title(active, chart);
    if (!lines.length && !title) return this.#hide();
    const canvas = chart.canvas;
    const host = canvas.parentElement;
    if (!host) return;
    if (!this.#box) {
      this.#box = document.createElement('div');
      this.#box.className = 'lab-chart-readout';
    }
    const box = this.#box;
    if (box.parentElement !== host) host.append(box);
    const rows: HTMLElement[] = [];
    if (title) {
      const head = document.createElement('div');
      head.className = 'lab-chart-readout-title';
      head.textContent = title;
      rows.push(head);
    }
    for (const { item, text } of lines) {
      const row = document.createElement('div');
      const swatch = document.createElement('span');
      swatch.className = 'lab-chart-readout-swatch';
      swatch.style.background = swatchColor(chart, item);
      row.append(swatch, text);
      rows.push(row);
    }
    box.replaceChildren(...rows);
    box.hidden = false;
    if (chosen) this.#announce(host, [title, ...lines.map((l) => l.text)].filter(Boolean).join('; '));
    // beside the hovered element, on whichever side has room, inside the canvas's box
    const anchor = active[0].element;
    const ax = Number.isFinite(anchor.x) ? anchor.x : x;
    const ay = chart.options.indexAxis === 'y' && Number.isFinite(anchor.y) ? anchor.y : y;
    const w = box.offsetWidth;
    const h = box.offsetHeight;
    let left = ax + GAP;
    if (left + w > chart.width) left = Math.max(0, ax - GAP - w);
    const top = Math.min(Math.max(0, ay - h / 2), Math.max(0, chart.height - h));
    box.style.left = `${Math.round(canvas.offsetLeft + left)}px`;
    box.style.top = `${Math.round(canvas.offsetTop + top)}px`;
  }

  #announce(host: HTMLElement, text: string): void {
    if (!this.#live) {
      this.#live = document.createElement('p');
      this.#live.className = 'lab-chart-live';
      this.#live.setAttribute('aria-live', 'polite');
    }
    if (this.#live.parentElement !== host) host.append(this.#live);
    this.#live.textContent = text;
  }
}

/** What a chart's table shows: rows of text, or series of points (one row per x, one column per series). */
export type TableData = { caption: string; head: string[] } & (
  | { rows: string[][] }
  | { series: readonly (readonly { x: number; y: number | null }[])[]; x: (x: number) => string; y: (y: number) => string }
);

export class ChartTable {
  readonly element = document.createElement('details');
  readonly #read: () => TableData;

  /** Placed right after `host`; `read()` gives the current numbers (called only while open). */
  constructor(host: HTMLElement, read: () => TableData) {
    this.#read = read;
    this.element.className = 'lab-chart-table';
    this.element.append(document.createElement('summary'));
    this.element.addEventListener('toggle', () => this.refresh());
    host.after(this.element);
    this.#name(); // named before the first numbers arrive: a summary is never empty
    // a chart built before its figure is on the page cannot know the page's language yet
    if (!this.element.isConnected) requestAnimationFrame(() => this.#name());
  }

  /** The summary's text, in the page's language where the table sits. */
  #name(): void {
    this.element.firstChild!.textContent = figureTranslator(undefined, langOfNode(this.element))('chart.table');
  }

  /** Rebuilds the table if it is open (the summary's text follows the page's language). */
  refresh(): void {
    this.#name();
    // the table's code is loaded when a reader first opens one (most never do)
    if (this.element.open || this.element.childElementCount > 1) void import('./chart-table-build').then((m) => m.fillTable(this.element, this.#read()));
  }
}
