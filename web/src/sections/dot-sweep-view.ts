// The "why divide by √d" panel of §3.2: a slider for d (1 … 1024, log steps), the unscaled and scaled
// metrics at that d side by side, and the chart over d (computed once per seed).
import { mathml } from '../math';
import type { SectionContext } from '../section';
import { checkNumber, el, errorText, field, LatestOnly, MessageLine, setFieldError } from './dom';
import { MAX_SWEEP_D, sweepGrid, sweepPoint, type SoftmaxMetrics } from './dot-sweep';
import { SweepChart } from './dot-sweep-chart';

const METRIC_KEYS: readonly (keyof SoftmaxMetrics)[] = ['maxWeight', 'entropy', 'jacobian'];
const VARIANTS = ['unscaled', 'scaled'] as const;
/** slider steps per doubling of d */
const STEPS_PER_OCTAVE = 10;

/** the three facts of the sweep, one formula each: set side by side, they stack on a phone (MathML does not wrap) */
const FORMULAS_VARIANCE = [
  `<math display="block"><mi>Var</mi><mo>(</mo><mi>q</mi><mo>·</mo><mi>k</mi><mo>)</mo><mo>=</mo><munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>d</mi></munderover><mi>Var</mi><mo>(</mo><msub><mi>q</mi><mi>i</mi></msub><msub><mi>k</mi><mi>i</mi></msub><mo>)</mo><mo>=</mo><mi>d</mi><mo>,</mo></math>`,
  `<math display="block"><mi>Var</mi><mo>(</mo><mfrac><mrow><mi>q</mi><mo>·</mo><mi>k</mi></mrow><msqrt><mi>d</mi></msqrt></mfrac><mo>)</mo><mo>=</mo><mn>1</mn><mo>,</mo></math>`,
  `<math display="block"><mfrac><mrow><mo>∂</mo><msub><mi>a</mi><mi>i</mi></msub></mrow><mrow><mo>∂</mo><msub><mi>s</mi><mi>j</mi></msub></mrow></mfrac><mo>=</mo><msub><mi>a</mi><mi>i</mi></msub><mo>(</mo><msub><mi>δ</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub><mo>−</mo><msub><mi>a</mi><mi>j</mi></msub><mo>)</mo></math>`,
];

export const sliderToD = (position: number) => Math.min(MAX_SWEEP_D, Math.max(1, Math.round(2 ** (position / STEPS_PER_OCTAVE))));
export const dToSlider = (d: number) => Math.round(Math.log2(d) * STEPS_PER_OCTAVE);

export class SweepView {
  readonly #ctx: SectionContext;
  readonly #root = el('section', 'dot-sweep');
  readonly #slider = el('input');
  readonly #number = el('input');
  readonly #cells = new Map<string, HTMLTableCellElement>();
  readonly #data = el('output', 'dot-sweep-data');
  readonly #message = new MessageLine('dot-sweep-message');
  readonly #chart: SweepChart;
  readonly #point = new LatestOnly();
  readonly #grid = new LatestOnly();
  readonly #unsubscribe: () => void;
  #gridSeed: number | null = null;

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    const { t, state } = ctx;
    this.#root.append(el('h3', undefined, t('dot.sweep.title')), el('p', undefined, t('dot.sweep.intro')));
    const formula = el('div', 'dot-formula dot-sweep-formulas');
    formula.append(...FORMULAS_VARIANCE.map((m) => mathml(m)));
    this.#root.append(formula);

    this.#slider.type = 'range';
    this.#slider.min = '0';
    this.#slider.max = String(dToSlider(MAX_SWEEP_D));
    this.#slider.step = '1';
    this.#slider.className = 'dot-sweep-slider';
    this.#slider.addEventListener('input', () => state.set('dot_sweep_d', sliderToD(Number(this.#slider.value))));
    this.#number.type = 'number';
    this.#number.min = '1';
    this.#number.max = String(MAX_SWEEP_D);
    this.#number.step = '1';
    this.#number.className = 'dot-sweep-number';
    this.#number.setAttribute('aria-label', t('dot.sweep.d'));
    // a value the box cannot take stays in it, named by its label ("Feature size d: at most 1024")
    this.#number.addEventListener('change', () => {
      const message = checkNumber(t, t('dot.sweep.d'), this.#number.value, { min: 1, max: MAX_SWEEP_D, integer: true });
      setFieldError(this.#number, message);
      if (message === null) state.set('dot_sweep_d', Number(this.#number.value));
    });
    const controls = el('div', 'al-controls');
    const pair = el('span', 'dot-sweep-pair');
    pair.append(this.#slider, this.#number);
    const sliderField = field(t('dot.sweep.d'), pair);
    sliderField.hidden = state.isHidden('dot_sweep_d');
    controls.append(sliderField);
    this.#root.append(controls);

    const table = el('table', 'dot-sweep-table');
    const head = table.createTHead().insertRow();
    head.append(el('th', undefined, t('dot.sweep.quantity')));
    for (const v of VARIANTS) {
      const th = el('th', undefined, t(`dot.variant.${v}`));
      th.scope = 'col';
      head.append(th);
    }
    const body = table.createTBody();
    for (const key of METRIC_KEYS) {
      const row = body.insertRow();
      const th = el('th', undefined, t(`dot.metric.${key}`));
      th.scope = 'row';
      row.append(th);
      for (const v of VARIANTS) {
        const cell = row.insertCell();
        cell.dataset.metric = key;
        cell.dataset.variant = v;
        this.#cells.set(`${key}:${v}`, cell);
      }
    }
    this.#data.hidden = true;
    this.#root.append(table, el('p', 'dot-note', t('dot.sweep.entropyMax')), this.#message.element);

    // the chart and its export menu under it
    const chartBox = el('div', 'dot-sweep-figure');
    this.#chart = new SweepChart(chartBox, t);
    this.#root.append(chartBox, this.#data);
    host.append(this.#root);

    this.#unsubscribe = state.subscribe((changed) => {
      if (changed.includes('seed')) this.#renderGrid();
      if (changed.includes('seed') || changed.includes('dot_sweep_d')) this.#renderPoint();
    });
    this.#renderGrid();
    this.#renderPoint();
  }

  #renderPoint(): void {
    const { state, lab, t } = this.#ctx;
    const d = state.get('dot_sweep_d');
    const seed = state.get('seed');
    this.#slider.value = String(dToSlider(d));
    this.#number.value = String(d);
    setFieldError(this.#number, null);
    this.#chart.marker = d;
    void this.#point.run(
      () => sweepPoint(lab, seed, d),
      (point) => {
        for (const key of METRIC_KEYS) {
          for (const v of VARIANTS) {
            const cell = this.#cells.get(`${key}:${v}`);
            if (!cell) continue;
            cell.textContent = point[v][key].toFixed(4);
            cell.dataset.value = String(point[v][key]);
          }
        }
        this.#data.value = JSON.stringify(point);
        this.#data.dataset.d = String(d);
        this.#root.dataset.state = 'ok';
        this.#message.show('ok', '');
      },
      (err) => {
        this.#root.dataset.state = 'error';
        this.#message.show('error', `${t('error.prefix')}${errorText(err)}`);
      },
    );
  }

  #renderGrid(): void {
    const { state, lab, t } = this.#ctx;
    const seed = state.get('seed');
    if (this.#gridSeed === seed) return;
    this.#gridSeed = seed;
    this.#root.dataset.grid = 'computing';
    void this.#grid.run(
      () => sweepGrid(lab, seed),
      (points) => {
        this.#chart.update(points);
        this.#root.dataset.grid = 'ok';
      },
      (err) => {
        this.#gridSeed = null;
        this.#root.dataset.grid = 'error';
        this.#message.show('error', `${t('error.prefix')}${errorText(err)}`);
      },
    );
  }

  setActive(_active: boolean): void {
    // Nothing animates: the grid is a one-off computation per seed.
  }

  /** after a worker restart: recompute everything */
  reset(): void {
    this.#gridSeed = null;
    this.#renderGrid();
    this.#renderPoint();
  }

  destroy(): void {
    this.#unsubscribe();
    this.#point.cancel();
    this.#grid.cancel();
    this.#chart.destroy();
    this.#root.remove();
  }
}
