// The Performance section: the latest committed `npm run bench` figures (shared/bench/results.json,
// imported statically, so the page makes no request for them) as bar charts: attention GFLOP/s
// against N per implementation, the note recipe's µs per training step, the dates recipe's
// training examples per second; and a table of the browser figures (headless Chromium). No worker,
// no wasm: the numbers were measured by the benchmark.
import results from '#shared/bench/results.json';
import type { Chart, Plugin } from 'chart.js';
import { ChartLegend } from '../charts/chart-legend';
import { ChartReadout } from '../charts/chart-readout';
import { logScaleOptions, toLog } from '../charts/log-axis';
import { DeferredChart, pictureExports, seriesColor } from '../charts/deferred-chart';
import { downloadCsv, downloadJson, exportButtons } from '../export';
import type { Lang } from '../i18n';
import type { SectionContext, SectionHandle, SectionModule } from '../section';

interface Timing {
  median_s: number;
  min_s: number;
  max_s: number;
  gflops?: number;
  batch?: number;
}
interface AttentionRow {
  measure: string;
  N: number;
  native: Timing | null;
  wasm: Timing | null;
  torch: Timing | null;
}
/** The parts of results.json this section draws (bench/bench.mjs writes it). */
interface BenchResults {
  date: string;
  machine: { cpu: string | null; cores: number; load_before?: number[] };
  /** what the run skipped or where a figure comes from (English, shown as text) */
  notes?: string[];
  versions: Record<string, string | null>;
  attention?: AttentionRow[];
  note?: { native: { step: Timing }; wasm: { step: Timing }; torch: { step: Timing } | null; reference_torch_step_us: number };
  dates?: {
    native: { step: Timing };
    wasm: { step: Timing };
    tfjs: { step: Timing } | null;
    torch: { step: Timing } | null;
    reference_tfjs_examples_per_s: number;
  };
  browser?: BrowserResults | { skipped: string };
}
interface BrowserTraining {
  browser_step: Timing;
  browser_steps_per_s: number;
  node_steps_per_s: number;
  browser_vs_node: number;
  longest_task_ms: { median: number; max: number };
  long_tasks_over_50ms: number[];
}
/** results.browser (bench/lib/browser.mjs). */
interface BrowserResults {
  chromium: string;
  /** one timing per page (the bench times several, the browser's floor first); older runs: one */
  first_heatmap: Timing | (Timing & { page: string })[];
  app: { responses: number; gzip: number };
  widgets: { page: string; responses: number; gzip: number }[];
  training: { note?: BrowserTraining; dates?: BrowserTraining; transformer?: BrowserTraining };
}

const COLORS = { native: '#475569', wasm: '#1d4ed8', torch: '#c2410c', tfjs: '#15803d' } as const;
type Side = keyof typeof COLORS;
const ATTENTION_MEASURES = ['scaled_forward', 'scaled_forward_backward', 'mha_forward', 'mha_forward_backward'] as const;

const STRINGS = {
  en: {
    'perf.intro': 'For engineers: how fast the C++/Eigen core runs natively and as WebAssembly, side by side with PyTorch and TF.js in one run of npm run bench on one machine (medians; ± is the spread of the repeats). Run it on yours to compare. Higher is better except where noted.',
    'perf.machine': 'Machine',
    'perf.cores': '{n} cores',
    'perf.load': 'load before the run',
    'perf.attention': 'Attention kernels, GFLOP/s against N (D = 64, batch 1)',
    'perf.scaled_forward': 'Scaled dot-product, forward',
    'perf.scaled_forward_backward': 'Scaled dot-product, forward + backward',
    'perf.mha_forward': 'Multi-head (4 heads), forward',
    'perf.mha_forward_backward': 'Multi-head (4 heads), forward + backward',
    'perf.note': 'The note’s recipe: µs per training step (lower is better)',
    'perf.dates': 'Dates recipe: training examples per second',
    'perf.native': 'native C++',
    'perf.wasm': 'wasm (this page’s engine)',
    'perf.torch': 'PyTorch (1 thread)',
    'perf.tfjs': 'TF.js wasm',
    'perf.reference': 'published figure (another machine)',
    'perf.gflops': 'GFLOP/s',
    'perf.us': 'µs per step',
    'perf.eps': 'examples/s',
    'perf.missing': 'Not in the committed results.',
    'perf.browser': 'In the browser (headless Chromium, the built site)',
    'perf.b.measure': 'Measure',
    'perf.b.value': 'Value',
    'perf.b.heatmap': 'Navigation → first heatmap drawn',
    'perf.b.app': 'Download of the app, gzip',
    'perf.b.widget': 'Download of a page with one widget, gzip:',
    'perf.b.steps': 'Training steps/s in the worker (vs the same in Node):',
    'perf.b.longest': 'Longest main-thread task while training, in any run (tasks > 50 ms in each run):',
    'perf.b.files': 'files',
  },
  zh: {
    'perf.intro': '面向工程师：C++/Eigen 内核原生运行与编译为 WebAssembly 后的速度，在一台机器上由同一次 npm run bench 与 PyTorch、TF.js 并排测得（中位数；± 为重复测量的波动）。在你的机器上运行即可比较。除特别说明外，数值越高越好。',
    'perf.machine': '机器',
    'perf.cores': '{n} 核',
    'perf.load': '运行前负载',
    'perf.attention': '注意力内核：GFLOP/s 随 N 变化（D = 64，批大小 1）',
    'perf.scaled_forward': '缩放点积，前向',
    'perf.scaled_forward_backward': '缩放点积，前向 + 反向',
    'perf.mha_forward': '多头（4 头），前向',
    'perf.mha_forward_backward': '多头（4 头），前向 + 反向',
    'perf.note': '笔记的训练方案：每步微秒数（越低越好）',
    'perf.dates': '日期任务：每秒训练样本数',
    'perf.native': '原生 C++',
    'perf.wasm': 'wasm（本页引擎）',
    'perf.torch': 'PyTorch（单线程）',
    'perf.tfjs': 'TF.js wasm',
    'perf.reference': '公开数据（其他机器）',
    'perf.gflops': 'GFLOP/s',
    'perf.us': '每步微秒',
    'perf.eps': '样本/秒',
    'perf.missing': '提交的结果中没有这一项。',
    'perf.browser': '浏览器中（无头 Chromium，构建后的网站）',
    'perf.b.measure': '测量项',
    'perf.b.value': '数值',
    'perf.b.heatmap': '从导航到第一张热力图绘出',
    'perf.b.app': '整个应用的下载量（gzip）',
    'perf.b.widget': '只含一个组件的页面的下载量（gzip）：',
    'perf.b.steps': 'Worker 中每秒训练步数（对比 Node 中的同一模型）：',
    'perf.b.longest': '训练时主线程最长任务，取所有运行中最长者（每次运行中超过 50 ms 的任务数）：',
    'perf.b.files': '个文件',
  },
};

interface BarSeries {
  label: string;
  /** one colour, or one per bar */
  color: string | string[];
  values: (number | null)[];
}
interface BarData {
  labels: string[];
  series: BarSeries[];
}

/** One titled bar chart; update(data) redraws it with new labels and series. */
class BarChart {
  /** built off the mount task (deferred-chart.ts) */
  readonly #chart: DeferredChart<'bar', (number | null)[], string>;
  readonly #box: HTMLElement;
  readonly #legend: ChartLegend | null;
  /** a log value axis, drawn linear over log10 (log-axis.ts) */
  readonly #log: boolean;
  #data: BarData = { labels: [], series: [] };

  /** `name`: the export files' name; `t`: the section's strings (the export menu's labels) */
  constructor(host: HTMLElement, title: string, axis: string, options: { logarithmic?: boolean; legend?: boolean; name?: string; t?: (key: string) => string } = {}) {
    this.#log = options.logarithmic ?? false;
    this.#box = document.createElement('figure');
    this.#box.className = 'perf-chart';
    const caption = document.createElement('figcaption');
    caption.textContent = title;
    if (options.t) {
      const name = options.name ?? 'performance';
      caption.append(
        exportButtons(
          options.t,
          {
            ...pictureExports(this.#chartRef(), name, () => title),
            csv: () => downloadCsv(name, this.#data.labels, this.#data.series.map((s) => s.label || axis), this.#data.labels.flatMap((_, i) => this.#data.series.map((s) => s.values[i] ?? NaN))),
            json: () => downloadJson(name, { title, axis, ...this.#data }),
          },
          title,
        ),
      );
    }
    const wrap = document.createElement('div');
    wrap.style.position = 'relative';
    wrap.style.height = '260px';
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', title);
    wrap.append(canvas);
    this.#box.append(caption, wrap);
    host.append(this.#box);
    this.#legend = (options.legend ?? true) ? new ChartLegend(wrap, canvas) : null;
    const readout = new ChartReadout({
      title: (items) => (items.length ? (this.#data.labels[items[0].index] ?? '') : ''),
      line: (item) => {
        const s = this.#data.series[item.datasetIndex];
        const v = s?.values[item.index];
        return s && v !== null && v !== undefined ? `${s.label || axis}: ${Number(v.toPrecision(4))}` : '';
      },
    });
    this.#chart = new DeferredChart<'bar', (number | null)[], string>(canvas, {
      type: 'bar',
      data: { labels: [], datasets: [] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: {
          x: { type: 'category' },
          y: { type: 'linear', title: { display: true, text: axis } },
        },
        interaction: { mode: 'index', intersect: false },
      },
      plugins: [readout.plugin as Plugin<'bar'>],
    });
    readout.attach(canvas, () => this.#chart.ensure() as unknown as Chart | null);
  }

  /** the chart for the export handlers, which run only after the constructor */
  #chartRef(): { built: () => ReturnType<DeferredChart<'bar', (number | null)[], string>['built']> } {
    return { built: () => this.#chart.built() };
  }

  update(data: BarData): void {
    this.#data = data;
    this.#legend?.update(data.series.map((s) => ({ label: s.label, color: typeof s.color === 'string' ? s.color : (s.color[0] ?? ''), box: true })));
    // a log axis spans the powers of ten around the data; bars rise from its bottom
    const positive = data.series.flatMap((s) => s.values).filter((v): v is number => v !== null && v > 0);
    const lo = positive.length ? 10 ** Math.floor(toLog(Math.min(...positive))) : 1;
    const hi = positive.length ? 10 ** Math.ceil(toLog(Math.max(...positive))) : 10;
    this.#chart.change((chart) => {
      chart.data.labels = data.labels;
      if (this.#log) chart.options.scales = { ...chart.options.scales, y: { ...chart.options.scales?.y, ...logScaleOptions(lo, hi) } as never };
      chart.data.datasets = data.series.map((s) => {
        const color = typeof s.color === 'string' ? seriesColor(this.#chart.canvas, s.color) : s.color.map((c) => seriesColor(this.#chart.canvas, c));
        const values = this.#log ? s.values.map((v) => (v !== null && v > 0 ? toLog(v) : null)) : s.values;
        return { label: s.label, data: values, backgroundColor: color, borderColor: color, ...(this.#log ? { base: toLog(lo) } : {}) };
      });
    });
  }

  destroy(): void {
    this.#chart.destroy();
    this.#box.remove();
  }
}

/** GFLOP/s per N and implementation for one attention measure; null where a side did not run. */
function attentionBars(r: BenchResults, measure: string, label: (side: Side) => string): BarData {
  const rows = (r.attention ?? []).filter((row) => row.measure === measure).sort((a, b) => a.N - b.N);
  const sides: Side[] = ['native', 'wasm', 'torch'];
  return {
    labels: rows.map((row) => `N = ${row.N}`),
    series: sides
      .filter((side) => rows.some((row) => row[side as 'native' | 'wasm' | 'torch']))
      .map((side) => ({ label: label(side), color: COLORS[side], values: rows.map((row) => row[side as 'native' | 'wasm' | 'torch']?.gflops ?? null) })),
  };
}

/** One bar per implementation: the note recipe's µs per step, or the dates recipe's examples/s. */
function recipeBars(r: BenchResults, recipe: 'note' | 'dates', label: (side: Side | 'reference') => string): BarData {
  const bars: { label: string; value: number | null; color: string }[] = [];
  if (recipe === 'note' && r.note) {
    for (const side of ['native', 'wasm', 'torch'] as const) {
      const step = r.note[side]?.step;
      if (step) bars.push({ label: label(side), value: step.median_s * 1e6, color: COLORS[side] });
    }
    bars.push({ label: label('reference'), value: r.note.reference_torch_step_us, color: '#94a3b8' });
  }
  if (recipe === 'dates' && r.dates) {
    for (const side of ['native', 'wasm', 'tfjs', 'torch'] as const) {
      const step = r.dates[side]?.step;
      if (step) bars.push({ label: label(side), value: (step.batch ?? 128) / step.median_s, color: COLORS[side] });
    }
    bars.push({ label: label('reference'), value: r.dates.reference_tfjs_examples_per_s, color: '#94a3b8' });
  }
  return { labels: bars.map((b) => b.label), series: [{ label: '', color: bars.map((b) => b.color), values: bars.map((b) => b.value) }] };
}

/** The browser figures as [measure, value] rows (plain text: the caller sets textContent). */
function browserRows(b: BrowserResults, t: (key: string) => string): [string, string][] {
  const pct = (m: Timing) => `${Math.round(((m.max_s - m.min_s) / m.median_s) * 100)}%`;
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  const timing = (m: Timing) => `${Math.round(m.median_s * 1000)} ms ± ${pct(m)}`;
  const rows: [string, string][] = Array.isArray(b.first_heatmap)
    ? b.first_heatmap.map((m) => [`${t('perf.b.heatmap')}: ${m.page.replaceAll('`', '')}`, timing(m)])
    : [[t('perf.b.heatmap'), timing(b.first_heatmap)]];
  rows.push([t('perf.b.app'), `${kib(b.app.gzip)} (${b.app.responses} ${t('perf.b.files')})`]);
  for (const w of b.widgets) rows.push([`${t('perf.b.widget')} ${w.page}`, `${kib(w.gzip)} (${w.responses} ${t('perf.b.files')})`]);
  for (const task of ['note', 'dates', 'transformer'] as const) {
    const r = b.training[task];
    if (!r) continue;
    const label = task === 'transformer' ? '§4 Transformer' : task;
    rows.push([`${t('perf.b.steps')} ${label}`, `${Math.round(r.browser_steps_per_s)} ± ${pct(r.browser_step)} (Node ${Math.round(r.node_steps_per_s)}, ×${r.browser_vs_node.toFixed(2)})`]);
    // the longest of every run (a median of the runs' longest hid a task that one run had)
    rows.push([`${t('perf.b.longest')} ${label}`, `${Math.round(r.longest_task_ms.max)} ms (${r.long_tasks_over_50ms.join(', ')})`]);
  }
  return rows;
}

function browserTable(b: BrowserResults, t: (key: string) => string): HTMLTableElement {
  const table = document.createElement('table');
  table.className = 'perf-browser';
  const head = table.createTHead().insertRow();
  for (const key of ['perf.b.measure', 'perf.b.value']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = t(key);
    head.append(th);
  }
  const body = table.createTBody();
  for (const [measure, value] of browserRows(b, t)) {
    const row = body.insertRow();
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = measure;
    row.append(th);
    row.insertCell().textContent = value;
  }
  return table;
}

/** the Performance page's heading in each language */
export const PERFORMANCE_TITLE: Record<Lang, string> = { en: 'Performance', zh: '性能' };

export const performanceSection: SectionModule = {
  id: 'performance',
  strings: STRINGS,
  mount(host: HTMLElement, ctx: SectionContext): SectionHandle {
    const data = results as unknown as BenchResults;
    const root = document.createElement('div');
    root.className = 'performance-section';
    const intro = document.createElement('p');
    intro.textContent = ctx.t('perf.intro');
    const machine = document.createElement('p');
    machine.className = 'perf-machine';
    const load = data.machine.load_before ? `, ${ctx.t('perf.load')} ${data.machine.load_before.map((x) => x.toFixed(1)).join('/')}` : '';
    // "emcc (Emscripten …) 3.1.6 ()" → "3.1.6"; the BLAS line → its kind ("reference BLAS (netlib)").
    const short = (name: string, v: string) => (name === 'torch_blas' ? v.split(':')[0] : (/\d+\.\d+\.\d+[\w.]*/.exec(v)?.[0] ?? v));
    machine.textContent = `${ctx.t('perf.machine')}: ${data.machine.cpu ?? '?'}, ${ctx.t('perf.cores').replace('{n}', String(data.machine.cores))}${load} · ${data.date.slice(0, 10)} · ` +
      Object.entries(data.versions).filter(([, v]) => v).map(([k, v]) => `${k} ${short(k, v as string)}`).join(' · ');
    root.append(intro, machine);
    if (data.notes?.length) {
      const notes = document.createElement('ul');
      notes.className = 'perf-notes';
      for (const note of data.notes) notes.appendChild(document.createElement('li')).textContent = note;
      root.append(notes);
    }
    host.append(root);

    const sideLabel = (side: Side | 'reference') => ctx.t(`perf.${side}`);
    const charts: BarChart[] = [];
    const heading = (key: string) => {
      const h = document.createElement('h3');
      h.textContent = ctx.t(key);
      root.append(h);
    };
    if (data.attention?.length) {
      heading('perf.attention');
      for (const measure of ATTENTION_MEASURES) {
        const chart = new BarChart(root, ctx.t(`perf.${measure}`), ctx.t('perf.gflops'), { logarithmic: true, name: `perf-${measure}`, t: ctx.t });
        chart.update(attentionBars(data, measure, sideLabel));
        charts.push(chart);
      }
    }
    for (const [recipe, key, axis] of [['note', 'perf.note', 'perf.us'], ['dates', 'perf.dates', 'perf.eps']] as const) {
      if (!data[recipe]) {
        const p = document.createElement('p');
        p.textContent = `${ctx.t(key)}: ${ctx.t('perf.missing')}`;
        root.append(p);
        continue;
      }
      const chart = new BarChart(root, ctx.t(key), ctx.t(axis), { logarithmic: true, legend: false, name: `perf-${recipe}`, t: ctx.t });
      const bars = recipeBars(data, recipe, sideLabel);
      bars.series[0].label = ctx.t(axis);
      chart.update(bars);
      charts.push(chart);
    }
    heading('perf.browser');
    if (data.browser && 'chromium' in data.browser) {
      root.append(browserTable(data.browser, ctx.t));
      const note = document.createElement('p');
      note.className = 'perf-machine';
      note.textContent = `Chromium ${data.browser.chromium}`;
      root.append(note);
    } else {
      const p = document.createElement('p');
      p.textContent = data.browser ? data.browser.skipped : ctx.t('perf.missing');
      root.append(p);
    }
    return {
      setActive: () => {},
      onWorkerRestart: () => {},
      destroy: () => {
        for (const chart of charts) chart.destroy();
        root.remove();
      },
    };
  },
};
