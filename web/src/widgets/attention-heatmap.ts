// <attention-heatmap>: draws a given matrix (attribute `data`, or an inline
// <script type="application/json"> child: {rows, cols, values, title?, range?}), or computes one live:
// mechanism="dot|scaled-dot|self" over the words of `text` (self_text), with self_d and seed.
// A given matrix needs no worker and no wasm: only the heatmap code is downloaded.
import type { SectionHandle } from '../section';
import { LabWidget, WidgetError, type WidgetProblem } from './lab-widget';
import type { MatrixSpec } from './matrix-spec';
import type { LiveMechanism } from './live-matrix';

const LIVE_MECHANISMS: readonly LiveMechanism[] = ['dot', 'scaled-dot', 'self'];

export class AttentionHeatmap extends LabWidget {
  protected static override readonly ownAttributes = ['data', 'mechanism', 'text'];

  /**
   * The given matrix, or null for live mode; throws when the given one is invalid. Its parser is
   * loaded only by a heatmap that is given one: the widget bundle every page loads stays small.
   */
  async #givenMatrix(): Promise<MatrixSpec | null> {
    const attr = this.getAttribute('data');
    const script = attr === null ? this.querySelector(':scope > script[type="application/json"]') : null;
    if (attr === null && !script) return null;
    const { parseMatrixSpec } = await import('./matrix-spec');
    return parseMatrixSpec(attr ?? script?.textContent ?? '');
  }

  protected async mount(): Promise<SectionHandle> {
    // The heatmap's code is fetched while the given matrix is parsed, and in live mode while the
    // worker starts: round trips side by side, not one after another.
    const heatmapCode = import('../heatmap/heatmap');
    heatmapCode.catch(() => {}); // awaited below, unless the settings are refused first
    let given: MatrixSpec | null;
    try {
      given = await this.#givenMatrix();
    } catch (err) {
      throw new WidgetError([{ name: 'data', reason: (err as Error).message }]);
    }
    const text = this.getAttribute('text');
    const parsed = this.readState(text === null ? [] : [['self_text', text]]);
    const problems: WidgetProblem[] = this.stateProblems(parsed);
    const mechanismAttr = this.getAttribute('mechanism') ?? 'scaled-dot';
    const mechanism: LiveMechanism = (LIVE_MECHANISMS as readonly string[]).includes(mechanismAttr)
      ? (mechanismAttr as LiveMechanism)
      : 'scaled-dot';
    if (!given && mechanism !== mechanismAttr) {
      problems.push({ name: 'mechanism', reason: `expected one of ${LIVE_MECHANISMS.join(', ')}; using scaled-dot` });
    }
    this.showProblems(problems);

    const state = parsed.state;
    const lang = this.language(state);
    const live = given ? null : Promise.all([this.lab(lang), import('./live-matrix')]);
    live?.catch(() => {}); // awaited below
    const { Heatmap } = await heatmapCode;
    this.body.replaceChildren();
    if (given) {
      const map = new Heatmap(this.body, { id: 'matrix', title: given.title, fixedRange: given.range ?? undefined, lang });
      map.update({
        rows: given.rowLabels.length,
        cols: given.colLabels.length,
        values: given.values,
        rowLabels: given.rowLabels,
        colLabels: given.colLabels,
      });
      return { setActive() {}, onWorkerRestart() {}, destroy: () => map.destroy() };
    }

    const [lab, { liveWeights }] = await live!;
    const title = { dot: 'q·k', 'scaled-dot': 'q·k/√d', self: 'self-attention' }[mechanism];
    const map = new Heatmap(this.body, { id: 'weights', title: `softmax(${title === 'self-attention' ? 'QKᵀ/√d' : title})`, fixedRange: [0, 1], lang });
    let drawn = false;
    const draw = async () => {
      try {
        const { labels, weights } = await liveWeights(lab, state, mechanism, lang);
        map.update({ rows: labels.length, cols: labels.length, values: weights, rowLabels: labels, colLabels: labels });
        drawn = true;
      } catch (err) {
        this.showProblems([...problems, { name: 'self_text', reason: (err as Error).message }]);
      }
    };
    return {
      setActive(active) {
        if (active && !drawn) void draw();
      },
      onWorkerRestart: () => void draw(),
      destroy: () => map.destroy(),
    };
  }
}
