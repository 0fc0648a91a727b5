// The hover readout of every chart: a small HTML box beside the pointer with the hovered x (or
// category) and each series' value there, each after a swatch of its colour. It replaces Chart.js's
// Tooltip plugin (about 5 KB gzip of every page with a chart): Chart.js's core already finds the
// hovered elements (the chart's `interaction` options), this plugin only writes them out. Text is
// set with textContent, never parsed as HTML; the box is styled by design.css (.lab-chart-readout),
// so it follows the page's colours, dark mode included.
import type { ActiveElement, Chart, ChartEvent, Plugin } from 'chart.js';

/** What the readout says about the hovered elements. */
export interface ReadoutFormat {
  /** the heading: the hovered x or category ('' for none) */
  title(items: readonly ActiveElement[], chart: Chart): string;
  /** one item's line ('' leaves it out) */
  line(item: ActiveElement, chart: Chart): string;
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

/** A Chart.js plugin (for one chart's `plugins` list) that shows `format`'s readout on hover. */
export function readoutPlugin(format: ReadoutFormat): Plugin {
  let box: HTMLDivElement | null = null;
  const hide = () => {
    if (box) box.hidden = true;
  };
  return {
    id: 'labReadout',
    afterEvent(chart: Chart, args: { event: ChartEvent }) {
      const event = args.event;
      const active = event.type === 'mouseout' ? [] : chart.getActiveElements();
      if (!active.length || event.x === null || event.y === null) return hide();
      const lines = active.map((item) => ({ item, text: format.line(item, chart) })).filter((l) => l.text);
      const title = format.title(active, chart);
      if (!lines.length && !title) return hide();
      const canvas = chart.canvas;
      const host = canvas.parentElement;
      if (!host) return;
      if (!box) {
        box = document.createElement('div');
        box.className = 'lab-chart-readout';
        // the values are in the chart's data exports and its neighbouring text; the box follows the pointer
        box.setAttribute('aria-hidden', 'true');
      }
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
      // beside the hovered element, on whichever side has room, inside the canvas's box
      const anchor = active[0].element;
      const ax = Number.isFinite(anchor.x) ? anchor.x : event.x;
      const ay = chart.options.indexAxis === 'y' && Number.isFinite(anchor.y) ? anchor.y : event.y;
      const w = box.offsetWidth;
      const h = box.offsetHeight;
      let left = ax + GAP;
      if (left + w > chart.width) left = Math.max(0, ax - GAP - w);
      const top = Math.min(Math.max(0, ay - h / 2), Math.max(0, chart.height - h));
      box.style.left = `${Math.round(canvas.offsetLeft + left)}px`;
      box.style.top = `${Math.round(canvas.offsetTop + top)}px`;
    },
    afterDestroy() {
      box?.remove();
      box = null;
    },
  };
}
