// §3.1 dot-product and §3.2 scaled dot-product attention, live: editable Q and K (= V), heatmaps of
// raw scores → scaled scores → softmax weights → output from the core, and the saturation sweep
// that shows why §3.2 divides by √d (dot-sweep.ts, dot-sweep-chart.ts).
import { HEATMAP_CSS, Heatmap, HeatmapScaleGroup } from '../heatmap/heatmap';
import { DOT_ATTENTION, mathml, SCALED_DOT_ATTENTION, SOFTMAX_ROW } from '../math';
import { MatrixCellError, MatrixEditor } from '../matrix-editor';
import { deriveSeed, freshSeed, NormalSampler } from '../random';
import type { SectionContext, SectionHandle, SectionModule } from '../section';
import type { PropName } from '../state';
import css from './dot.css?inline';
import sharedCss from './dot-controls.css?inline';
import { el, errorText, field, LatestOnly, MessageLine, narration, range, setOptions, mountRoot, tryThis } from './dom';
import { CellSelection, link, type CellRef } from '../heatmap/heatmap-cells';
import { fill } from '../i18n';
import { DOT_STRINGS } from './dot-strings';
import { SweepView } from './dot-sweep-view';
import { Panel } from './panel';
import { featureLabels } from './self-tokens';
import { CHART_CSS } from '../charts/chart-css';

const SIZE_MAX = 8;

const WATCHED: readonly PropName[] = ['seed', 'dot_score', 'dot_n', 'dot_m', 'dot_d', 'dot_q', 'dot_k'];

const labels = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);

/**
 * The drawn entries of the default shape (state table: 3 queries, 5 keys, d = 4): the seed's stream,
 * row by row, Q then K. Every other entry (a row or feature beyond them) has a stream of its own.
 */
const DRAWN = { n: 3, m: 5, d: 4 };

/**
 * The seed's value of entry (row, feature) of Q or K, whatever the shape: a larger shape keeps the
 * smaller one's values and adds fresh draws (never the values of other rows moved over).
 */
function seededMatrix(seed: number, name: 'q' | 'k', rows: number, d: number, drawn: readonly number[], drawnRows: number): number[] {
  return Array.from({ length: rows * d }, (_, i) => {
    const r = Math.floor(i / d);
    const c = i % d;
    if (r < drawnRows && c < DRAWN.d) return drawn[r * DRAWN.d + c];
    return new NormalSampler(deriveSeed(seed, `dot:${name}:${r}:${c}`)).next();
  });
}

/** The Q and K values in use: the stored edits when they fit the shape, else drawn from the seed. */
export function dotInputs(
  seed: number,
  n: number,
  m: number,
  d: number,
  storedQ: readonly number[],
  storedK: readonly number[],
): { q: number[]; k: number[]; edited: boolean } {
  const normal = new NormalSampler(seed);
  const seededQ = seededMatrix(seed, 'q', n, d, normal.take(DRAWN.n * DRAWN.d), DRAWN.n);
  const seededK = seededMatrix(seed, 'k', m, d, normal.take(DRAWN.m * DRAWN.d), DRAWN.m);
  const qFits = storedQ.length === n * d;
  const kFits = storedK.length === m * d;
  return { q: qFits ? [...storedQ] : seededQ, k: kFits ? [...storedK] : seededK, edited: qFits || kFits };
}

/**
 * Edited values carried to a new shape: each (row, feature) the old and new shapes share keeps the
 * reader's value, the rest is the seed's (`seeded`, already in the new shape). No edits (empty, or
 * not of the old shape): none.
 */
export function resizeEdits(stored: readonly number[], from: { rows: number; d: number }, to: { rows: number; d: number }, seeded: readonly number[]): number[] {
  if (stored.length === 0 || stored.length !== from.rows * from.d) return [];
  return seeded.map((v, i) => {
    const r = Math.floor(i / to.d);
    const c = i % to.d;
    return r < from.rows && c < from.d ? stored[r * from.d + c] : v;
  });
}

/**
 * A largest weight `w` in words: saturated > 0.9 > mostly one key > 0.6 > a few keys > flat (below
 * `flat`, near the even share of the keys).
 */
function weightVerdict(t: (key: string) => string, w: number, flat: number): string {
  return t(w > 0.9 ? 'dot.narrate.saturated' : w > 0.6 ? 'dot.narrate.one' : w < flat ? 'dot.narrate.flat' : 'dot.narrate.focused');
}

class DotView implements SectionHandle {
  readonly #ctx: SectionContext;
  readonly #root = el('div', 'dot-section');
  readonly #message = new MessageLine('dot-message');
  readonly #score = el('select');
  readonly #sizes = { dot_n: el('select'), dot_m: el('select'), dot_d: el('select') };
  readonly #edited = el('p', 'dot-edited');
  readonly #formula = el('div', 'dot-formula');
  readonly #query: MatrixEditor;
  readonly #key: MatrixEditor;
  readonly #maps: { scores: Heatmap; scaled: Heatmap; weights: Heatmap; output: Heatmap };
  #sweep: SweepView | null = null;
  readonly #sweepPanel: Panel;
  /** on screen (the sweep, made later, starts in this state) */
  #active = false;
  #dead = false;
  readonly #latest = new LatestOnly();
  readonly #unsubscribe: () => void;
  #computeCount = 0;
  /** the message shows a cell's error */
  #cellError = false;
  readonly #narration = narration('dot-narration');
  readonly #sweepNarration = narration('dot-sweep-narration');
  readonly #link = el('div', 'dot-link');
  /** the (query, key) pair every view shows: the score and weight maps, both editors, the arithmetic */
  readonly #selection = new CellSelection();
  readonly #stopWatching: (() => void)[] = [];
  /** what changed since the last computation, for the narration line */
  #changed: readonly PropName[] = [];
  #last: { q: number[]; k: number[]; n: number; m: number; d: number; score: string; scores: number[]; scaled: number[]; weights: number[] } | null = null;

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    const { t, state } = ctx;
    mountRoot(host, this.#root, HEATMAP_CSS, sharedCss, css, CHART_CSS);

    this.#root.append(
      el('p', 'dot-intro', t('dot.intro')),
      tryThis(t('try.title'), [t('dot.try.hover'), t('dot.try.cell'), t('dot.try.scale')]),
    );

    const controls = el('div', 'al-controls');
    setOptions(this.#score, [['scaled', t('dot.score.scaled')], ['dot', t('dot.score.dot')]], state.get('dot_score'));
    this.#score.addEventListener('change', () => {
      const v = this.#score.value;
      if (v === 'dot' || v === 'scaled') state.set('dot_score', v);
    });
    const scoreField = field(t('dot.score'), this.#score);
    scoreField.hidden = state.isHidden('dot_score');
    controls.append(scoreField);
    for (const name of ['dot_n', 'dot_m', 'dot_d'] as const) {
      const select = this.#sizes[name];
      setOptions(select, range(1, SIZE_MAX).map((v) => [String(v), String(v)] as const), String(state.get(name)));
      select.addEventListener('change', () => this.#onSize(name, Number(select.value)));
      const f = field(t(name.replace('_', '.')), select);
      f.hidden = state.isHidden(name);
      controls.append(f);
    }
    const randomise = el('button', 'lab-button primary al-button', t('dot.randomise'));
    randomise.dataset.testid = 'dot-randomise';
    randomise.type = 'button';
    randomise.title = t('dot.randomise.title');
    randomise.hidden = state.isHidden('controls');
    randomise.addEventListener('click', () => state.update({ seed: freshSeed(), dot_q: [], dot_k: [] }));
    controls.append(randomise);
    this.#root.append(controls, this.#formula);

    const reset = el('button', 'lab-button quiet al-button al-button-quiet', t('dot.reset'));
    reset.type = 'button';
    reset.addEventListener('click', () => state.update({ dot_q: [], dot_k: [] }));
    this.#edited.append(el('span', undefined, t('dot.edited')), ' ', reset);

    const editors = el('div', 'dot-editors');
    const onInput = () => this.#onEdit();
    // each editor in its own box: the boxes wrap onto separate lines when they do not fit side by
    // side, and a box narrower than its table scrolls it (never overlaps the other)
    const editorBox = () => {
      const box = el('div', 'dot-editor-box');
      editors.append(box);
      return box;
    };
    // a query's or key's row, focused or pointed at in its editor, picks that side of the pair
    const pick = (side: 'row' | 'col', hover: boolean) => (index: number | null) => {
      const at = this.#selection.current ?? { row: 0, col: 0 };
      const cell = index === null ? null : { ...at, [side]: index };
      if (hover) this.#selection.hover(cell);
      else if (cell) this.#selection.select(cell, 'keyboard');
    };
    this.#query = new MatrixEditor(editorBox(), { caption: t('dot.queries'), rowPrefix: 'q', colPrefix: 'd', onInput, onRowFocus: pick('row', false), onRowHover: pick('row', true) });
    this.#key = new MatrixEditor(editorBox(), { caption: t('dot.keys'), rowPrefix: 'k', colPrefix: 'd', onInput, onRowFocus: pick('col', false), onRowHover: pick('col', true) });
    this.#query.element.classList.add('dot-query');
    this.#key.element.classList.add('dot-key');
    editors.hidden = state.isHidden('dot_q') && state.isHidden('dot_k');
    this.#root.append(this.#edited, editors, this.#message.element, this.#narration);

    const grid = el('div', 'al-heatmaps');
    const axes = { t, xTitle: t('dot.axis.keys'), yTitle: t('dot.axis.queries') };
    // the raw and the scaled scores on one colour scale: each on its own, the scaled map would look
    // just like the raw one, and dividing by √d would seem to change nothing
    const scores = new HeatmapScaleGroup();
    this.#maps = {
      scores: new Heatmap(grid, { id: 'dot-scores', title: t('dot.map.scores'), diverging: true, scaleGroup: scores, ...axes }),
      scaled: new Heatmap(grid, { id: 'dot-scaled', title: t('dot.map.scaled'), diverging: true, scaleGroup: scores, ...axes }),
      weights: new Heatmap(grid, { id: 'dot-weights', title: t('dot.map.weights'), fixedRange: [0, 1], ...axes }),
      output: new Heatmap(grid, {
        id: 'dot-output',
        title: t('dot.map.output'),
        diverging: true,
        t,
        xTitle: t('dot.axis.features'),
        yTitle: t('dot.axis.queries'),
      }),
    };
    const softmax = el('div', 'dot-formula');
    softmax.append(mathml(SOFTMAX_ROW, { display: 'block' }));
    // not a live region: it follows the mouse; the heatmap says a chosen cell itself (politely)
    this.#link.dataset.testid = 'dot-link';
    this.#link.textContent = t('dot.link.hint');
    this.#root.append(grid, this.#link, softmax);
    const same = (cell: CellRef) => cell;
    for (const map of [this.#maps.scores, this.#maps.scaled, this.#maps.weights]) this.#stopWatching.push(link(this.#selection, map, same, same));
    this.#stopWatching.push(this.#selection.subscribe((cell) => this.#showLink(cell)));

    // The heatmaps' request first: the worker answers in order, and the sweep below asks for a
    // grid of feature sizes, which would otherwise hold up the section's first picture.
    this.#render();
    // The sweep is §3.2's second idea: a named panel, its view (and its worker request) made on first open.
    const sweepPanel = new Panel(state, 'dot_open_sweep', t('dot.panel.sweep'), 'dot-panel-sweep');
    this.#sweepPanel = sweepPanel;
    this.#root.append(sweepPanel.element);
    if (state.get('dot_sweep_d') !== 64) sweepPanel.show();
    void sweepPanel.opened.then(() => {
      if (this.#dead) return;
      this.#sweep = new SweepView(sweepPanel.body, ctx);
      this.#watchSweep();
      this.#sweep.setActive(this.#active);
    });

    this.#unsubscribe = state.subscribe((changed) => {
      if (changed.some((name) => WATCHED.includes(name))) {
        this.#changed = changed;
        this.#render();
      }
    });
  }

  /** A size changed: the reader's edits keep every row and feature the new shape still has. */
  #onSize(name: 'dot_n' | 'dot_m' | 'dot_d', value: number): void {
    const { state } = this.#ctx;
    const was = { n: state.get('dot_n'), m: state.get('dot_m'), d: state.get('dot_d') };
    const next = { ...was, [name.slice(4)]: value };
    const seeded = dotInputs(state.get('seed'), next.n, next.m, next.d, [], []);
    state.update({
      [name]: value,
      dot_q: resizeEdits(state.get('dot_q'), { rows: was.n, d: was.d }, { rows: next.n, d: next.d }, seeded.q),
      dot_k: resizeEdits(state.get('dot_k'), { rows: was.m, d: was.d }, { rows: next.m, d: next.d }, seeded.k),
    });
  }

  #onEdit(): void {
    const { t, state } = this.#ctx;
    try {
      const q = this.#query.read();
      const k = this.#key.read();
      const changed = state.update({ dot_q: q, dot_k: k });
      // a cell put back to the value the maps already show changes no setting, so nothing
      // recomputes: its error goes here
      if (this.#cellError && changed.length === 0 && this.#last) {
        this.#showOk();
        this.#narrate();
      }
      this.#cellError = false;
    } catch (err) {
      if (!(err instanceof MatrixCellError)) throw err;
      this.#message.show('error', `${t('error.prefix')}${err.where}: ${t(`dot.cell.${err.problem}`)}`);
      this.#root.dataset.state = 'error';
      this.#cellError = true;
      // the line under the maps must not go on saying that an edit is in
      this.#narration.textContent = t('dot.narrate.kept');
    }
  }

  #showOk(): void {
    this.#message.show('ok', this.#ctx.t('dot.ok'));
    this.#root.dataset.state = 'ok';
  }

  #render(): void {
    const { t, state, lab } = this.#ctx;
    const n = state.get('dot_n');
    const m = state.get('dot_m');
    const d = state.get('dot_d');
    const score = state.get('dot_score');
    this.#score.value = score;
    for (const name of ['dot_n', 'dot_m', 'dot_d'] as const) this.#sizes[name].value = String(state.get(name));
    const { q, k, edited } = dotInputs(state.get('seed'), n, m, d, state.get('dot_q'), state.get('dot_k'));
    this.#edited.hidden = !edited;
    this.#query.setValues(n, d, q);
    this.#key.setValues(m, d, k);
    this.#formula.replaceChildren(mathml(score === 'scaled' ? SCALED_DOT_ATTENTION : DOT_ATTENTION, { display: 'block' }));
    this.#maps.scaled.title = score === 'scaled' ? t('dot.map.scaled') : t('dot.map.unscaled');

    const key = { shape: [1, m, d], data: k };
    void this.#latest.run(
      () => lab.attention({ query: { shape: [1, n, d], data: q }, key, value: key, score }),
      (result) => {
        const rows = labels('q', n);
        const keys = labels('k', m);
        this.#maps.scores.update({ rows: n, cols: m, values: result.scores.data, rowLabels: rows, colLabels: keys });
        this.#maps.scaled.update({ rows: n, cols: m, values: result.scaled.data, rowLabels: rows, colLabels: keys });
        this.#maps.weights.update({ rows: n, cols: m, values: result.weights.data, rowLabels: rows, colLabels: keys });
        this.#maps.output.update({ rows: n, cols: d, values: result.output.data, rowLabels: rows, colLabels: featureLabels(d) });
        this.#showOk();
        this.#last = { q, k, n, m, d, score, scores: [...result.scores.data], scaled: [...result.scaled.data], weights: [...result.weights.data] };
        this.#narrate();
        this.#showLink(this.#selection.current);
        this.#root.dataset.computeCount = String(++this.#computeCount);
      },
      (err) => {
        this.#message.show('error', `${t('error.prefix')}${errorText(err)}`);
        this.#root.dataset.state = 'error';
      },
    );
  }

  /** Says in words what the last change did to the weights. */
  #narrate(): void {
    const { t } = this.#ctx;
    const last = this.#last;
    if (!last) return;
    const changed = this.#changed;
    this.#changed = [];
    let best = { w: -1, r: 0, c: 0 };
    let sumMax = 0;
    for (let r = 0; r < last.n; r++) {
      let rowMax = 0;
      for (let c = 0; c < last.m; c++) {
        const w = last.weights[r * last.m + c];
        rowMax = Math.max(rowMax, w);
        if (w > best.w) best = { w, r, c };
      }
      sumMax += rowMax;
    }
    const mean = sumMax / last.n;
    const verdict = weightVerdict(t, mean, 1.5 / last.m + 0.05);
    const what = changed.includes('dot_score')
      ? fill(t('dot.narrate.score'), { score: t(`dot.score.${last.score}`) })
      : changed.some((c) => c === 'dot_n' || c === 'dot_m' || c === 'dot_d')
        ? fill(t('dot.narrate.size'), { n: last.n, m: last.m, d: last.d })
        : changed.includes('dot_q') || changed.includes('dot_k')
          ? t('dot.narrate.edit')
          : changed.includes('seed')
            ? t('dot.narrate.seed')
            : '';
    this.#narration.textContent =
      what + fill(t('dot.narrate.weights'), { mean: mean.toFixed(2), even: (1 / last.m).toFixed(2), verdict, w: best.w.toFixed(2), q: `q${best.r + 1}`, k: `k${best.c + 1}` });
  }

  /** Linked views: the selected (query, key) lights up its rows in the editors and shows the arithmetic. */
  #showLink(cell: CellRef | null): void {
    const { t } = this.#ctx;
    const last = this.#last;
    this.#query.highlightRow(cell?.row ?? null);
    this.#key.highlightRow(cell?.col ?? null);
    this.#root.dataset.linked = cell ? `${cell.row},${cell.col}` : '';
    if (!cell || !last || cell.row >= last.n || cell.col >= last.m) {
      this.#link.textContent = t('dot.link.hint');
      return;
    }
    const { row, col } = cell;
    const f = (x: number) => (Math.abs(x) >= 100 ? x.toPrecision(4) : x.toFixed(2));
    const factor = (x: number) => (x < 0 ? `(${f(x)})` : f(x)); // 1.05×(−1.40), not 1.05×-1.40
    const terms = Array.from({ length: last.d }, (_, i) => `${factor(last.q[row * last.d + i])}×${factor(last.k[col * last.d + i])}`);
    const index = row * last.m + col;
    const rowScaled = last.scaled.slice(row * last.m, (row + 1) * last.m);
    const q = `q${row + 1}`;
    const k = `k${col + 1}`;
    const lines = [
      `${q}·${k} = ${terms.join(' + ')} = ${f(last.scores[index])}`,
      last.score === 'scaled' ? `${f(last.scores[index])} / √${last.d} = ${f(last.scaled[index])}` : t('dot.link.noScale'),
      fill(t('dot.link.softmax'), {
        q,
        k,
        value: f(last.scaled[index]),
        row: rowScaled.map(f).join(', '),
        w: last.weights[index].toFixed(4),
      }),
    ];
    const title = el('strong', undefined, fill(t('dot.link.title'), { q, k }));
    const list = el('ol');
    for (const line of lines) list.append(el('li', undefined, line));
    this.#link.replaceChildren(title, list);
  }

  /** The saturation demo's narration: reads the sweep table's numbers as they arrive. */
  #watchSweep(): void {
    const { t, state } = this.#ctx;
    const sweep = this.#root.querySelector<HTMLElement>('.dot-sweep');
    const table = sweep?.querySelector('table');
    if (!sweep || !table) return;
    table.before(this.#sweepNarration);
    const read = () => {
      const value = (metric: string, variant: string) =>
        Number(table.querySelector<HTMLElement>(`[data-metric="${metric}"][data-variant="${variant}"]`)?.dataset.value);
      const un = value('maxWeight', 'unscaled');
      const sc = value('maxWeight', 'scaled');
      if (!Number.isFinite(un) || !Number.isFinite(sc)) return;
      // the maps' own words (weightVerdict), flat below 0.3 on the sweep's many keys
      const state_ = (w: number) => weightVerdict(t, w, 0.3);
      this.#sweepNarration.textContent = fill(t('dot.sweep.narrate'), {
        d: state.get('dot_sweep_d'),
        un: un.toFixed(2),
        unState: state_(un),
        grad: value('jacobian', 'unscaled').toFixed(3),
        sc: sc.toFixed(2),
        scState: state_(sc),
        scGrad: value('jacobian', 'scaled').toFixed(3),
      });
    };
    const observer = new MutationObserver(read);
    observer.observe(table, { attributes: true, attributeFilter: ['data-value'], subtree: true });
    this.#stopWatching.push(() => observer.disconnect());
    read();
  }

  setActive(active: boolean): void {
    this.#active = active;
    this.#sweep?.setActive(active);
  }

  onWorkerRestart(): void {
    this.#sweep?.reset();
    this.#render();
  }

  destroy(): void {
    this.#unsubscribe();
    for (const stop of this.#stopWatching) stop();
    this.#latest.cancel();
    this.#dead = true;
    this.#sweep?.destroy();
    this.#sweepPanel.destroy();
    for (const map of Object.values(this.#maps)) map.destroy();
    this.#root.remove();
  }
}

export const dotSection: SectionModule = {
  id: 'dot',
  strings: DOT_STRINGS,
  mount: (host, ctx) => new DotView(host, ctx),
};
