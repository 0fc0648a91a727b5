// A chart's legend as HTML under the chart (real text: selectable, translated, read by screen
// readers), instead of Chart.js's Legend plugin, which would add about 3 KB gzip to every page with
// a chart. Each entry shows its series' line (solid or dashed) with its marker, or a filled box
// for bars, in the colours the chart is drawn with; the entries are also kept per canvas for the
// exports (chart-export.ts draws them under the chart). Styled by charts.css (.lab-chart-legend).
import { inDarkScope, seriesColor } from './deferred-chart';

export interface LegendEntry {
  readonly label: string;
  /** the series' light colour (seriesColor gives the one drawn) */
  readonly color: string;
  /** a bar series (a filled box) rather than a line */
  readonly box?: boolean;
  /** the series' dash pattern (drawn as the chart draws it); solid when absent */
  readonly dash?: readonly number[];
  readonly marker?: 'none' | 'circle' | 'triangle' | 'rect';
  /** false: the marker alone (a series drawn as points) */
  readonly line?: boolean;
}

/** A left-to-right CSS gradient of `dash`'s on and off lengths (px), repeated, in `color`. */
export function dashGradient(dash: readonly number[], color: string): string {
  const pattern = dash.length % 2 ? [...dash, ...dash] : dash;
  const stops: string[] = [];
  let at = 0;
  pattern.forEach((length, i) => {
    stops.push(`${i % 2 ? 'transparent' : color} ${at}px ${at + length}px`);
    at += length;
  });
  return `repeating-linear-gradient(to right, ${stops.join(', ')})`;
}

/** per chart canvas, its legend entries (read by the exports) */
export const chartLegends = new WeakMap<HTMLCanvasElement, readonly LegendEntry[]>();

export class ChartLegend {
  readonly element: HTMLUListElement;
  readonly #canvas: HTMLCanvasElement;
  #key = '';

  /** A legend for `canvas`'s chart, placed right after `host` (the box that sizes the chart). */
  constructor(host: HTMLElement, canvas: HTMLCanvasElement) {
    this.#canvas = canvas;
    this.element = document.createElement('ul');
    this.element.className = 'lab-chart-legend';
    host.after(this.element);
  }

  update(entries: readonly LegendEntry[]): void {
    chartLegends.set(this.#canvas, entries);
    // the colours drawn depend on the scheme too (a change of scheme updates the legend: scheme.ts)
    const key = JSON.stringify([inDarkScope(this.#canvas), entries]);
    if (key === this.#key) return; // unchanged: training redraws the chart often, the legend rarely
    this.#key = key;
    this.element.replaceChildren(
      ...entries.map((e) => {
        const item = document.createElement('li');
        const sample = document.createElement('span');
        const color = seriesColor(this.#canvas, e.color);
        if (e.box) {
          sample.className = 'lab-chart-legend-box';
          sample.style.background = color;
        } else {
          sample.className = 'lab-chart-legend-line';
          sample.style.borderTopColor = e.line === false ? 'transparent' : color;
          if (e.dash?.length) {
            // CSS's dashed border has one pattern; the gradient repeats the series' own dashes and gaps
            sample.classList.add('dashed');
            sample.style.backgroundImage = dashGradient(e.dash, color);
            sample.dataset.dash = e.dash.join(' ');
          }
          if (e.marker && e.marker !== 'none') {
            const marker = document.createElement('span');
            marker.className = `lab-chart-legend-marker ${e.marker}`;
            marker.style.background = color;
            sample.append(marker);
          }
        }
        sample.setAttribute('aria-hidden', 'true');
        const text = document.createElement('span');
        text.textContent = e.label;
        item.append(sample, text);
        return item;
      }),
    );
  }

  remove(): void {
    this.element.remove();
  }
}
