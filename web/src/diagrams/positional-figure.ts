// The positional-encoding figure of §4: self-attention over 我 爱 我 without positions (the two 我
// rows of the output are equal: self-attention sees a set of words) and with the sinusoid rows
// added (they differ), beside the sinusoid table itself as a heatmap (positions × dimensions).
// Computed here (positional.ts) from the page's seed, with random, untrained weights.
import { Heatmap } from '../heatmap/heatmap';
import { el } from '../sections/dom';
import { positionDemo, rowDistance, sinusoidTable } from './positional';

type T = (key: string) => string;

const WORDS = ['我', '爱', '我'];
/** the size of the demo's embeddings */
const D = 8;
/** the sinusoid table shown: this many positions × dimensions */
const TABLE_POSITIONS = 6;
const TABLE_D = D;

export class PositionalFigure {
  readonly element = el('figure', 'lab-positional');
  readonly #t: T;
  readonly #tables = el('div', 'lab-positional-tables');
  readonly #heatmap: Heatmap;

  constructor(t: T) {
    this.#t = t;
    this.element.dataset.testid = 'transformer-positional';
    const text = el('div', 'lab-positional-text');
    text.append(el('h3', undefined, t('transformer.pe.title')), el('p', 'lab-positional-intro', t('transformer.pe.intro')), this.#tables);
    const map = el('div', 'lab-positional-map');
    this.element.append(text, map);
    this.#heatmap = new Heatmap(map, {
      id: 'transformer-positions',
      title: t('transformer.pe.table'),
      fixedRange: [-1, 1],
      diverging: true,
      xTitle: t('transformer.pe.dim'),
      yTitle: t('transformer.pe.pos'),
      t,
    });
  }

  /** Computes and shows the figure for `seed` (the page's seed draws the embeddings and weights). */
  show(seed: number): void {
    this.#tables.replaceChildren(this.#table(seed, false), this.#table(seed, true));
    const pe = sinusoidTable(TABLE_POSITIONS, TABLE_D);
    this.#heatmap.update({
      rows: TABLE_POSITIONS,
      cols: TABLE_D,
      values: pe,
      rowLabels: Array.from({ length: TABLE_POSITIONS }, (_, i) => String(i)),
      colLabels: Array.from({ length: TABLE_D }, (_, i) => String(i)),
    });
  }

  /** One output table: a row per word, its self-attention output, and whether the two 我 rows match. */
  #table(seed: number, positions: boolean): HTMLElement {
    const t = this.#t;
    const { output } = positionDemo(WORDS, D, seed, positions);
    const distance = rowDistance(output[0], output[2]);
    const box = el('div', 'lab-positional-case');
    box.dataset.testid = positions ? 'transformer-pe-with' : 'transformer-pe-without';
    box.dataset.distance = String(distance);
    const table = el('table', 'lab-positional-table');
    table.createCaption().textContent = t(positions ? 'transformer.pe.with' : 'transformer.pe.without');
    const body = table.createTBody();
    output.forEach((row, i) => {
      const tr = body.insertRow();
      tr.dataset.row = String(i);
      if (WORDS[i] === WORDS[0]) tr.className = 'repeat';
      // numbered by position, as the sinusoid table's rows are: the row added to this word
      const th = el('th', undefined, `${i} ${WORDS[i]}`);
      th.scope = 'row';
      tr.append(th, ...row.map((v) => el('td', undefined, v.toFixed(2))));
    });
    const verdict = el('p', `lab-positional-verdict ${distance === 0 ? 'same' : 'differ'}`);
    verdict.textContent = distance === 0 ? t('transformer.pe.equal') : t('transformer.pe.differ').replace('{d}', distance.toFixed(2));
    box.append(table, verdict);
    return box;
  }

  destroy(): void {
    this.#heatmap.destroy();
  }
}
