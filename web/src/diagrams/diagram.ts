// A live architecture diagram in SVG, drawn with the design system's tokens (diagram.css): named
// parts (each a focusable button with an accessible name), arrows between them, and a highlight
// the section drives. Views link to it both ways: hovering or focusing a view lights the parts it
// shows (link), stepping lights a path part by part (lightPath), and activating a part scrolls to
// its view and moves focus there (smoothly, unless the reader asked for reduced motion).
import { el } from '../sections/dom';

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const center = (b: Box): [number, number] => [b.x + b.w / 2, b.y + b.h / 2];

/** Where the line from the box's centre towards (dx, dy) leaves the box. */
function edge(b: Box, dx: number, dy: number): [number, number] {
  const [cx, cy] = center(b);
  const t = Math.min(dx === 0 ? Infinity : b.w / 2 / Math.abs(dx), dy === 0 ? Infinity : b.h / 2 / Math.abs(dy));
  return [cx + dx * t, cy + dy * t];
}

/** The straight arrow between two boxes, from edge to edge. */
export function arrowBetween(a: Box, b: Box): [number, number, number, number] {
  const [ax, ay] = center(a);
  const [bx, by] = center(b);
  const [x1, y1] = edge(a, bx - ax, by - ay);
  const [x2, y2] = edge(b, ax - bx, ay - by);
  return [x1, y1, x2, y2];
}

/** A phone's width, where a diagram takes its narrow layout (as wide as the screen, text at its size). */
export function narrowQuery(): MediaQueryList {
  return matchMedia('(max-width: 599px)');
}

/** Where activating a part goes: a view of the section (null: none). */
export type Target = (() => HTMLElement | null) | null;

export interface DiagramOptions {
  title: string;
  desc: string;
  caption: string;
  width: number;
  height: number;
  testId: string;
  /** a unique prefix for the SVG's ids (title and desc) */
  idPrefix: string;
}

/** Scrolls to `target` and moves focus there, smoothly unless reduced motion is asked for. */
export function goTo(target: HTMLElement): void {
  const reduced = matchMedia('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ behavior: reduced ? 'auto' : 'smooth', block: 'center' });
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus({ preventScroll: true });
}

export class Diagram {
  readonly element = el('figure', 'lab-diagram');
  readonly svg: SVGSVGElement;
  /** each part's groups: a part may be drawn in several places (the norms of every layer) */
  readonly #parts = new Map<string, SVGGElement[]>();
  readonly #arrows: { line: SVGElement; from: string; to: string }[] = [];
  readonly #marker: string;
  readonly #cleanups: (() => void)[] = [];
  /** the parts lit by a view under the pointer or focus (they win over a stepped path) */
  #hovered: readonly string[] | null = null;
  #path: readonly string[] = [];

  constructor(o: DiagramOptions) {
    this.element.dataset.testid = o.testId;
    this.svg = svg('svg', { viewBox: `0 0 ${o.width} ${o.height}`, role: 'group', 'aria-labelledby': `${o.idPrefix}-title`, 'aria-describedby': `${o.idPrefix}-desc` });
    this.svg.classList.add('lab-diagram-svg');
    this.svg.append(svg('title', { id: `${o.idPrefix}-title` }, o.title), svg('desc', { id: `${o.idPrefix}-desc` }, o.desc));
    const defs = svg('defs');
    const marker = svg('marker', { id: `${o.idPrefix}-head`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
    marker.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'lab-diagram-head' }));
    defs.append(marker);
    this.svg.append(defs);
    this.#marker = `url(#${o.idPrefix}-head)`;
    this.element.append(this.svg, el('figcaption', 'lab-diagram-caption', o.caption));
  }

  /**
   * A named part: `shapes` drawn in a group that is a button named `name`; activating it goes to
   * `target` (when it has one). A part drawn again (same id) is one tab stop: its first drawing.
   */
  part(id: string, name: string, shapes: SVGElement[], target: Target = null): SVGGElement {
    const groups = this.#parts.get(id) ?? [];
    const group = svg('g', { class: 'lab-diagram-part', role: 'button', tabindex: groups.length ? -1 : 0, 'data-part': id });
    // Named by the text it shows (a name must hold a control's visible text, and a <title> beside
    // that text makes the two disagree); what it does is its description. A part with no text is
    // named by `name` until it does (a part's text can be drawn after the part).
    group.append(svg('desc', {}, name), ...shapes);
    const nameIfBlank = () => {
      if (group.querySelector('text')?.textContent?.trim()) group.removeAttribute('aria-label');
      else group.setAttribute('aria-label', name);
    };
    nameIfBlank();
    new MutationObserver(nameIfBlank).observe(group, { childList: true, subtree: true, characterData: true });
    const activate = () => {
      const view = target?.();
      if (view) goTo(view);
    };
    group.addEventListener('click', activate);
    group.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        activate();
      }
    });
    // the part under the pointer or focus lights itself
    const on = () => this.#setHovered([id]);
    const off = () => this.#setHovered(null);
    group.addEventListener('pointerenter', on);
    group.addEventListener('pointerleave', off);
    group.addEventListener('focus', on);
    group.addEventListener('blur', off);
    this.#parts.set(id, [...groups, group]);
    this.svg.append(group);
    return group;
  }

  /** Removes every part and arrow (a redraw for new settings). */
  clear(): void {
    for (const groups of this.#parts.values()) for (const g of groups) g.remove();
    for (const a of this.#arrows) a.line.remove();
    for (const e of this.svg.querySelectorAll('.lab-diagram-drawn')) e.remove();
    this.#parts.clear();
    this.#arrows.length = 0;
  }

  /** A labelled box part (rounded rectangle, text centred). */
  boxPart(id: string, name: string, b: Box, label: string, target: Target = null, extra: SVGElement[] = []): SVGGElement {
    const rect = svg('rect', { x: b.x, y: b.y, width: b.w, height: b.h, rx: Math.min(6, b.h / 2), class: 'lab-diagram-box' });
    const text = svg('text', { x: b.x + b.w / 2, y: b.y + b.h / 2, class: 'lab-diagram-label', 'dominant-baseline': 'central', 'text-anchor': 'middle' }, label);
    return this.part(id, name, [rect, ...extra, text], target);
  }

  /** An arrow (a polyline through `points`) from part `from` to part `to`; lit when both are. */
  arrow(from: string, to: string, points: readonly number[], dashed = false): void {
    const line = svg('polyline', { points: points.join(' '), class: `lab-diagram-arrow${dashed ? ' dashed' : ''}`, 'marker-end': this.#marker });
    this.svg.insertBefore(line, this.svg.querySelector('.lab-diagram-part'));
    this.#arrows.push({ line, from, to });
  }

  /** Lights `ids` while the pointer or focus is on `view` (a figure or control the parts stand for). */
  link(view: Element, ids: readonly string[]): void {
    const on = () => this.#setHovered(ids);
    const off = () => this.#setHovered(null);
    view.addEventListener('pointerenter', on);
    view.addEventListener('pointerleave', off);
    view.addEventListener('focusin', on);
    view.addEventListener('focusout', off);
    this.#cleanups.push(() => {
      view.removeEventListener('pointerenter', on);
      view.removeEventListener('pointerleave', off);
      view.removeEventListener('focusin', on);
      view.removeEventListener('focusout', off);
    });
  }

  /** Lights `ids` in order, one after the other (a step of decoding); [] clears. */
  lightPath(ids: readonly string[]): void {
    this.#path = ids;
    this.#render();
  }

  /** The parts lit now (tests read data-lit). */
  lit(): string[] {
    return [...(this.#hovered ?? this.#path)];
  }

  #setHovered(ids: readonly string[] | null): void {
    this.#hovered = ids;
    this.#render();
  }

  #render(): void {
    const ids = this.#hovered ?? this.#path;
    const order = new Map(ids.map((id, i) => [id, i]));
    // a hovered set lights at once; a stepped path part by part
    const stagger = this.#hovered === null;
    for (const [id, groups] of this.#parts) {
      const i = order.get(id);
      for (const group of groups) {
        group.classList.toggle('lit', i !== undefined);
        group.style.setProperty('--lab-diagram-order', String(stagger && i !== undefined ? i : 0));
      }
    }
    for (const a of this.#arrows) {
      const lit = order.has(a.from) && order.has(a.to);
      a.line.classList.toggle('lit', lit);
      a.line.style.setProperty('--lab-diagram-order', String(stagger && lit ? (order.get(a.to) ?? 0) : 0));
    }
    this.element.dataset.lit = ids.join(' ');
  }

  destroy(): void {
    for (const c of this.#cleanups) c();
  }
}
