// §3.3's diagram linked to its decoding view: the parts go to the views that show them, the views
// light the parts they show (the source words: the encoder states; the attention map: scores and
// weights; the output: the output), and each step of the decoding lights the step's path and puts
// the step's attention and word into the diagram. The step is read from the view's data-step, the
// number the step player writes for every step shown.
import type { TranslateResult } from '#types/seq2seq';
import type { Lang } from '../i18n';
import { diagramText, type T } from './diagram-text';
import { Seq2SeqDiagram, STEP_PATH } from './seq2seq-diagram';
import { narrowQuery } from './diagram';

export class Seq2SeqDiagramLink {
  #diagram: Seq2SeqDiagram;
  readonly #t: T;
  readonly #decode: HTMLElement;
  readonly #observer: MutationObserver;
  /** a phone's width: the narrow layout (drawn again when the width crosses it) */
  readonly #narrow = narrowQuery();
  readonly #relayout = () => this.#replace();
  #result: TranslateResult | null = null;

  /** `decode`: the decoding view's element (translate-decode.ts); `t`: the section's strings */
  constructor(host: HTMLElement, before: Node | null, sectionT: T, lang: Lang, decode: HTMLElement) {
    this.#decode = decode;
    this.#t = diagramText(host, sectionT, lang);
    this.#diagram = this.#build();
    host.insertBefore(this.#diagram.diagram.element, before);
    this.#narrow.addEventListener('change', this.#relayout);
    this.#observer = new MutationObserver(() => this.#render());
    this.#observer.observe(decode, { attributes: true, attributeFilter: ['data-step'] });
  }

  #build(): Seq2SeqDiagram {
    const decode = this.#decode;
    const q = (selector: string) => () => decode.querySelector<HTMLElement>(selector);
    const map = q('figure#translate-attention');
    const diagram = new Seq2SeqDiagram(
      this.#t,
      { enc: q('[data-testid=translate-source]'), dec: q('[data-testid=translate-decode-step]'), scores: map, weights: map, context: map, output: q('.translate-output-row') },
      this.#narrow.matches,
    );
    const d = diagram.diagram;
    const link = (selector: string, ids: readonly string[]) => {
      const view = decode.querySelector(selector);
      if (view) d.link(view, ids);
    };
    link('[data-testid=translate-source]', ['enc']);
    link('figure#translate-attention', ['scores', 'weights']);
    link('.translate-output-row', ['output']);
    link('.translate-decode-controls', STEP_PATH);
    return diagram;
  }

  /** The other layout, in the same place, showing the same step. */
  #replace(): void {
    const old = this.#diagram;
    this.#diagram = this.#build();
    old.diagram.element.replaceWith(this.#diagram.diagram.element);
    old.diagram.destroy();
    this.#render();
  }

  /** A new translation (null: none shown). */
  setResult(result: TranslateResult | null): void {
    this.#result = result;
    this.#render();
  }

  #render(): void {
    const result = this.#result;
    const pos = Number(this.#decode.dataset.step ?? 0);
    if (!result) {
      this.#diagram.show([], null);
      this.#diagram.step(false);
      return;
    }
    const source = result.source.map((s) => s.text);
    const step = pos > 0 ? result.steps?.[pos - 1] : undefined;
    const token = step?.token ?? result.output[pos - 1] ?? '<eos>';
    const attention = step && step.attention.length ? step.attention : null;
    this.#diagram.show(source, pos > 0 ? { index: pos, attention, token } : null);
    this.#diagram.step(pos > 0);
  }

  destroy(): void {
    this.#narrow.removeEventListener('change', this.#relayout);
    this.#observer.disconnect();
    this.#diagram.diagram.destroy();
  }
}
