// §3.3's picture of the encoder-decoder with attention: encoder states (one cell per source word of
// the sentence being translated), the decoder state, the scores, the weights (the cells shaded by
// the current step's attention), the context and the output word. Stepping the decoding lights the
// path decoder state → scores → weights → context → output; the section links its views to the
// parts (diagram.ts).
import { arrowBetween, Diagram, svg, type Box } from './diagram';

type T = (key: string) => string;

interface Layout {
  width: number;
  height: number;
  enc: Box;
  dec: Box;
  scores: Box;
  weights: Box;
  context: Box;
  output: Box;
  /** the encoder states' way up to the context: the x of its vertical run */
  sumX: number;
}

/** Wide: the encoder, scores, context on the left, the decoder, weights, output on the right. */
const WIDE: Layout = {
  width: 640,
  height: 226,
  enc: { x: 20, y: 150, w: 270, h: 70 },
  dec: { x: 420, y: 150, w: 200, h: 70 },
  scores: { x: 130, y: 80, w: 190, h: 40 },
  weights: { x: 340, y: 72, w: 200, h: 56 },
  context: { x: 130, y: 6, w: 190, h: 40 },
  output: { x: 420, y: 6, w: 200, h: 40 },
  sumX: 32,
};

/**
 * Narrow (a phone): about as wide as the screen, so the text keeps its size: context, weights and
 * scores one above the other, the output and the decoder on their right, the encoder across the bottom.
 */
const NARROW: Layout = {
  width: 340,
  height: 262,
  enc: { x: 4, y: 196, w: 332, h: 62 },
  dec: { x: 204, y: 124, w: 132, h: 56 },
  scores: { x: 18, y: 132, w: 178, h: 40 },
  weights: { x: 18, y: 60, w: 178, h: 56 },
  context: { x: 18, y: 4, w: 178, h: 40 },
  output: { x: 204, y: 4, w: 132, h: 40 },
  sumX: 10,
};
/** at most this many source words get a cell (a longer sentence ends in "…") */
const MAX_CELLS = 8;

/** The parts a decoding step goes through, in order. */
export const STEP_PATH = ['dec', 'scores', 'weights', 'context', 'output'] as const;
export type Seq2SeqPart = 'enc' | (typeof STEP_PATH)[number];

/** Where activating each part goes: a view of the section (null: none). */
export type Seq2SeqTargets = Record<Seq2SeqPart, () => HTMLElement | null>;

export class Seq2SeqDiagram {
  readonly diagram: Diagram;
  readonly #t: T;
  readonly #encCells = svg('g');
  readonly #weightCells = svg('g');
  readonly #decLabel: SVGTextElement;
  readonly #outLabel: SVGTextElement;

  readonly #enc: Box;
  readonly #weights: Box;

  /** `narrow`: the phone's layout */
  constructor(t: T, targets: Seq2SeqTargets, narrow = false) {
    this.#t = t;
    const L = narrow ? NARROW : WIDE;
    const { enc: ENC, dec: DEC, scores: SCORES, weights: WEIGHTS, context: CONTEXT, output: OUTPUT } = L;
    this.#enc = ENC;
    this.#weights = WEIGHTS;
    const d = new Diagram({ title: t('translate.diagram.title'), desc: t('translate.diagram.desc'), caption: t('translate.diagram.caption'), width: L.width, height: L.height, testId: 'translate-diagram', idPrefix: 'translate-diagram' });
    if (narrow) d.element.classList.add('narrow');
    this.diagram = d;
    const top = (b: Box, key: string) => svg('text', { x: b.x + b.w / 2, y: b.y + 15, class: 'lab-diagram-label', 'text-anchor': 'middle' }, t(key));
    d.part('enc', t('translate.diagram.enc.name'), [rect(ENC), top(ENC, 'translate.diagram.enc'), this.#encCells], targets.enc);
    const decGroup = d.part('dec', t('translate.diagram.dec.name'), [rect(DEC)], targets.dec);
    this.#decLabel = svg('text', { x: DEC.x + DEC.w / 2, y: DEC.y + DEC.h / 2, class: 'lab-diagram-label', 'text-anchor': 'middle', 'dominant-baseline': 'central' });
    decGroup.append(this.#decLabel);
    d.boxPart('scores', t('translate.diagram.scores.name'), SCORES, t('translate.diagram.scores'), targets.scores);
    d.part('weights', t('translate.diagram.weights.name'), [rect(WEIGHTS), top(WEIGHTS, 'translate.diagram.weights'), this.#weightCells], targets.weights);
    d.boxPart('context', t('translate.diagram.context.name'), CONTEXT, t('translate.diagram.context'), targets.context);
    const outGroup = d.part('output', t('translate.diagram.output.name'), [rect(OUTPUT)], targets.output);
    this.#outLabel = svg('text', { x: OUTPUT.x + OUTPUT.w / 2, y: OUTPUT.y + OUTPUT.h / 2, class: 'lab-diagram-label', 'text-anchor': 'middle', 'dominant-baseline': 'central' });
    outGroup.append(this.#outLabel);

    d.arrow('enc', 'scores', arrowBetween(ENC, SCORES));
    d.arrow('dec', 'scores', arrowBetween(DEC, SCORES));
    d.arrow('scores', 'weights', arrowBetween(SCORES, WEIGHTS));
    d.arrow('weights', 'context', arrowBetween(WEIGHTS, CONTEXT));
    // the context sums the encoder states: up the left side
    d.arrow('enc', 'context', [L.sumX, ENC.y, L.sumX, CONTEXT.y + CONTEXT.h / 2, CONTEXT.x, CONTEXT.y + CONTEXT.h / 2], true);
    d.arrow('context', 'output', arrowBetween(CONTEXT, OUTPUT));
    d.arrow('dec', 'output', [DEC.x + DEC.w - 20, DEC.y, DEC.x + DEC.w - 20, OUTPUT.y + OUTPUT.h]);
    this.show([], null);
  }

  /**
   * The sentence's source words, and the step shown (null: before the first step): its number
   * from 1, its attention over the source words (null without attention) and the word it wrote.
   */
  show(source: readonly string[], step: { index: number; attention: ArrayLike<number> | null; token: string } | null): void {
    const t = this.#t;
    const n = Math.min(source.length, MAX_CELLS);
    this.#encCells.replaceChildren(...cells(this.#enc, 24, source.slice(0, n), n < source.length, null));
    const weights = step?.attention ? Array.from({ length: n }, (_, i) => step.attention?.[i] ?? 0) : null;
    this.#weightCells.replaceChildren(...cells(this.#weights, 24, [], false, weights, n));
    this.#decLabel.textContent = step ? t('translate.diagram.dec.step').replace('{step}', String(step.index)) : t('translate.diagram.dec');
    // the word in its own tspan, in its own language (the English the model writes)
    const [before, after = ''] = t('translate.diagram.output.step').split('{token}');
    if (step) this.#outLabel.replaceChildren(before, svg('tspan', { lang: 'en' }, step.token), after);
    else this.#outLabel.textContent = t('translate.diagram.output');
  }

  /** Lights the path of a decoding step (or nothing before the first). */
  step(on: boolean): void {
    this.diagram.lightPath(on ? STEP_PATH : []);
  }
}

function rect(b: Box): SVGRectElement {
  return svg('rect', { x: b.x, y: b.y, width: b.w, height: b.h, rx: 6, class: 'lab-diagram-box' });
}

/**
 * A row of cells inside box `b`, `dy` below its top: labelled with `words` (an ellipsis after when
 * `more`), or shaded by `weights` (then `count` cells).
 */
function cells(b: Box, dy: number, words: readonly string[], more: boolean, weights: readonly number[] | null, count = words.length): SVGElement[] {
  const n = Math.max(1, count);
  const pad = 10;
  const w = Math.min(36, (b.w - 2 * pad - (more ? 14 : 0)) / n);
  const x0 = b.x + (b.w - w * n - (more ? 14 : 0)) / 2;
  const out: SVGElement[] = [];
  for (let i = 0; i < count; i++) {
    const x = x0 + i * w;
    const cell = svg('rect', { x: x + 1, y: b.y + dy, width: w - 2, height: 16, rx: 2, class: 'lab-diagram-cell' });
    if (weights) {
      cell.style.fill = 'var(--lab-heat)';
      cell.style.fillOpacity = String(Math.max(0.04, Math.min(1, weights[i])));
      cell.append(svg('title', {}, weights[i].toFixed(2)));
    } else {
      cell.style.fill = 'var(--lab-panel)';
    }
    out.push(cell);
    if (!weights && i < words.length) {
      const word = [...words[i]].length > 3 ? `${[...words[i]].slice(0, 3).join('')}…` : words[i];
      out.push(svg('text', { x: x + w / 2, y: b.y + dy + 30, class: 'lab-diagram-small', 'text-anchor': 'middle' }, word === ' ' ? '␣' : word));
    }
  }
  if (more) out.push(svg('text', { x: x0 + count * w + 7, y: b.y + dy + 12, class: 'lab-diagram-small', 'text-anchor': 'middle' }, '…'));
  return out;
}
