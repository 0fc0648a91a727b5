// The "ask the model why" panel under a decoding view (§3.3's recurrent translator, §4's
// Transformer): click a cell of the grid (step × source token) to force that step's attention onto
// the token, or a candidate to make the model write it; for the Transformer, zero one head of one
// layer and kind of attention. The worker decodes on from there (translate with interventions) and
// the intervened translation is shown beside the original, changed words marked, with both
// attention maps. Interventions stack (undo, reset) and live in the link (translate_why / transformer_why,
// translate-why-link.ts): a reloaded link applies them again once the model is there. Below:
// integrated gradients (the default) or gradient × input for each output word beside its attention,
// with their rank correlation, when the model offers attribution (the panel says so when it does
// not). Integrated gradients comes first: on a trained model most words are near certain, their
// softmax saturated, and gradient × input reads about zero for every source word.
// Loaded on demand (translate-why-lazy.ts) with its own strings and stylesheet.
import type { Intervention, TranslateResult, TranslationAttribution } from '#types/seq2seq';
import type { RemoteSeq2Seq } from '../worker/protocol';
import { COLOUR_COLUMN_WIDTH, Heatmap } from '../heatmap/heatmap';
import { adoptCss, styleRootOf } from '../adopt-css';
import { distinctLabels } from './token-labels';
import { STRONG_WEIGHT } from './translate-step-player';
import { button, el, errorText, field, select, setOptions, setText } from './dom';
import { fill, type Lang } from '../i18n';
import css from './translate-why.css?inline';
import { ASK_WHY_STRINGS } from './translate-why-strings';
import { formatInterventions, parseInterventions } from './translate-why-link';
import { RovingFocus } from './keyboard';

type Method = 'gradient-input' | 'integrated-gradients';

/** a score as the table prints it, at three decimals (−0.000 is 0.000): scores printed alike are ties */
const printed = (x: number): string => (Math.abs(x) < 5e-4 ? '0.000' : x.toFixed(3));

/** For each of the T rows of a T × S attribution: are all its S scores ties (nothing to rank)? */
export function tiedRows(scores: ArrayLike<number>, T: number, S: number): boolean[] {
  return Array.from({ length: T }, (_, i) => {
    const first = printed(scores[i * S]);
    for (let j = 1; j < S; j++) if (printed(scores[i * S + j]) !== first) return false;
    return true;
  });
}
type Kind = NonNullable<Intervention['attention']>;
const KINDS: readonly Kind[] = ['cross', 'decoder-self', 'encoder-self'];

const label = (text: string) => (text === ' ' ? '␣' : text);
/** never offered as a candidate: not words the model can be made to write (<eos> is: it stops there) */
const RESERVED = new Set(['<pad>', '<sos>', '<unk>']);

export interface WhyOptions {
  /** test-id prefix: its section's slug */
  prefix: 'translate' | 'transformer';
  /** the interventions' text in the link (a state row) */
  link: { name: string; get(): string; set(text: string): void };
}

/** A Transformer's shape: the zero-head controls list its layers and heads. */
export interface TransformerShape {
  layers: number;
  heads: number;
}

export class WhyView {
  readonly element = el('section', 'translate-why');
  readonly #t: (key: string) => string;
  readonly #options: WhyOptions;
  readonly #grid = el('div', 'translate-why-grid');
  readonly #candidates = el('div', 'translate-why-candidates');
  /** the grid and the candidates are one Tab stop each, arrow keys inside */
  readonly #gridFocus = new RovingFocus(this.#grid, () => Array.from(this.#grid.querySelectorAll('tr'), (tr) => [...tr.querySelectorAll<HTMLElement>('.translate-why-cell')]));
  readonly #candidateFocus = new RovingFocus(this.#candidates, () =>
    Array.from(this.#candidates.querySelectorAll('.translate-why-candidate-row'), (row) => [...row.querySelectorAll<HTMLElement>('.translate-why-candidate')]),
  );
  readonly #heads = el('div', 'al-controls translate-why-heads');
  readonly #headKind: HTMLSelectElement;
  readonly #headLayer: HTMLSelectElement;
  readonly #headHead: HTMLSelectElement;
  readonly #headStep: HTMLSelectElement;
  readonly #list = el('ol', 'translate-why-list');
  readonly #status = el('p', 'translate-why-status');
  readonly #linkError = el('p', 'lab-field-error translate-why-link-error');
  readonly #original = el('p', 'translate-why-text');
  readonly #intervened = el('p', 'translate-why-text');
  readonly #maps: [Heatmap, Heatmap];
  readonly #attrBody = el('div');
  readonly #attrMap: Heatmap;
  readonly #rho = el('ul', 'translate-why-rho');
  readonly #attrNote = el('p', 'translate-note');
  readonly #methods: Record<Method, HTMLButtonElement>;
  #model: RemoteSeq2Seq | null = null;
  #text = '';
  #base: TranslateResult | null = null;
  #joiner = ' ';
  #hasAttention = true;
  #transformer: TransformerShape | null = null;
  #interventions: Intervention[] = [];
  #method: Method = 'integrated-gradients';
  #seq = 0;
  /** attribution runs beside interventions: its own sequence */
  #attrSeq = 0;

  constructor(host: HTMLElement, ctx: { t: (key: string) => string; lang: Lang }, options: WhyOptions) {
    const own = ASK_WHY_STRINGS[ctx.lang] ?? ASK_WHY_STRINGS.en;
    const t = (key: string) => own[key] ?? ctx.t(key);
    this.#t = t;
    this.#options = options;
    const id = (name: string) => `${options.prefix}-why${name}`;
    this.element.dataset.testid = id('');
    const controls = el('div', 'al-controls');
    controls.append(
      button(t('translate.why.undo'), id('-undo'), () => void this.#apply(this.#interventions.slice(0, -1))),
      button(t('translate.why.reset'), id('-reset'), () => void this.#apply([])),
    );
    this.#original.dataset.testid = id('-original');
    this.#original.lang = 'en'; // translations: data in the target language
    this.#intervened.lang = 'en';
    this.#intervened.dataset.testid = id('-intervened');
    this.#status.dataset.testid = id('-status');
    this.#status.setAttribute('role', 'status');
    this.#linkError.dataset.testid = id('-link-error');
    this.#linkError.setAttribute('role', 'alert');

    // The Transformer's heads: kind, layer, head, step, and the button (options filled by show()).
    this.#headKind = select(KINDS.map((k) => [k, t(`translate.why.kind.${k}`)] as const), 'cross', id('-head-kind'));
    this.#headLayer = select([], '', id('-head-layer'));
    this.#headHead = select([], '', id('-head-head'));
    this.#headStep = select([], '', id('-head-step'));
    this.#headKind.addEventListener('change', () => (this.#headStep.disabled = this.#headKind.value === 'encoder-self'));
    this.#heads.append(
      field(t('translate.why.head.kind'), this.#headKind),
      field(t('translate.why.head.layer'), this.#headLayer),
      field(t('translate.why.head.head'), this.#headHead),
      field(t('translate.why.head.step'), this.#headStep),
      button(t('translate.why.head.zero'), id('-zero'), () => this.#zeroHead()),
    );
    const headsBox = el('div');
    headsBox.append(el('p', 'translate-label', t('translate.why.heads')), this.#heads);
    headsBox.hidden = true;
    this.#heads.dataset.box = '1';

    // the Transformer's strings say so (its tokens are characters on dates)
    const tf = options.prefix === 'transformer' ? '.transformer' : '';
    const sides = el('div', 'translate-why-sides');
    const side = (key: string, text: HTMLElement, mapId: string, mapKey: string) => {
      const box = el('div', 'translate-why-side');
      box.append(el('p', 'translate-label', t(key)), text);
      const map = new Heatmap(box, { id: mapId, title: t(mapKey), fixedRange: [0, 1], xTitle: t(`translate.why.axis.source${tf}`), yTitle: t(`translate.why.axis.output${tf}`), t, minColumnWidth: COLOUR_COLUMN_WIDTH });
      sides.append(box);
      return map;
    };
    this.#maps = [
      side('translate.why.original', this.#original, id('-attention-original'), `translate.why.attention.original${tf}`),
      side('translate.why.intervened', this.#intervened, id('-attention-intervened'), `translate.why.attention.intervened${tf}`),
    ];

    const attr = el('div', 'translate-why-attr');
    const methods = el('div', 'al-controls');
    const method = (m: Method, key: string) => {
      const b = button(t(key), id(m === 'gradient-input' ? '-gxi' : '-ig'), () => void this.#attribute(m));
      b.setAttribute('aria-pressed', 'false');
      return b;
    };
    this.#methods = { 'integrated-gradients': method('integrated-gradients', 'translate.why.attr.ig'), 'gradient-input': method('gradient-input', 'translate.why.attr.gxi') };
    methods.append(this.#methods['integrated-gradients'], this.#methods['gradient-input']);
    const mapHost = el('div');
    this.#attrMap = new Heatmap(mapHost, { id: id('-attribution'), title: t('translate.why.attr.heatmap'), diverging: true, xTitle: t(`translate.why.axis.source${tf}`), yTitle: t(`translate.why.axis.output${tf}`), t, digits: 3, minColumnWidth: COLOUR_COLUMN_WIDTH });
    this.#rho.dataset.testid = id('-rho');
    this.#attrNote.dataset.testid = id('-attr-note');
    this.#attrBody.append(methods, el('p', 'translate-note', t('translate.why.attr.saturated')), mapHost, el('p', 'translate-label', t('translate.why.attr.rho')), this.#rho);
    attr.append(el('h4', undefined, t('translate.why.attr.title')), this.#attrBody, this.#attrNote, el('p', 'translate-note', t('translate.why.attr.debate')));

    this.element.append(el('h3', undefined, t('translate.why.title')), el('p', 'translate-note', t(`translate.why.hint${tf}`)), this.#linkError,
      el('p', 'translate-label', t(`translate.why.grid${tf}`)), this.#grid, el('p', 'translate-label', t('translate.why.candidates')), this.#candidates, headsBox,
      controls, this.#list, this.#status, sides, attr);
    this.element.hidden = true;
    host.append(this.element);
    const root = styleRootOf(this.element);
    if (root) adoptCss(root, css);
  }

  /**
   * A new plain greedy translation (beam search: the panel hides); the link's interventions are
   * applied to it. `transformer`: the model's layers and heads (null: a recurrent translator).
   */
  show(model: RemoteSeq2Seq, text: string, result: TranslateResult, tokenizer: 'words' | 'chars', hasAttention: boolean, transformer: TransformerShape | null = null): void {
    this.#seq++;
    this.#model = model;
    this.#text = text;
    this.#base = result.steps ? result : null;
    this.#joiner = tokenizer === 'chars' ? '' : ' ';
    this.#hasAttention = hasAttention;
    this.#transformer = transformer;
    this.#interventions = [];
    this.element.hidden = this.#base === null;
    if (!this.#base) return;
    this.#renderGrid();
    this.#render(this.#base);
    this.#fromLink();
    void this.#attribute(this.#method);
  }

  /** The link's text changed: apply it unless it is what the panel shows already. */
  linkChanged(): void {
    if (!this.#base || this.#options.link.get() === formatInterventions(this.#interventions)) return;
    this.#fromLink();
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

  /** Applies the link's interventions; a malformed link is named (field and item) and ignored. */
  #fromLink(): void {
    const t = this.#t;
    const parsed = parseInterventions(this.#options.link.get(), this.#transformer !== null);
    this.element.dataset.linkError = parsed.ok ? '0' : '1';
    if (!parsed.ok) {
      this.#linkError.textContent = fill(t('translate.why.link.error'), {
        field: t('translate.why.link.field'),
        name: this.#options.link.name,
        item: parsed.item,
        text: parsed.text,
        problem: t(`translate.why.link.problem.${parsed.problem}`),
      });
      return;
    }
    this.#linkError.textContent = '';
    if (parsed.list.length) void this.#apply(parsed.list, true);
  }

  /** The grid of the original translation: a button per (step, source token), and the candidates. */
  #renderGrid(): void {
    const base = this.#base!;
    const t = this.#t;
    const forceKey = this.#transformer ? 'translate.why.force.transformer' : 'translate.why.force';
    const table = el('table', 'translate-why-table');
    const head = el('tr');
    head.append(el('th'));
    base.source.forEach((s) => head.append(el('th', undefined, label(s.text))));
    table.append(head);
    base.steps!.forEach((step, i) => {
      const row = el('tr');
      const word = el('th', undefined, step.token);
      word.lang = 'en'; // the output word: data in the target language
      row.append(word);
      base.source.forEach((s, j) => {
        const cell = el('td');
        const b = el('button', 'translate-why-cell', this.#hasAttention ? (step.attention[j] ?? 0).toFixed(2) : '·');
        b.type = 'button';
        b.disabled = !this.#hasAttention;
        b.dataset.step = String(i);
        b.dataset.source = String(j);
        b.title = fill(t(forceKey), { step: i + 1, word: label(s.text) });
        // the name starts with what the cell shows (its weight), then what pressing it does
        b.setAttribute('aria-label', `${b.textContent}, ${b.title}`);
        b.style.setProperty('--w', (step.attention[j] ?? 0).toFixed(3));
        if ((step.attention[j] ?? 0) >= STRONG_WEIGHT) b.classList.add('strong');
        b.addEventListener('click', () => this.#push({ step: i, kind: 'force-attention', source: j }));
        cell.append(b);
        row.append(cell);
      });
      table.append(row);
    });
    this.#gridFocus.update(() => this.#grid.replaceChildren(table));
    this.#candidateFocus.update(() => this.#candidates.replaceChildren(
      ...base.steps!.map((step, i) => {
        const line = el('p', 'translate-why-candidate-row');
        line.append(el('span', 'translate-label', `${i + 1}.`));
        for (const c of step.top.filter((c) => c.token !== step.token && !RESERVED.has(c.token))) {
          // a trained model leaves its other candidates near 0: "<0.01", not a 0.00 that reads as broken
          const b = el('button', 'lab-button quiet al-button translate-why-candidate', `${c.token} ${c.prob < 0.005 ? '<0.01' : c.prob.toFixed(2)}`);
          b.lang = 'en'; // a word the model may write: data in the target language
          b.type = 'button';
          b.dataset.step = String(i);
          b.dataset.token = c.token;
          b.title = fill(t('translate.why.token'), { step: i + 1, word: c.token });
          b.addEventListener('click', () => this.#push({ step: i, kind: 'force-token', token: c.token }));
          line.append(b);
        }
        return line;
      }),
    ));
    // the Transformer's heads
    const shape = this.#transformer;
    (this.#heads.parentElement as HTMLElement).hidden = shape === null;
    if (shape) {
      const numbers = (n: number) => Array.from({ length: n }, (_, i) => [String(i), String(i + 1)] as const);
      setOptions(this.#headLayer, numbers(shape.layers), this.#headLayer.value || '0');
      setOptions(this.#headHead, numbers(shape.heads), this.#headHead.value || '0');
      setOptions(this.#headStep, [['all', t('translate.why.head.every')], ...numbers(base.steps!.length)], this.#headStep.value || 'all');
      // a smaller model than the last: back to the first choice
      for (const s of [this.#headLayer, this.#headHead, this.#headStep]) if (s.value === '') s.selectedIndex = 0;
    }
  }

  #zeroHead(): void {
    const attention = this.#headKind.value as Kind;
    const v: Intervention = { kind: 'zero-head', attention, layer: Number(this.#headLayer.value), head: Number(this.#headHead.value) };
    if (attention !== 'encoder-self' && this.#headStep.value !== 'all') v.step = Number(this.#headStep.value);
    this.#push(v);
  }

  #push(v: Intervention): void {
    // One intervention per step and kind (and head): a new one at the same place replaces the old.
    const key = (u: Intervention) => [u.step, u.kind, u.attention, u.layer, u.head].join('/');
    this.#apply([...this.#interventions.filter((u) => key(u) !== key(v)), v]);
  }

  async #apply(list: Intervention[], fromLink = false): Promise<void> {
    const model = this.#model, base = this.#base;
    if (!model || !base) return;
    const seq = ++this.#seq;
    const link = this.#options.link;
    if (list.length === 0) {
      this.#interventions = [];
      this.#render(base);
      link.set('');
      return;
    }
    try {
      const r = await model.translate(this.#text, { topK: 5, interventions: list });
      if (seq !== this.#seq) return;
      this.#interventions = list;
      this.#render(r);
      link.set(formatInterventions(list));
    } catch (err) {
      if (seq !== this.#seq) return;
      // The intervened step lies past the end of this translation, say: keep the last good one.
      // A link's list stays in the link (a longer translation, after more training, may take it).
      const message = errorText(err);
      this.#status.textContent = fromLink
        ? fill(this.#t('translate.why.link.failed'), { field: this.#t('translate.why.link.field'), name: link.name, message })
        : fill(this.#t('translate.why.error'), { message });
      this.#status.dataset.error = '1';
    }
  }

  #describe(v: Intervention): string {
    const t = this.#t;
    const base = this.#base!;
    const step = (v.step ?? 0) + 1;
    if (v.kind === 'force-attention') return fill(t(this.#transformer ? 'translate.why.force.transformer' : 'translate.why.force'), { step, word: label(base.source[v.source ?? 0]?.text ?? '') });
    if (v.kind === 'force-token') return fill(t('translate.why.token'), { step, word: v.token ?? '' });
    return fill(t(v.step === undefined ? 'translate.why.zero.all' : 'translate.why.zero.step'), {
      kind: t(`translate.why.kind.${v.attention ?? 'cross'}`),
      layer: (v.layer ?? 0) + 1,
      head: (v.head ?? 0) + 1,
      step,
    });
  }

  /** Original beside intervened (both the base translation when there is no intervention). */
  #render(r: TranslateResult): void {
    const t = this.#t;
    const base = this.#base!;
    const steps = r.steps ?? [];
    const changed = r.intervention?.changed ?? steps.map(() => false);
    this.#list.replaceChildren(...this.#interventions.map((v) => el('li', undefined, this.#describe(v))));
    this.#status.dataset.error = '0';
    // a live region: the same words again are not said again
    setText(this.#status, !r.intervention ? t('translate.why.none')
      : r.intervention.firstChange < 0 ? t('translate.why.same') : fill(t('translate.why.changed'), { step: r.intervention.firstChange + 1 }));
    this.#original.textContent = base.text;
    this.#intervened.replaceChildren(...steps.filter((s) => s.token !== '<eos>').flatMap((s, i) => {
      const word = el('span', changed[i] ? 'translate-why-word changed' : 'translate-why-word', s.token);
      word.lang = 'en';
      if (changed[i]) word.dataset.changed = '1';
      return i > 0 && this.#joiner ? [document.createTextNode(this.#joiner), word] : [word];
    }));
    this.element.dataset.interventions = String(this.#interventions.length);
    this.element.dataset.firstChange = String(r.intervention?.firstChange ?? -1);
    this.element.dataset.intervened = r.text;
    for (const [map, shown] of [[this.#maps[0], base], [this.#maps[1], r]] as const) {
      const rows = shown.steps ?? [];
      const cols = base.source.length;
      map.element.hidden = !this.#hasAttention || rows.length === 0;
      if (map.element.hidden) continue;
      const values = new Float32Array(rows.length * cols);
      rows.forEach((s, i) => values.set(s.attention.subarray(0, cols), i * cols));
      map.update({ rows: rows.length, cols, values, rowLabels: distinctLabels(rows.map((s) => s.token), this.#t), rowLang: 'en',
        colLabels: distinctLabels(base.source.map((s) => label(s.text)), this.#t) });
    }
  }

  /** The attribution of the base translation, or a plain sentence when the model has none. */
  async #attribute(method: Method): Promise<void> {
    const model = this.#model, base = this.#base;
    if (!model || !base) return;
    this.#method = method;
    for (const [m, b] of Object.entries(this.#methods)) b.setAttribute('aria-pressed', String(m === method));
    const seq = ++this.#attrSeq;
    let a: TranslationAttribution;
    try {
      a = await model.attribution(this.#text, method === 'integrated-gradients' ? { method, steps: 32 } : { method });
    } catch (err) {
      if (seq !== this.#attrSeq || base !== this.#base) return;
      this.#attrBody.hidden = true;
      this.#attrNote.textContent = fill(this.#t('translate.why.attr.unavailable'), { message: errorText(err) });
      this.element.dataset.attribution = 'unavailable';
      return;
    }
    if (seq !== this.#attrSeq || base !== this.#base) return;
    this.#attrBody.hidden = false;
    const [T, S] = a.scores.shape;
    this.#attrMap.update({ rows: T, cols: S, values: a.scores.data, rowLabels: distinctLabels(a.words, this.#t), rowLang: 'en',
      colLabels: distinctLabels(a.source.map((s) => label(s.text)), this.#t) });
    const tied = tiedRows(a.scores.data, T, S);
    this.#rho.replaceChildren(...a.words.map((w, i) => {
      const rho = a.rankCorrelation[i];
      const item = el('li');
      const word = el('span', undefined, w);
      word.lang = 'en'; // the output word: data in the target language
      // a row of ties ranks nothing: its ρ would only rank the ties' rounding
      const value = tied[i] ? this.#t('translate.why.attr.tiedRow') : rho === null ? this.#t('translate.why.attr.undefined') : rho.toFixed(2);
      item.append(word, `: ${value}`);
      item.dataset.rho = rho === null || tied[i] ? '' : String(rho);
      return item;
    }));
    const ties = tied.filter(Boolean).length;
    this.#attrNote.textContent = [a.attention ? '' : this.#t('translate.why.attr.none'), ties > 0 ? fill(this.#t('translate.why.attr.ties'), { n: ties, total: T }) : '']
      .filter(Boolean)
      .join(' ');
    this.element.dataset.attribution = method;
  }
}
