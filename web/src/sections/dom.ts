// Small DOM helpers shared by every section: elements, labelled fields, buttons, selects, an
// inline message line, the section's root with its styles. Every piece of text goes in with
// textContent (never as markup).
import { adoptCss, styleRootOf } from '../adopt-css';
import designCss from '../design.css?inline';
import { fill } from '../i18n';

/** The design system's CSS (tokens, controls), adopted first by every section root. */
export const DESIGN_CSS: string = designCss;

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
 * Sets `node`'s text only when it differs. A section that redraws many times a second (§3.3 while
 * training) rewrites mostly the same strings, and each textContent write replaces the text node:
 * the browser then lays out and paints it again though nothing changed.
 */
export function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

/**
 * A label wrapping its text and control (implicit association: no ids to collide across widgets);
 * `hidden` hides the whole field (the `<name>_hide` switches).
 */
export function field(label: string, control: HTMLElement, hidden = false): HTMLLabelElement {
  const wrap = el('label', 'al-field');
  if (control instanceof HTMLInputElement && control.type !== 'range' && control.type !== 'checkbox') control.classList.add('lab-input');
  if (control instanceof HTMLSelectElement) control.classList.add('lab-menu');
  wrap.append(el('span', 'al-field-label', label), control);
  wrap.hidden = hidden;
  return wrap;
}

export function button(text: string, testId: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', 'lab-button al-button', text);
  b.type = 'button';
  b.dataset.testid = testId;
  b.addEventListener('click', onClick);
  return b;
}

export function select(options: readonly (readonly [string, string])[], value: string, testId: string): HTMLSelectElement {
  const s = el('select', 'lab-menu');
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
  adoptCss(styleRoot, DESIGN_CSS, { first: true });
  for (const css of cssTexts) adoptCss(styleRoot, css);
  host.append(root);
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/**
 * An inline status line: role=status so screen readers hear errors; kind in data-kind. A message
 * shown with a tag is taken back by that tag (clear(tag)) only while the line still shows it: a
 * message that replaced it since (a failed run, say) is not the tag's to clear.
 */
export class MessageLine {
  readonly element: HTMLParagraphElement;
  /** the tag of the message shown, null when it came without one */
  #tag: string | null = null;

  /** `className`: the section's own name for it (tests and styles find it by that) */
  constructor(className: string) {
    this.element = el('p', `al-message ${className}`);
    this.element.setAttribute('role', 'status');
    this.element.setAttribute('aria-live', 'polite');
  }

  show(kind: 'ok' | 'error' | 'info', text: string, tag: string | null = null): void {
    this.element.dataset.kind = kind;
    this.element.textContent = text;
    this.#tag = tag;
  }

  /** Empties the line; with `tag`, only when what it shows was shown with that tag. */
  clear(tag?: string): void {
    if (tag !== undefined && this.#tag !== tag) return;
    this.show('info', '');
  }
}

/** How a scroll the page makes moves: at once for a reader who asked for reduced motion. */
export function scrollBehavior(): ScrollBehavior {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
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

/** The section's one primary action (the design system's filled button). */
export function primaryButton(text: string, testId: string, onClick: () => void): HTMLButtonElement {
  const b = button(text, testId, onClick);
  b.classList.add('primary');
  return b;
}

/** A "try this" box: a title and a few prompts, each naming what to change and what to watch. */
export function tryThis(title: string, prompts: readonly string[]): HTMLElement {
  const box = el('div', 'lab-try');
  box.dataset.testid = 'try-this';
  const list = el('ul');
  for (const p of prompts) list.append(el('li', undefined, p));
  box.append(el('span', 'lab-try-title', title), list);
  return box;
}

/** A line that says in words what the last change did (role=status: screen readers hear it). */
export function narration(className: string): HTMLParagraphElement {
  const p = el('p', `lab-narration ${className}`);
  p.setAttribute('role', 'status');
  p.setAttribute('aria-live', 'polite');
  p.dataset.testid = 'narration';
  return p;
}

// ---------------------------------------------------------------------------------------------
// Inline field errors. A refused value stays in its box (the reader sees what they typed), the box
// is marked aria-invalid, and a message under it names the field by its label and says the limit
// ("Longest string: at most 60"); the caller leaves the model untouched. Any section uses it:
//   const message = checkNumber(t, label, input.value, { min, max, integer: true });
//   setFieldError(input, message);        // null clears it
//   if (message === null) state.set(name, Number(input.value));

let errorIds = 0;

/** The message line of a control (made on first use, inside its field so it sits under the box). */
function errorLineOf(control: HTMLElement): HTMLElement {
  const id = control.getAttribute('aria-errormessage');
  const root = control.getRootNode() as Document | ShadowRoot;
  const existing = id ? (root.getElementById?.(id) ?? control.parentElement?.querySelector(`[id="${id}"]`)) : null;
  if (existing instanceof HTMLElement) return existing;
  const line = el('span', 'lab-field-error');
  line.id = `lab-field-error-${++errorIds}`;
  line.setAttribute('aria-live', 'polite');
  line.dataset.testid = 'field-error';
  control.setAttribute('aria-errormessage', line.id);
  control.setAttribute('aria-describedby', [control.getAttribute('aria-describedby'), line.id].filter(Boolean).join(' '));
  (control.closest('.al-field') ?? control.parentElement ?? control).append(line);
  return line;
}

/** Shows `message` under `control` and marks it invalid; null clears both. */
export function setFieldError(control: HTMLElement, message: string | null): void {
  if (message === null) {
    if (!control.hasAttribute('aria-invalid') && !control.hasAttribute('aria-errormessage')) return;
    control.removeAttribute('aria-invalid');
    if (control.hasAttribute('aria-errormessage')) {
      errorLineOf(control).textContent = '';
      stackFieldErrors(control);
    }
    return;
  }
  control.setAttribute('aria-invalid', 'true');
  errorLineOf(control).textContent = message;
  stackFieldErrors(control);
}

/**
 * The messages under one row of boxes. design.css lays each over what is below its box, as wide as
 * it needs (a box is narrower than its message), and lines the row's boxes up at their tops while
 * one shows, so the boxes beside it stay where they were while the reader types. Here each message
 * goes below the earlier ones it would meet (Layers and Heads refused together showed one message
 * on top of the other), and its box keeps the room the message takes below it as a bottom margin,
 * so what is below (the row's next line of boxes, the section's message line) moves down instead
 * of being covered.
 */
function stackFieldErrors(control: HTMLElement): void {
  const row = control.closest('.al-field')?.parentElement;
  if (!row) return;
  const lines = [...row.querySelectorAll<HTMLElement>(':scope > .al-field > .lab-field-error')];
  for (const line of lines) {
    line.style.removeProperty('margin-top');
    (line.parentElement as HTMLElement).style.removeProperty('margin-bottom');
  }
  const placed: DOMRect[] = [];
  for (const line of lines) {
    if (line.textContent === '' || getComputedStyle(line).position !== 'absolute') continue;
    let box = line.getBoundingClientRect();
    let shift = 0;
    // below every earlier message it would meet (moving below one can meet another: again until none)
    const meets = (o: DOMRect): boolean => box.left < o.right && o.left < box.right && box.top + shift < o.bottom && o.top < box.bottom + shift;
    for (let other = placed.find(meets); other; other = placed.find(meets)) shift = other.bottom - box.top + 2;
    if (shift > 0) {
      line.style.marginTop = `${shift + 2}px`;
      box = line.getBoundingClientRect();
    }
    placed.push(box);
    const field = line.parentElement as HTMLElement;
    field.style.marginBottom = `${Math.ceil(box.bottom - field.getBoundingClientRect().bottom) + 4}px`;
  }
}

/**
 * What an action that uses the settings (Train, Start, Next character) says instead of running
 * while a box under `settings` holds a refused value (setFieldError): otherwise it would run with
 * the last accepted values, not the ones the boxes show. Null when every box is fine; else the
 * message naming the boxes by their labels, and the first refused box takes the focus (its panel
 * opened). `settings`: the boxes, or an element holding them. `place`
 * names where the boxes are, for an action that sits away from them ("(the settings panel)").
 */
export function refusedFieldsMessage(t: (key: string) => string, settings: ParentNode | readonly HTMLElement[], place?: string): string | null {
  const controls = Array.isArray(settings) ? settings : [...(settings as ParentNode).querySelectorAll<HTMLElement>('[aria-invalid="true"]')];
  const refused = controls.filter((c) => c.getAttribute('aria-invalid') === 'true' && !c.closest('[hidden]'));
  if (refused.length === 0) return null;
  // a box in a closed panel cannot take the focus: the panel opens first
  const panel = refused[0].closest('details');
  if (panel && !panel.open) panel.open = true;
  refused[0].focus();
  const labels = refused.map((c) => c.closest('label')?.querySelector('.al-field-label')?.textContent ?? c.getAttribute('aria-label') ?? '');
  const message = fill(t('field.fixFirst'), { labels: labels.join(t('field.separator')) });
  return place === undefined ? message : fill(t('label.paren'), { a: message, b: place });
}

/**
 * A box's message named by the box's label ("Sentence: at most 64 words (this one has 70 words);
 * shorten it"), the one form every section uses, under the box (setFieldError) or in a message
 * line: the reader finds the box the message is about. `t` falls back to the shell's field.named.
 */
export function namedFieldMessage(t: (key: string) => string, label: string, message: string): string {
  return fill(t('field.named'), { label, message });
}

export interface NumberRule {
  min?: number;
  max?: number;
  integer?: boolean;
}

/**
 * Null when `raw` is a number within the rule, else the message naming the field by `label`
 * (strings field.* of the shell: every section's `t` falls back to them).
 */
export function checkNumber(t: (key: string) => string, label: string, raw: string, rule: NumberRule): string | null {
  const text = raw.trim();
  const value = Number(text);
  if (text === '') return fill(t('field.empty'), { label });
  if (!Number.isFinite(value)) return fill(t('field.number'), { label });
  if (rule.integer && !Number.isInteger(value)) return fill(t('field.integer'), { label });
  if (rule.min !== undefined && value < rule.min) return fill(t('field.min'), { label, min: rule.min });
  if (rule.max !== undefined && value > rule.max) return fill(t('field.max'), { label, max: rule.max });
  return null;
}
