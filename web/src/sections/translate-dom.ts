// Small DOM helpers shared by the §1 (why) and §3.3 (translate) sections. Every text goes in
// through textContent; nothing here ever parses markup.
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function button(text: string, testId: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', 'al-button', text);
  b.type = 'button';
  b.dataset.testid = testId;
  b.addEventListener('click', onClick);
  return b;
}

/** A labelled control; `hidden` hides the whole field (the `<name>_hide` switches). */
export function field(label: string, control: HTMLElement, hidden = false): HTMLLabelElement {
  const f = el('label', 'al-field');
  f.append(el('span', 'al-field-label', label), control);
  f.hidden = hidden;
  return f;
}

export function select(options: readonly (readonly [string, string])[], value: string, testId: string): HTMLSelectElement {
  const s = el('select');
  s.dataset.testid = testId;
  for (const [v, label] of options) s.add(new Option(label, v));
  s.value = value;
  return s;
}

/** The message of anything thrown, as plain text. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export const mean = (xs: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return xs.length ? s / xs.length : NaN;
};
