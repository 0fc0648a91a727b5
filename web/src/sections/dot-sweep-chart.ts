// The saturation chart of §3.2: max weight, entropy and softmax-Jacobian norm against the feature
// size d (log axis 1 … 1024), unscaled (dashed) and scaled (solid), with a vertical marker at the
// slider's d. Only the Chart.js parts a line chart needs are registered.
import {
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  Tooltip,
  type Plugin,
} from 'chart.js';
import { DeferredChart } from '../deferred-chart';
import { SWEEP_GRID, type SoftmaxMetrics, type SweepPoint } from './dot-sweep';

Chart.register(LineController, LineElement, PointElement, LinearScale, LogarithmicScale, Legend, Tooltip);

const METRICS: readonly { key: keyof SoftmaxMetrics; label: string; color: string }[] = [
  { key: 'maxWeight', label: 'dot.metric.maxWeight', color: '#1d4ed8' },
  { key: 'entropy', label: 'dot.metric.entropy', color: '#c2410c' },
  { key: 'jacobian', label: 'dot.metric.jacobian', color: '#15803d' },
];

export class SweepChart {
  readonly #canvas: HTMLCanvasElement;
  /** built off the mount task, redrawn at most once a frame (deferred-chart.ts) */
  readonly #chart: DeferredChart<'line', { x: number; y: number }[]>;
  #marker = 1;

  constructor(host: HTMLElement, t: (key: string) => string) {
    const box = document.createElement('div');
    box.className = 'dot-sweep-chart';
    this.#canvas = document.createElement('canvas');
    this.#canvas.setAttribute('role', 'img');
    this.#canvas.setAttribute('aria-label', t('dot.sweep.chartLabel'));
    box.append(this.#canvas);
    host.append(box);
    const datasets = METRICS.flatMap((metric) =>
      (['unscaled', 'scaled'] as const).map((variant) => ({
        label: `${t(metric.label)} (${t(`dot.variant.${variant}`)})`,
        data: [] as { x: number; y: number }[],
        borderColor: metric.color,
        backgroundColor: metric.color,
        borderDash: variant === 'unscaled' ? [6, 4] : [],
        pointStyle: variant === 'unscaled' ? ('triangle' as const) : ('circle' as const),
        pointRadius: 3,
        borderWidth: 2,
      })),
    );
    this.#chart = new DeferredChart(this.#canvas, {
      type: 'line',
      data: { datasets },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        parsing: false,
        scales: {
          x: {
            type: 'logarithmic',
            min: 1,
            max: 1024,
            title: { display: true, text: 'd' },
            // ticks at the computed points only (powers of two), not Chart.js's 1, 2, 3 … 9, 10, 20 …
            afterBuildTicks: (axis) => {
              axis.ticks = SWEEP_GRID.map((value) => ({ value }));
            },
            ticks: { callback: (v) => String(v), maxRotation: 0 },
          },
          y: { type: 'linear', min: 0, title: { display: false, text: '' } },
        },
        plugins: { legend: { position: 'bottom', labels: { boxWidth: 18, font: { size: 11 } } } },
      },
      plugins: [this.#markerPlugin()],
    });
  }

  /** The canvas, drawn (built now if it was still waiting): for the PNG export. */
  get canvas(): HTMLCanvasElement {
    this.#chart.ensure();
    return this.#canvas;
  }

  update(points: readonly SweepPoint[]): void {
    this.#chart.change((chart) => {
      let i = 0;
      for (const metric of METRICS) {
        for (const variant of ['unscaled', 'scaled'] as const) {
          chart.data.datasets[i++].data = points.map((p) => ({ x: p.d, y: p[variant][metric.key] }));
        }
      }
    });
  }

  set marker(d: number) {
    this.#marker = d;
    this.#chart.redraw();
  }

  destroy(): void {
    this.#chart.destroy();
  }

  /** A vertical line at the slider's d. */
  #markerPlugin(): Plugin<'line'> {
    return {
      id: 'sweepMarker',
      afterDatasetsDraw: (chart) => {
        const x = chart.scales.x.getPixelForValue(this.#marker);
        const { top, bottom, left, right } = chart.chartArea;
        if (!(x >= left && x <= right)) return;
        const ctx = chart.ctx;
        ctx.save();
        ctx.strokeStyle = '#0f172a';
        ctx.lineWidth = 1.5;
        ctx.setLineDash([2, 3]);
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, bottom);
        ctx.stroke();
        ctx.fillStyle = '#0f172a';
        ctx.font = '12px system-ui, sans-serif';
        ctx.textAlign = x > (left + right) / 2 ? 'right' : 'left';
        ctx.fillText(`d = ${this.#marker}`, x + (ctx.textAlign === 'right' ? -4 : 4), top + 12);
        ctx.restore();
      },
    };
  }
}
