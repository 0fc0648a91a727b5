// §4's picture of the encoder-decoder Transformer, drawn from the section's settings: embeddings
// plus positions, the encoder layer (self-attention, feed-forward), the decoder layer (masked
// self-attention, cross-attention on the encoder's output, feed-forward), each sublayer with its
// norm and residual connection in the order the model uses (pre-norm: x + f(norm(x)); post-norm:
// norm(x + f(x))), "× L" layers, and the output layer. The heads and layers are the model's.
import { Diagram, svg, type Box, type Target } from './diagram';

type T = (key: string) => string;

export type TransformerPart = 'embed' | 'enc-self' | 'dec-self' | 'cross' | 'ff' | 'norm' | 'residual' | 'out';
export type TransformerTargets = Record<TransformerPart, Target>;

export interface TransformerShape {
  layers: number;
  heads: number;
  normFirst: boolean;
}

const WIDTH = 640;
const HEIGHT = 306;
const BOX_H = 24;
const NORM_H = 15;
const GAP = 7;
const R = 7;
/** the encoder column and the decoder column: left edge and width */
const ENC = { x: 40, w: 240 };
const DEC = { x: 370, w: 250 };
/**
 * The narrow layout (a phone): the decoder column above the encoder column, both as wide as the
 * screen, so the text keeps its size; the encoder's output goes up the right side to the cross-attention.
 */
const NARROW_WIDTH = 340;
const NARROW_COLUMN = { x: 34, w: 266 };
/** room for the encoder column (two blocks, its embeddings and its title) below the decoder */
const NARROW_ENCODER_H = 212;

/** The parts a decoding step goes through, bottom to top. */
export const DECODE_PATH: readonly TransformerPart[] = ['embed', 'dec-self', 'cross', 'ff', 'out'];

export class TransformerDiagram {
  readonly diagram: Diagram;
  readonly #t: T;
  readonly #targets: TransformerTargets;

  constructor(t: T, targets: TransformerTargets) {
    this.#t = t;
    this.#targets = targets;
    this.diagram = new Diagram({ title: t('transformer.diagram.title'), desc: t('transformer.diagram.desc'), caption: t('transformer.diagram.caption'), width: WIDTH, height: HEIGHT, testId: 'transformer-diagram', idPrefix: 'transformer-diagram' });
  }

  /** Draws the model of `shape` (again, after a settings change or a change of layout). */
  draw(shape: TransformerShape, narrow = false): void {
    const d = this.diagram;
    const t = this.#t;
    d.clear();
    const height = narrow ? HEIGHT + NARROW_ENCODER_H : HEIGHT;
    // 14 units above the top for the decoder's title
    d.svg.setAttribute('viewBox', `0 -14 ${narrow ? NARROW_WIDTH : WIDTH} ${height + 14}`);
    d.element.classList.toggle('narrow', narrow);
    const encAt = narrow ? NARROW_COLUMN : ENC;
    const decAt = narrow ? NARROW_COLUMN : DEC;
    const heads = (key: string) => t(key).replace('{heads}', String(shape.heads));
    const enc = new Column(d, t, this.#targets, encAt.x, encAt.w, shape.normFirst, height - 6);
    enc.box('embed', 'transformer.diagram.embed.source', t('transformer.diagram.embed.source'));
    const encStart = enc.bottomOfNext();
    enc.block('enc-self', heads('transformer.diagram.encSelf'));
    enc.block('ff', t('transformer.diagram.ff'));
    const encTop = enc.top;
    enc.layers(encStart, encTop, shape.layers);
    enc.title(t('transformer.diagram.encoder'));

    const dec = new Column(d, t, this.#targets, decAt.x, decAt.w, shape.normFirst, HEIGHT - 6);
    dec.box('embed', 'transformer.diagram.embed.output', t('transformer.diagram.embed.output'));
    const decStart = dec.bottomOfNext();
    dec.block('dec-self', heads('transformer.diagram.decSelf'));
    const cross = dec.block('cross', heads('transformer.diagram.cross'));
    dec.block('ff', t('transformer.diagram.ff'));
    const decTop = dec.top;
    dec.layers(decStart, decTop, shape.layers);
    dec.box('out', 'transformer.diagram.out', t('transformer.diagram.out'));
    dec.title(t('transformer.diagram.decoder'));
    // the encoder's output feeds every decoder layer's cross-attention (its keys and values)
    // (from the right of its last ⊕, clear of the column's title)
    const from = encAt.x + encAt.w / 2 + R;
    const out = encTop + R;
    const y = cross.y + cross.h / 2;
    const bend = encAt.x + encAt.w + (narrow ? 18 : 22);
    // narrow: up the right side, into the cross-attention's right end
    d.arrow('enc-self', 'cross', [from, out, bend, out, bend, y, narrow ? cross.x + cross.w : cross.x, y]);
  }

  /** Lights a decoding step's path (or nothing). */
  step(on: boolean): void {
    this.diagram.lightPath(on ? DECODE_PATH : []);
  }
}

/** One column, built bottom up: boxes joined by arrows, sublayer blocks with norm and residual. */
class Column {
  /** the top of the last thing drawn */
  top: number;
  #last: string | null = null;
  readonly #d: Diagram;
  readonly #t: T;
  readonly #targets: TransformerTargets;
  readonly #x: number;
  readonly #w: number;
  readonly #normFirst: boolean;

  /** `bottom`: where the column starts (it is built upwards) */
  constructor(d: Diagram, t: T, targets: TransformerTargets, x: number, w: number, normFirst: boolean, bottom: number) {
    this.top = bottom;
    this.#d = d;
    this.#t = t;
    this.#targets = targets;
    this.#x = x;
    this.#w = w;
    this.#normFirst = normFirst;
  }

  get #cx(): number {
    return this.#x + this.#w / 2;
  }

  /** where the next element's bottom will be */
  bottomOfNext(): number {
    return this.top - GAP;
  }

  #place(id: string, h: number, w: number): Box {
    const b = { x: this.#cx - w / 2, y: this.top - GAP - h, w, h };
    if (this.#last !== null) this.#d.arrow(this.#last, id, [this.#cx, this.top, this.#cx, b.y + b.h]);
    this.top = b.y;
    this.#last = id;
    return b;
  }

  box(id: 'embed' | 'out', nameKey: string, label: string): Box {
    const b = this.#place(id, BOX_H, this.#w);
    this.#d.boxPart(id, this.#t(`${nameKey}.name`), b, label, this.#targets[id]);
    return b;
  }

  #norm(): void {
    const b = this.#place('norm', NORM_H, 64);
    this.#d.boxPart('norm', this.#t('transformer.diagram.norm.name'), b, this.#t('transformer.diagram.norm'), this.#targets.norm);
  }

  /** A sublayer with its norm and its residual connection (drawn from its input to the ⊕). */
  block(id: 'enc-self' | 'dec-self' | 'cross' | 'ff', label: string): Box {
    const input = this.top - GAP / 2;
    if (this.#normFirst) this.#norm();
    const b = this.#place(id, BOX_H, this.#w - 40);
    this.#d.boxPart(id, this.#t(`transformer.diagram.${id}.name`), b, label, this.#targets[id]);
    const plus = this.#place('residual', 2 * R, 2 * R);
    const cy = plus.y + R;
    this.#d.part('residual', this.#t('transformer.diagram.residual.name'), [
      svg('circle', { cx: this.#cx, cy, r: R, class: 'lab-diagram-box' }),
      svg('path', { d: `M${this.#cx - 4},${cy} h8 M${this.#cx},${cy - 4} v8`, class: 'lab-diagram-arrow' }),
    ], this.#targets.residual);
    const side = this.#x + 6;
    this.#d.arrow('residual', 'residual', [this.#cx, input, side, input, side, cy, this.#cx - R, cy], true);
    if (!this.#normFirst) this.#norm();
    return b;
  }

  /** The "× L" bracket beside the layer's blocks (from `bottom` up to `top`). */
  layers(bottom: number, top: number, layers: number): void {
    const x = this.#x - 8;
    this.#d.svg.append(
      svg('path', { d: `M${x + 5},${bottom} h-5 V${top} h5`, class: 'lab-diagram-arrow lab-diagram-drawn' }),
      svg('text', { x: x - 4, y: top + 10, class: 'lab-diagram-small lab-diagram-drawn', 'text-anchor': 'end', 'dominant-baseline': 'central' }, `× ${layers}`),
    );
  }

  title(text: string): void {
    this.#d.svg.append(svg('text', { x: this.#cx, y: this.top - 6, class: 'lab-diagram-label lab-diagram-drawn', 'text-anchor': 'middle' }, text));
  }
}
