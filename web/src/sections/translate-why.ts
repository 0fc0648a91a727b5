// §3.3's "ask the model why" panel, under the decoding view: click a cell of the grid (step ×
// source word) to force that step's attention onto the word, or a candidate to make the model
// write it; the worker decodes on from there (translate with interventions) and the intervened
// translation is shown beside the original, changed words marked, with both attention maps.
// Interventions stack (undo, reset). Below: gradient × input or integrated gradients for each
// output word beside its attention, with their rank correlation, and the debate in one sentence.
import type { Intervention, TranslateResult, TranslationAttribution } from '#shared/types/seq2seq';
import type { RemoteSeq2Seq } from '../worker/protocol';
import { Heatmap } from '../heatmap/heatmap';
import { distinctLabels } from './translate-decode';
import { el } from './dom';
import { fill } from '../i18n';

type Method = 'gradient-input' | 'integrated-gradients';

const label = (text: string) => (text === ' ' ? '␣' : text);

export class WhyView {
  readonly element = el('section', 'tr-why');
  readonly #t: (key: string) => string;
  readonly #grid = el('div', 'tr-why-grid');
  readonly #candidates = el('div', 'tr-why-candidates');
  readonly #list = el('ol', 'tr-why-list');
  readonly #status = el('p', 'tr-why-status');
  readonly #original = el('p', 'tr-why-text');
  readonly #intervened = el('p', 'tr-why-text');
  readonly #maps: [Heatmap, Heatmap];
  readonly #attrMap: Heatmap;
  readonly #rho = el('ul', 'tr-why-rho');
  readonly #attrNote = el('p', 'tr-note');
  readonly #methods: Record<Method, HTMLButtonElement>;
  #model: RemoteSeq2Seq | null = null;
  #text = '';
  #base: TranslateResult | null = null;
  #joiner = ' ';
  #hasAttention = true;
  #interventions: Intervention[] = [];
  #method: Method = 'gradient-input';
  #seq = 0;

  constructor(host: HTMLElement, t: (key: string) => string) {
    this.#t = t;
    this.element.dataset.testid = 's2s-why';
    const button = (text: string, testId: string, fn: () => void) => {
      const b = el('button', 'al-button', text);
      b.type = 'button';
      b.dataset.testid = testId;
      b.addEventListener('click', fn);
      return b;
    };
    const controls = el('div', 'al-controls');
    controls.append(
      button(t('why.undo'), 's2s-why-undo', () => this.#apply(this.#interventions.slice(0, -1))),
      button(t('why.reset'), 's2s-why-reset', () => this.#apply([])),
    );
    this.#original.dataset.testid = 's2s-why-original';
    this.#intervened.dataset.testid = 's2s-why-intervened';
    this.#status.dataset.testid = 's2s-why-status';
    const sides = el('div', 'tr-why-sides');
    const side = (key: string, text: HTMLElement, id: string, mapKey: string) => {
      const box = el('div', 'tr-why-side');
      box.append(el('p', 'tr-label', t(key)), text);
      const map = new Heatmap(box, { id, title: t(mapKey), fixedRange: [0, 1], xTitle: t('why.axis.source'), yTitle: t('why.axis.output'), t });
      sides.append(box);
      return map;
    };
    this.#maps = [
      side('why.original', this.#original, 's2s-why-attention-original', 'why.attention.original'),
      side('why.intervened', this.#intervened, 's2s-why-attention-intervened', 'why.attention.intervened'),
    ];

    const attr = el('div', 'tr-why-attr');
    const methods = el('div', 'al-controls');
    this.#methods = {
      'gradient-input': button(t('why.attr.gxi'), 's2s-why-gxi', () => this.#attribute('gradient-input')),
      'integrated-gradients': button(t('why.attr.ig'), 's2s-why-ig', () => this.#attribute('integrated-gradients')),
    };
    methods.append(this.#methods['gradient-input'], this.#methods['integrated-gradients']);
    const mapHost = el('div');
    this.#attrMap = new Heatmap(mapHost, { id: 's2s-why-attribution', title: t('why.attr.heatmap'), diverging: true, xTitle: t('why.axis.source'), yTitle: t('why.axis.output'), t, digits: 3 });
    this.#rho.dataset.testid = 's2s-why-rho';
    attr.append(el('h4', undefined, t('why.attr.title')), methods, mapHost, el('p', 'tr-label', t('why.attr.rho')), this.#rho,
      this.#attrNote, el('p', 'tr-note', t('why.attr.debate')));

    this.element.append(el('h3', undefined, t('why.title')), el('p', 'tr-note', t('why.hint')),
      el('p', 'tr-label', t('why.grid')), this.#grid, el('p', 'tr-label', t('why.candidates')), this.#candidates,
      controls, this.#list, this.#status, sides, attr);
    this.element.hidden = true;
    host.append(this.element);
  }

  /** A new plain greedy translation (beam search: the panel hides). */
  show(model: RemoteSeq2Seq, text: string, result: TranslateResult, tokenizer: 'words' | 'chars', hasAttention: boolean): void {
    this.#model = model;
    this.#text = text;
    this.#base = result.steps ? result : null;
    this.#joiner = tokenizer === 'chars' ? '' : ' ';
    this.#hasAttention = hasAttention;
    this.#interventions = [];
    this.element.hidden = this.#base === null;
    if (!this.#base) return;
    this.#renderGrid();
    this.#render(this.#base);
    void this.#attribute(this.#method);
  }

  clear(): void {
    this.#seq++;
    this.#base = null;
    this.element.hidden = true;
  }

  destroy(): void {
    this.clear();
    this.#maps.forEach((m) => m.destroy());
    this.#attrMap.destroy();
  }

  /** The grid of the original translation: a button per (step, source word), and the candidates. */
  #renderGrid(): void {
    const base = this.#base!;
    const t = this.#t;
    const table = el('table', 'tr-why-table');
    const head = el('tr');
    head.append(el('th'));
    base.source.forEach((s) => head.append(el('th', undefined, label(s.text))));
    table.append(head);
    base.steps!.forEach((step, i) => {
      const row = el('tr');
      row.append(el('th', undefined, step.token));
      base.source.forEach((s, j) => {
        const cell = el('td');
        const b = el('button', 'tr-why-cell', this.#hasAttention ? (step.attention[j] ?? 0).toFixed(2) : '·');
        b.type = 'button';
        b.disabled = !this.#hasAttention;
        b.dataset.step = String(i);
        b.dataset.source = String(j);
        b.title = fill(t('why.force'), { step: i + 1, word: label(s.text) });
        b.style.setProperty('--w', (step.attention[j] ?? 0).toFixed(3));
        if ((step.attention[j] ?? 0) > 0.5) b.classList.add('strong');
        b.addEventListener('click', () => this.#push({ step: i, kind: 'force-attention', source: j }));
        cell.append(b);
        row.append(cell);
      });
      table.append(row);
    });
    this.#grid.replaceChildren(table);
    this.#candidates.replaceChildren(
      ...base.steps!.map((step, i) => {
        const line = el('p', 'tr-why-candidate-row');
        line.append(el('span', 'tr-label', `${i + 1}.`));
        for (const c of step.top.filter((c) => c.token !== step.token)) {
          const b = el('button', 'al-button tr-why-candidate', `${c.token} ${c.prob.toFixed(2)}`);
          b.type = 'button';
          b.dataset.step = String(i);
          b.dataset.token = c.token;
          b.title = fill(t('why.token'), { step: i + 1, word: c.token });
          b.addEventListener('click', () => this.#push({ step: i, kind: 'force-token', token: c.token }));
          line.append(b);
        }
        return line;
      }),
    );
  }

  #push(v: Intervention): void {
    // One intervention per step and kind: a new one at the same step replaces the old.
    this.#apply([...this.#interventions.filter((u) => !(u.step === v.step && u.kind === v.kind)), v]);
  }

  async #apply(list: Intervention[]): Promise<void> {
    const model = this.#model, base = this.#base;
    if (!model || !base) return;
    const seq = ++this.#seq;
    if (list.length === 0) {
      this.#interventions = [];
      this.#render(base);
      return;
    }
    try {
      const r = await model.translate(this.#text, { topK: 5, interventions: list });
      if (seq !== this.#seq) return;
      this.#interventions = list;
      this.#render(r);
    } catch (err) {
      if (seq !== this.#seq) return;
      // The intervened step lies past the end of the new translation, say: keep the last good one.
      this.#status.textContent = fill(this.#t('why.error'), { message: err instanceof Error ? err.message : String(err) });
      this.#status.dataset.error = '1';
    }
  }

  /** Original beside intervened (both the base translation when there is no intervention). */
  #render(r: TranslateResult): void {
    const t = this.#t;
    const base = this.#base!;
    const steps = r.steps ?? [];
    const changed = r.intervention?.changed ?? steps.map(() => false);
    this.#list.replaceChildren(...this.#interventions.map((v) => el('li', undefined, v.kind === 'force-attention'
      ? fill(t('why.force'), { step: (v.step ?? 0) + 1, word: label(base.source[v.source ?? 0]?.text ?? '') })
      : fill(t('why.token'), { step: (v.step ?? 0) + 1, word: v.token ?? '' }))));
    this.#status.dataset.error = '0';
    this.#status.textContent = !r.intervention ? t('why.none')
      : r.intervention.firstChange < 0 ? t('why.same') : fill(t('why.changed'), { step: r.intervention.firstChange + 1 });
    this.#original.textContent = base.text;
    this.#intervened.replaceChildren(...steps.filter((s) => s.token !== '<eos>').flatMap((s, i) => {
      const word = el('span', changed[i] ? 'tr-why-word changed' : 'tr-why-word', s.token);
      if (changed[i]) word.dataset.changed = '1';
      return i > 0 && this.#joiner ? [document.createTextNode(this.#joiner), word] : [word];
    }));
    this.element.dataset.interventions = String(this.#interventions.length);
    this.element.dataset.firstChange = String(r.intervention?.firstChange ?? -1);
    for (const [map, shown] of [[this.#maps[0], base], [this.#maps[1], r]] as const) {
      const rows = shown.steps ?? [];
      const cols = base.source.length;
      map.element.hidden = !this.#hasAttention || rows.length === 0;
      if (map.element.hidden) continue;
      const values = new Float32Array(rows.length * cols);
      rows.forEach((s, i) => values.set(s.attention.subarray(0, cols), i * cols));
      map.update({ rows: rows.length, cols, values, rowLabels: distinctLabels(rows.map((s) => s.token)),
        colLabels: distinctLabels(base.source.map((s) => label(s.text))) });
    }
  }

  async #attribute(method: Method): Promise<void> {
    const model = this.#model, base = this.#base;
    if (!model || !base) return;
    this.#method = method;
    for (const [m, b] of Object.entries(this.#methods)) b.classList.toggle('primary', m === method);
    const seq = this.#seq;
    let a: TranslationAttribution;
    try {
      a = await model.attribution(this.#text, method === 'integrated-gradients' ? { method, steps: 32 } : { method });
    } catch (err) {
      this.#attrNote.textContent = err instanceof Error ? err.message : String(err);
      return;
    }
    if (seq !== this.#seq || base !== this.#base) return;
    const [T, S] = a.scores.shape;
    this.#attrMap.update({ rows: T, cols: S, values: a.scores.data, rowLabels: distinctLabels(a.words),
      colLabels: distinctLabels(a.source.map((s) => label(s.text))) });
    this.#rho.replaceChildren(...a.words.map((w, i) => {
      const rho = a.rankCorrelation[i];
      const item = el('li', undefined, `${w}: ${rho === null ? this.#t('why.attr.undefined') : rho.toFixed(2)}`);
      item.dataset.rho = rho === null ? '' : String(rho);
      return item;
    }));
    this.#attrNote.textContent = a.attention ? '' : this.#t('why.attr.none');
    this.element.dataset.attribution = method;
  }
}
