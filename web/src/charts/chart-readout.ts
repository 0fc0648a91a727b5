// The readout of every chart: a small HTML box beside the hovered, tapped or keyboard-chosen point
// with its x (or category) and each series' value there, each after a swatch of its colour. It
// replaces Chart.js's Tooltip plugin (about 5 KB gzip of every page with a chart): Chart.js's core
// already finds the hovered elements (the chart's `interaction` options), this plugin only writes
// them out. The canvas takes focus: the arrow keys (Home, End) walk its points and show each one's
// readout. What a tap, a click or a key chose is also said in a polite live region beside the canvas
// (never what the mouse merely passes over). Text is set with textContent, never parsed as HTML; the
// box is styled by design.css (.lab-chart-readout), so it follows the page's colours, dark mode included.
import type { ActiveElement, Chart, ChartEvent, Plugin } from 'chart.js';

/** What the readout says about the hovered elements. */
export interface ReadoutFormat {
  /** the heading: the hovered x or category ('' for none) */
  title(items: readonly ActiveElement[], chart: Chart): string;
  /** one item's line ('' leaves it out) */
  line(item: ActiveElement, chart: Chart): string;
  /** the points the keyboard walks, in order: each is the elements read together (null: none yet) */
  stops(chart: Chart): ActiveElement[][];
}

/** gap between the hovered point and the box, CSS pixels */
const GAP = 12;

/** The colour a series is drawn in, for its swatch. */
function swatchColor(chart: Chart, item: ActiveElement): string {
  const ds = chart.data.datasets[item.datasetIndex] as { borderColor?: unknown; backgroundColor?: unknown } | undefined;
  const c = ds?.backgroundColor ?? ds?.borderColor;
  const one = Array.isArray(c) ? c[item.index % c.length] : c;
  return typeof one === 'string' ? one : '';
}

/** Which stop a key moves to from `at` (-1: none yet) among `count`; null: not a walking key. */
export function stopAfterKey(key: string, at: number, count: number): number | null {
  if (count === 0) return null;
  const next = key === 'ArrowRight' || key === 'ArrowDown' ? at + 1 : key === 'ArrowLeft' || key === 'ArrowUp' ? (at < 0 ? count - 1 : at - 1) : key === 'Home' ? 0 : key === 'End' ? count - 1 : null;
  return next === null ? null : Math.max(0, Math.min(next, count - 1));
}

/** The keyboard's stops of an index-mode chart: every shown series' element at each index, left to right. */
export function indexStops(chart: Chart): ActiveElement[][] {
  const metas = chart.data.datasets.map((_, i) => chart.getDatasetMeta(i)).filter((m) => !m.hidden);
  const count = Math.max(0, ...metas.map((m) => m.data.length));
  return Array.from({ length: count }, (_, index) =>
    metas.filter((m) => m.data[index]).map((m) => ({ datasetIndex: m.index, index, element: m.data[index] }) as ActiveElement),
  );
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

  constructor(format: ReadoutFormat) {
    this.#format = format;
    this.plugin = {
      id: 'labReadout',
      afterEvent: (chart: Chart, args: { event: ChartEvent }) => {
        const event = args.event;
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

  /** Focus, the keyboard's walk, and the live region for `canvas` (its chart from `chart()`). */
  attach(canvas: HTMLCanvasElement, chart: () => Chart | null): void {
    canvas.tabIndex = 0;
    canvas.addEventListener('keydown', (e) => {
      const c = chart();
      if (!c) return;
      if (e.key === 'Escape') {
        this.#at = -1;
        c.setActiveElements([]);
        c.update('none');
        return this.#hide();
      }
      const stops = this.#format.stops(c);
      const next = stopAfterKey(e.key, this.#at, stops.length);
      if (next === null) return;
      e.preventDefault();
      this.#at = next;
      const active = stops[next];
      c.setActiveElements(active);
      c.update('none');
      const anchor = active[0]?.element;
      if (anchor) this.#show(c, active, anchor.x, anchor.y, true);
    });
    canvas.addEventListener('blur', () => this.#hide());
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
