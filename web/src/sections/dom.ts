// Small DOM helpers shared by every section: elements, labelled fields, buttons, selects, an
// inline message line, the section's root with its styles. Every piece of text goes in with
// textContent (never as markup).
import { adoptCss, styleRootOf } from '../adopt-css';

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A label wrapping its text and control (implicit association: no ids to collide across widgets);
 * `hidden` hides the whole field (the `<name>_hide` switches).
 */
export function field(label: string, control: HTMLElement, hidden = false): HTMLLabelElement {
  const wrap = el('label', 'al-field');
  wrap.append(el('span', 'al-field-label', label), control);
  wrap.hidden = hidden;
  return wrap;
}

export function button(text: string, testId: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', 'al-button', text);
  b.type = 'button';
  b.dataset.testid = testId;
  b.addEventListener('click', onClick);
  return b;
}

export function select(options: readonly (readonly [string, string])[], value: string, testId: string): HTMLSelectElement {
  const s = el('select');
  s.dataset.testid = testId;
  for (const [v, label] of options) s.add(new Option(label, v));
  s.value = value;
  return s;
}

/** Replaces a select's options (value, text) and selects `value`. */
export function setOptions(select: HTMLSelectElement, options: readonly (readonly [string, string])[], value: string): void {
  const same =
    select.options.length === options.length && options.every(([v, t], i) => select.options[i].value === v && select.options[i].text === t);
  if (!same) select.replaceChildren(...options.map(([v, t]) => new Option(t, v)));
  select.value = value;
}

/**
 * Puts a section's root into its host and its styles into the host's document or shadow root
 * (adopted stylesheets: see adopt-css.ts), so the same section works in the article and inside a
 * widget's shadow root. The host must be attached to one of them.
 */
export function mountRoot(host: HTMLElement, root: HTMLElement, ...cssTexts: string[]): void {
  const styleRoot = styleRootOf(host);
  if (!styleRoot) throw new Error('mountRoot: the host is not in a document or shadow root');
  for (const css of cssTexts) adoptCss(styleRoot, css);
  host.append(root);
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** An inline status line: role=status so screen readers hear errors; kind in data-kind. */
export class MessageLine {
  readonly element: HTMLParagraphElement;

  /** `className`: the section's own name for it (tests and styles find it by that) */
  constructor(className: string) {
    this.element = el('p', `al-message ${className}`);
    this.element.setAttribute('role', 'status');
    this.element.setAttribute('aria-live', 'polite');
  }

  show(kind: 'ok' | 'error' | 'info', text: string): void {
    this.element.dataset.kind = kind;
    this.element.textContent = text;
  }
}

/** Error text of anything thrown (a worker error arrives as an Error with the core's message). */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Runs the latest of overlapping async renders only: older results are dropped. */
export class LatestOnly {
  #ticket = 0;

  async run<T>(work: () => Promise<T>, apply: (value: T) => void, fail: (err: unknown) => void): Promise<void> {
    const ticket = ++this.#ticket;
    try {
      const value = await work();
      if (ticket === this.#ticket) apply(value);
    } catch (err) {
      if (ticket === this.#ticket) fail(err);
    }
  }

  /** makes any render still in flight stale */
  cancel(): void {
    this.#ticket++;
  }
}
