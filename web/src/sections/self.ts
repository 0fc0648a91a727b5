// §3.4 QKV and §3.5 self-attention, live: a sentence → seeded embeddings → the core's selfAttention
// with seeded Linear(d, d) projections → heatmaps of Q, K, V, scores, weights and output; a head view
// (where each word attends) and a neuron view (q·k term by term for one pair).
import { HEATMAP_CSS, Heatmap } from '../heatmap/heatmap';
import { mathml, QKV_PROJECTIONS, SCALED_DOT_ATTENTION } from '../math';
import type { SectionContext, SectionHandle, SectionModule } from '../section';
import type { PropName } from '../state';
import type { SelfAttentionResult } from '../worker/protocol';
import sharedCss from './dot-controls.css?inline';
import { el, errorText, field, LatestOnly, MessageLine, narration, range, scrollBehavior, setFieldError, setOptions, mountRoot, tryThis } from './dom';
import { CellSelection, link, type CellRef } from '../heatmap/heatmap-cells';
import { SentenceBox } from './sentence-box';
import css from './self.css?inline';
import { HeadView } from './self-headview';
import { NeuronView } from './self-neuron';
import { fill } from '../i18n';
import { SELF_STRINGS } from './self-strings';
import { featureLabels, rowOf, selfAttentionInputs } from './self-tokens';
import { distinctLabels } from './token-labels';

const RECOMPUTE: readonly PropName[] = ['seed', 'self_text', 'self_d', 'self_tie'];
const D_CHOICES = range(2, 64);

/** The (query, key) pair the views show; `feature`: one feature of q and k picked in the Q or K map. */
interface PairCell extends CellRef {
  feature?: number;
}

interface Computed {
  tokens: string[];
  /** distinct names for the neuron view's choosers (repeated words get their position) */
  labels: string[];
  d: number;
  result: SelfAttentionResult;
}

class SelfView implements SectionHandle {
  readonly #ctx: SectionContext;
  readonly #root = el('div', 'self-section');
  readonly #text = el('input');
  readonly #d = el('select');
  readonly #tie = el('input');
  readonly #message = new MessageLine('self-message');
  readonly #maps: Record<'q' | 'k' | 'v' | 'scores' | 'weights' | 'output', Heatmap>;
  readonly #head: HeadView;
  readonly #neuron: NeuronView;
  readonly #latest = new LatestOnly();
  readonly #sentence: SentenceBox;
  readonly #unsubscribe: () => void;
  #last: Computed | null = null;
  #computeCount = 0;
  readonly #narration = narration('self-narration');
  readonly #stopWatching: (() => void)[] = [];
  /**
   * The (query, key) pair every view shows: the score and weight maps, the head view and the neuron
   * view. Its selected pair is the URL's self_focus and self_key; a hovered cell shows while hovered.
   */
  readonly #selection: CellSelection<PairCell>;

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    this.#selection = new CellSelection<PairCell>({ row: ctx.state.get('self_focus'), col: ctx.state.get('self_key') });
    this.#sentence = new SentenceBox({
      ctx, prefix: 'self', key: 'self_text', input: this.#text, message: this.#message, root: this.#root, latest: this.#latest,
    });
    const { t, state } = ctx;
    mountRoot(host, this.#root, HEATMAP_CSS, sharedCss, css);
    this.#root.append(
      el('p', 'self-intro', t('self.intro')),
      el('p', 'self-intro', t('self.why3')),
      tryThis(t('try.title'), [t('self.try.cell'), t('self.try.repeat'), t('self.try.hover'), t('self.try.tie')]),
    );

    const controls = el('div', 'al-controls');
    this.#text.type = 'text';
    this.#text.className = 'self-text';
    this.#text.value = state.get('self_text');
    this.#text.spellcheck = false;
    this.#text.addEventListener('input', () => this.#sentence.onInput());
    const textField = field(t('self.text'), this.#text);
    textField.classList.add('al-field-wide');
    textField.hidden = state.isHidden('self_text');
    setOptions(this.#d, D_CHOICES.map((v) => [String(v), String(v)] as const), String(state.get('self_d')));
    this.#d.addEventListener('change', () => state.set('self_d', Number(this.#d.value)));
    const dField = field(t('self.d'), this.#d);
    dField.hidden = state.isHidden('self_d');
    this.#tie.type = 'checkbox';
    this.#tie.className = 'lab-check';
    this.#tie.checked = state.get('self_tie');
    this.#tie.addEventListener('change', () => state.set('self_tie', this.#tie.checked));
    const tieField = field(t('self.tie'), this.#tie, state.isHidden('self_tie'));
    tieField.classList.add('self-tie');
    controls.append(textField, dField, tieField);

    const formulas = el('div', 'al-formula');
    // the three projections side by side, stacked on a phone (MathML does not wrap)
    const projections = el('div', 'self-projections');
    projections.append(...QKV_PROJECTIONS.map((m) => mathml(m)));
    formulas.append(projections, mathml(SCALED_DOT_ATTENTION, { display: 'block' }));
    this.#root.append(controls, this.#message.element, this.#narration, formulas);

    const grid = el('div', 'al-heatmaps');
    const features = { t, diverging: true, xTitle: t('self.axis.features'), yTitle: t('self.axis.tokens') };
    const pairs = { t, xTitle: t('self.axis.keys'), yTitle: t('self.axis.queries') };
    const map = (id: string, key: string, options: object) => new Heatmap(grid, { id: `self-${id}`, title: t(key), ...options });
    this.#maps = {
      q: map('q', 'self.map.q', features),
      k: map('k', 'self.map.k', features),
      v: map('v', 'self.map.v', features),
      scores: map('scores', 'self.map.scores', { ...pairs, diverging: true }),
      weights: map('weights', 'self.map.weights', { ...pairs, fixedRange: [0, 1] }),
      output: map('output', 'self.map.output', features),
    };

    const headBox = el('section', 'self-head');
    headBox.append(el('h3', undefined, t('self.head.title')), el('p', 'self-help', t('self.head.help')));
    this.#head = new HeadView(
      { onFocus: (i) => state.set('self_focus', i) },
      { queries: t('self.head.queries'), keys: t('self.head.keys') },
    );
    const clear = el('button', 'lab-button quiet al-button al-button-quiet', t('self.head.clear'));
    clear.type = 'button';
    clear.addEventListener('click', () => state.set('self_focus', -1));
    headBox.append(this.#head.element, clear);

    const neuronBox = el('section', 'self-neuron-box');
    const neuronTitle = el('h3', undefined, t('self.neuron.title'));
    neuronTitle.tabIndex = -1;
    neuronBox.append(neuronTitle);
    this.#neuron = new NeuronView(
      t,
      { onQuery: (i) => state.set('self_focus', i), onKey: (j) => state.set('self_key', j) },
      state.isHidden('self_focus') || state.isHidden('self_key'),
    );
    neuronBox.append(this.#neuron.element);

    const views = el('div', 'self-views');
    views.append(headBox, neuronBox);
    this.#root.append(views, grid);
    // Any cell of the scores or weights, hovered, clicked, tapped or walked to, is the pair the head
    // view and the neuron view show; a chosen one (not a hovered one) goes into the URL.
    // a cell of Q (query i, feature f) or K (key j, feature f): that vector and feature in the neuron view
    const same = (cell: CellRef): PairCell => cell;
    const pair = (s: PairCell): CellRef => ({ row: s.row, col: s.col });
    for (const map of [this.#maps.scores, this.#maps.weights]) this.#stopWatching.push(link(this.#selection, map, same, pair));
    // A cell clicked, tapped or Entered in the scores or weights changes the neuron view, which sits
    // above the maps (off screen on a laptop): bring it into view, so the change is seen.
    const reveal = () => {
      const box = neuronBox.getBoundingClientRect();
      if (box.top < 0 || box.bottom > innerHeight) neuronBox.scrollIntoView({ block: 'nearest', behavior: scrollBehavior() });
    };
    for (const map of [this.#maps.scores, this.#maps.weights]) {
      this.#stopWatching.push(map.onCell((e) => e.kind === 'select' && e.source !== 'keyboard' && reveal()));
      map.element.addEventListener('keydown', (e) => e.key === 'Enter' && e.target instanceof HTMLCanvasElement && reveal());
    }
    const at = () => this.#selection.current ?? { row: 0, col: 0 };
    const feature = (row: number, s: PairCell) => (s.feature !== undefined ? { row, col: s.feature } : null);
    this.#stopWatching.push(
      link(this.#selection, this.#maps.q, (c) => ({ row: c.row, col: at().col, feature: c.col }), (s) => feature(s.row, s)),
      link(this.#selection, this.#maps.k, (c) => ({ row: at().row, col: c.row, feature: c.col }), (s) => feature(s.col, s)),
      // the pair, hovered or chosen in any map: its query's row of Q and its key's row of K light up
      this.#selection.subscribe((s) => {
        const chosen = s && s.row >= 0 ? s : null;
        this.#maps.q.highlightRow(chosen?.row ?? null);
        this.#maps.k.highlightRow(chosen?.col ?? null);
      }),
    );
    this.#stopWatching.push(
      this.#selection.subscribe((cell, source) => {
        const chosen = this.#selection.selected;
        if (source !== null && chosen && cell === chosen && chosen.row >= 0 && (chosen.row !== state.get('self_focus') || chosen.col !== state.get('self_key'))) {
          state.update({ self_focus: chosen.row, self_key: chosen.col });
        }
        this.#drawPair();
      }),
    );

    this.#unsubscribe = state.subscribe((changed) => {
      if (changed.some((name) => RECOMPUTE.includes(name))) this.#compute();
      else if (changed.includes('self_focus') || changed.includes('self_key')) {
        const chosen = this.#selection.selected;
        const focus = state.get('self_focus');
        const key = state.get('self_key');
        if (chosen?.row !== focus || chosen?.col !== key) this.#selection.select({ row: focus, col: key });
      }
    });
    this.#compute();
  }

  #compute(): void {
    const { t, state, lab } = this.#ctx;
    const text = state.get('self_text');
    const d = state.get('self_d');
    const seed = state.get('seed');
    if (this.#text.value !== text) this.#text.value = text;
    this.#d.value = String(d);
    this.#tie.checked = state.get('self_tie');
    const tokens = this.#sentence.tokens(text);
    if (tokens === null) return;
    const { x, params } = selfAttentionInputs(tokens, d, seed, state.get('self_tie'));
    void this.#latest.run(
      () => lab.selfAttention(x, params),
      (result) => {
        const labels = distinctLabels(tokens, t);
        this.#last = { tokens, labels, d, result };
        const n = tokens.length;
        const feats = featureLabels(d);
        for (const key of ['q', 'k', 'v', 'output'] as const) {
          this.#maps[key].update({ rows: n, cols: d, values: result[key].data, rowLabels: labels, colLabels: feats });
        }
        this.#maps.scores.update({ rows: n, cols: n, values: result.scores.data, rowLabels: labels, colLabels: labels });
        this.#maps.weights.update({ rows: n, cols: n, values: result.weights.data, rowLabels: labels, colLabels: labels });
        this.#drawPair();
        setFieldError(this.#text, null);
        this.#message.show('ok', fill(t('self.ok'), { count: n, d }));
        this.#sentence.offerSplit();
        this.#root.dataset.state = 'ok';
        this.#root.dataset.computeCount = String(++this.#computeCount);
      },
      (err) => this.#sentence.showError(errorText(err)),
    );
  }

  /** The head view's focus and the neuron view's pair, from the last result (no recomputation). */
  #drawPair(): void {
    const last = this.#last;
    if (!last) return;
    const n = last.tokens.length;
    const pair = this.#selection.current ?? { row: -1, col: 0 };
    const focus = pair.row;
    this.#head.update(last.labels, last.result.weights.data, focus);
    const query = focus >= 0 && focus < n ? focus : 0;
    const key = Math.max(0, Math.min(pair.col, n - 1));
    const { q, k, scaled, weights } = last.result;
    const row = last.result.weights.data.slice(query * n, (query + 1) * n);
    let best = 0;
    for (let j = 1; j < n; j++) if (row[j] > row[best]) best = j;
    this.#narration.textContent = fill(this.#ctx.t('self.narrate'), {
      query: last.labels[query],
      best: last.labels[best],
      w: row[best].toFixed(2),
      key: last.labels[key],
      wk: row[key].toFixed(2),
    });
    this.#neuron.update(last.labels, {
      query,
      key,
      feature: pair.feature,
      q: rowOf(q.data, last.d, query),
      k: rowOf(k.data, last.d, key),
      scaled: scaled.data[query * n + key],
      weight: weights.data[query * n + key],
    });
  }

  setActive(_active: boolean): void {
    // nothing runs in the background
  }

  onWorkerRestart(): void {
    this.#compute();
  }

  destroy(): void {
    this.#unsubscribe();
    for (const stop of this.#stopWatching) stop();
    this.#latest.cancel();
    for (const map of Object.values(this.#maps)) map.destroy();
    this.#root.remove();
  }
}

export const selfSection: SectionModule = {
  id: 'self',
  strings: SELF_STRINGS,
  mount: (host, ctx) => new SelfView(host, ctx),
};
