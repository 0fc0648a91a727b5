// The "Embed" dialog of the article: for one section and the current state, the script-tag snippet
// and the iframe snippet (embed-snippets.ts), each in a <pre> with a Copy button. A modal <dialog>:
// focus moves into it, Esc or the close button closes it, focus returns to the button that opened
// it. Snippets are set with textContent: they quote URL text and must show, never run, as HTML.
import './embed-dialog.css';
import { embedSnippets } from './embed-snippets';
import type { AppState } from '../state';
import type { SectionId } from '../state-table';
import { el } from '../sections/dom';

type Translate = (key: string) => string;

/** Selects the text of `node`, so that Ctrl+C copies it (the fallback when the clipboard API fails). */
function selectText(node: Node): void {
  const selection = getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(node);
  selection.removeAllRanges();
  selection.addRange(range);
}

/** Copies `text`; false when the clipboard API is missing or refuses (insecure page, permission). */
async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export class EmbedDialog {
  readonly #state: AppState;
  readonly #t: Translate;
  readonly #dialog: HTMLDialogElement;
  readonly #title: HTMLElement;
  readonly #error: HTMLElement;
  readonly #snippets: { pre: HTMLElement; status: HTMLElement }[] = [];
  #sectionId: SectionId | null = null;
  #opener: HTMLElement | null = null;
  /** the height of the section's view as the reader sees it (its body), for the iframe */
  #measured = 0;
  readonly #unsubscribe: () => void;

  constructor(state: AppState, t: Translate) {
    this.#state = state;
    this.#t = t;
    this.#dialog = el('dialog', 'embed-dialog');
    this.#dialog.dataset.testid = 'embed-dialog';
    this.#title = el('h2', 'embed-dialog-title');
    this.#title.id = 'embed-dialog-title';
    this.#dialog.setAttribute('aria-labelledby', this.#title.id);
    const close = el('button', 'embed-close lab-button quiet', t('embed.close'));
    close.type = 'button';
    close.dataset.testid = 'embed-close';
    close.addEventListener('click', () => this.#dialog.close());
    const head = el('div', 'embed-dialog-head');
    head.append(this.#title, close);
    const intro = el('p', 'embed-intro', t('embed.intro'));
    this.#error = el('p', 'embed-error');
    this.#error.setAttribute('role', 'alert');
    this.#error.hidden = true;
    this.#dialog.append(head, intro, this.#error, this.#snippetBlock('script'), this.#snippetBlock('iframe'));
    this.#dialog.addEventListener('close', () => {
      this.#sectionId = null;
      this.#opener?.focus();
      this.#opener = null;
    });
    // A click on the backdrop closes it too (the backdrop's clicks arrive with the dialog as target).
    this.#dialog.addEventListener('click', (e) => {
      if (e.target !== this.#dialog || e.detail === 0) return; // detail 0: a keyboard "click"
      const r = this.#dialog.getBoundingClientRect();
      const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
      if (!inside) this.#dialog.close();
    });
    document.body.append(this.#dialog);
    // The reader may change a setting behind the dialog (e.g. back/forward): keep the snippets current.
    this.#unsubscribe = state.subscribe(() => this.#refresh());
  }

  #snippetBlock(kind: 'script' | 'iframe'): HTMLElement {
    const block = el('section', `embed-snippet embed-snippet-${kind}`);
    const label = el('h3', 'embed-snippet-title', this.#t(`embed.${kind}.title`));
    label.id = `embed-${kind}-title`;
    const hint = el('p', 'embed-snippet-hint', this.#t(`embed.${kind}.hint`));
    const pre = el('pre', 'embed-code');
    pre.dataset.testid = `embed-${kind}`;
    pre.tabIndex = 0; // scrollable and selectable from the keyboard
    pre.setAttribute('aria-labelledby', label.id);
    const copy = el('button', 'embed-copy lab-button', this.#t('embed.copy'));
    copy.type = 'button';
    copy.dataset.testid = `embed-copy-${kind}`;
    const status = el('p', 'embed-copy-status');
    status.setAttribute('aria-live', 'polite');
    copy.addEventListener('click', () => void this.#copy(pre, status));
    this.#snippets.push({ pre, status });
    block.append(label, hint, pre, copy, status);
    return block;
  }

  async #copy(pre: HTMLElement, status: HTMLElement): Promise<void> {
    const text = pre.textContent ?? '';
    if (await writeClipboard(text)) {
      status.textContent = this.#t('embed.copied');
    } else {
      pre.focus();
      selectText(pre);
      status.textContent = this.#t('embed.copyManually');
    }
  }

  /** Shows the snippets of `sectionId` for the current state; `opener` gets the focus back on close. */
  open(sectionId: SectionId, sectionTitle: string, opener: HTMLElement): void {
    this.#sectionId = sectionId;
    this.#opener = opener;
    this.#measured = this.#measure(opener);
    this.#title.textContent = `${this.#t('embed.title')}${sectionTitle}`; // the string carries its separator
    this.#refresh();
    if (!this.#dialog.open) this.#dialog.showModal();
  }

  /** The section body's height next to the button (the view an iframe must fit), 0 when not found. */
  #measure(opener: HTMLElement): number {
    const body = opener.closest('section')?.querySelector<HTMLElement>('.section-body');
    return body ? body.getBoundingClientRect().height : 0;
  }

  #refresh(): void {
    const id = this.#sectionId;
    if (id === null) return;
    for (const s of this.#snippets) s.status.textContent = '';
    try {
      if (this.#opener) this.#measured = this.#measure(this.#opener) || this.#measured;
      const { script, iframe } = embedSnippets(this.#state, id, location.href, { measuredHeight: this.#measured });
      this.#snippets[0].pre.textContent = script;
      this.#snippets[1].pre.textContent = iframe;
      this.#error.hidden = true;
    } catch (err) {
      // e.g. a page opened from file:// has no http(s) origin to point the snippets at
      for (const s of this.#snippets) s.pre.textContent = '';
      this.#error.textContent = `${this.#t('error.prefix')}${err instanceof Error ? err.message : String(err)}`;
      this.#error.hidden = false;
    }
  }

  destroy(): void {
    this.#unsubscribe();
    if (this.#dialog.open) this.#dialog.close();
    this.#dialog.remove();
  }
}

/** The header button that opens the dialog for one section. */
export function embedButton(t: Translate, sectionTitle: string, onOpen: (button: HTMLButtonElement) => void): HTMLButtonElement {
  const button = el('button', 'embed-open lab-button quiet', t('embed.button'));
  button.type = 'button';
  button.dataset.testid = 'embed-open';
  button.setAttribute('aria-haspopup', 'dialog');
  button.title = `${t('embed.button')}: ${sectionTitle}`;
  button.addEventListener('click', () => onOpen(button));
  return button;
}
