// §3.6 multi-head attention, live: a sentence → seeded embeddings → the core's multiHeadAttention
// with seeded Q, K, V and output projections → each head's weights and output side by side, the
// heads concatenated, and the output projection. The head count offered is always a divisor of d.
import { HEATMAP_CSS, Heatmap, HeatmapScaleGroup } from '../heatmap/heatmap';
import { mathml, MULTI_HEAD } from '../math';
import type { SectionContext, SectionHandle, SectionModule } from '../section';
import type { PropName } from '../state';
import sharedCss from './dot-controls.css?inline';
import { el, errorText, field, LatestOnly, MessageLine, mountRoot, narration, range, setFieldError, setOptions, tryThis } from './dom';
import css from './multihead.css?inline';
import { MULTIHEAD_STRINGS } from './multihead-strings';
import { fill } from '../i18n';
import { SentenceBox } from './sentence-box';
import { embed, featureLabels, projectionParams } from './self-tokens';
import { distinctLabels } from './token-labels';
import { Panel } from './panel';

import { CellSelection, link, type CellRef } from '../heatmap/heatmap-cells';
import type { MultiHeadResult } from '../worker/protocol';

/** A cell of one head (0-based): a weight (row = query, key) or an output feature (row = token, feature). */
export interface HeadCell {
  head: number;
  row: number;
  key?: number;
  feature?: number;
}

const WATCHED: readonly PropName[] = ['seed', 'multihead_text', 'multihead_d', 'multihead_heads', 'multihead_scale'];
const SCALES = ['shared', 'per-head'] as const;
type ScaleMode = (typeof SCALES)[number];
const D_CHOICES = range(2, 64);
/** the most heads drawn side by side (the state table's limit for multihead_heads) */
export const MAX_HEADS = 16;

const HEAD_FORMULA = `<mrow><msub><mi>head</mi><mi>h</mi></msub><mo>=</mo><mi>softmax</mi><mo>&#x2061;</mo><mrow><mo>(</mo><mfrac><mrow><msub><mi>Q</mi><mi>h</mi></msub><msubsup><mi>K</mi><mi>h</mi><mi mathvariant="normal">T</mi></msubsup></mrow><msqrt><mrow><mi>d</mi><mo>/</mo><mi>h</mi></mrow></msqrt></mfrac><mo>)</mo></mrow><msub><mi>V</mi><mi>h</mi></msub></mrow>`;

/** MULTI_HEAD on two lines (MultiHead(X) = / Concat(…) W_Oᵀ), for a phone: MathML does not wrap. */
const MULTI_HEAD_TWO_LINES = `<mtable columnalign="left"><mtr><mtd><mrow><mi>MultiHead</mi><mo>(</mo><mi>X</mi><mo>)</mo><mo>=</mo></mrow></mtd></mtr><mtr><mtd><mrow><mspace width="1em"/><mi>Concat</mi><mo>(</mo><msub><mi>head</mi><mn>1</mn></msub><mo>,</mo><mo>…</mo><mo>,</mo><msub><mi>head</mi><mi>h</mi></msub><mo>)</mo><msubsup><mi>W</mi><mi>O</mi><mi mathvariant="normal">T</mi></msubsup></mrow></mtd></mtr></mtable>`;

/** The status line: "3 tokens, d = 4, 1 head of 4 features" (singular where a count is 1, in English). */
export function okMessage(t: (key: string) => string, { count, d, heads, dh }: { count: number; d: number; heads: number; dh: number }): string {
  const word = (key: string, k: number) => t(`multihead.word.${key}${k === 1 ? '' : 's'}`);
  return fill(t('multihead.ok'), { count, d, heads, dh, tokenWord: word('token', count), headWord: word('head', heads), featureWord: word('feature', dh) });
}

/** heads named in the narration; the rest are counted */
const NARRATED_HEADS = 4;

/** A head's largest weight stands out only above this many times an even split (1/n): below, the head is flat. */
const STANDS_OUT = 1.25;

/** "1, 2 and 3" / "1、2、3": the heads of one group, in the page's language. */
function headList(t: (key: string) => string, heads: readonly number[]): string {
  if (heads.length < 2) return heads.join('');
  return `${heads.slice(0, -1).join(t('multihead.narrate.headSep'))}${t('multihead.narrate.headLast')}${heads[heads.length - 1]}`;
}

/**
 * The narration: each head's largest weight, as "head 1: 咖哥 → 喜欢 (0.73)", and whether the
 * heads agree on it. `weights` is (heads, n, n), rows the queries; `labels` name the tokens (a
 * repeated word with its position), `words` are the tokens as typed. Copies of one word have equal
 * rows and columns, so their cells are one link: "我 → 爱" however many 我 there are. A head has no
 * strongest link when its largest weight ties another link (as shown, to two decimals) or is near an
 * even split (below STANDS_OUT / n); such heads share nothing.
 */
export function strongestLinks(t: (key: string) => string, weights: ArrayLike<number>, heads: number, labels: readonly string[], words: readonly string[] = labels): string {
  const n = labels.length;
  const pairOf = (i: number) => `${words[Math.floor(i / n)]}\u0000${words[i % n]}`;
  const best = range(0, heads - 1).map((h) => {
    let at = 0;
    for (let i = 1; i < n * n; i++) if (weights[h * n * n + i] > weights[h * n * n + at]) at = i;
    const w = weights[h * n * n + at];
    const tied = range(0, n * n - 1).filter((i) => weights[h * n * n + i].toFixed(2) === w.toFixed(2));
    const ties = new Set(tied.map(pairOf)).size;
    const kind = n > 1 && ties > 1 ? 'tie' : n > 1 && w < STANDS_OUT / n ? 'flat' : 'link';
    // one link over several copies: named by its words, not by one copy's position
    const names = tied.length > 1 ? words : labels;
    return { h: h + 1, pair: pairOf(at), query: names[Math.floor(at / n)], key: names[at % n], w, ties, kind };
  });
  const links = best.slice(0, NARRATED_HEADS).map((b) =>
    fill(t(`multihead.narrate.${b.kind}`), { h: b.h, query: b.query, key: b.key, w: b.w.toFixed(2), count: b.ties, even: (1 / n).toFixed(2) }),
  );
  if (heads > NARRATED_HEADS) links.push(fill(t('multihead.narrate.more'), { count: heads - NARRATED_HEADS }));
  const text = fill(t('multihead.narrate'), { links: links.join(t('multihead.narrate.sep')) });
  if (heads === 1) return text;
  // heads grouped by the pair they link most: one group of all, all alike; no group of two, all differ
  const linked = best.filter((b) => b.kind === 'link');
  const groups = new Map<string, number[]>();
  for (const b of linked) groups.set(b.pair, [...(groups.get(b.pair) ?? []), b.h]);
  const shared = [...groups.values()].filter((g) => g.length > 1);
  let verdict = '';
  if (linked.length === heads && groups.size === 1) verdict = t('multihead.narrate.same');
  else if (shared.length > 0) verdict = shared.map((g) => fill(t('multihead.narrate.shared'), { heads: headList(t, g) })).join(' ');
  else if (linked.length === heads) verdict = t('multihead.narrate.differ');
  return verdict ? fill(t('multihead.narrate.verdict'), { links: text, verdict }) : text;
}

/** Head counts that divide d, up to MAX_HEADS. */
export function headChoices(d: number): number[] {
  return range(1, Math.min(d, MAX_HEADS)).filter((h) => d % h === 0);
}

/** The largest valid head count not above `heads` (at least 1). */
export function nearestHeads(d: number, heads: number): number {
  return headChoices(d)
    .filter((h) => h <= heads)
    .reduce((a, b) => Math.max(a, b), 1);
}

class MultiHeadView implements SectionHandle {
  readonly #ctx: SectionContext;
  readonly #root = el('div', 'multihead-section');
  readonly #text = el('input');
  readonly #d = el('select');
  readonly #heads = el('select');
  readonly #scaleSelect = el('select');
  readonly #combined = el('div', 'al-heatmaps');
  readonly #combinePanel: Panel;
  /** how the heads' heatmaps are coloured now; and, when shared, the head outputs' one scale */
  #scaleMode: ScaleMode | null = null;
  #outputScale: HeatmapScaleGroup | null = null;
  readonly #message = new MessageLine('multihead-message');
  readonly #narration = narration('multihead-narration');
  readonly #headsBox = el('div', 'multihead-heads');
  #headMaps: { weights: Heatmap; output: Heatmap }[] = [];
  #context: Heatmap | null = null;
  readonly #output: Heatmap;
  readonly #latest = new LatestOnly();
  readonly #sentence: SentenceBox;
  readonly #unsubscribe: () => void;
  #computeCount = 0;
  /** the head cell every view shows: its head's maps, the concatenation's column, the line below */
  readonly #selection = new CellSelection<HeadCell>();
  readonly #link = el('p', 'multihead-link');
  #unlink: (() => void)[] = [];
  #last: { tokens: string[]; heads: number; dh: number; r: MultiHeadResult } | null = null;

  constructor(host: HTMLElement, ctx: SectionContext) {
    this.#ctx = ctx;
    this.#sentence = new SentenceBox({
      ctx, prefix: 'multihead', key: 'multihead_text', input: this.#text, message: this.#message, root: this.#root, latest: this.#latest,
    });
    const { t, state } = ctx;
    mountRoot(host, this.#root, HEATMAP_CSS, sharedCss, css);
    this.#root.append(el('p', 'multihead-intro', t('multihead.intro')), tryThis(t('try.title'), [t('multihead.try.heads'), t('multihead.try.scale'), t('multihead.try.repeat')]));

    const controls = el('div', 'al-controls');
    this.#text.type = 'text';
    this.#text.className = 'multihead-text';
    this.#text.spellcheck = false;
    this.#text.value = state.get('multihead_text');
    this.#text.addEventListener('input', () => this.#sentence.onInput());
    const textField = field(t('multihead.text'), this.#text);
    textField.classList.add('al-field-wide');
    textField.hidden = state.isHidden('multihead_text');
    setOptions(this.#d, D_CHOICES.map((v) => [String(v), String(v)] as const), String(state.get('multihead_d')));
    // the reader's h stays in the state (and the address) when d changes; #compute draws the nearest
    // count that divides d and says so, and a later d that h divides draws h again
    this.#d.addEventListener('change', () => state.set('multihead_d', Number(this.#d.value)));
    this.#heads.addEventListener('change', () => state.set('multihead_heads', Number(this.#heads.value)));
    const dField = field(t('multihead.d'), this.#d);
    dField.hidden = state.isHidden('multihead_d');
    const headsField = field(t('multihead.heads'), this.#heads);
    headsField.hidden = state.isHidden('multihead_heads');
    setOptions(this.#scaleSelect, SCALES.map((v) => [v, t(`multihead.scale.${v}`)] as const), state.get('multihead_scale'));
    this.#scaleSelect.addEventListener('change', () => state.set('multihead_scale', this.#scaleSelect.value as ScaleMode));
    const scaleField = field(t('multihead.scale'), this.#scaleSelect);
    scaleField.hidden = state.isHidden('multihead_scale');
    controls.append(textField, dField, headsField, scaleField);

    const formulas = el('div', 'al-formula');
    const wide = mathml(MULTI_HEAD, { display: 'block' });
    wide.classList.add('multihead-formula-wide');
    const narrow = mathml(MULTI_HEAD_TWO_LINES, { display: 'block' });
    narrow.classList.add('multihead-formula-narrow');
    formulas.append(mathml(HEAD_FORMULA, { display: 'block' }), wide, narrow);
    this.#root.append(controls, this.#message.element, this.#narration, formulas, this.#headsBox);

    const features = { t, diverging: true, xTitle: t('multihead.axis.features'), yTitle: t('multihead.axis.tokens') };
    this.#output = new Heatmap(this.#combined, { id: 'multihead-output', title: t('multihead.map.output'), ...features });
    this.#link.dataset.testid = 'multihead-link';
    // how the heads combine (concatenation, output projection): a named panel beside the heads' own idea
    this.#combinePanel = new Panel(state, 'multihead_open_combine', t('multihead.panel.combine'), 'multihead-panel-combine');
    this.#combinePanel.body.append(this.#combined);
    this.#root.append(this.#link, this.#combinePanel.element);
    this.#selection.subscribe((cell) => this.#showLink(cell));

    this.#unsubscribe = state.subscribe((changed) => {
      if (changed.some((name) => WATCHED.includes(name))) this.#compute();
    });
    this.#compute();
  }

  /**
   * One weights and one output heatmap per head, and the concatenation, rebuilt only when the head
   * count or the colour-scale mode changes. Shared: weights on [0, 1], and the head outputs with the
   * concatenation (the same numbers) on one scale; per head: each on its own range.
   */
  #ensureHeads(heads: number, dh: number, mode: ScaleMode): void {
    const { t } = this.#ctx;
    if (this.#headMaps.length !== heads || this.#scaleMode !== mode || !this.#context) {
      for (const m of this.#headMaps) {
        m.weights.destroy();
        m.output.destroy();
      }
      this.#context?.destroy();
      this.#scaleMode = mode;
      this.#outputScale = mode === 'shared' ? new HeatmapScaleGroup() : null;
      const scaleGroup = this.#outputScale ?? undefined;
      this.#headsBox.replaceChildren();
      this.#headsBox.dataset.heads = String(heads);
      this.#headMaps = range(1, heads).map((h) => {
        const box = el('section', 'multihead-head');
        box.dataset.head = String(h);
        box.append(el('h3', undefined, fill(t('multihead.head'), { h })));
        this.#headsBox.append(box);
        return {
          weights: new Heatmap(box, {
            id: `multihead-weights-${h}`,
            title: '',
            fixedRange: mode === 'shared' ? [0, 1] : undefined,
            t,
            xTitle: t('multihead.axis.keys'),
            yTitle: t('multihead.axis.queries'),
          }),
          output: new Heatmap(box, {
            id: `multihead-head-${h}`,
            title: '',
            diverging: true,
            scaleGroup,
            scaleWhere: t('multihead.scale.where'),
            t,
            xTitle: t('multihead.axis.features'),
            yTitle: t('multihead.axis.tokens'),
          }),
        };
      });
      const context = new Heatmap(this.#combined, {
        id: 'multihead-context',
        title: t('multihead.map.context'),
        t,
        diverging: true,
        scaleGroup,
        xTitle: t('multihead.axis.features'),
        yTitle: t('multihead.axis.tokens'),
      });
      this.#combined.prepend(context.element);
      this.#context = context;
      this.#linkHeads(dh);
    }
    this.#headMaps.forEach((m, i) => {
      m.weights.title = fill(t('multihead.head.weights'), { h: i + 1, dh });
      m.output.title = fill(t('multihead.head.output'), { h: i + 1 });
    });
  }

  #compute(): void {
    const { t, state, lab } = this.#ctx;
    const text = state.get('multihead_text');
    const d = state.get('multihead_d');
    const wanted = state.get('multihead_heads');
    const heads = nearestHeads(d, wanted);
    const mode = state.get('multihead_scale') as ScaleMode;
    const seed = state.get('seed');
    this.#scaleSelect.value = mode;
    if (this.#text.value !== text) this.#text.value = text;
    this.#d.value = String(d);
    const choices = headChoices(d);
    setOptions(this.#heads, choices.map((h) => [String(h), String(h)] as const), String(heads));
    const adjusted = heads === wanted ? '' : fill(t('multihead.heads.adjusted'), { wanted, d, heads, divisors: choices.join(', ') });
    const tokens = this.#sentence.tokens(text);
    if (tokens === null) return;
    // 'mh' names the weights' random stream, not the section: another name would draw other weights for every link's seed
    const params = projectionParams(seed, 'mh', d, ['q', 'k', 'v', 'o'] as const);
    const dh = d / heads;
    void this.#latest.run(
      () => lab.multiHeadAttention(embed(tokens, d, seed), params, heads),
      (r) => {
        const n = tokens.length;
        // the heatmap keeps repeated tokens apart itself: label axes with the words as typed
        const labels = distinctLabels(tokens, t);
        this.#ensureHeads(heads, dh, mode);
        this.#headMaps.forEach((m, h) => {
          m.weights.update({
            rows: n,
            cols: n,
            values: r.weights.data.subarray(h * n * n, (h + 1) * n * n),
            rowLabels: labels,
            colLabels: labels,
          });
          m.output.update({
            rows: n,
            cols: dh,
            values: r.headOutputs.data.subarray(h * n * dh, (h + 1) * n * dh),
            rowLabels: labels,
            colLabels: featureLabels(dh),
          });
        });
        const concatLabels = range(1, heads).flatMap((h) => featureLabels(dh).map((f) => `h${h}·${f}`));
        this.#context?.update({ rows: n, cols: d, values: r.context.data, rowLabels: labels, colLabels: concatLabels });
        this.#output.update({ rows: n, cols: d, values: r.output.data, rowLabels: labels, colLabels: featureLabels(d) });
        this.#last = { tokens, heads, dh, r };
        this.#showLink(this.#selection.current);
        setFieldError(this.#text, null);
        const ok = okMessage(t, { count: n, d, heads, dh });
        if (adjusted) this.#message.show('info', `${ok} ${adjusted}`);
        else this.#message.show('ok', ok);
        this.#sentence.offerSplit();
        this.#root.dataset.headsDrawn = String(heads);
        this.#narration.textContent = strongestLinks(t, r.weights.data, heads, labels, tokens);
        this.#root.dataset.state = 'ok';
        this.#root.dataset.computeCount = String(++this.#computeCount);
      },
      (err) => this.#sentence.showError(errorText(err)),
    );
  }

  /** Ties every head's maps and the concatenation to the section's selection (after a rebuild). */
  #linkHeads(dh: number): void {
    for (const stop of this.#unlink) stop();
    this.#selection.select(null);
    this.#unlink = this.#headMaps.flatMap((m, head) => {
      const box = m.weights.element.closest<HTMLElement>('.multihead-head');
      return [
        link(this.#selection, m.weights, (c) => ({ head, row: c.row, key: c.col }), (s) => (s.head === head && s.key !== undefined ? { row: s.row, col: s.key } : null)),
        link(this.#selection, m.output, (c) => ({ head, row: c.row, feature: c.col }), (s) => (s.head === head && s.feature !== undefined ? { row: s.row, col: s.feature } : null)),
        this.#selection.subscribe((s) => box?.classList.toggle('multihead-head-linked', s?.head === head)),
      ];
    });
    if (this.#context) {
      const toCell = (c: CellRef): HeadCell => ({ head: Math.floor(c.col / dh), row: c.row, feature: c.col % dh });
      this.#unlink.push(link(this.#selection, this.#context, toCell, (s) => (s.feature !== undefined ? { row: s.row, col: s.head * dh + s.feature } : null)));
    }
  }

  /** The line under the heads: the selected cell's numbers in its head and in the concatenation. */
  #showLink(cell: HeadCell | null): void {
    const { t } = this.#ctx;
    const last = this.#last;
    const n = last?.tokens.length ?? 0;
    // a cell the new data no longer has (fewer words, fewer features per head) is no longer shown
    const gone = !cell || !last || cell.head >= last.heads || cell.row >= n || (cell.key ?? 0) >= n || (cell.feature ?? 0) >= last.dh;
    if (gone) {
      this.#link.textContent = t('multihead.link.hint');
      delete this.#link.dataset.cell;
      return;
    }
    const { tokens, dh, r } = last;
    const d = dh * last.heads;
    const h = cell.head + 1;
    if (cell.feature !== undefined) {
      const col = cell.head * dh + cell.feature;
      this.#link.textContent = fill(t('multihead.link.feature'), {
        token: tokens[cell.row],
        h,
        f: cell.feature + 1,
        value: r.headOutputs.data[(cell.head * n + cell.row) * dh + cell.feature].toFixed(4),
        col: col + 1,
        label: `h${h}·d${cell.feature + 1}`,
        concat: r.context.data[cell.row * d + col].toFixed(4),
      });
    } else {
      const key = cell.key ?? 0;
      this.#link.textContent = fill(t('multihead.link.weight'), {
        h,
        query: tokens[cell.row],
        key: tokens[key],
        w: r.weights.data[(cell.head * n + cell.row) * n + key].toFixed(4),
        from: cell.head * dh + 1,
        to: (cell.head + 1) * dh,
      });
    }
    this.#link.dataset.cell = JSON.stringify(cell);
  }

  setActive(_active: boolean): void {
    // nothing runs in the background
  }

  onWorkerRestart(): void {
    this.#compute();
  }

  destroy(): void {
    this.#unsubscribe();
    for (const stop of this.#unlink) stop();
    this.#latest.cancel();
    for (const m of this.#headMaps) {
      m.weights.destroy();
      m.output.destroy();
    }
    this.#context?.destroy();
    this.#output.destroy();
    this.#combinePanel.destroy();
    this.#root.remove();
  }
}

export const multiheadSection: SectionModule = {
  id: 'multihead',
  strings: MULTIHEAD_STRINGS,
  mount: (host, ctx) => new MultiHeadView(host, ctx),
};
