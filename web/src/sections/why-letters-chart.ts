// §1's second chart: at the longest strings, the token accuracy of each letter by where it stood in
// the input (1: read first), for the plain and the attention model. It shows the note's "read the
// back, forget the front": reversing, the plain decoder writes the input's first letters last,
// from a context vector that has read everything since. Hidden until the longest length has been
// evaluated; its exports hold the numbers by position.
import { chartPictures } from '../charts/deferred-chart';
import { LineChart } from '../charts/line-chart';
import { Figure } from '../figure';
import { fill } from '../i18n';
import { el, tryThis } from './dom';
import { percent, percentPrecise, WHY_CHANCE, WHY_COLORS } from './why-chart';
import { WHY_EVAL_COUNT, type WhySnapshot } from './why-run';

export class WhyLettersChart extends Figure<WhySnapshot> {
  readonly #root = el('div', 'why-letters');
  readonly #title = el('p', 'why-letters-title');
  readonly #chart: LineChart;
  readonly #t: (key: string) => string;
  #snapshot: WhySnapshot | null = null;

  constructor(host: HTMLElement, t: (key: string) => string) {
    super({
      title: t('why.letters.chartLabel'),
      t,
      fileName: 'why-accuracy-by-position',
      exports: {
        ...chartPictures(() => this.#chart.built()),
        table: () => {
          const s = this.#snapshot;
          if (!s?.lettersPlain || !s.lettersAttention) return null;
          const { lettersPlain: p, lettersAttention: a } = s;
          return { rowLabels: p.map((_, i) => String(i + 1)), colLabels: ['plain token accuracy', 'attention token accuracy'], values: p.flatMap((v, i) => [v, a[i]]) };
        },
        json: () => {
          const s = this.#snapshot;
          return s?.lettersPlain ? { length: s.lettersPlain.length, plain: s.lettersPlain, attention: s.lettersAttention } : null;
        },
      },
    });
    this.#t = t;
    const box = el('div', 'why-letters-chart');
    this.#root.hidden = true;
    this.#root.dataset.testid = 'why-letters';
    // its prompt beside it, shown with it once there is something to read
    this.#root.append(this.#title, tryThis(t('try.title'), [t('why.try.front')]), box);
    host.append(this.#root);
    this.#chart = new LineChart(box, {
      label: t('why.letters.chartLabel'),
      x: { kind: 'linear', min: 1, integerStep: true, title: t('why.letters.axis') },
      y: { min: 0, max: 1, title: t('why.axis.accuracy'), format: percent, readout: percentPrecise },
      legend: true,
    });
    this.#root.append(this.menu!);
  }

  update(s: WhySnapshot): void {
    this.#snapshot = s;
    const plain = s.lettersPlain, attention = s.lettersAttention;
    this.#root.hidden = !plain || !attention;
    if (!plain || !attention) return;
    this.#title.textContent = fill(this.#t('why.letters.title'), { length: plain.length, count: WHY_EVAL_COUNT });
    const t = this.#t;
    const points = (values: readonly number[]) => values.map((y, i) => ({ x: i + 1, y }));
    this.#chart.update({
      series: [
        { label: t('why.chance.line'), color: WHY_COLORS.chance, points: points(plain.map(() => WHY_CHANCE)), dash: [6, 4], width: 1.5, marker: 'none' },
        { label: t('why.plain'), color: WHY_COLORS.plain, points: points(plain), width: 2.5, marker: 'triangle', markerRadius: 2.5 },
        { label: t('why.attention'), color: WHY_COLORS.attention, points: points(attention), width: 2.5, marker: 'circle', markerRadius: 2.5 },
      ],
    });
  }

  destroy(): void {
    this.#chart.destroy();
  }
}
