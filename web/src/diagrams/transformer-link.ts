// §4's architecture: the Transformer diagram drawn from the section's settings, and the
// positional-encoding figure (which the section puts in a panel), linked to the section's views.
// Each part goes to its view (the three grids, the output, the positions figure, opening its panel;
// the norms, residuals and feed-forward to their settings, opening that panel); hovering or focusing a view lights its parts; each decoding step lights the
// decoder's path (read from the decoding view's data-step, which the step player writes).
import type { Lang } from '../i18n';
import type { AppState } from '../state';
import { diagramText, type T } from './diagram-text';
import { narrowQuery } from './diagram';
import { PositionalFigure } from './positional-figure';
import { DECODE_PATH, TransformerDiagram, type TransformerPart } from './transformer-diagram';

export class TransformerDiagramLink {
  readonly element = document.createElement('div');
  readonly #diagram: TransformerDiagram;
  readonly #positions: PositionalFigure;
  readonly #state: AppState;
  readonly #observer: MutationObserver;
  readonly #unsubscribe: () => void;
  /** a phone's width: the narrow layout (drawn again when the width crosses it) */
  readonly #narrow = narrowQuery();
  readonly #redraw = () => this.#draw();
  #stepped: (() => void) | null = null;

  /** `root`: the section's root (its views are found there); `open`: opens the panels parts go to */
  constructor(sectionT: T, lang: Lang, state: AppState, root: HTMLElement, open: { openSettings: () => void; openPositions: () => void }) {
    this.#state = state;
    const t = diagramText(root, sectionT, lang);
    this.element.className = 'lab-architecture';
    const q = (selector: string) => () => root.querySelector<HTMLElement>(selector);
    const setting = (selector: string) => () => {
      open.openSettings();
      return root.querySelector<HTMLElement>(selector);
    };
    this.#positions = new PositionalFigure(t);
    this.#diagram = new TransformerDiagram(t, {
      embed: () => {
        open.openPositions();
        return this.#positions.element;
      },
      'enc-self': q('[data-testid=transformer-grid-encoder]'),
      'dec-self': q('[data-testid=transformer-grid-decoder]'),
      cross: q('[data-testid=transformer-grid-cross]'),
      ff: setting('[data-testid=transformer-dff]'),
      norm: setting('[data-testid=transformer-norm-first]'),
      residual: setting('[data-testid=transformer-norm-first]'),
      out: q('[data-testid=transformer-output]'),
    });
    this.element.append(this.#diagram.diagram.element);
    this.#draw();
    this.#narrow.addEventListener('change', this.#redraw);
    this.#positions.show(state.get('seed'));
    this.#unsubscribe = state.subscribe((changed) => {
      if (changed.some((n) => n === 'transformer_layers' || n === 'transformer_heads' || n === 'transformer_norm_first')) this.#draw();
      if (changed.includes('seed')) this.#positions.show(state.get('seed'));
    });
    const stepped = () => this.#diagram.step(Number(root.querySelector<HTMLElement>('.transformer-decode')?.dataset.step ?? 0) > 0);
    this.#stepped = stepped;
    this.#observer = new MutationObserver(stepped);
    const decode = root.querySelector('.transformer-decode');
    if (decode) this.#observer.observe(decode, { attributes: true, attributeFilter: ['data-step'] });
    stepped();
  }

  /** the positional-encoding figure, for the section to place */
  get positions(): HTMLElement {
    return this.#positions.element;
  }

  /** Links the section's views to the parts they show (call once the views exist). */
  linkViews(root: HTMLElement): void {
    const d = this.#diagram.diagram;
    const link = (selector: string, ids: readonly TransformerPart[]) => {
      const view = root.querySelector(selector);
      if (view) d.link(view, ids);
    };
    link('[data-testid=transformer-grid-encoder]', ['enc-self']);
    link('[data-testid=transformer-grid-decoder]', ['dec-self']);
    link('[data-testid=transformer-grid-cross]', ['cross']);
    link('[data-testid=transformer-source]', ['cross']);
    link('[data-testid=transformer-output]', ['out']);
    link('.transformer-decode-controls', DECODE_PATH);
    link('[data-testid=transformer-positional]', ['embed']);
    link('label:has([data-testid=transformer-text])', ['embed']);
  }

  #draw(): void {
    const s = this.#state;
    this.#diagram.draw({ layers: s.get('transformer_layers'), heads: s.get('transformer_heads'), normFirst: s.get('transformer_norm_first') }, this.#narrow.matches);
    // a redraw keeps the decoding step's path lit
    this.#stepped?.();
  }

  destroy(): void {
    this.#narrow.removeEventListener('change', this.#redraw);
    this.#observer.disconnect();
    this.#unsubscribe();
    this.#diagram.diagram.destroy();
    this.#positions.destroy();
  }
}
