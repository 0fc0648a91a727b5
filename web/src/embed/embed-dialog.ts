// The "Embed" dialog of the article: for one section and the current state (or for one figure's
// numbers), the snippets for the reader's own site (embed-snippets.ts): it asks where the widget kit
// will be (default ./attention-lab-widgets/, beside the post) and links the kit's zip, then gives the
// script tag and element, the iframe, a Markdown form and the CSP line, each in a <pre> with a Copy
// button. A modal <dialog>:
// focus moves into it, Esc or the close button closes it, focus returns to the button that opened
// it. Snippets are set with textContent: they quote URL text and must show, never run, as HTML.
import './embed-dialog.css';
import { DEFAULT_KIT_PLACE, embedSnippets, kitPlace, matrixSnippets, type KitPlace, type Snippets } from './embed-snippets';
import type { AppState } from '../state';
import type { SectionId } from '../state-table';
import { el } from '../sections/dom';
import { fill } from '../i18n';

type Translate = (key: string) => string;
type SnippetKind = keyof Snippets;
const KINDS: readonly SnippetKind[] = ['script', 'iframe', 'markdown', 'csp'];
/** the kit's zip, beside the app's page (scripts/build-kit.mjs) */
const KIT_ZIP = 'attention-lab-widgets.zip';

/** What the dialog shows snippets for: a section as the reader sees it, or one figure's numbers. */
type Target = { kind: 'section'; id: SectionId; title: string } | { kind: 'matrix'; json: string; title: string };

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
  readonly #state: AppState | null;
  readonly #t: Translate;
  readonly #dialog: HTMLDialogElement;
  readonly #title: HTMLElement;
  readonly #error: HTMLElement;
  readonly #place: HTMLInputElement;
  readonly #snippets = new Map<SnippetKind, { block: HTMLElement; pre: HTMLElement; status: HTMLElement }>();
  #target: Target | null = null;
  #opener: HTMLElement | null = null;
  /** the height of the section's view as the reader sees it (its body), for the iframe */
  #measured = 0;
  readonly #unsubscribe: () => void;

  /** `state`: the app's (null for a dialog that only embeds figures); `onClose`: called when it closes */
  constructor(state: AppState | null, t: Translate, onClose: () => void = () => {}) {
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
    this.#place = el('input', 'lab-input embed-kit-place');
    this.#place.type = 'text';
    this.#place.value = DEFAULT_KIT_PLACE;
    this.#place.spellcheck = false;
    this.#place.dataset.testid = 'embed-kit-place';
    this.#place.setAttribute('aria-describedby', 'embed-kit-error');
    this.#error.id = 'embed-kit-error';
    this.#place.addEventListener('input', () => this.#refresh());
    const placeLabel = el('label', 'embed-kit-field');
    placeLabel.append(el('span', 'embed-kit-label', t('embed.kit.label')), this.#place);
    const zip = el('a', 'embed-kit-download lab-link', t('embed.kit.download'));
    zip.href = new URL(KIT_ZIP, document.baseURI).href;
    zip.download = KIT_ZIP;
    zip.dataset.testid = 'embed-kit-download';
    this.#dialog.append(head, intro, placeLabel, zip, this.#error, ...KINDS.map((kind) => this.#snippetBlock(kind)), this.#standaloneBlock());
    this.#dialog.addEventListener('close', () => {
      this.#target = null;
      this.#opener?.focus();
      this.#opener = null;
      onClose();
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
    this.#unsubscribe = state ? state.subscribe(() => this.#refresh()) : () => {};
  }

  #snippetBlock(kind: SnippetKind): HTMLElement {
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
    this.#snippets.set(kind, { block, pre, status });
    block.append(label, hint, pre, copy, status);
    return block;
  }

  /** "Standalone HTML": the view as one file that works offline (standalone.ts, loaded on click). */
  #standaloneBlock(): HTMLElement {
    const block = el('section', 'embed-snippet embed-standalone');
    const title = el('h3', 'embed-snippet-title', this.#t('embed.standalone.title'));
    const hint = el('p', 'embed-snippet-hint', this.#t('embed.standalone.hint'));
    const button = el('button', 'lab-button', this.#t('embed.standalone.button'));
    button.type = 'button';
    button.dataset.testid = 'embed-standalone';
    const status = el('p', 'embed-copy-status');
    status.setAttribute('aria-live', 'polite');
    button.addEventListener('click', () => {
      const target = this.#target;
      if (!target) return;
      status.textContent = '';
      import('./standalone')
        .then((m) => {
          if (target.kind === 'matrix') return m.downloadStandaloneMatrix('attention-lab-figure', JSON.parse(target.json) as { title: string });
          if (!this.#state) throw new Error('no view to save');
          return m.downloadStandaloneSection(this.#state, target.id, target.title);
        })
        .catch((err: unknown) => {
          status.textContent = `${this.#t('error.prefix')}${err instanceof Error ? err.message : String(err)}`;
        });
    });
    block.append(title, hint, button, status);
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
    this.#target = { kind: 'section', id: sectionId, title: sectionTitle };
    this.#show(`${this.#t('embed.title')}${sectionTitle}`, opener); // the string carries its separator
  }

  /** Shows the snippets of one figure: an <attention-heatmap> given `json` (its JSON export). */
  openMatrix(json: string, figureTitle: string, opener: HTMLElement | null): void {
    this.#target = { kind: 'matrix', json, title: figureTitle };
    this.#show(`${this.#t('embed.figure.title')}${figureTitle}`, opener);
  }

  #show(title: string, opener: HTMLElement | null): void {
    this.#opener = opener;
    this.#measured = opener ? this.#measure(opener) : 0;
    this.#title.textContent = title;
    this.#refresh();
    if (!this.#dialog.open) this.#dialog.showModal();
  }

  /** The section body's height next to the button (the view an iframe must fit), 0 when not found. */
  #measure(opener: HTMLElement): number {
    const body = opener.closest('section')?.querySelector<HTMLElement>('.section-body');
    return body ? body.getBoundingClientRect().height : 0;
  }

  #refresh(): void {
    const target = this.#target;
    if (target === null) return;
    for (const s of this.#snippets.values()) s.status.textContent = '';
    try {
      const place: KitPlace = kitPlace(this.#place.value);
      let snippets: Snippets;
      if (target.kind === 'section') {
        if (!this.#state) throw new Error('no view to embed');
        if (this.#opener) this.#measured = this.#measure(this.#opener) || this.#measured;
        snippets = embedSnippets(this.#state, target.id, place, { measuredHeight: this.#measured });
      } else {
        snippets = matrixSnippets(target.json, place);
      }
      for (const kind of KINDS) {
        const s = this.#snippets.get(kind)!;
        s.pre.textContent = snippets[kind];
        s.block.hidden = snippets[kind] === ''; // one figure has no iframe form
      }
      this.#place.removeAttribute('aria-invalid');
      this.#error.hidden = true;
    } catch (err) {
      // the kit's folder as typed cannot go into a snippet: say why, next to the field
      for (const s of this.#snippets.values()) s.pre.textContent = '';
      this.#place.setAttribute('aria-invalid', 'true');
      this.#error.textContent = `${this.#t('embed.kit.label')}: ${err instanceof Error ? err.message : String(err)}`;
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
  button.title = fill(t('label.pair'), { a: t('embed.button'), b: sectionTitle });
  button.addEventListener('click', () => onOpen(button));
  return button;
}
