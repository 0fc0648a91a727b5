// A BertViz-style "neuron view" for one (query, key) pair: q and k as coloured vectors, their
// elementwise product q∘k term by term, its sum q·k, the core's scaled score q·k/√d and the core's
// softmax weight. q, k, the scaled score and the weight are the core's numbers; only the products and
// their sum are formed here (the e2e test checks Σ q∘k / √d against the core's scaled score).
import { divergingColor, inkOn } from '../heatmap/heatmap';
import { el, setOptions } from './dom';

export interface NeuronPair {
  query: number;
  key: number;
  /** one feature picked in the Q or K map (its column is marked), if any */
  feature?: number;
  q: number[];
  k: number[];
  /** the core's q·k/√d and softmax weight for this pair */
  scaled: number;
  weight: number;
}

export interface NeuronEvents {
  onQuery(index: number): void;
  onKey(index: number): void;
}

/**
 * The heatmaps' diverging ramp (PuOr, centred on 0): purple positive, orange negative, darker as
 * |v| nears max|v| in the row. The number is written in the cell too, so colour is never needed.
 */
function cellColors(v: number, maxAbs: number): { background: string; ink: string } {
  const t = maxAbs > 0 ? 0.5 + (0.5 * v) / maxAbs : 0.5;
  const background = divergingColor(t);
  return { background, ink: inkOn(background) };
}

export class NeuronView {
  readonly element = el('div', 'self-neuron');
  readonly #query = el('select');
  readonly #key = el('select');
  readonly #table = el('table', 'self-neuron-table');
  readonly #sum = el('output', 'self-neuron-sum');
  readonly #scaled = el('output', 'self-neuron-scaled');
  readonly #weight = el('output', 'self-neuron-weight');
  readonly #data = el('output', 'self-neuron-data');
  readonly #t: (key: string) => string;

  constructor(t: (key: string) => string, events: NeuronEvents, hideControls: boolean) {
    this.#t = t;
    const pick = el('div', 'al-controls');
    const queryField = el('label', 'al-field');
    queryField.append(el('span', 'al-field-label', t('self.neuron.query')), this.#query);
    const keyField = el('label', 'al-field');
    keyField.append(el('span', 'al-field-label', t('self.neuron.key')), this.#key);
    pick.append(queryField, keyField);
    pick.hidden = hideControls;
    this.#query.addEventListener('change', () => events.onQuery(Number(this.#query.value)));
    this.#key.addEventListener('change', () => events.onKey(Number(this.#key.value)));

    const sums = el('dl', 'self-neuron-sums');
    for (const [label, out] of [
      [t('self.neuron.sum'), this.#sum],
      [t('self.neuron.scaled'), this.#scaled],
      [t('self.neuron.weight'), this.#weight],
    ] as const) {
      sums.append(el('dt', undefined, label));
      const dd = el('dd');
      dd.append(out);
      sums.append(dd);
    }
    this.#data.hidden = true;
    const scroller = el('div', 'self-neuron-scroll');
    scroller.append(this.#table);
    this.element.append(pick, scroller, sums, el('p', 'self-neuron-help', t('self.neuron.help')), this.#data);
  }

  update(labels: readonly string[], pair: NeuronPair): void {
    const options = labels.map((label, i) => [String(i), label] as const);
    setOptions(this.#query, options, String(pair.query));
    setOptions(this.#key, options, String(pair.key));
    const d = pair.q.length;
    const products = pair.q.map((v, i) => v * pair.k[i]);
    const sum = products.reduce((a, b) => a + b, 0);

    const head = el('tr');
    head.append(el('td'));
    for (let i = 0; i < d; i++) head.append(el('th', i === pair.feature ? 'linked' : undefined, `d${i + 1}`));
    const rows: [string, number[]][] = [
      [`q (${labels[pair.query]})`, pair.q],
      [`k (${labels[pair.key]})`, pair.k],
      [this.#t('self.neuron.product'), products],
    ];
    const bodyRows = rows.map(([name, values]) => {
      const maxAbs = Math.max(...values.map(Math.abs));
      const tr = el('tr');
      const th = el('th', undefined, name);
      th.scope = 'row';
      tr.append(th);
      for (const [i, v] of values.entries()) {
        const td = el('td', i === pair.feature ? 'linked' : undefined, v.toFixed(3));
        const { background, ink } = cellColors(v, maxAbs);
        td.style.backgroundColor = background;
        td.style.color = ink;
        tr.append(td);
      }
      return tr;
    });
    this.#table.replaceChildren(head, ...bodyRows);
    this.#sum.textContent = sum.toFixed(4);
    this.#scaled.textContent = `${sum.toFixed(4)} ÷ √${d} = ${pair.scaled.toFixed(4)}`;
    this.#weight.textContent = pair.weight.toFixed(4);
    this.#data.value = JSON.stringify({ ...pair, products, sum, d });
  }
}
