// §3.4 QKV and §3.5 self-attention, live: a sentence → seeded embeddings → the core's selfAttention
// with seeded Linear(d, d) projections → heatmaps of Q, K, V, scores, weights and output; a head view
// (where each word attends) and a neuron view (q·k term by term for one pair).
import { HEATMAP_CSS, Heatmap } from '../heatmap/heatmap';
import { mathml, QKV_PROJECTIONS, SCALED_DOT_ATTENTION } from '../math';
import type { SectionContext, SectionHandle, SectionModule } from '../section';
import type { PropName } from '../state';
import type { SelfAttentionResult } from '../worker/protocol';
import sharedCss from './dot-controls.css?inline';
import { el, errorText, field, LatestOnly, MessageLine, narration, range, setFieldError, setOptions, mountRoot, scrollBehavior, tryThis } from './dom';
import { watchHeatmapCells } from './heatmap-link';
import { SentenceBox } from './sentence-box';
import css from './self.css?inline';
import { HeadView } from './self-headview';
import { NeuronView } from './self-neuron';
import { fill } from '../i18n';
import { SELF_STRINGS } from './self-strings';
import { featureLabels, rowOf, selfAttentionInputs, tokenLabels } from './self-tokens';

const RECOMPUTE: readonly PropName[] = ['seed', 'self_text', 'self_d'];
const D_CHOICES = range(2, 64);

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

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    this.#sentence = new SentenceBox({
      ctx, prefix: 'self', key: 'self_text', input: this.#text, message: this.#message, root: this.#root, latest: this.#latest,
    });
    const { t, state } = ctx;
    mountRoot(host, this.#root, HEATMAP_CSS, sharedCss, css);
    this.#root.append(
      el('p', 'self-intro', t('self.intro')),
      tryThis(t('try.title'), [t('self.try.cell'), t('self.try.repeat'), t('self.try.hover')]),
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
    controls.append(textField, dField);

    const formulas = el('div', 'al-formula');
    formulas.append(mathml(QKV_PROJECTIONS, { display: 'block' }), mathml(SCALED_DOT_ATTENTION, { display: 'block' }));
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
    // The neuron view opens from any cell of the scores or weights: a click or Enter on a cell
    // picks its query and key, and the neuron view comes into sight.
    const tokenAxes = () => ({ rows: this.#last?.tokens ?? [], cols: this.#last?.tokens ?? [] });
    for (const map of [this.#maps.scores, this.#maps.weights]) {
      this.#stopWatching.push(
        watchHeatmapCells(map, tokenAxes, () => {}, ({ row, col }) => {
          state.update({ self_focus: row, self_key: col });
          neuronBox.scrollIntoView({ behavior: scrollBehavior(), block: 'nearest' });
          neuronTitle.focus({ preventScroll: true });
        }),
      );
    }

    this.#unsubscribe = state.subscribe((changed) => {
      if (changed.some((name) => RECOMPUTE.includes(name))) this.#compute();
      else if (changed.includes('self_focus') || changed.includes('self_key')) this.#drawPair();
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
    const tokens = this.#sentence.tokens(text);
    if (tokens === null) return;
    const { x, params } = selfAttentionInputs(tokens, d, seed);
    void this.#latest.run(
      () => lab.selfAttention(x, params),
      (result) => {
        const labels = tokenLabels(tokens);
        this.#last = { tokens, labels, d, result };
        const n = tokens.length;
        const feats = featureLabels(d);
        for (const key of ['q', 'k', 'v', 'output'] as const) {
          this.#maps[key].update({ rows: n, cols: d, values: result[key].data, rowLabels: tokens, colLabels: feats });
        }
        this.#maps.scores.update({ rows: n, cols: n, values: result.scores.data, rowLabels: tokens, colLabels: tokens });
        this.#maps.weights.update({ rows: n, cols: n, values: result.weights.data, rowLabels: tokens, colLabels: tokens });
        this.#drawPair();
        setFieldError(this.#text, null);
        this.#message.show('ok', fill(t('self.ok'), { count: n, d }));
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
    const { state } = this.#ctx;
    const n = last.tokens.length;
    const focus = state.get('self_focus');
    this.#head.update(last.tokens, last.result.weights.data, focus);
    const query = focus >= 0 && focus < n ? focus : 0;
    const key = Math.min(state.get('self_key'), n - 1);
    const { q, k, scaled, weights } = last.result;
    const row = last.result.weights.data.slice(query * n, (query + 1) * n);
    let best = 0;
    for (let j = 1; j < n; j++) if (row[j] > row[best]) best = j;
    this.#narration.textContent = fill(this.#ctx.t('self.narrate'), {
      query: last.tokens[query],
      best: last.tokens[best],
      w: row[best].toFixed(2),
      key: last.tokens[key],
      wk: row[key].toFixed(2),
    });
    this.#neuron.update(last.labels, {
      query,
      key,
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
