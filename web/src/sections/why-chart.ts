// §1's chart: token accuracy (solid) and exact match (dotted) against input length for the plain
// and the attention model. Only the Chart.js parts a line chart needs are registered.
import { CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { DeferredChart } from '../deferred-chart';
import type { WhySnapshot } from './why-run';

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Legend, Tooltip);

const PLAIN = '#c2410c';
const ATTENTION = '#1d4ed8';

export class WhyChart {
  readonly #canvas: HTMLCanvasElement;
  /** built off the mount task, redrawn at most once a frame while training (deferred-chart.ts) */
  readonly #chart: DeferredChart<'line', (number | null)[], string>;

  constructor(host: HTMLElement, t: (key: string) => string) {
    const box = document.createElement('div');
    box.className = 'why-chart';
    this.#canvas = document.createElement('canvas');
    this.#canvas.setAttribute('role', 'img');
    this.#canvas.setAttribute('aria-label', t('why.chartLabel'));
    box.append(this.#canvas);
    host.append(box);
    const line = (label: string, color: string, dashed: boolean) => ({
      label,
      data: [] as (number | null)[],
      borderColor: color,
      backgroundColor: color,
      borderDash: dashed ? [3, 3] : [],
      borderWidth: dashed ? 1.5 : 2.5,
      pointRadius: dashed ? 2 : 4,
      pointStyle: color === PLAIN ? ('triangle' as const) : ('circle' as const),
      spanGaps: true,
    });
    this.#chart = new DeferredChart(this.#canvas, {
      type: 'line',
      data: {
        labels: [],
        datasets: [
          line(t('why.plain'), PLAIN, false),
          line(t('why.attention'), ATTENTION, false),
          line(`${t('why.plain')} · ${t('why.exact')}`, PLAIN, true),
          line(`${t('why.attention')} · ${t('why.exact')}`, ATTENTION, true),
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: {
          x: { type: 'category', title: { display: true, text: t('why.axis.length') } },
          y: {
            type: 'linear',
            min: 0,
            max: 1,
            title: { display: true, text: t('why.axis.accuracy') },
            ticks: { callback: (v) => `${Math.round(Number(v) * 100)}%` },
          },
        },
        plugins: {
          legend: { position: 'bottom', labels: { boxWidth: 18, font: { size: 11 } } },
          tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${(100 * Number(item.raw)).toFixed(1)}%` } },
        },
      },
    });
  }

  /** The canvas, drawn (built now if it was still waiting): for the PNG export. */
  get canvas(): HTMLCanvasElement {
    this.#chart.ensure();
    return this.#canvas;
  }

  update(s: WhySnapshot): void {
    this.#chart.change((c) => {
      c.data.labels = s.lengths.map(String);
      c.data.datasets[0].data = [...s.plain];
      c.data.datasets[1].data = [...s.attention];
      c.data.datasets[2].data = [...s.exactPlain];
      c.data.datasets[3].data = [...s.exactAttention];
    });
  }

  destroy(): void {
    this.#chart.destroy();
  }
}
